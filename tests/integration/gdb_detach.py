#!/usr/bin/env python3
"""gdb_detach.py SYSNODE CASE_DIR: a client that sets a breakpoint where the
image will pass and then leaves, by detach (D) or by closing the socket,
leaves a run that goes on to its verdict: the stub clears what GDB left, so
no breakpoint stops a run nobody debugs (exit 0, the case's match)."""
import subprocess
import sys

from gdb_rsp import connect, packet, read_reply

sysnode, case = sys.argv[1], sys.argv[2]
for leave in (b"D", None):
    run = subprocess.Popen([sysnode, "run", case, "--gdb", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    s = connect(run)
    s.settimeout(30)
    s.sendall(packet(b"Z0,4,4"))  # the image's second instruction: the boot runs through it
    assert read_reply(s) == b"OK"
    if leave:
        s.sendall(packet(leave))
        assert read_reply(s) == b"OK"
    s.close()
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0, (leave, run.returncode, out, err)
    assert b": match" in out, (leave, out, err)
print("PASS: the run after detach and after a disconnect reaches its match")
