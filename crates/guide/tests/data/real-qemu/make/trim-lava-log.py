#!/usr/bin/env python3
"""Trim a LAVA job log (lava-run's stdout, one entry a line) to a small test fixture in the
server's form (`- {...}`, as `lavacli jobs logs --raw` gives it).

Kept, of the console (`target`): U-Boot's banner and "Starting kernel ..."; in boots where
LAVA typed U-Boot commands, every line from the first command to `boot`, and after it the
echoes of what LAVA typed ahead (and lines that are a typed command: one cut out of them), the
empty lines that end them, the transfer reports and
"Starting kernel ..."; of
the kernel's stamped lines its command line, "Freeing unused kernel image (initmem)",
"Run … as init process" and the one printed soonest after its stamp (where the kernel's
start is put); every line of user space (unstamped, after the kernel started); the console
line before each prompt line. Of the dispatcher: what LAVA typed (`input`), the top-level
action starts, the test cases' and the job's results, and for each prompt line the first
entry LAVA logged after the console line before it (its time of matching the prompt).
`boardbench guide console` gives the same tables for the trimmed and the whole log (checked
when the fixture was made).

  trim-lava-log.py < run.log > fixture.yaml
"""
import re, sys

entries = [l.rstrip("\n") for l in sys.stdin if l.startswith("{")]
lvl = [re.search(r'"lvl": "([a-z]+)"', e).group(1) for e in entries]
msg = [e.split('"msg": ', 1)[1][:-1] for e in entries]
stamp = re.compile(r'^"\[ *\d+\.\d+\] ')
n = len(entries)
keep = [False] * n
typing = False   # from a boot's first typed U-Boot command to "Starting kernel ..."
booting = False  # after `boot` was typed
sent = set()     # what LAVA typed (the `msg` as logged, without the newline)
in_kernel = False
for i in range(n):
    l, m = lvl[i], msg[i]
    if l == "input":
        keep[i] = True
        typing = typing or not in_kernel
        booting = m == '"boot\\n"'
        sent.add(m[:-len('\\n"')] + '"' if m.endswith('\\n"') else m)
        continue
    if l == "results":
        keep[i] = '"definition": "lava"' not in m or '"case": "job"' in m
        continue
    if l != "target":
        keep[i] = bool(re.match(r'"start: \d+ ', m))
        continue
    if m.startswith('"U-Boot 20'):
        in_kernel, typing = False, False
        keep[i] = True
        continue
    if typing:
        # After `boot`, of U-Boot's own boot only the echoes of what LAVA typed ahead, the
        # empty lines that end them, and transfer reports.
        keep[i] = not booting or m == '""' or m.startswith('"=> ') or m in sent \
            or "Starting kernel" in m \
            or re.search(r"\d bytes (read|written) in \d+ ms", m) is not None
        typing = "Starting kernel" not in m
        continue
    if stamp.match(m):
        in_kernel = True
        keep[i] = any(k in m for k in (
            "Kernel command line", "Freeing unused kernel image (initmem)", " as init process"))
    elif in_kernel:
        keep[i] = True  # user space: rcS, prompts, test shell output
    else:
        keep[i] = "Starting kernel" in m
# Per boot, the stamped line printed soonest after its stamp (the smallest dispatcher time
# minus stamp: where the parser puts the kernel's start).
best = None
for i in range(n):
    if lvl[i] == "target" and msg[i].startswith('"U-Boot 20'):
        if best:
            keep[best[1]] = True
        best = None
    m = stamp.match(msg[i]) if lvl[i] == "target" else None
    if m:
        dt = re.search(r'"dt": "[^"]*T(\d+):(\d+):([\d.]+)"', entries[i])
        off = int(dt.group(1)) * 3600 + int(dt.group(2)) * 60 + float(dt.group(3)) \
            - float(m.group(0).strip('"[] '))
        if best is None or off < best[0]:
            best = (off, i)
if best:
    keep[best[1]] = True
# Prompt lines: the console line before, and the first dispatcher entry after that line.
for i in range(n):
    if lvl[i] == "target" and re.match(r'"(\S+ login: |/ # )', msg[i]):
        j = i - 1
        while j >= 0 and lvl[j] != "target":
            j -= 1
        if j >= 0:
            keep[j] = True
            if j + 1 < i and lvl[j + 1] != "target":
                keep[j + 1] = True
for e, k in zip(entries, keep):
    if k:
        print("- " + e)
