#!/usr/bin/env python3
"""host_step_stop.py SYSNODE CASE WORKDIR

A host-step case (artifacts/kohakutpu/mlp: its first host step after round
1) stopped before its runner exits keeps what the run did however it
stopped: the report's cycles are the stop's, the timeline is written, each
expected region is saved (--save-output), and what an injection did is
said. Before, these came only from the runner's exit: a stop at the
--max-cycles cap before the first hold reported 0 cycles, refused the
timeline and saved nothing ("the run never started"); a stop after a hold
reported the hold's cycles and lost the injection's line."""
import json, os, re, shutil, subprocess, sys

sysnode, case, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
m = json.load(open(os.path.join(case, "manifest.json")))
assert m["host_steps"][0]["after_round"] == 1, "the case's first host step"
final = m["expected_outputs_after_last_round"]
failed = []


def stop(name, opts, want_cycles, want_text):
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
    for x in final:
        p = os.path.join(d, "out", x["file"])
        if not os.path.exists(p) or os.path.getsize(p) != x["nbytes"]:
            failed.append("%s: --save-output kept no %d-byte %s" % (name, x["nbytes"], x["file"]))


# the cap is its own cycle count: the wait's last limit
stop("cap", ["--max-cycles", "30000"], lambda out: 30000, "stopped at the cycle cap (30000) before the runner "
     "reached host sync point 1")
# the runner's own hang report, rounds after the first host step: the cycles it exited after
stop("hang", ["--inject", "unit-stuck@5:1"],
     lambda out: int(re.search(r"exited with 0x40 after (\d+) cycles", out).group(1)), "injected unit-stuck")
for f in failed:
    print("FAIL", f)
sys.exit(1 if failed else 0)
