#!/usr/bin/env python3
"""check_mismatch.py SYSNODE CASES WORK: the mismatch report (docs/user-guide.md
"A mismatch") against an independent computation. Copies of vadd128 whose
expected output has chosen FP16 elements changed: the verdict line counts
the differing bytes and elements, --diff N lists the first N as values and
bits (row and column from the manifest's shape), the largest absolute and
ULP errors are Python's own (struct's FP16), --report carries the same, and
--save-output DIR holds what the program wrote: the compiler's bytes, which
the edit left untouched. A region without dtype is listed byte by byte; a
shape that does not count the elements is refused; --save-output into the
case directory is refused before the run."""
import json, os, re, shutil, struct, subprocess, sys

sysnode, cases, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
src = os.path.join(cases, "vadd128")
good = open(os.path.join(src, "expected_output.bin"), "rb").read()
n = len(good) // 2
values = struct.unpack(f"<{n}e", good)
bits = struct.unpack(f"<{n}H", good)


def ordinal(b):
    return -(b & 0x7FFF) if b & 0x8000 else b


def make_case(name, edits, region_extra):
    """A copy of vadd128 with expected FP16 elements {index: new value} and extra region members."""
    case = os.path.join(work, name)
    shutil.copytree(src, case)
    want = list(values)
    for i, v in edits.items():
        want[i] = v
    open(os.path.join(case, "expected_output.bin"), "wb").write(struct.pack(f"<{n}e", *want))
    m = json.load(open(os.path.join(case, "manifest.json")))
    region = m["expected_outputs_after_last_round"][0]
    region.pop("sha256", None)
    region.pop("dtype", None)
    region.update(region_extra)
    json.dump(m, open(os.path.join(case, "manifest.json"), "w"))
    return case, want


def run(*args):
    return subprocess.run([sysnode, "run", *args], capture_output=True, text=True)


# FP16, shape [8, 16]: three elements off by different amounts.
edits = {3: values[3] + 1.0, 40: values[40] * 2 + 0.5, 127: -values[127]}
case, want = make_case("fp16", edits, {"dtype": "fp16 little-endian", "shape": [8, 16]})
want_bits = struct.unpack(f"<{n}H", struct.pack(f"<{n}e", *want))
diff = [i for i in range(n) if want_bits[i] != bits[i]]
diff_bytes = sum(a != b for a, b in zip(struct.pack(f"<{n}e", *want), good))
report = os.path.join(work, "fp16.report.json")
saved = os.path.join(work, "saved")
r = run(case, "--diff", "2", "--report", report, "--save-output", saved)
assert r.returncode == 1, r.stdout + r.stderr
lines = r.stdout.splitlines()
first_byte = next(k for k in range(len(good)) if struct.pack(f"<{n}e", *want)[k] != good[k])
assert lines[0].endswith(f"MISMATCH at expected_output.bin offset {first_byte} (DRAM 0x{12288 + first_byte:x}): "
                         f"got 0x{good[first_byte]:02x}, expected 0x{struct.pack(f'<{n}e', *want)[first_byte]:02x}; "
                         f"{diff_bytes} of {len(good)} bytes, {len(diff)} of {n} elements differ"), lines[0]
for line, i in zip(lines[1:3], diff[:2]):
    ulp = abs(ordinal(bits[i]) - ordinal(want_bits[i]))
    expect = (f"  expected_output.bin element {i} (row {i // 16}, col {i % 16}) at offset {2 * i} "
              f"(DRAM 0x{12288 + 2 * i:x}): got {values[i]:.6g} (0x{bits[i]:04x}), "
              f"expected {want[i]:.6g} (0x{want_bits[i]:04x}), {ulp} ULP")
    assert line == expect, (line, expect)
assert lines[3] == f"  expected_output.bin: {len(diff) - 2} more differing element (--diff N lists up to 64)", lines[3]
errs = {i: abs(values[i] - want[i]) for i in diff}
ulps = {i: abs(ordinal(bits[i]) - ordinal(want_bits[i])) for i in diff}
big, far = max(diff, key=lambda i: (errs[i], -i)), max(diff, key=lambda i: (ulps[i], -i))
assert lines[4] == (f"  expected_output.bin: largest error {errs[big]:.6g} (at element {big}), largest ULP error "
                    f"{ulps[far]} (at element {far})"), lines[4]
mm = json.load(open(report))["mismatch"]
assert (mm["differing_bytes"], mm["differing_elements"], mm["elements"]) == (diff_bytes, len(diff), n), mm
reg = mm["regions"][0]
assert (reg["dtype"], reg["max_ulp_error"], reg["max_ulp_error_element"]) == ("fp16", ulps[far], far), reg
assert reg["max_abs_error"] == errs[big] and [f["element"] for f in reg["first"]] == diff[:2], reg
assert [(f["row"], f["col"], f["got"], f["expected"]) for f in reg["first"]] == \
    [(i // 16, i % 16, values[i], want[i]) for i in diff[:2]], reg["first"]
assert open(os.path.join(saved, "expected_output.bin"), "rb").read() == good, "--save-output holds other bytes"
print(f"fp16: {len(diff)} elements, {diff_bytes} bytes; largest error {errs[big]} at {big}, {ulps[far]} ULP at {far}")

# No dtype: bytes.
case, want = make_case("bytes", {5: values[5] + 2.0}, {})
r = run(case)
wb = struct.pack(f"<{n}e", *want)
byte_diff = [k for k in range(len(good)) if wb[k] != good[k]]
assert r.returncode == 1, r.stdout
listed = r.stdout.splitlines()[1:]
assert listed == [f"  expected_output.bin byte {k} (DRAM 0x{12288 + k:x}): got 0x{good[k]:02x}, expected 0x{wb[k]:02x}"
                  for k in byte_diff], listed
assert f"{len(byte_diff)} of 256 bytes, {len(byte_diff)} of 256 elements differ" in r.stdout, r.stdout
print(f"bytes: {len(byte_diff)} differing bytes listed byte by byte")

# A shape that does not count the elements; --save-output over the case's own files.
case, _ = make_case("badshape", {}, {"dtype": "fp16", "shape": [8, 8]})
r = run(case)
assert r.returncode == 1 and '"shape" counts 64 elements; nbytes 256 holds 128 fp16 elements' in r.stderr, r.stderr
r = run(os.path.join(work, "fp16"), "--save-output", os.path.join(work, "fp16"))
assert r.returncode == 1 and "--save-output" in r.stderr and r.stdout == "", r.stdout + r.stderr
print("a wrong shape and --save-output into the case are refused before the run")

# Ten expected regions, each with one byte changed: eight are described, the rest counted.
case = os.path.join(work, "ten")
shutil.copytree(src, case)
m = json.load(open(os.path.join(case, "manifest.json")))
regions = []
for k in range(10):
    part = bytearray(good[16 * k:16 * k + 16])
    part[1] ^= 0x01
    name = f"part{k}.bin"
    open(os.path.join(case, name), "wb").write(part)
    regions.append({"file": name, "addr": 12288 + 16 * k, "nbytes": 16})
m["expected_outputs_after_last_round"] = regions
json.dump(m, open(os.path.join(case, "manifest.json"), "w"))
r = run(case, "--diff", "1")
lines = r.stdout.splitlines()
assert r.returncode == 1 and "10 of 160 bytes, 10 of 160 elements differ" in lines[0], r.stdout
assert [l.split(" byte")[0] for l in lines[1:9]] == [f"  part{k}.bin" for k in range(8)], lines
assert lines[9] == "  2 more regions differ", lines
print("ten differing regions: eight listed, two counted")
