#!/usr/bin/env python3
"""flip_table.py SYSNODE CASE_DIR WORKDIR

`sysnode pack`s the case, then for a sample of offsets (every header byte and
every 37th body byte) flips one byte and runs the case with `--table`: the
host hands that table over unchecked, so the runner must refuse it itself,
with exit status 0x15 and the check named by the host
from the runner's status block ("table: ..."). The unflipped table
must match."""
import os, subprocess, sys

sysnode, case, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
good = os.path.join(work, "table.bin")
subprocess.run([sysnode, "pack", case, "-o", good], check=True, stdout=subprocess.DEVNULL)
data = open(good, "rb").read()
run = subprocess.run([sysnode, "run", case, "--table", good], capture_output=True, text=True)
assert run.returncode == 0 and run.stdout.endswith(": match\n"), run.stdout + run.stderr

offsets = list(range(64)) + list(range(64, len(data), 37))
for off in offsets:
    bad = bytearray(data)
    bad[off] ^= 0xFF
    path = os.path.join(work, "flipped.bin")
    open(path, "wb").write(bad)
    run = subprocess.run([sysnode, "run", case, "--table", path], capture_output=True, text=True)
    out = run.stdout + run.stderr
    assert run.returncode != 0, f"offset {off}: exited 0"
    assert "exited with 0x15" in out and ": table: " in out, f"offset {off}: {out}"
print(f"PASS: {len(offsets)} flipped bytes of a {len(data)}-byte table refused by the runner (0x15)")
