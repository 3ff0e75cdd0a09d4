#!/usr/bin/env python3
"""check_trace.py SYSNODE CASE_DIR RUNNER_ELF WORKDIR

Replays CASE_DIR twice with --trace and checks the host-window trace:
the two traces are byte-identical; the IMEM words are the image's .text (as
riscv64-unknown-elf-objcopy extracts it); the DRAM writes before boot are the
case's upload files, 0xa5 over every expected output, and the table that
`sysnode pack` writes for the case; the scratchpad words at 0x40 are the boot
arguments naming that table (sysnode/boot_args.h); after boot and wait, the
host reads the runner's status block from its DRAM copy after the table
(artifacts/FORMAT.md §6-§7), then the DRAM reads return expected_output.bin."""
import json, os, struct, subprocess, sys

sysnode, case, elf, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
traces = []
for i in (1, 2):
    path = os.path.join(work, f"trace{i}.txt")
    subprocess.run([sysnode, "run", case, "--trace", path], check=True, stdout=subprocess.DEVNULL)
    traces.append(open(path, "rb").read())
assert traces[0] == traces[1], "two replays wrote different traces"

text = os.path.join(work, "text.bin")
subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", "-j", ".text", elf, text], check=True)
want_imem = open(text, "rb").read()
want_imem += b"\0" * (-len(want_imem) % 4)
table = os.path.join(work, "table.bin")
subprocess.run([sysnode, "pack", case, "-o", table], check=True, stdout=subprocess.DEVNULL)
want_table = open(table, "rb").read()
manifest = json.load(open(os.path.join(case, "manifest.json")))

imem, spad, writes, reads, order = bytearray(), {}, [], [], []
for line in traces[0].decode().splitlines():
    f = line.split()
    order.append(f[0])
    if f[0] == "imem":
        addr, word = int(f[1], 16), int(f[2], 16)
        assert addr == len(imem), f"IMEM words out of order at {addr:#x}"
        imem += struct.pack("<I", word)
    elif f[0] == "spad":
        spad[int(f[1], 16)] = (int(f[2], 16), int(f[3], 16))
    elif f[0] == "dram_write":
        writes.append((int(f[1], 16), bytes.fromhex(f[3])))
    elif f[0] == "dram_read":
        reads.append((int(f[1], 16), bytes.fromhex(f[3])))

assert imem[:len(want_imem)] == want_imem, "IMEM words differ from the image's .text"
assert not any(imem[len(want_imem):]), "IMEM words past .text are not zero"
boot = order.index("boot")
# the device waits in steps of its access-tracking poll (host/session/device.c): boot, waits, then reads
waits = boot + 1
while waits < len(order) and order[waits] == "wait":
    waits += 1
assert waits > boot + 1 and all(o == "dram_read" for o in order[waits:]), "boot, waits, then reads"
# the first read is the runner's status block, copied to DRAM right after the table on a 64-byte beat
table_addr = next(a for a, d in writes if d[:4] == b"SNTB")
copy_addr = table_addr + (len(want_table) + 63) // 64 * 64
assert reads[0][0] == copy_addr and len(reads[0][1]) == 232, f"the status block's copy: {reads[0][0]:#x}"
block = reads[0][1]
magic, phase, error = struct.unpack_from("<III", block, 0)  # FORMAT.md §7: magic, phase, round ...
error = struct.unpack_from("<I", block, 0x14)[0]
flits, completions = struct.unpack_from("<II", block, 0x50)
assert (magic, phase, error) == (0x32545353, 6, 0), "the status block says: stamped, done, no error"
assert (flits, completions) == (26, 26), f"the status block counts 26 flits and completions: {flits}, {completions}"

memory = {}
for addr, data in writes:
    for i, b in enumerate(data):
        memory[addr + i] = b
def span(addr, n):
    """The bytes written at [addr, addr+n) before boot, or None where any is unwritten."""
    if not all(addr + i in memory for i in range(n)):
        return None
    return bytes(memory[addr + i] for i in range(n))
for up in manifest["uploads_before_round0"]:
    data = open(os.path.join(case, up["file"]), "rb").read()
    assert span(up["addr"], len(data)) == data, f"upload {up['file']} not in DRAM at {up['addr']:#x} before boot"
for out in manifest["expected_outputs_after_last_round"]:
    assert span(out["addr"], out["nbytes"]) == b"\xa5" * out["nbytes"], f"{out['file']} range not poisoned with 0xa5"
table_writes = [(a, d) for a, d in writes if d == want_table]
assert len(table_writes) == 1, "the packed table is not written exactly once"
table_addr = table_writes[0][0]

args = b"".join(struct.pack("<Q", spad[0x40 + 8 * i][0]) for i in range(7))
assert all(spad[0x40 + 8 * i][1] == 0xFF for i in range(7))
fields = struct.unpack("<IIQQQQQQ", args)
# 16 MiB: the simulator's default DRAM (DESIGN.md §6); the status block's copy after the table
assert fields == (0x41424E53, 2, table_addr, len(want_table), 0, 0, 16 << 20, copy_addr), f"boot arguments {fields}"
assert span(copy_addr, 256) == bytes(256), "the status block's copy is not zeroed before boot"

for out in manifest["expected_outputs_after_last_round"]:
    got = b"".join(d for a, d in reads if out["addr"] <= a < out["addr"] + out["nbytes"])
    assert got == open(os.path.join(case, out["file"]), "rb").read(), f"{out['file']} read back differs"
print(f"PASS: {len(imem)} IMEM bytes, {len(writes)} DRAM writes, table at {table_addr:#x} "
      f"({len(want_table)} bytes), {len(reads)} DRAM reads; traces identical")
