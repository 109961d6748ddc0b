#!/usr/bin/env python3
"""Drive U-Boot under qemu-system-x86_64 (TCG) over its serial console (stdio), stop autoboot,
type COMMANDS one by one, and write the console with each line's host time in front
(`2026-11-27T11:00:00.123456 text`, the time the line's first byte arrived, as `ts` writes it).

  uboot-capture.py BIOS DISK OUT 'cmd1' 'cmd2' ...
"""
import datetime, sys, time, pexpect

bios, disk, out, cmds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

class Stamper:
    def __init__(self, f):
        self.f, self.buf, self.t = f, "", None
    def write(self, s):
        for ch in s:
            if self.t is None:
                self.t = datetime.datetime.now()
            if ch == "\n":
                self.flush_line()
            elif ch != "\r":
                self.buf += ch
    def flush_line(self):
        if self.t is not None:
            self.f.write(self.t.strftime("%Y-%m-%dT%H:%M:%S.%f") + " " + self.buf + "\n")
        self.buf, self.t = "", None
    def flush(self):
        self.f.flush()

f = open(out, "w")
st = Stamper(f)
qemu = ["-accel", "tcg", "-m", "1024", "-bios", bios, "-nographic", "-no-reboot", "-nic", "none",
        "-drive", f"file={disk},format=raw,if=virtio"]
child = pexpect.spawn("qemu-system-x86_64", qemu, encoding="utf-8", codec_errors="replace",
                      timeout=120)
child.logfile_read = st
child.expect("Hit any key to stop autoboot")
child.send(" ")
child.expect("=> ")
for c in cmds:
    child.sendline(c)
    child.expect("=> ")
time.sleep(0.2)
st.flush_line()
child.terminate(force=True)
f.close()
