#!/usr/bin/env python3
"""host_step_commands.py SYSNODE SYSNODE_BENCH HOST_STEP_DIR WORKDIR: every
command and option that takes a case, on the cases host_step_case.py makes
(issue 20 item 2). Each handles the host steps or refuses them, with the
reason, before anything is read or written: run (and its report's timing),
run --device sim (the card protocol), run --gdb, run --digest, pack, dump, header, sysnode-bench;
bytes a host step uploaded count as the host's own; a host-step region is
held to DRAM when the manifest is read (not after its file is read)."""
import json
import os
import re
import resource
import shutil
import subprocess
import sys

sysnode, bench, steps, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
ok = os.path.join(steps, "host_step_ok")


def run(*args, **kw):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)


def refused(r, *words):
    out = r.stdout + r.stderr
    assert r.returncode == 1, f"exit {r.returncode}: {out}"
    for w in words:
        assert w in out, f"{w!r} not in: {out}"
    return out


# run: the match, and the report's sim time covers both waits (boot to the sync point, then to the exit):
# the simulation is most of the run, not the sliver after the sync point (wall times: the best of 5 runs)
report = os.path.join(work, "report.json")
best = None
for _ in range(5):
    r = run(sysnode, "run", ok, "--report", report)
    assert r.returncode == 0 and ": match" in r.stdout, r.stdout + r.stderr
    rep = json.load(open(report))
    assert 0 < rep["sim_wall_seconds"] <= rep["wall_seconds"], rep
    if best is None or rep["sim_wall_seconds"] / rep["wall_seconds"] > best:
        best = rep["sim_wall_seconds"] / rep["wall_seconds"]
assert best > 0.5, f"the simulated share of the run's wall time is {best:.2f}"

# --device sim: the card protocol holds the runner at the host step (held word and status block read from
# the runner's DRAM status copy), with the in-process verdict: the same bytes, flits, completions and cycles
here = run(sysnode, "run", ok)
there = run(sysnode, "run", ok, "--device", "sim")
assert here.returncode == 0 and there.returncode == 0 and ": match" in there.stdout, there.stdout + there.stderr
assert there.stdout == here.stdout, (here.stdout, there.stdout)

# --gdb: refused naming the host step, before the image or any file is read (no trace kept)
t = os.path.join(work, "refused.trace")
r = run(sysnode, "run", ok, "--gdb", "0", "--trace", t, timeout=60)
refused(r, "1 host step (the first after round 0)", "--gdb serves one run from BOOT to exit")
assert "listening" not in r.stderr, r.stderr
assert not os.path.exists(t), "a refused run left a trace"

# --digest where every compare is at a host step: refused, not a run without a digest
only_steps = os.path.join(work, "only_steps")
shutil.copytree(ok, only_steps)
m = json.load(open(os.path.join(only_steps, "manifest.json")))
m["host_steps"][0]["expected_outputs"] += m["expected_outputs_after_last_round"]
m["host_steps"][0]["expected_outputs"].pop()
m["expected_outputs_after_last_round"] = []
json.dump(m, open(os.path.join(only_steps, "manifest.json"), "w"))
refused(run(sysnode, "run", only_steps, "--digest"), "--digest", "compares only at its host steps")
# --save-output there: refused before the run and before its folder is made, not a run that saves nothing
saved = os.path.join(work, "only_steps_saved")
refused(run(sysnode, "run", only_steps, "--save-output", saved), "--save-output", "compares only at its host steps")
assert not os.path.exists(saved), "a refused --save-output made its folder"

# bytes only a host step uploaded are the host's: no verdict
r = run(sysnode, "run", os.path.join(steps, "host_step_host_wrote"))
refused(r, "256 output bytes: NO VERDICT")

# pack, dump and header keep the host sync step
table = os.path.join(work, "ok.table")
assert run(sysnode, "pack", ok, "-o", table).returncode == 0
r = run(sysnode, "dump", ok)
assert r.returncode == 0 and "host_sync" in r.stdout, r.stdout + r.stderr
header = os.path.join(work, "ok.h")
r = run(sysnode, "header", ok, "-o", header)
assert r.returncode == 0, r.stderr
text = open(header).read()
assert text.count("SN_STEP_HOST_SYNC") == 1 and "/* round 0 step 3 */" in text, text

# sysnode-bench: every image holds at the sync point, and the row is measured
r = run(bench, ok)
assert r.returncode == 0 and "host_step_ok" in r.stdout and "FAILED" not in r.stdout, r.stdout + r.stderr

# host-step regions are held to DRAM when the manifest is read: an upload 1 TB past DRAM is named as
# such, and a 1 GiB upload (a sparse file) is refused without being read
for addr, nbytes, want in (((1 << 40) - 0x1000, 0x100, "passes the end of DRAM"),
                          (0x1000, 1 << 30, "passes the end of DRAM")):
    big = os.path.join(work, "big")
    shutil.rmtree(big, ignore_errors=True)
    shutil.copytree(ok, big)
    with open(os.path.join(big, "huge.bin"), "wb") as f:
        f.truncate(nbytes)
    m = json.load(open(os.path.join(big, "manifest.json")))
    m["host_steps"][0]["uploads"].append({"file": "huge.bin", "addr": addr, "nbytes": nbytes})
    json.dump(m, open(os.path.join(big, "manifest.json"), "w"))
    out = refused(run(sysnode, "run", big), "host step's upload huge.bin at 0x%x" % addr, want)
    assert "top of DRAM" not in out, out
# the largest child so far (a simulator) stayed far below the 1 GiB a read of huge.bin would take
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
assert peak < 512 << 20, f"a child peaked at {peak} bytes"
print("PASS: every command on a host-step case")
