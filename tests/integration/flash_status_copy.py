#!/usr/bin/env python3
"""flash_status_copy.py SYSNODE RUNNER_ELF CASES_DIR WORKDIR

`sysnode flash --table ADDR=...` takes any 8-aligned ADDR (FORMAT.md §4
check 1). The runner's status copy goes on the first 64-byte beat at or
after the table's end (FORMAT.md §6); it is how the host words a runner
error and reads the digest. A table at an address that is not a multiple of
64 used to get no status copy at all, and one too near the top of DRAM the
same: the run went ahead and the digest and the worded error were silently
missing. Checks, on vadd128's packed table:
  - at 0x100008 with --digest over 13 bytes at an odd address: exit 0 and
    the CRC-32 zlib gives for those bytes;
  - the same table with a kick to (3,3), where no unit is, at 0x100008: the
    runner's error worded on stderr (0x13, the node);
  - at the highest 8-aligned address below the top of the 16 MiB DRAM whose
    copy still fits: the digest; 8 bytes higher: refused by name before
    anything reaches the card (exit 126, no console);
  - a --digest range past the top of DRAM: refused the same way (it was
    loaded and booted, and the runner refused its boot arguments)."""
import os, struct, subprocess, sys, zlib

sysnode, elf, cases, work = sys.argv[1:5]
DRAM, COPY = 16 << 20, 256
os.makedirs(work, exist_ok=True)
table = os.path.join(work, "vadd128.bin")
subprocess.run([sysnode, "pack", os.path.join(cases, "vadd128"), "-o", table], check=True, stdout=subprocess.DEVNULL)
data = open(table, "rb").read()
blob = bytes((i * 37 + 11) & 0xFF for i in range(64))
blob_path = os.path.join(work, "blob.bin")
open(blob_path, "wb").write(blob)


def word_hash(body):
    """FORMAT.md §1's word hash, computed here on its own."""
    h, mask = (1 << 64) - 1, (1 << 64) - 1
    for (w,) in struct.iter_unpack("<Q", body):
        x = h ^ w
        x = (x + (x << 13)) & mask
        h = x ^ (x >> 29)
    return h


def flash(table_path, addr, *extra):
    return subprocess.run([sysnode, "flash", elf, "--device", "sim", "--load", f"0x200000={blob_path}",
                           "--table", f"{addr:#x}={table_path}", *extra], capture_output=True, text=True)


def digest_of(run):
    for line in run.stderr.splitlines():
        if line.startswith("sysnode flash: result crc32 "):
            return int(line.split()[4], 16)
    return None


want = zlib.crc32(blob[3:16])
run = flash(table, 0x100008, "--digest", "0x200003:13")
assert run.returncode == 0 and digest_of(run) == want, f"table at 0x100008: {run.stdout}{run.stderr}"

# vadd128's step 1 is its kick (FORMAT.md §3: steps after the 32-byte rounds, 8-aligned)
bad = bytearray(data)
steps = struct.unpack_from("<I", bad, 0x24)[0]
assert bad[steps + 12] == 2, "vadd128's step 1 is a kick"
bad[steps + 13:steps + 15] = bytes([3, 3])
payloads = struct.unpack_from("<I", bad, 0x28)[0]
struct.pack_into("<Q", bad, 0x30, word_hash(bytes(bad[64:payloads])))  # the structure hash
struct.pack_into("<I", bad, 0x38, zlib.crc32(bytes(bad[:0x38])))
bad_path = os.path.join(work, "kick_to_3_3.bin")
open(bad_path, "wb").write(bad)
run = flash(bad_path, 0x100008)
assert run.returncode == 0x13 and "runner error 0x13: round 0 step 1: kick to a coordinate with no unit (node (3,3))" \
    in run.stderr, f"broken table at 0x100008: {run.stdout}{run.stderr}"

top = (DRAM - COPY - len(data)) // 8 * 8 - 8  # 8-aligned, not a multiple of 64
assert top % 64 != 0
run = flash(table, top, "--digest", "0x200003:13")
assert run.returncode == 0 and digest_of(run) == want, f"table at {top:#x}: {run.stdout}{run.stderr}"
over = (DRAM - COPY - len(data)) // 8 * 8 + 8
run = flash(table, over, "--digest", "0x200003:13")
assert run.returncode == 126 and run.stdout == "" and "the runner's status copy at DRAM" in run.stderr \
    and "passes the end of DRAM" in run.stderr, f"table at {over:#x}: {run.stdout}{run.stderr}"
# a --digest range past the top of DRAM: refused by name before anything reaches the card, as the runner's own
# boot check would refuse it (exit 0x16) after the load and BOOT
run = flash(table, 0x100008, "--digest", f"{DRAM - 16:#x}:0x100")
assert run.returncode == 126 and run.stdout == "" and f"--digest {DRAM - 16:#x}:0x100" in run.stderr \
    and "passes the end of DRAM" in run.stderr, f"--digest past DRAM: {run.stdout}{run.stderr}"
print(f"PASS: status copy after a table at 0x100008 and {top:#x}; {over:#x} and a --digest past DRAM refused")
