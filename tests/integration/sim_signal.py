#!/usr/bin/env python3
"""sim_signal.py SYSNODE SYSNODE_SIM RUNNER_ELF CASE_DIR WORKDIR

SIGINT or SIGTERM stops sysnode-sim at its next mesh cycle, and it says
where it stopped, in the words sysnode run uses at the cap (the runner's
round, step and phase and the live GO and completion counts:
sn_sim_stop_where), then exits 128+N. The run is a unit stuck on its
first instruction, which the runner would wait on for millions of cycles."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sysnode, sim, runner, case, work = sys.argv[1:6]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
table = os.path.join(work, "table.bin")
subprocess.run([sysnode, "pack", case, "-o", table], check=True, capture_output=True)
failed = 0
for sig, name in ((signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM")):
    p = subprocess.Popen([sim, runner, "--table", "0xF00000=" + table, "--inject", "unit-stuck", "--lockstep"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    want = (rf"sysnode-sim: simulation error: interrupted \({name}\) at mesh cycle \d+; runner at round \d+ step \d+, "
            r"[a-z ]+; the mailbox accepted \d+ payload GOs, the core popped \d+ completions")
    if p.returncode != 128 + sig or not re.search(want, out):
        print(f"FAIL: {name}: exit {p.returncode} (want {128 + sig}), stdout {out!r}, stderr {err!r}")
        failed = 1
    else:
        print(f"ok: {name}: exit {p.returncode}: {out.strip().splitlines()[-1]}")
sys.exit(failed)
