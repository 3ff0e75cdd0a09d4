#!/usr/bin/env python3
"""device_combinations.py SYSNODE CASE_DIR IMAGE WORKDIR

How each option combines with --device is judged once, before anything is
read or opened (host/cli/device_check.h), from what --help says: an option
marked "(not with --device)" is bad usage (exit 2) with any --device, one
marked "(not with --device xdma:)" with a card, naming the option and the
device, for `sysnode run` and `sysnode flash` alike. The card is a fake
XDMA prefix whose files must stay untouched (nothing reached it); the same
option with --device sim is taken when only a card refuses it. Before,
--gdb and --inject with a --device were exit 1, --fst, --timeline and
--cu-version with a card exit 1 after the device files were opened."""
import os
import subprocess
import sys

from help_options import help_options

sysnode, case, image, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
prefix = os.path.join(work, "xdma0")
for s in ("_user", "_h2c_0", "_c2h_0"):
    with open(prefix + s, "wb") as f:
        f.write(bytes(0x9000) if s == "_user" else b"")
card = f"xdma:{prefix}"
# a value each kind of option takes
VALUE = {"N": "5", "4|5": "5", "PORT": "0", "FILE.fst": os.path.join(work, "d.fst"),
         "FILE.json|FILE.svg": os.path.join(work, "t.json"), "KIND[@ROUND:STEP|@CYCLE]": "go-drop"}
failed = []
checked = 0
for tool, base in (("sysnode run", [sysnode, "run", case]), ("sysnode flash", [sysnode, "flash", image])):
    for o in help_options(base[:2]):
        no_device = "(not with --device)" in o.text
        no_card = "(not with --device xdma:)" in o.text
        if not (no_device or no_card):
            continue
        argv = ["--" + o.name] + ([VALUE[o.value]] if o.value else [])
        for device in (["sim"] if no_device else []) + [card]:
            checked += 1
            r = subprocess.run(base + ["--device", device] + argv, capture_output=True, text=True, timeout=60)
            word = "it does not combine with --device" if no_device else "needs a simulated SysNode; --device"
            first = r.stderr.split("\n")[0]
            if r.returncode != 2 or not first.startswith(f"{tool}: --{o.name} ") or word not in first \
                    or device not in first:
                failed.append(f"{tool} --device {device} {' '.join(argv)}: exit {r.returncode}, {first!r}")
            touched = os.path.getsize(prefix + "_h2c_0") or open(prefix + "_user", "rb").read() != bytes(0x9000)
            if touched:
                failed.append(f"{tool} --device {device} {' '.join(argv)}: the card's files were written")
for x in failed:
    print("FAIL:", x)
if checked < 10:
    failed.append(f"only {checked} combinations found in the tools' --help")
if failed:
    sys.exit(f"{len(failed)} failures")
print(f"PASS: {checked} option and --device combinations refused as bad usage before anything opened")
