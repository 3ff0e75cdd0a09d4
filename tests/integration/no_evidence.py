#!/usr/bin/env python3
"""no_evidence.py SYSNODE CASE_DIR WORKDIR

A copy of the case with one more upload: the right answer, placed over the
expected output before the run. Every expected byte then equals what was
there before the run, so a program that did nothing would pass: the run
gives no verdict and exits 1, naming why. Then the same with two uploads
over the output in either order, and with an output over a region the host
converts to MXFP7 for a FILL (matmul_8x64x8, beside CASE_DIR)."""
import json, os, shutil, subprocess, sys

sysnode, case, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
own = os.path.join(work, os.path.basename(case))
shutil.copytree(case, own)
path = os.path.join(own, "manifest.json")
m = json.load(open(path))
out = m["expected_outputs_after_last_round"][0]
shutil.copy(os.path.join(own, out["file"]), os.path.join(own, "answer.bin"))
m["uploads_before_round0"].append({"file": "answer.bin", "addr": out["addr"], "nbytes": out["nbytes"]})
json.dump(m, open(path, "w"))
r = subprocess.run([sysnode, "run", own], capture_output=True, text=True)
assert r.returncode == 1, f"exit {r.returncode}: {r.stdout}{r.stderr}"
want = (f"{out['nbytes']} output bytes: NO VERDICT: every one of the {out['nbytes']} expected bytes equals what "
        "the host placed there itself")
assert want in r.stdout, r.stdout + r.stderr
print("PASS:", r.stdout.strip())

# Two uploads over the expected output: the host writes them in list order,
# so the later one is what lies there before the run.
open(os.path.join(own, "zeros.bin"), "wb").write(bytes(out["nbytes"]))
answer = open(os.path.join(own, "answer.bin"), "rb").read()
zeros_then_answer = [{"file": f, "addr": out["addr"], "nbytes": out["nbytes"]} for f in ("zeros.bin", "answer.bin")]
m["uploads_before_round0"][-1:] = zeros_then_answer
json.dump(m, open(path, "w"))
r = subprocess.run([sysnode, "run", own], capture_output=True, text=True)
assert r.returncode == 1 and want in r.stdout, f"exit {r.returncode}: {r.stdout}{r.stderr}"
print("PASS:", r.stdout.strip())
# The answer first, zeros over it: the program's result is the evidence; as
# before the run are the expected bytes that are 0.
m["uploads_before_round0"][-2:] = zeros_then_answer[::-1]
json.dump(m, open(path, "w"))
r = subprocess.run([sysnode, "run", own], capture_output=True, text=True)
zero = answer.count(0)
assert r.returncode == 0 and f"({zero} as before the run): match" in r.stdout, f"exit {r.returncode}: {r.stdout}{r.stderr}"
print("PASS:", r.stdout.strip())

# The host also places MXFP7 before the run: it converts every region a
# cluster FILLs in place. An expected output over such a region, holding the
# compiler's own MXFP7 image of it (mxfp7_00_00020000.bin), is already
# there before the run, whatever the program does: no verdict either.
mm = os.path.join(os.path.dirname(case), "matmul_8x64x8")
own = os.path.join(work, "matmul_8x64x8")
shutil.copytree(mm, own)
path = os.path.join(own, "manifest.json")
m = json.load(open(path))
fill = m["mxfp7_fill_image"]["replacement_uploads"][0]
m["expected_outputs_after_last_round"] = [{"file": fill["file"], "addr": fill["addr"], "nbytes": fill["nbytes"]}]
json.dump(m, open(path, "w"))
r = subprocess.run([sysnode, "run", own], capture_output=True, text=True)
n = fill["nbytes"]
assert r.returncode == 1 and (f"{n} output bytes: NO VERDICT: every one of the {n} expected bytes equals what the "
                              "host placed there itself") in r.stdout, f"exit {r.returncode}: {r.stdout}{r.stderr}"
print("PASS:", r.stdout.strip())
