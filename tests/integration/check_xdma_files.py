#!/usr/bin/env python3
"""check_xdma_files.py SYSNODE CASE_DIR IMAGE WORKDIR

The XDMA path end to end against regular files standing in for the device
files (xdma0_user covering the load window, xdma0_c2h_0 a link to
xdma0_h2c_0 so reads see what was written): `sysnode run --device xdma:...`
writes the case's uploads, the 0xa5 poison over the expected output and
`sysnode pack`'s table at the top of the 16 MiB layout through the H2C file,
and BOOT=1 at 0x8000 of the user file; files never run, so CYCLES stays at 0
and the run is refused by name (device, register offsets) with no result
read. `sysnode flash` places its --load files the same way. --timeline, and
a --table packed from another case, are refused before the card is written."""
import json, os, subprocess, sys

sysnode, case, image, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
prefix = os.path.join(work, "xdma0")
def fresh():
    for s in ("_user", "_h2c_0", "_c2h_0"):
        if os.path.lexists(prefix + s):
            os.remove(prefix + s)
    with open(prefix + "_user", "wb") as f:
        f.write(bytes(0x9000))
    open(prefix + "_h2c_0", "wb").close()
    os.symlink(prefix + "_h2c_0", prefix + "_c2h_0")

def at(path, addr, n):
    with open(path, "rb") as f:
        f.seek(addr)
        return f.read(n)

STALL = "CYCLES (0x8030) stayed at 0 over 100000 polls of STATUS (0x8018) with no exit or halt: the core is not running"
manifest = json.load(open(os.path.join(case, "manifest.json")))

fresh()
run = subprocess.run([sysnode, "run", case, "--device", f"xdma:{prefix}"], capture_output=True, text=True)
assert run.returncode == 1 and f"{prefix}: {STALL}" in run.stderr, run.stderr
h2c = prefix + "_h2c_0"
for u in manifest["uploads_before_round0"]:
    assert at(h2c, u["addr"], u["nbytes"]) == open(os.path.join(case, u["file"]), "rb").read(), u["file"]
for x in manifest["expected_outputs_after_last_round"]:
    assert at(h2c, x["addr"], x["nbytes"]) == b"\xa5" * x["nbytes"], x["file"]
table = os.path.join(work, "table.bin")
subprocess.run([sysnode, "pack", case, "-o", table], check=True, stdout=subprocess.DEVNULL)
want = open(table, "rb").read()
top = (16 << 20) - (len(want) + 4095) // 4096 * 4096
assert at(h2c, top, len(want)) == want, "the table is not at the top of the 16 MiB layout"
assert int.from_bytes(at(prefix + "_user", 0x8000, 8), "little") == 1, "BOOT was not written"

fresh()
u = manifest["uploads_before_round0"][0]
flash = subprocess.run([sysnode, "flash", image, "--device", f"xdma:{prefix}",
                        "--load", f"{u['addr']:#x}={os.path.join(case, u['file'])}"], capture_output=True, text=True)
assert flash.returncode == 126 and STALL in flash.stderr, flash.stderr
assert at(h2c, u["addr"], u["nbytes"]) == open(os.path.join(case, u["file"]), "rb").read()
# --timeline on a card is bad usage, refused before anything reaches it (the device files stay empty)
fresh()
run = subprocess.run([sysnode, "run", case, "--device", f"xdma:{prefix}", "--timeline", os.path.join(work, "t.json")],
                     capture_output=True, text=True)
assert run.returncode == 2 and f"--timeline needs a simulated SysNode; --device xdma:{prefix} is a card" in run.stderr, \
    run.stderr
assert os.path.getsize(prefix + "_h2c_0") == 0 and at(prefix + "_user", 0x8000, 0x1000) == bytes(0x1000), \
    "the card was written before --timeline was refused"
# --table from another case (mm4x32's, 4 flits, for vadd128's 26) is refused before anything reaches the card
fresh()
other = os.path.join(work, "other.bin")
subprocess.run([sysnode, "pack", os.path.join(os.path.dirname(case), "mm4x32"), "-o", other], check=True,
               stdout=subprocess.DEVNULL)
want = f"{other} holds 1 round and 4 flits, but the case's program has 1 round and 26 flits: it carries another " \
       "program (refused before the run)"
run = subprocess.run([sysnode, "run", case, "--device", f"xdma:{prefix}", "--table", other], capture_output=True, text=True)
assert run.returncode == 1 and want in run.stderr, run.stderr
assert os.path.getsize(prefix + "_h2c_0") == 0 and at(prefix + "_user", 0x8000, 0x1000) == bytes(0x1000), \
    "the card was written before the other case's --table was refused"
print("XDMA files: uploads, poison, table and BOOT at their offsets; a core that never runs is named; "
      "--timeline and another case's --table refused before the run")
