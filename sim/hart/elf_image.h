/* Loads a SysNode runner ELF through libelf, by load address, into the
 * SysNode's named regions (IMEM, SPAD), refusing what the real core cannot
 * run, and lists the counter-CSR reads the hart must serve with simulated
 * time. Facts: sysnode-facts §1.1 (RV64IMA + Zicsr, no C, no F/D), §1.4
 * (memory map: IMEM is fetch-only), §1.2 (counter CSRs); STYLE 11. */
#ifndef SN_ELF_IMAGE_H
#define SN_ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* One loadable segment as the hart writes it. */
typedef struct sn_elf_segment {
    uint64_t addr;  /* CPU byte address of bytes[0] (the load address) */
    uint64_t memsz; /* bytes */
    uint8_t *bytes; /* memsz bytes; those past the file's bytes are zero */
} sn_elf_segment;

/* A counter-CSR instruction (SYSTEM opcode, CSR funct3, csr in cycle 0xC00,
 * time 0xC01, instret 0xC02, mcycle 0xB00, minstret 0xB02): Unicorn reads the
 * host clock there (tool-pitfalls 3), so the hart serves it. */
typedef struct sn_elf_counter_csr {
    uint64_t addr;   /* instruction address */
    uint32_t word;   /* the instruction */
    unsigned rd;     /* destination register */
    unsigned rs1;    /* source register, or the 5-bit immediate when funct3 >= 5 */
    unsigned funct3; /* 1 csrrw, 2 csrrs, 3 csrrc, 5 csrrwi, 6 csrrsi, 7 csrrci */
    unsigned csr;    /* CSR number */
} sn_elf_counter_csr;

typedef struct sn_elf_image {
    uint64_t entry;              /* e_entry */
    sn_elf_segment *segments;    /* sorted by addr, non-overlapping */
    size_t segment_count;
    sn_elf_counter_csr *counter_csrs; /* sorted by addr */
    size_t counter_csr_count;
} sn_elf_image;

/* Loads the ELF at path into out. Every PT_LOAD segment with memsz > 0 is
 * taken by its load address (p_paddr, which must equal p_vaddr: nothing
 * copies data at run time); the .bss rule: the memsz - filesz bytes past a
 * segment's file bytes are zero-filled here, so crt0's own zeroing is only
 * a second pass.
 * Refuses (returns -1 with the reason in err, out left empty), checking in
 * this order:
 *  - a file that is not an ELF64 little-endian ET_EXEC for EM_RISCV;
 *  - e_flags with EF_RISCV_RVC (the core has no C) or a float ABI
 *    (EF_RISCV_FLOAT_ABI bits; the core has no F/D);
 *  - an SHF_ALLOC section, named with its range, outside IMEM [0, 0x8000)
 *    and SPAD [0x1_0000, 0x1_8000) (DRAM-resident code is a later feature),
 *    not SHF_EXECINSTR in IMEM ("loadable data placed in IMEM: the core
 *    serves no data reads there"), or SHF_EXECINSTR outside IMEM (the core
 *    fetches only from IMEM);
 *  - a PT_LOAD segment outside those regions, writable in IMEM, with
 *    filesz > memsz, with p_paddr != p_vaddr, or overlapping another;
 *  - in an executable section, a compressed (16-bit) or floating-point
 *    instruction (LOAD-FP, STORE-FP, FMADD/FMSUB/FNMSUB/FNMADD, OP-FP),
 *    reported with its address and word; an all-zero word is alignment
 *    padding and allowed.
 * err gets a NUL-terminated message of at most errlen bytes. */
int sn_elf_image_load(const char *path, sn_elf_image *out, char *err, size_t errlen);

/* Releases what sn_elf_image_load allocated; img becomes empty. Safe on an
 * empty or already freed image. */
void sn_elf_image_free(sn_elf_image *img);

#endif
