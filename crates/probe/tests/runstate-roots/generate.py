#!/usr/bin/env python3
"""Builds the before/after state trees under this directory (run from anywhere; output committed).

Each tree holds only the files `probe::runstate` (and the machine snapshot it needs) reads,
modelled on the public sysfs/procfs layouts; the values are invented to exercise the findings:

rk3588-before / rk3588-after  a ROCK 5B across a run: the big clusters spent time below their
                              top OPP (throttled), swap and zram use grew, two OOM kills, CPU1
                              went offline, kernel messages (dev/kmsg) with continuation lines
                              and garbage, and /proc/<pid>/stat sets for the idle gate.
rpi4                          Raspberry Pi 4 with config.txt (+ include) and get_throttled.
intel                         x86 laptop with thermal_throttle counters and RAPL zones.
"""
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
CPU = "sys/devices/system/cpu"


class Tree:
    def __init__(self, name):
        self.root = HERE / name
        if self.root.exists():
            shutil.rmtree(self.root)
        self.root.mkdir(parents=True)

    def w(self, path, content):
        p = self.root / path.lstrip("/")
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content if content.endswith("\n") or content == "" else content + "\n")

    def cpus(self, possible, online):
        self.w(f"{CPU}/possible", possible)
        self.w(f"{CPU}/present", possible)
        self.w(f"{CPU}/online", online)

    def policy(self, n, cpus, opps, governor, cur, driver="cpufreq-dt", tis=None, trans=None):
        d = f"{CPU}/cpufreq/policy{n}"
        spaced = " ".join(map(str, cpus)) + " "
        self.w(f"{d}/related_cpus", spaced)
        self.w(f"{d}/affected_cpus", spaced)
        self.w(f"{d}/cpuinfo_min_freq", str(opps[0]))
        self.w(f"{d}/cpuinfo_max_freq", str(opps[-1]))
        self.w(f"{d}/scaling_min_freq", str(opps[0]))
        self.w(f"{d}/scaling_max_freq", str(opps[-1]))
        self.w(f"{d}/scaling_cur_freq", str(cur))
        self.w(f"{d}/scaling_governor", governor)
        self.w(f"{d}/scaling_driver", driver)
        if driver == "cpufreq-dt":
            self.w(f"{d}/scaling_available_frequencies", " ".join(map(str, opps)) + " ")
        if tis is not None:
            self.w(f"{d}/stats/time_in_state", "".join(f"{k} {t}\n" for k, t in zip(opps, tis)))
            self.w(f"{d}/stats/total_trans", str(trans))

    def zone(self, n, kind, milli):
        self.w(f"sys/class/thermal/thermal_zone{n}/type", kind)
        self.w(f"sys/class/thermal/thermal_zone{n}/temp", str(milli))

    def meminfo(self, total, avail, swap_total, swap_free):
        self.w("proc/meminfo", f"MemTotal:       {total} kB\nMemFree:        {avail // 2} kB\n"
               f"MemAvailable:   {avail} kB\nSwapTotal:      {swap_total} kB\n"
               f"SwapFree:       {swap_free} kB\n")

    def vmstat(self, oom_kill=None):
        lines = ["nr_free_pages 123456", "pswpin 0", "pswpout 12"]
        if oom_kill is not None:
            lines.append(f"oom_kill {oom_kill}")
        lines.append("swap_ra 3")
        self.w("proc/vmstat", "\n".join(lines))

    def procs(self, procs):
        for pid, comm, utime, stime, start in procs:
            self.w(f"proc/{pid}/stat", stat_line(pid, comm, utime, stime, start))


def stat_line(pid, comm, utime, stime, start):
    """A /proc/<pid>/stat line (52 fields, Linux 3.5+): utime/stime are fields 14/15,
    starttime field 22."""
    fields = ["S", "1", str(pid), str(pid), "0", "-1", "4194560", "1520", "0", "0", "0",
              str(utime), str(stime), "0", "0", "20", "0", "1", "0", str(start), "8937472",
              "1024"] + ["0"] * 30
    return f"{pid} ({comm}) " + " ".join(fields)


RK_LITTLE = [408000, 600000, 816000, 1008000, 1200000, 1416000, 1608000, 1800000]
RK_BIG = RK_LITTLE + [2016000, 2208000, 2400000]

# /dev/kmsg records: (prio, seq, usec, text, continuation lines)
KMSG_BOOT = [
    (6, 0, 0, "Booting Linux on physical CPU 0x0000000000 [0x412fd050]", []),
    (5, 1, 0, "Linux version 5.10.110-rockchip-rk3588 (builder@host) #1 SMP", []),
    (6, 2, 1523004, "rk_gmac-dwmac fe1c0000.ethernet eth0: Link is Up - 1Gbps/Full",
     [" SUBSYSTEM=net", " DEVICE=n2"]),
    (4, 3, 9001234, "dw-apb-uart feb50000.serial: forbid DMA for kernel console", []),
]
KMSG_RUN = [
    (13, 4, 812345678, "boardbench: run started", []),
    (6, 5, 845000123, "CPU1: shutdown", [" SUBSYSTEM=cpu", " DEVICE=+cpu:cpu1"]),
    (6, 6, 845000456, "psci: CPU1 killed (polled 0 ms)", []),
    (2, 7, 901222333, "rpi-firmware: Under-voltage detected! (0x00050005)", []),
    (4, 8, 950100200, "stress-ng invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), "
     "order=0, oom_score_adj=0", []),
    (3, 9, 950100900, "Out of memory: Killed process 4242 (stress-ng) total-vm:1048576kB, "
     "anon-rss:900000kB, file-rss:4kB, shmem-rss:0kB, UID:1000 pgtables:1800kB "
     "oom_score_adj:0", []),
    # An escaped tab and degree sign, as the kernel writes them.
    (6, 10, 960000000, "thermal\\x09zone: 85\\xc2\\xb0C", []),
]


def kmsg(records, garbage=False):
    out = []
    for prio, seq, usec, text, cont in records:
        out.append(f"{prio},{seq},{usec},-;{text}")
        out.extend(cont)
        if garbage and seq == 6:
            out += ["this is not a record", "7,notanumber,1,-;bad sequence", ";", ""]
    return "\n".join(out) + "\n"


def rk3588(name, after):
    t = Tree(name)
    t.w("proc/device-tree/compatible", b"radxa,rock-5b\0rockchip,rk3588\0")
    t.w("proc/device-tree/model", b"Radxa ROCK 5 Model B\0")
    t.cpus("0-7", "0,2-7" if after else "0-7")
    # time_in_state in 10 ms units. After the run the A76 clusters spent 300 s at the top OPP
    # but also 45 s and 12 s just below it: throttled.
    little = [512340, 1200, 800, 700, 600, 500, 400, 9000]
    big = [612340, 300, 200, 100, 90, 80, 70, 60, 50, 40, 5000]
    trans = [4100, 1000, 1200]
    if after:
        little[-1] += 35700
        big = big[:8] + [big[8] + 1200, big[9] + 4500, big[10] + 30000]
        trans = [4130, 1350, 1420]
    t.policy(0, [0, 1, 2, 3], RK_LITTLE, "performance", 1800000, tis=little, trans=trans[0])
    t.policy(4, [4, 5], RK_BIG, "performance", 2208000 if after else 2400000, tis=big,
             trans=trans[1])
    t.policy(6, [6, 7], RK_BIG, "performance", 2016000 if after else 2400000, tis=big,
             trans=trans[2])
    t.w("sys/class/devfreq/dmc/governor", "dmc_ondemand")
    t.w("sys/class/devfreq/dmc/cur_freq", "2112000000" if after else "528000000")
    t.w("sys/class/devfreq/fb000000.gpu/governor", "simple_ondemand")
    t.w("sys/class/devfreq/fb000000.gpu/cur_freq", "300000000")
    t.zone(0, "soc-thermal", 84500 if after else 38850)
    t.meminfo(16154112, 2011000 if after else 15123456, 6080348,
              5485308 if after else 6079324)
    t.w("proc/swaps",
        "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
        f"/swapfile                               file\t\t2097148\t\t{183040 if after else 0}\t\t-2\n"
        f"/dev/zram0                              partition\t3983200\t\t{412000 if after else 1024}\t\t100\n")
    t.w("sys/block/zram0/disksize", "4078796800")
    t.w("sys/block/zram0/comp_algorithm", "lzo lzo-rle lz4 [zstd]")
    t.w("sys/block/zram0/mm_stat",
        "421888000 98765432 101000000 0 101000000 12 0 0 0" if after else
        "1048576 20480 65536 0 65536 0 0 0 0")
    for k, v in [("enabled", "Y"), ("compressor", "lzo"), ("zpool", "zbud"),
                 ("max_pool_percent", "20")]:
        t.w(f"sys/module/zswap/parameters/{k}", v)
    t.vmstat(oom_kill=2 if after else 0)
    t.w("proc/loadavg", "3.91 1.20 0.45 5/312 2001" if after else "0.04 0.12 0.09 1/298 1999")
    t.w("dev/kmsg", kmsg(KMSG_BOOT + KMSG_RUN, garbage=True) if after else kmsg(KMSG_BOOT))
    # /proc/<pid>/stat: (pid, comm, utime, stime, starttime); before and after are 10 s apart.
    procs = {
        1: ("systemd", 120, 340, 1),
        77: ("kworker/u16:2-events_unbound", 0, 500, 250),
        612: ("tmux: server", 50, 20, 4000),
        1234: ("weird) (name", 1000, 200, 5000),
        5: ("kthreadd", 0, 0, 0),
    }
    if after:
        procs[1] = ("systemd", 121, 341, 1)
        procs[77] = ("kworker/u16:2-events_unbound", 0, 560, 250)
        procs[612] = ("tmux: server", 60, 25, 4000)
        procs[1234] = ("weird) (name", 1900, 300, 5000)
        procs[2001] = ("stress-ng", 400, 100, 90000)  # started during the window
        procs[3000] = ("new", 20, 10, 95000)  # pid reused: another start time
    else:
        procs[999] = ("sshd", 5000, 5000, 3000)  # ends during the window
        procs[3000] = ("old", 4000, 1000, 100)
    t.procs([(pid, *v) for pid, v in sorted(procs.items())])
    t.w("proc/4000/stat", "garbage")
    t.w("proc/self/stat", "not a pid directory")


def rpi4():
    t = Tree("rpi4")
    t.w("proc/device-tree/compatible", b"raspberrypi,4-model-b\0brcm,bcm2711\0")
    t.w("proc/device-tree/model", b"Raspberry Pi 4 Model B Rev 1.4\0")
    t.cpus("0-3", "0-3")
    t.policy(0, [0, 1, 2, 3], [600000, 700000, 800000, 900000, 1000000, 1100000, 1200000,
                               1300000, 1400000, 1500000, 1600000, 1700000, 1800000],
             "ondemand", 1800000)
    t.zone(0, "cpu-thermal", 51121)
    t.meminfo(3884328, 3300000, 102396, 102396)
    t.vmstat(oom_kill=None)  # kernels before 4.13 have no oom_kill line
    t.w(".fixture/vcgencmd/get_throttled.txt", "throttled=0x50005")
    t.w("boot/firmware/config.txt", """\
# For more options and information see
# http://rptl.io/configtxt

dtparam=audio=on
camera_auto_detect=1
[pi4]
arm_boost=1
over_voltage=6
arm_freq=2147
[all]
temp_soft_limit=70
include extraconfig.txt
initramfs initrd.img followkernel
not a setting
gpu_mem = 128
""")
    t.w("boot/firmware/extraconfig.txt", "force_turbo=1\ninclude deeper.txt\n")
    t.w("boot/firmware/deeper.txt", "arm_freq=3000\n")
    # Bookworm leaves a pointer at the old place; the firmware reads /boot/firmware.
    t.w("boot/config.txt", "# DO NOT EDIT THIS FILE\n# moved to /boot/firmware/config.txt\n")


def intel():
    t = Tree("intel")
    t.cpus("0-3", "0-3")
    for n in range(4):
        t.policy(n, [n], [400000, 4700000], "powersave", 1200000 + 100000 * n,
                 driver="intel_pstate")
        d = f"{CPU}/cpu{n}/thermal_throttle"
        t.w(f"{d}/core_throttle_count", str([0, 12, 0, 3][n]))
        t.w(f"{d}/package_throttle_count", "41")
    t.w("sys/class/hwmon/hwmon3/name", "coretemp")
    t.w("sys/class/hwmon/hwmon3/temp1_label", "Package id 0")
    t.w("sys/class/hwmon/hwmon3/temp1_input", "45000")
    t.meminfo(16000000, 12000000, 0, 0)
    t.vmstat(oom_kill=0)
    p = "sys/class/powercap"
    t.w(f"{p}/intel-rapl/enabled", "1")  # the control type: no name, not a zone
    zones = {
        "intel-rapl:0": ("package-0", "1", "123456789", [
            ("long_term", "28000000", "27983872", "64000000"),
            ("short_term", "64000000", "2440", "0"),
            ("peak_power", "121000000", None, None),
        ]),
        "intel-rapl:0:0": ("core", "0", "98765432", [("long_term", "0", "976", None)]),
        "intel-rapl:1": ("psys", "0", "5555", []),
    }
    for z, (name, enabled, energy, cons) in zones.items():
        t.w(f"{p}/{z}/name", name)
        t.w(f"{p}/{z}/enabled", enabled)
        t.w(f"{p}/{z}/energy_uj", energy)
        for i, (cname, limit, window, maxp) in enumerate(cons):
            t.w(f"{p}/{z}/constraint_{i}_name", cname)
            t.w(f"{p}/{z}/constraint_{i}_power_limit_uw", limit)
            if window is not None:
                t.w(f"{p}/{z}/constraint_{i}_time_window_us", window)
            if maxp is not None:
                t.w(f"{p}/{z}/constraint_{i}_max_power_uw", maxp)


if __name__ == "__main__":
    rk3588("rk3588-before", after=False)
    rk3588("rk3588-after", after=True)
    rpi4()
    intel()
