#!/usr/bin/env python3
"""memory_bound.py SYSNODE CASE_DIR WORKDIR: reading a case costs at most 3
times the bytes of its files over what the command costs on the case as it
is (issue 20 item 5), and a program that cannot fit DRAM is refused from its
counts before anything is allocated for it. Each a file of 64 MiB:

  - an artifact of "0," flits (32 M payloads): refused from the count;
  - a manifest naming 2.9 M rounds: refused from the count;
  - a manifest of 64 MiB of description, and one of 480 K uploads naming the
    case's two operand files in turn (each file read once): both match.

The peak is the child's own maximum resident set (wait4); the files are
made by a child of their own, so this process stays small (a child's peak
counts its parent's pages at the fork)."""
import json
import os
import shutil
import subprocess
import sys

SIZE = 64 << 20


def make(kind, src, dst):
    """Writes the 64 MiB input of kind at dst (an artifact file, or a case folder copied from src)."""
    if kind == "flits":
        head, tail = '{"machine": "rv64_mesh_2p2", "flits": [', '], "steps": []}'
        n = (SIZE - len(head) - len(tail) + 1) // 2
        with open(dst, "w") as f:
            f.write(head + "0," * (n - 1) + "0" + tail)
        return
    shutil.copytree(src, dst)
    path = os.path.join(dst, "manifest.json")
    m = json.load(open(path))
    if kind == "description":
        m["description"] = "x" * SIZE
        text = json.dumps(m)
    else:
        # A list repeated count times, written as json.dump would write it but
        # by repeating its text: json.dump of 480 K uploads took 7 s.
        key = "artifacts_in_order" if kind == "rounds" else "uploads_before_round0"
        items = m[key]
        count = SIZE // (len(items[0]) + 4) if kind == "rounds" else SIZE // len(json.dumps(items))
        m[key] = None
        head, tail = json.dumps(m).split(f'"{key}": null')
        text = f'{head}"{key}": [{", ".join([json.dumps(items)[1:-1]] * count)}]{tail}'
    with open(path, "w") as f:
        f.write(text)


if sys.argv[1] == "make":
    make(*sys.argv[2:5])
    sys.exit(0)

sysnode, src, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def made(kind):
    dst = os.path.join(work, kind)
    subprocess.run([sys.executable, __file__, "make", kind, src, dst], check=True)
    return dst


def peak(*args):
    """Exit status, stdout+stderr and peak RSS in bytes of SYSNODE ARGS..."""
    out = os.path.join(work, "out.txt")
    with open(out, "wb") as f:
        p = subprocess.Popen([sysnode, *args], stdout=f, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, open(out, errors="replace").read(), usage.ru_maxrss * 1024


def check(what, rc_want, words, size, base, *args):
    rc, out, rss = peak(*args)
    assert rc == rc_want, f"{what}: exit {rc}, want {rc_want}: {out}"
    assert words in out, f"{what}: {words!r} not in {out}"
    assert rss <= base + 3 * size, f"{what}: peak {rss >> 20} MiB, more than {base >> 20} + 3 x {size >> 20} MiB"
    print(f"{what}: peak {rss / 2**20:.0f} MiB = {base / 2**20:.0f} + {(rss - base) / size:.2f} x {size / 2**20:.0f} MiB")


rc, _, run_base = peak("run", src)
assert rc == 0
first = json.load(open(os.path.join(src, "manifest.json")))["artifacts_in_order"][0]
rc, _, pack_base = peak("pack", os.path.join(src, first), "-o", os.path.join(work, "t.bin"))
assert rc == 0
art = made("flits")
size = os.path.getsize(art)
check("artifact of 32 M flits", 1, '"flits" holds', size, pack_base, "pack", art, "-o", os.path.join(work, "big.bin"))
os.remove(art)
for kind, rc_want, words in (("rounds", 1, "more than DRAM"), ("description", 0, ": match"), ("uploads", 0, ": match")):
    case = made(kind)
    size = os.path.getsize(os.path.join(case, "manifest.json"))
    check(f"manifest of {kind}", rc_want, words, size, run_base, "run", case)
    shutil.rmtree(case)
print("PASS: every 64 MiB input within 3 x its size")
