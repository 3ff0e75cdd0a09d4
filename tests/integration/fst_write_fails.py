#!/usr/bin/env python3
"""fst_write_fails.py SYSNODE CASE_DIR BIG_CASE_DIR WORKDIR: an FST dump that
cannot be written whole (a file-size limit under CASE_DIR's 23 KB dump, with
SIGXFSZ ignored or not; a full disk, a 64 KB tmpfs under BIG_CASE_DIR's
85 KB dump, where this machine lets root mount one) ends the run with
an error naming the file and exit 1, never a signal; nothing of the dump is
left (no FILE.partial-PID, no .hier) and an old file at the target stays as
it was (README "Output files")."""
import glob
import os
import resource
import shutil
import signal
import subprocess
import sys

sysnode, small, big, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
OLD = b"an old dump the user keeps\n"


def check(folder, case, limit=None, ignore=False):
    target = os.path.join(folder, "x.fst")
    with open(target, "wb") as f:
        f.write(OLD)

    def cap():
        if ignore:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if limit:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    r = subprocess.run([sysnode, "run", case, "--fst", target], capture_output=True, text=True, preexec_fn=cap)
    what = f"limit {limit}, SIGXFSZ {'ignored' if ignore else 'default'}" if limit else "full disk"
    assert r.returncode == 1, f"{what}: exit {r.returncode}: {r.stdout}{r.stderr}"
    assert f"--fst: {target}: the dump could not be written" in r.stderr, f"{what}: {r.stderr}"
    assert glob.glob(target + ".partial-*") == [], f"{what}: {os.listdir(folder)}"
    assert open(target, "rb").read() == OLD, f"{what}: the old file changed"
    print(f"{what}: {r.stderr.strip()}")


for limit in (4096, 16384):
    for ignore in (True, False):
        check(work, small, limit, ignore)
tiny = os.path.join(work, "tiny")
os.makedirs(tiny)
if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny], capture_output=True).returncode == 0:
    try:
        check(tiny, big)
    finally:
        subprocess.run(["umount", tiny])
else:
    print("full disk: not checked (no tmpfs mount here)")
print("PASS: a dump that cannot be written whole is an error naming the file")
