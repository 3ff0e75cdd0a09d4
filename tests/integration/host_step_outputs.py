#!/usr/bin/env python3
"""host_step_outputs.py SYSNODE SYSNODE_BENCH HOST_STEP_CASE WORKDIR: no
output overwrites an input (README "Output files"), held to every file a
host-step case reads, host steps' uploads and expected outputs included
(issue 20 item 1): every command that writes a file, with its output named
by the input's own path, by a hard link to it outside the case, and by the
path a symlink of the case points to, is refused (exit 1, naming the
input) and leaves the input's bytes as they were."""
import json
import os
import shutil
import subprocess
import sys

sysnode, bench, src, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
case = os.path.join(work, "case")
shutil.copytree(src, case)
# every host-step file lives in sub/ and is named in the manifest by a symlink to it
m = json.load(open(os.path.join(case, "manifest.json")))
os.makedirs(os.path.join(case, "sub"))
step_files = [r["file"] for r in m["host_steps"][0]["uploads"] + m["host_steps"][0]["expected_outputs"]]
for name in step_files:
    os.rename(os.path.join(case, name), os.path.join(case, "sub", name))
    os.symlink(os.path.join("sub", name), os.path.join(case, name))
inputs = ["manifest.json", "artifact.json"] + [r["file"] for r in m["uploads_before_round0"]] + \
         [r["file"] for r in m["expected_outputs_after_last_round"]] + step_files
assert subprocess.run([sysnode, "run", case], capture_output=True).returncode == 0


def commands(out):
    return [[sysnode, "run", case, flag, out] for flag in ("--report", "--timeline", "--fst", "--trace")] + \
           [[sysnode, "pack", case, "-o", out], [sysnode, "header", case, "-o", out], [bench, "--json", out, case]]


checked = 0
for name in inputs:
    real = os.path.realpath(os.path.join(case, name))
    hard = os.path.join(work, "hard_" + name)
    if not os.path.exists(hard):
        os.link(real, hard)
    forms = {"path": os.path.join(case, name), "hard link": hard}
    if name in step_files:
        forms["symlink's target"] = os.path.join(case, "sub", name)
    for form, out in forms.items():
        for cmd in commands(out):
            before = open(real, "rb").read()
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            what = f"{' '.join(cmd[1:3])} over {name} by {form}"
            assert r.returncode == 1, f"{what}: exit {r.returncode}: {r.stdout}{r.stderr}"
            assert any(w in r.stderr for w in ("is the input", "is a file of the case directory", "is not a regular file")), \
                f"{what}: {r.stderr}"
            assert open(real, "rb").read() == before, f"{what}: changed the input"
            assert not [f for f in os.listdir(os.path.dirname(out)) if ".tmp." in f], what
            checked += 1
print(f"PASS: {checked} outputs over inputs refused")
