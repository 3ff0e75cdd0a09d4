#!/usr/bin/env python3
"""misaligned_image.py SYSNODE CASE_DIR RUNNER_ELF WORKDIR

An image that issues a misaligned access stops with cause 4 and its PC named
(issue 18 item 6). For SPAD and for cached DRAM, the runner image is copied
with the first instructions of `sn_runner_run` (entered after crt0 installed
the trap vector and main set up the status block's copy to DRAM, which the
host reads) replaced by an 8-byte `ld` at a 4-aligned address in that region,
as GCC's merged field loads were; `sysnode run` of the case must then fail
with the runner's trap report naming mcause 4, mepc the `ld` and mtval the
address (sysnode-facts §1.2: the core traps misaligned loads in every
region; firmware/boot/trap.c). The instructions are encoded here from the
RV64I formats, and the addresses come from the ELF's own symbol table."""
import os, struct, subprocess, sys

sysnode, case, runner, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
elf = bytearray(open(runner, "rb").read())

# ELF64 little-endian (the loader refuses anything else)
assert elf[:4] == b"\x7fELF" and elf[4] == 2 and elf[5] == 1, f"{runner}: not an ELF64 LE file"
e_phoff, e_shoff = struct.unpack_from("<QQ", elf, 0x20)
e_phentsize, e_phnum, e_shentsize, e_shnum = struct.unpack_from("<HHHH", elf, 0x36)


def section(i):
    name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from("<IIQQQQIIQQ", elf,
                                                                                        e_shoff + i * e_shentsize)
    return typ, off, size, link, entsize


def symbol(wanted):
    """The address of function `wanted`, or of its one LTO clone (`wanted.constprop.N` and the like)."""
    found = []
    for i in range(e_shnum):
        typ, off, size, link, entsize = section(i)
        if typ != 2:  # SHT_SYMTAB
            continue
        _, stroff, _, _, _ = section(link)
        for k in range(size // entsize):
            st_name, st_info, st_other, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", elf,
                                                                                          off + k * entsize)
            end = elf.index(b"\0", stroff + st_name)
            name = elf[stroff + st_name:end].decode()
            if (name == wanted or name.startswith(wanted + ".")) and st_info & 0xF == 2:  # STT_FUNC
                found.append(st_value)
    if len(found) != 1:
        sys.exit(f"{runner}: {len(found)} functions named {wanted}, not one")
    return found[0]


def file_offset(addr):
    for i in range(e_phnum):
        p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz = struct.unpack_from("<IIQQQQ", elf,
                                                                                   e_phoff + i * e_phentsize)
        if p_type == 1 and p_vaddr <= addr < p_vaddr + p_filesz:
            return p_offset + addr - p_vaddr
    sys.exit(f"{runner}: 0x{addr:x} is in no PT_LOAD segment's file bytes")


T0, T1 = 5, 6


def i_type(opcode, funct3, rd, rs1, imm):
    return (imm & 0xFFF) << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode


def lui(rd, imm20):
    return (imm20 & 0xFFFFF) << 12 | rd << 7 | 0x37


addi = lambda rd, rs1, imm: i_type(0x13, 0, rd, rs1, imm)
slli = lambda rd, rs1, sh: i_type(0x13, 1, rd, rs1, sh)
ld = lambda rd, rs1, imm: i_type(0x03, 3, rd, rs1, imm)

SPAD_BASE, DRAM_BASE = 0x1_0000, 0x8000_0000  # sysnode-facts §1.4
entry = symbol("sn_runner_run")
cases = {
    # t0 = SPAD base; ld t1, 4(t0)
    "spad": ([lui(T0, SPAD_BASE >> 12), ld(T1, T0, 4)], SPAD_BASE + 4),
    # t0 = 1 << 31 (cached DRAM: li would sign-extend lui 0x80000); ld t1, 4(t0)
    "dram": ([addi(T0, 0, 1), slli(T0, T0, 31), ld(T1, T0, 4)], DRAM_BASE + 4),
}
for region, (words, address) in cases.items():
    bad = bytearray(elf)
    at = file_offset(entry)
    for k, w in enumerate(words):
        struct.pack_into("<I", bad, at + 4 * k, w)
    path = os.path.join(work, f"runner-misaligned-{region}.elf")
    open(path, "wb").write(bad)
    pc = entry + 4 * (len(words) - 1)
    # the trap comes before the first round: a short cap keeps a run that does not trap short
    run = subprocess.run([sysnode, "run", case, "--image", path, "--max-cycles", "1000000"], capture_output=True,
                         text=True)
    out = run.stdout + run.stderr
    want = f"trap: mcause=0x4 mepc=0x{pc:x} mtval=0x{address:x}"
    assert run.returncode != 0, f"{region}: the run passed: {out}"
    assert want in out, f"{region}: expected \"{want}\" in: {out}"
    print(f"PASS: misaligned ld in {region} at pc 0x{pc:x}: {want}")
