#!/usr/bin/env python3
"""fault_payload.py SYSNODE CASES_DIR WORKDIR

A unit fault from a real payload, no --inject: vadd128 with VSETI's
immediate (slot 1, IMEM[1] = 0x80) set to 0, so VSETVL S0 asks for a vector
length of 0 and the kernel faults (vector core fault 7, VL) when slot 25,
the RUN (sysnode-facts §3.2: a RUN retires with SIG_FAULT when its kernel
faults), starts it. The fault arrives at the await (step 2); the verdict
must also name the payload that caused it: round 0, the kick at step 1,
slot 25."""
import json, os, shutil, subprocess, sys

sysnode, cases, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
case = os.path.join(work, "vadd128_vl0")
shutil.copytree(os.path.join(cases, "vadd128"), case)
path = os.path.join(case, "artifact.json")
art = json.load(open(path))
assert art["steps"][1] == ["kick", 1, 0, 0, 26] and art["steps"][2] == ["await", 1, 0, 26], art["steps"]
assert art["flits"][1] >> 252 == 1 and art["flits"][1] & 0xFFFFFFFF == 0x80, "slot 1 is IMEM[1] = 0x80"
assert art["flits"][25] >> 252 == 3, "slot 25 is the RUN"
art["flits"][1] &= ~0xFFFFFFFF
json.dump(art, open(path, "w"))

r = subprocess.run([sysnode, "run", case], capture_output=True, text=True)
out = r.stdout + r.stderr
print(out)
assert r.returncode == 1, f"exit {r.returncode}, want 1"
assert ": match" not in r.stdout, "a faulting kernel passed as a match"
want = ("exited with 0x30 after ", "round 0 step 2: SIG_FAULT, argument 7 (vector core fault: VL); node (1,0)",
        "the payload that faulted: round 0 step 1 slot 25")
for w in want:
    assert w in out, f"{w!r} not in the output"
print("PASS: the fault names round 0 step 1 slot 25, the RUN")
