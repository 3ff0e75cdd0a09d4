#!/usr/bin/env python3
"""jobs_cycles.py SYSNODE CASE_DIR...: `sysnode run --jobs 2` over every case
given, each twice, prints for each the verdict line (rounds, flits,
completions, cycles, bytes) that `sysnode run CASE` alone prints: one
thread and one simulator per case share nothing (issue 20 item 4)."""
import subprocess
import sys

sysnode, cases = sys.argv[1], sys.argv[2:]


def verdicts(*args):
    r = subprocess.run([sysnode, "run", *args], capture_output=True, text=True)
    assert r.returncode == 0, f"{args}: exit {r.returncode}: {r.stdout}{r.stderr}"
    return r.stdout.splitlines()


alone = [verdicts(c)[0] for c in cases]
together = verdicts("--jobs", "2", *cases, *cases)
assert together[-1] == f"{2 * len(cases)} cases: {2 * len(cases)} match, 0 failed", together[-1]
# several cases: each verdict line starts with its directory as given (docs/user-guide.md)
prefixed = [f"{c}: {v}" for c, v in zip(cases + cases, alone + alone)]
assert together[:-1] == prefixed, "\n".join(together)
print("PASS:", len(together) - 1, "verdicts as in separate runs")
