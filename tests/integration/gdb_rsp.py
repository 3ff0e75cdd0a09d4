"""The GDB remote-protocol client pieces the gdb_*.py tests share: framing a
packet, reading the next reply, and connecting to a stub started with
`--gdb 0` (it prints its port on its first stderr line)."""
import re
import socket


def packet(body):
    """body (bytes) framed as $body#checksum, the checksum the byte sum mod 256."""
    return b"$%s#%02x" % (body, sum(body) & 0xFF)


def read_reply(s):
    """The body of the next $...#xx packet on socket s; acks before it are skipped."""
    buf = b""
    while True:
        m = re.search(rb"\$([^#]*)#[0-9a-f]{2}", buf)
        if m:
            return m.group(1)
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("connection closed")
        buf += chunk


def connect(run):
    """A socket to the stub of process run (a Popen with stderr piped), on the
    port its first stderr line `gdb: listening on 127.0.0.1:PORT` names."""
    line = run.stderr.readline().decode()
    m = re.match(r"gdb: listening on 127\.0\.0\.1:(\d+)$", line.strip())
    if not m:
        raise SystemExit("no port: %r" % line)
    return socket.create_connection(("127.0.0.1", int(m.group(1))))
