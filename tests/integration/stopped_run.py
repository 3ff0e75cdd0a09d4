#!/usr/bin/env python3
"""stopped_run.py SYSNODE CASE PLAIN_CASE WORKDIR

A run stopped before its runner exits, or by the runner's own error, keeps
what it did however it stopped. CASE has host steps (artifacts/kohakutpu/
mlp: its first after round 1): the report's cycles are the stop's, the
timeline is written, each expected region is saved (--save-output), what
an injection did is said, a unit fault names its payload, and the report's
payloads and completions are the runner's own counts where it stopped.
PLAIN_CASE (vadd128) has none: its runner's hang report counts 26 payloads
and 25 completions, and so must its run report. Before, all of these came
from the runner's exit after the last round only: a stop at the
--max-cycles cap before the first hold reported 0 cycles, refused the
timeline and saved nothing ("the run never started"); a stop after a hold
reported the hold's cycles and lost the injection's line and the faulting
payload; every runner error reported 0 payloads and 0 completions."""
import json, os, re, shutil, subprocess, sys

sysnode, case, plain, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
m = json.load(open(os.path.join(case, "manifest.json")))
assert m["host_steps"][0]["after_round"] == 1, "the case's first host step"
failed = []


def stop(name, opts, want_cycles, want_text, case=case, counts=None):
    d = os.path.join(work, name)
    os.makedirs(d)
    r = subprocess.run([sysnode, "run", case, "--report", os.path.join(d, "r.json"), "--timeline",
                        os.path.join(d, "t.json"), "--save-output", os.path.join(d, "out")] + opts,
                       capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    print(name, "exit", r.returncode, out)
    if r.returncode != 1 or want_text not in out:
        failed.append("%s: exit %d, %r not said" % (name, r.returncode, want_text))
    cycles = want_cycles(out)
    rep = json.load(open(os.path.join(d, "r.json")))
    if rep["cycles"] != cycles:
        failed.append("%s: the report says %d cycles, the run stopped after %d" % (name, rep["cycles"], cycles))
    if not os.path.exists(os.path.join(d, "t.json")):
        failed.append("%s: no timeline" % name)
    else:
        stops = [e for e in json.load(open(os.path.join(d, "t.json")))["traceEvents"] if e.get("name") == "stop"]
        if len(stops) != 1:
            failed.append("%s: the timeline marks %d stops" % (name, len(stops)))
    if counts and (rep["payloads"], rep["completions"]) != counts:
        failed.append("%s: the report counts %d payloads and %d completions, the runner %d and %d"
                      % ((name, rep["payloads"], rep["completions"]) + counts))
    for x in json.load(open(os.path.join(case, "manifest.json")))["expected_outputs_after_last_round"]:
        p = os.path.join(d, "out", x["file"])
        if not os.path.exists(p) or os.path.getsize(p) != x["nbytes"]:
            failed.append("%s: --save-output kept no %d-byte %s" % (name, x["nbytes"], x["file"]))


# the cap is its own cycle count: the wait's last limit
stop("cap", ["--max-cycles", "30000"], lambda out: 30000, "stopped at the cycle cap (30000) before the runner "
     "reached host sync point 1")
# the runner's own hang report, rounds after the first host step: the cycles it exited after
stop("hang", ["--inject", "unit-stuck@5:1"],
     lambda out: int(re.search(r"exited with 0x40 after (\d+) cycles", out).group(1)), "injected unit-stuck")
# a unit fault rounds after the first host step: named with its payload, as in a case without host steps
stop("fault", ["--inject", "unit-fault:1@5:1"],
     lambda out: int(re.search(r"exited with 0x30 after (\d+) cycles", out).group(1)),
     "the payload that faulted: round 5 step 1 slot 0")
# the runner's hang report in a case without host steps: its counts in the report
stop("plain_hang", ["--inject", "completion-drop@0:1"],
     lambda out: int(re.search(r"exited with 0x40 after (\d+) cycles", out).group(1)),
     "awaited 26, received 25, owed 1", case=plain, counts=(26, 25))
for f in failed:
    print("FAIL", f)
sys.exit(1 if failed else 0)
