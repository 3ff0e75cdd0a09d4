#!/usr/bin/env python3
"""overwrite_table.py SYSNODE CASES_DIR WORKDIR CU_VERSION

WORKDIR is this test's own scratch folder (created; one per ctest entry so
parallel runs never share it).

A program that writes over its own packed table while it runs: mm4x32's four
cluster payloads in round 0 plus a DRAIN of the result tile to the top of
DRAM, where `sysnode run` places the table (4 KB below the end of the 16 MiB
DRAM; rounds start 64 bytes in, artifacts/FORMAT.md §2, 32 bytes each, §3),
then the same four payloads again as round 1. The runner checked the table
at boot; the DRAIN then replaces round 1's record, and the runner's re-check
before round 1 must refuse it (exit 0x17) rather than follow what the unit
wrote.
Payload fields and sizes come from sysnode_iface (generated from
sysnode/words.h and regs.h; ctest puts it on PYTHONPATH)."""
import json, os, shutil, subprocess, sys
import sysnode_iface as iface

sysnode, cases, work, version = sys.argv[1:5]
src = os.path.join(cases, "mm4x32")
os.makedirs(work, exist_ok=True)
dst = os.path.join(work, "mm4x32_overwrites_table")
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)

art = json.load(open(os.path.join(src, "artifact.json")))
flits = [f & ((1 << 256) - 1) for f in art["flits"]]
drain = flits[3]
assert iface.get("mg", "op", drain) == 3, "mm4x32's payload 3 is its DRAIN"
# `sysnode run` puts the table 4 KB below the end of DRAM; its 32-byte round
# records follow the header (FORMAT.md §2, §3): round 1's is the second.
ROUND_BYTES = 32
round1_record = iface.SN_DRAM_DEFAULT_SIZE - 4096 + iface.SN_TABLE_IMAGE_HEADER_BYTES + ROUND_BYTES
assert round1_record >> iface.SN_MG_ADDR_LO_BITS == 0, "the address needs addr_hi"
evil = iface.put("mg", "addr", drain, round1_record)

round0 = {"machine": "overwrite", "meta": {}, "flits": flits + [evil],
          "steps": [["kick", 1, 1, 0, 5], ["await", 1, 1, 5]]}
round1 = {"machine": "overwrite", "meta": {}, "flits": flits,
          "steps": [["kick", 1, 1, 0, 4], ["await", 1, 1, 4]]}
json.dump(round0, open(os.path.join(dst, "artifact_000.json"), "w"))
json.dump(round1, open(os.path.join(dst, "artifact_001.json"), "w"))
os.remove(os.path.join(dst, "artifact.json"))
m = json.load(open(os.path.join(dst, "manifest.json")))
m["artifacts_in_order"] = ["artifact_000.json", "artifact_001.json"]
m["rounds"], m["total_flits"] = 2, 9
json.dump(m, open(os.path.join(dst, "manifest.json"), "w"))

run = subprocess.run([sysnode, "run", dst, "--cu-version", version], capture_output=True, text=True)
out = run.stdout + run.stderr
print(out)
assert run.returncode != 0, "a run whose table was overwritten exited 0"
assert "exited with 0x17" in out and "the table in DRAM changed after it was checked" in out, "not refused as 0x17"
print("PASS: refused before round 1")
