#!/usr/bin/env python3
"""host_step_case.py SRC_CASE OUTDIR [MATMUL_CASE]: writes two cases with a host step
between rounds (artifacts/FORMAT.md §9) from the one-round vadd128 case
(c = a + b, flat FP16[128]):

  OUTDIR/host_step_ok: round 0 computes c; the host step after it compares c
  (the compiler's expected bytes) and uploads c as both operands; round 1 (the
  same artifact) must then leave 2c, computed here in exact FP16 arithmetic
  (every |c| <= 384, so doubling is exact), not c, which it would leave had it
  not read what the host wrote. The host step also zeroes round 0's result,
  which round 1 overwrites: an upload between rounds may cover bytes an
  earlier round wrote and a later compare expects.
  OUTDIR/host_step_wrong: the same with one byte of the intermediate's
  expected bytes changed, which the host step must catch after round 0.
  OUTDIR/host_step_host_wrote: the host step only uploads, and after the
  last round the case expects only what it uploaded (c at the first operand,
  which round 1 reads and never writes): every expected byte is the host's
  own, so the run has NO VERDICT.
  OUTDIR/host_step_fill_late (from MATMUL_CASE, a multi-round case whose
  round 0 FILLs its operands): the operands uploaded only after round 0, so
  round 0's FILL reads bytes nobody wrote; refused before anything runs."""
import hashlib
import json
import os
import shutil
import struct
import sys


def region(case, name, addr, data):
    with open(os.path.join(case, name), "wb") as f:
        f.write(data)
    return {"file": name, "addr": addr, "nbytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def write_case(src, case, name, intermediate):
    m = json.load(open(os.path.join(src, "manifest.json")))
    os.makedirs(case, exist_ok=True)
    shutil.copy(os.path.join(src, m["artifacts_in_order"][0]), os.path.join(case, "artifact.json"))
    ups = []
    for i, u in enumerate(m["uploads_before_round0"]):
        ups.append(region(case, "upload_%d.bin" % i, u["addr"], open(os.path.join(src, u["file"]), "rb").read()))
    out = m["expected_outputs_after_last_round"][0]
    c = open(os.path.join(src, out["file"]), "rb").read()
    halves = struct.unpack("<%de" % (len(c) // 2), c)
    twice = struct.pack("<%de" % len(halves), *(2 * h for h in halves))
    assert twice != c
    manifest = {
        "name": name,
        "artifacts_in_order": ["artifact.json", "artifact.json"],
        "uploads_before_round0": ups,
        "host_steps": [{
            "after_round": 0,
            "expected_outputs": [region(case, "expected_after_round0.bin", out["addr"], intermediate(c))],
            "uploads": [region(case, "step0_upload_%d.bin" % i, u["addr"], c) for i, u in enumerate(ups)]
            # over round 0's result, where round 1 writes again: per point in time
            + [region(case, "step0_clear.bin", out["addr"], bytes(len(c)))],
        }],
        "expected_outputs_after_last_round": [region(case, "expected_output.bin", out["addr"], twice)],
    }
    with open(os.path.join(case, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def write_host_wrote(src, case):
    write_case(src, case, "host_step_host_wrote", lambda c: c)
    path = os.path.join(case, "manifest.json")
    m = json.load(open(path))
    m["expected_outputs_after_last_round"] = [m["host_steps"][0]["uploads"][0]]
    del m["host_steps"][0]["expected_outputs"]
    with open(path, "w") as f:
        json.dump(m, f, indent=1)


def write_fill_late(src, case):
    m = json.load(open(os.path.join(src, "manifest.json")))
    os.makedirs(case, exist_ok=True)
    for name in m["artifacts_in_order"]:
        shutil.copy(os.path.join(src, name), os.path.join(case, name))
    ups = [region(case, u["file"], u["addr"], open(os.path.join(src, u["file"]), "rb").read())
           for u in m["uploads_before_round0"]]
    exps = [region(case, x["file"], x["addr"], open(os.path.join(src, x["file"]), "rb").read())
            for x in m["expected_outputs_after_last_round"]]
    manifest = {"name": "host_step_fill_late", "artifacts_in_order": m["artifacts_in_order"],
                "uploads_before_round0": [], "host_steps": [{"after_round": 0, "uploads": ups}],
                "expected_outputs_after_last_round": exps}
    with open(os.path.join(case, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def main():
    src, outdir = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        write_fill_late(sys.argv[3], os.path.join(outdir, "host_step_fill_late"))
    write_case(src, os.path.join(outdir, "host_step_ok"), "host_step_ok", lambda c: c)
    write_host_wrote(src, os.path.join(outdir, "host_step_host_wrote"))
    write_case(src, os.path.join(outdir, "host_step_wrong"), "host_step_wrong",
               lambda c: c[:37] + bytes([c[37] ^ 0x40]) + c[38:])


if __name__ == "__main__":
    main()
