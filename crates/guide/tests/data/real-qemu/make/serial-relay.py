#!/usr/bin/env python3
"""The board's serial line for LAVA's `connect` command, as ser2net gives it: stdin/stdout to
the QEMU board's serial (a unix socket), kept across power cycles (reconnects whenever QEMU
restarts; what is typed while the board is off is dropped)."""
import os, select, socket, sys, time
path = sys.argv[1]
# Character mode without a local echo, as telnet to ser2net (the server echoes): only the
# board echoes what is typed.
if os.isatty(0):
    import tty
    tty.setraw(0)
sock = None
while True:
    if sock is None:
        try:
            sock = socket.socket(socket.AF_UNIX)
            sock.connect(path)
        except OSError:
            sock = None
            time.sleep(0.02)
            r, _, _ = select.select([0], [], [], 0)
            if r and not os.read(0, 4096):
                sys.exit(0)
            continue
    r, _, _ = select.select([0, sock], [], [])
    if 0 in r:
        data = os.read(0, 4096)
        if not data:
            sys.exit(0)
        try:
            sock.sendall(data)
        except OSError:
            sock = None
            continue
    if sock is not None and sock in r:
        try:
            data = sock.recv(4096)
        except OSError:
            data = b""
        if not data:
            sock.close()
            sock = None
            continue
        # In slices, as a UART delivers (far faster than 115200 baud still): a burst of more
        # than 4000 bytes in one read hides a prompt from LAVA's pexpect, which searches only
        # the last 4000 bytes it read (searchwindowsize in lava_dispatcher/shell.py).
        for i in range(0, len(data), 256):
            os.write(1, data[i:i + 256])
            time.sleep(0.001)
