#!/usr/bin/env python3
"""manifest_once.py SYSNODE CASES_DIR WORKDIR

A case's manifest.json is opened once for everything a command does with
it (host/inputs/case.h): counted with strace, every openat of a file named
manifest.json by the process and its threads. `sysnode run` of one case
with a report, a timeline and saved outputs (once with the outputs new,
once with them in place, so the output check looks at the case's files),
`sysnode pack` of a case (its -o new, then in place), and `sysnode run` of
two cases (once each)."""
import os, re, shutil, subprocess, sys

sysnode, cases, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
OPEN = re.compile(r'\bopenat\((?:AT_FDCWD|\d+), "([^"]*)"')


def manifest_opens(args):
    """The manifest.json files the command opened, in order, and its output."""
    log = os.path.join(work, "strace.log")
    run = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", log, sysnode] + args,
                         capture_output=True, text=True)
    assert os.path.exists(log), f"strace wrote no log (can it trace here?): {run.stderr}"
    with open(log) as f:
        opened = [m.group(1) for m in map(OPEN.search, f) if m and os.path.basename(m.group(1)) == "manifest.json"]
    return opened, run


vadd = os.path.join(cases, "vadd128")
mm = os.path.join(cases, "mm4x32")
outputs = ["--report", os.path.join(work, "r.json"), "--timeline", os.path.join(work, "t.json"),
           "--save-output", os.path.join(work, "saved")]
for when in ("new", "in place"):
    opened, run = manifest_opens(["run", vadd] + outputs)
    assert run.returncode == 0 and "match" in run.stdout, run.stdout + run.stderr
    assert len(opened) == 1, f"run with its outputs {when}: manifest.json opened {len(opened)} times, not once"

for when in ("new", "in place"):
    opened, run = manifest_opens(["pack", vadd, "-o", os.path.join(work, "vadd128.bin")])
    assert run.returncode == 0, run.stderr
    assert len(opened) == 1, f"pack with its -o {when}: manifest.json opened {len(opened)} times, not once"

opened, run = manifest_opens(["run", vadd, mm])
assert run.returncode == 0, run.stdout + run.stderr
assert len(opened) == 2, f"run of two cases: manifest.json opened {len(opened)} times, not once each"
print("manifest_once: one open per case (run with report, timeline and saved outputs; pack; two cases)")
