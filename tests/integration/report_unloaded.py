#!/usr/bin/env python3
"""report_unloaded.py SYSNODE SCHEMA CASE_DIR WORKDIR: --report writes its report
also when the case does not load (README "Seeing what happened": a report
also when the run fails): a cut artifact gives exit 1, and a report whose
verdict is "error", whose message is the load's, with the program's fields
null, valid against the report's schema."""
import json
import os

import jsonschema
import shutil
import subprocess
import sys

sysnode, schema, src, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
case = os.path.join(work, "case")
shutil.copytree(src, case)
art = os.path.join(case, json.load(open(os.path.join(case, "manifest.json")))["artifacts_in_order"][0])
os.truncate(art, 100)
report = os.path.join(work, "report.json")
r = subprocess.run([sysnode, "run", case, "--report", report], capture_output=True, text=True)
assert r.returncode == 1, r.stdout + r.stderr
rep = json.load(open(report))
jsonschema.validate(rep, json.load(open(schema)))
assert rep["verdict"] == "error" and rep["exit_code"] == 1, rep
assert "unexpected end of input" in rep["message"] and art in rep["message"], rep["message"]
assert rep["rounds"] is None and rep["nodes"] is None and rep["cycles"] == 0, rep
print("PASS: the report of a case that did not load:", rep["message"])
