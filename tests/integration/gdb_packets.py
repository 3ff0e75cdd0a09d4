#!/usr/bin/env python3
"""gdb_packets.py SYSNODE_SIM IMAGE EXIT: a hostile GDB client against
`sysnode-sim IMAGE --gdb 0`, raw remote-protocol packets over the socket.
A packet with a wrong or malformed checksum, and one longer than the stub's
buffer, is never executed: refused with '-' while acks are on, answered E00
after QStartNoAckMode. A read of more than the stub answers is cut to its
1024 bytes (the protocol allows fewer), and one off the memory map is E01.
After the run, '?' and a further continue answer W<EXIT>, the image's own
exit status; the simulator exits with it. Then a client that drops mid-packet
detaches: the run goes on to its verdict."""
import subprocess
import sys

from gdb_rsp import connect, packet, read_reply


def read_ack(s):
    b = s.recv(1)
    return b


def start(sim, image):
    run = subprocess.Popen([sim, image, "--gdb", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    s = connect(run)
    s.settimeout(30)
    return run, s


def main():
    sim, image, exit_status = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
    run, s = start(sim, image)
    long_read = b"m0," + b"0" * 5000 + b"4"  # would read 4 bytes if cut to the buffer
    # acks on: '-' for each, and nothing executed (no reply packet follows)
    for bad in (b"$g#00", b"$g#zz", packet(long_read)):
        s.sendall(bad)
        assert read_ack(s) == b"-", bad[:16]
    s.sendall(packet(b"g"))
    assert read_ack(s) == b"+"
    regs = read_reply(s)
    assert len(regs) == 33 * 16, len(regs)  # the first reply is g's: the bad ones answered nothing
    s.sendall(packet(b"QStartNoAckMode"))
    assert read_reply(s) == b"OK"
    for bad in (b"$g#00", packet(long_read)):
        s.sendall(bad)
        assert read_reply(s) == b"E00", bad[:16]
    s.sendall(packet(b"m0,100000"))
    assert len(read_reply(s)) == 2 * 1024
    s.sendall(packet(b"mffffffffffffffff,10"))
    assert read_reply(s) == b"E01"
    want = b"W%02x" % (exit_status & 0xFF)
    s.sendall(packet(b"c"))
    assert read_reply(s) == want
    for again in (b"?", b"c"):
        s.sendall(packet(again))
        got = read_reply(s)
        assert got == want, (again, got)
    s.sendall(packet(b"k"))
    s.close()
    run.communicate(timeout=60)
    assert run.returncode == exit_status, run.returncode

    run, s = start(sim, image)
    s.sendall(b"$m0,4")  # and gone
    s.close()
    run.communicate(timeout=60)
    assert run.returncode == exit_status, run.returncode


if __name__ == "__main__":
    main()
