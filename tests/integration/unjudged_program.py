#!/usr/bin/env python3
"""unjudged_program.py SYSNODE CASES_DIR WORKDIR

A program is judged by the table rules as it is loaded (host/inputs/
artifact.h), so nothing reads a kick's rows before them. mm4x32 with its
kick moved past the round's four rows (base 1 000 000) goes through every
command that loads a case and every option that reads the program: each
refuses it with the table rule's words naming the artifact, exit 1, no
crash. Before, `run --table` (a table packed from the good case, so its
counts agree) read the bad kick's rows in the FILL check and died of
SIGSEGV, and `--report` listed the refused program's payloads per node."""
import json, os, shutil, subprocess, sys

sysnode, cases, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
good = os.path.join(cases, "mm4x32")
bad = os.path.join(work, "mm4x32_kick_past")
shutil.copytree(good, bad)
art = json.load(open(os.path.join(good, "artifact.json")))
assert art["steps"][1] == ["kick", 1, 1, 0, 4], art["steps"]
art["steps"][1] = ["kick", 1, 1, 1000000, 4]
json.dump(art, open(os.path.join(bad, "artifact.json"), "w"))

table = os.path.join(work, "good.bin")
subprocess.run([sysnode, "pack", good, "-o", table], check=True, capture_output=True)
RULE = "artifact.json: round 0 step 1: kick passes the staging window: ends at slot 1000004, limit 128 (node (1,1))"

report = os.path.join(work, "r.json")
runs = {
    "run": ["run", bad],
    "run --table": ["run", bad, "--table", table],
    "run --report": ["run", bad, "--report", report],
    "run --table --report": ["run", bad, "--table", table, "--report", report],
    "pack": ["pack", bad, "-o", os.path.join(work, "t.bin")],
    "dump": ["dump", bad],
    "header": ["header", bad, "-o", os.path.join(work, "t.h")],
}
failed = []
for what, args in runs.items():
    r = subprocess.run([sysnode] + args, capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    if r.returncode != 1 or RULE not in out:
        failed.append("%s: exit %d: %s" % (what, r.returncode, out.strip()[:300]))
    if "--report" in args and not os.path.exists(report):
        failed.append("%s: no report written" % what)
    elif "--report" in args:
        rep = json.load(open(report))
        if rep["rounds"] is not None or rep["nodes"] is not None or RULE not in rep["message"]:
            failed.append("%s: the report describes the refused program: rounds %r, nodes %r"
                          % (what, rep["rounds"], rep["nodes"]))
        os.remove(report)
for f in failed:
    print("FAIL", f)
if failed:
    sys.exit(1)
print("PASS: %d commands refuse the kick past its round by the table rule" % len(runs))
