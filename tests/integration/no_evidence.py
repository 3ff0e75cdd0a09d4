#!/usr/bin/env python3
"""no_evidence.py SYSNODE CASE_DIR WORKDIR

A copy of the case with the right answer uploaded over the expected output
before the run. Every expected byte then equals what was there before the
run, so a program that did nothing would pass: the run gives no verdict and
exits 1, naming why.

Uploads are written in list order, a later one winning where two overlap
(artifacts/FORMAT.md §9), and the check must see what DRAM held: the answer
then its complement over it leaves the complement, and the run matches with
0 bytes as before; the complement then the answer leaves the answer, and
gives no verdict."""
import json, os, shutil, subprocess, sys

sysnode, case, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)


def run_with(name, files):
    """Runs a copy of the case with `files` (name -> bytes) uploaded over the
    expected output, in that order, after the case's own uploads."""
    own = os.path.join(work, name, os.path.basename(case))
    shutil.copytree(case, own)
    path = os.path.join(own, "manifest.json")
    m = json.load(open(path))
    out = m["expected_outputs_after_last_round"][0]
    for file, data in files:
        open(os.path.join(own, file), "wb").write(data)
        m["uploads_before_round0"].append({"file": file, "addr": out["addr"], "nbytes": out["nbytes"]})
    json.dump(m, open(path, "w"))
    return out, subprocess.run([sysnode, "run", own], capture_output=True, text=True)


m = json.load(open(os.path.join(case, "manifest.json")))
out = m["expected_outputs_after_last_round"][0]
answer = open(os.path.join(case, out["file"]), "rb").read()
complement = bytes(b ^ 0xFF for b in answer)
no_verdict = (f"{out['nbytes']} output bytes: NO VERDICT: every one of the {out['nbytes']} expected bytes equals "
              "what the host placed there before the run")

_, r = run_with("answer", [("answer.bin", answer)])
assert r.returncode == 1, f"exit {r.returncode}: {r.stdout}{r.stderr}"
assert no_verdict in r.stdout, r.stdout + r.stderr

_, r = run_with("answer_then_complement", [("answer.bin", answer), ("complement.bin", complement)])
assert r.returncode == 0, f"exit {r.returncode}: {r.stdout}{r.stderr}"
assert f"{out['nbytes']} output bytes (0 as before the run): match" in r.stdout, r.stdout + r.stderr

_, r = run_with("complement_then_answer", [("complement.bin", complement), ("answer.bin", answer)])
assert r.returncode == 1, f"exit {r.returncode}: {r.stdout}{r.stderr}"
assert no_verdict in r.stdout, r.stdout + r.stderr
print("PASS:", r.stdout.strip())
