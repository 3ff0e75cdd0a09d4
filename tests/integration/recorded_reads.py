#!/usr/bin/env python3
"""recorded_reads.py SYSNODE KOHAKUTPU_CASES: the recorded demos that read
DRAM bytes nothing wrote (artifacts/kohakutpu/README.md) name the same reads
on every run and on both unit generations: ranks 2 (rounds 0 and 2),
transformer_block 24 (rounds 29 to 31), each a vector core's VFILL; the
other demos none; --strict refuses the first, naming it (exit 1)."""
import os
import re
import subprocess
import sys

sysnode, cases = sys.argv[1:3]
READ = re.compile(r"^sysnode run: .*: warning: .*/(artifact_\d+\.json): round (\d+) slot (\d+): payload RUN to the "
                  r"vector core at \(1,[02]\) reads \d+ bytes at \[0x[0-9a-f]+, 0x[0-9a-f]+\) \(a VFILL\), \d+ of them "
                  r"written by neither the host nor an earlier round in this session, first 0x[0-9a-f]+$")
WANT = {"ranks": (2, {0, 2}), "transformer_block": (24, {29, 30, 31}), "mlp": (0, set()), "softmax": (0, set()),
        "dynamic_shapes": (0, set())}

for name, (count, rounds) in WANT.items():
    case = os.path.join(cases, name)
    seen = set()
    for version in ("4", "5", "4"):
        r = subprocess.run([sysnode, "run", case, "--cu-version", version], capture_output=True, text=True)
        assert r.returncode == 0 and r.stdout.rstrip().endswith("match"), (name, r.stdout, r.stderr)
        reads = [line for line in r.stderr.splitlines() if "warning" in line]
        assert len(reads) == count and all(READ.match(line) for line in reads), (name, version, r.stderr)
        assert {int(READ.match(line).group(2)) for line in reads} == rounds, (name, reads)
        seen.add(r.stderr)
    assert len(seen) == 1, f"{name}: the warnings differ between runs or versions"
    if count:
        first = seen.pop().splitlines()[0].split(": warning: ", 1)[1]
        r = subprocess.run([sysnode, "run", case, "--strict"], capture_output=True, text=True)
        assert r.returncode == 1 and first in r.stderr and "strict" in r.stderr, (name, r.returncode, r.stderr)
print("PASS: the recorded demos' reads of bytes nothing wrote are the same on every run and version")
