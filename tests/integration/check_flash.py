#!/usr/bin/env python3
"""check_flash.py SYSNODE CASES_DIR RUNNER_ELF WORKDIR CASE...

For each case: `sysnode run CASE` in-process (it must match), then the same
program through the card protocol on the simulated card with `sysnode flash
RUNNER_ELF --device sim`, given the case's operands (the manifest's MXFP7
replacement files where a cluster reads them) and `sysnode pack`'s table at
the address `sysnode run` uses (the top of the 16 MiB DRAM, 4 KB aligned, so
the L1 sees the same addresses), and --digest over the first expected
output. Flash must exit 0 with the runner's summary naming the same rounds,
flits and completions, the runner's CRC-32 of what it read back equal to
zlib's CRC-32 of the expected bytes, and the cycles of `sysnode run --digest`
(the digest read-back costs cycles, so both runs do it). With --expect the
expected bytes pass the check on the card and a one-byte change fails it."""
import json, os, re, subprocess, sys, zlib

sysnode, cases_dir, elf, work = sys.argv[1:5]
DRAM = 16 << 20
os.makedirs(work, exist_ok=True)
for case in sys.argv[5:]:
    d = os.path.join(cases_dir, case)
    run = subprocess.run([sysnode, "run", d, "--digest"], capture_output=True, text=True)
    m = re.match(rf"{case}: (\d+) rounds?, (\d+) flits, (\d+) completions, (\d+) cycles, .*: match \(", run.stdout)
    assert run.returncode == 0 and m, f"{case}: sysnode run: {run.stdout}{run.stderr}"
    want = tuple(int(x) for x in m.groups())

    table = os.path.join(work, f"{case}.table.bin")
    subprocess.run([sysnode, "pack", d, "-o", table], check=True, stdout=subprocess.DEVNULL)
    # where `sysnode run` puts it: the top of DRAM on 4 KB, room for the status block's copy after it
    table_addr = DRAM - ((os.path.getsize(table) + 63) // 64 * 64 + 256 + 4095) // 4096 * 4096
    manifest = json.load(open(os.path.join(d, "manifest.json")))
    replaced = {r["replaces"]: r["file"] for r in
                manifest.get("mxfp7_fill_image", {}).get("replacement_uploads", [])}
    loads = []
    for u in manifest["uploads_before_round0"]:
        loads += ["--load", f"{u['addr']:#x}={os.path.join(d, replaced.get(u['file'], u['file']))}"]
    out = manifest["expected_outputs_after_last_round"][0]
    want_crc = zlib.crc32(open(os.path.join(d, out["file"]), "rb").read())
    flash = subprocess.run([sysnode, "flash", elf, "--device", "sim", *loads, "--table", f"{table_addr:#x}={table}",
                            "--digest", f"{out['addr']:#x}:{out['nbytes']}"], capture_output=True, text=True)
    s = re.search(r"runner: ok rounds=(\d+) flits=(\d+) completions=(\d+)", flash.stdout)
    c = re.search(r"exit 0x0 after (\d+) cycles", flash.stderr)
    assert flash.returncode == 0 and s and c, f"{case}: sysnode flash (rc {flash.returncode}): {flash.stdout}{flash.stderr}"
    crc = re.search(r"sysnode flash: result crc32 0x([0-9a-f]+) over (\d+) bytes", flash.stderr)
    assert crc and int(crc.group(1), 16) == want_crc and int(crc.group(2)) == out["nbytes"], \
        f"{case}: the runner read back {crc and crc.group(0)}, expected crc32 {want_crc:#010x}"
    got = tuple(int(x) for x in s.groups()) + (int(c.group(1)),)
    assert got == want, f"{case}: flash on the simulated card gave rounds/flits/completions/cycles {got}, run {want}"
    print(f"{case}: {got[3]} cycles on the simulated card, as in-process; result crc32 {want_crc:#010x}")

    # --expect: the runner's read-back checked on the card against the expected bytes, and against a copy with
    # one byte inverted (exit 1, named)
    expected = os.path.join(d, out["file"])
    wrong = os.path.join(work, f"{case}.wrong.bin")
    data = bytearray(open(expected, "rb").read())
    data[len(data) // 2] ^= 0xFF
    open(wrong, "wb").write(data)
    for path, code, says in ((expected, 0, f"result matches {expected} (crc32 {want_crc:#010x})"),
                             (wrong, 1, f"RESULT DIGEST MISMATCH: {wrong} has crc32 {zlib.crc32(data):#010x}")):
        check = subprocess.run([sysnode, "flash", elf, "--device", "sim", *loads, "--table",
                                f"{table_addr:#x}={table}", "--digest", f"{out['addr']:#x}:{out['nbytes']}",
                                "--expect", path], capture_output=True, text=True)
        assert check.returncode == code and says in check.stderr, \
            f"{case}: flash --expect {path}: rc {check.returncode}: {check.stderr}"
    print(f"{case}: --expect holds for the expected bytes and fails for a one-byte change")
