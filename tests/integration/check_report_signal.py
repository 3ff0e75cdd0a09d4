#!/usr/bin/env python3
"""check_report_signal.py SYSNODE CASES LOOP_IMAGE WORK: SIGINT or SIGTERM
during `sysnode run --report` (no --fst) stops the simulation, and the
report is still written, with verdict "error" and exit_code the status the
process exits with (128 + the signal); the message names that signal. LOOP_IMAGE never exits, so the
signal always lands inside the run."""
import json, os, signal, subprocess, sys, time

sysnode, cases, loop_image, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
for sig in (signal.SIGINT, signal.SIGTERM):
    report = os.path.join(work, f"signal{int(sig)}.json")
    if os.path.exists(report):
        os.unlink(report)
    proc = subprocess.Popen([sysnode, "run", f"{cases}/vadd128", "--image", loop_image, "--report", report],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # into the replay, which never ends by itself; not a timing assertion
    assert proc.poll() is None, "the run ended before the signal"
    proc.send_signal(sig)
    out, err = proc.communicate()
    assert proc.returncode == 128 + sig, (proc.returncode, err)
    with open(report) as f:
        r = json.load(f)
    assert r["verdict"] == "error" and r["exit_code"] == 128 + sig, (r["verdict"], r["exit_code"])
    assert f"interrupted ({sig.name})" in r["message"], r["message"]  # names the signal that came
print("report written after SIGINT and SIGTERM, exit_code 130 and 143")
