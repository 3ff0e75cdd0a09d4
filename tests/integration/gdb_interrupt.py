#!/usr/bin/env python3
"""gdb_interrupt.py SYSNODE CASE_DIR: GDB's Ctrl-C (the byte 0x03) stops a
continue of `sysnode run CASE_DIR --gdb 0` with signal 2 (S02) at a resumable
pc; a second continue is interrupted the same way; then k ends the run, and
sysnode run reports the kill. Raw remote-protocol packets over the socket."""
import subprocess
import sys

from gdb_rsp import connect, packet, read_reply


def main():
    sysnode, case = sys.argv[1:3]
    run = subprocess.Popen([sysnode, "run", case, "--gdb", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    s = connect(run)
    s.sendall(packet(b"QStartNoAckMode"))
    assert read_reply(s) == b"OK"
    pcs = []
    for _ in range(2):
        s.sendall(packet(b"c") + b"\x03")
        reply = read_reply(s)
        assert reply == b"S02", reply
        s.sendall(packet(b"p20"))
        pcs.append(int.from_bytes(bytes.fromhex(read_reply(s).decode()), "little"))
    assert all(pc % 4 == 0 and pc < 0x8000 for pc in pcs), pcs
    s.sendall(packet(b"k"))
    s.close()
    out, err = run.communicate(timeout=60)
    print(out.decode(), err.decode())
    assert run.returncode == 1, run.returncode
    assert b"killed by the debugger" in err, err


if __name__ == "__main__":
    main()
