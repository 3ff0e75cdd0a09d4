/* Loads a SysNode runner ELF through libelf, by load address, into the
 * SysNode's named regions (IMEM, SPAD), refusing what the real core cannot
 * run, and pushes it through the host window's IMEM and SPAD writes, so the
 * host's transport and the simulator share one loader. Facts: sysnode-facts
 * §1.1 (RV64IMA + Zicsr, no C, no F/D), §1.3 (reset PC 0, host window),
 * §1.4 (memory map: IMEM is fetch-only); STYLE 11. */
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

typedef struct sn_elf_image {
    uint64_t entry;           /* e_entry: always 0 in a loaded image */
    sn_elf_segment *segments; /* sorted by addr, non-overlapping */
    size_t segment_count;
} sn_elf_image;

/* Loads the ELF at path into out. Every PT_LOAD segment with memsz > 0 is
 * taken by its load address (p_paddr, which must equal p_vaddr: nothing
 * copies data at run time); the .bss rule: the memsz - filesz bytes past a
 * segment's file bytes are zero-filled here, so crt0's own zeroing is only
 * a second pass.
 * Refuses (returns -1 with the reason in err, out left empty), checking in
 * this order:
 *  - a path that is not a regular file (a directory, device, FIFO or
 *    socket: never opened for reading, so a FIFO cannot block the load);
 *  - a file that does not start with the ELF magic; one cut short, named as
 *    "truncated" with the range that lies past its end: the ELF header, the
 *    program or section header table, a section's or a segment's file bytes;
 *  - a file that is not an ELF64 little-endian ET_EXEC for EM_RISCV, or
 *    whose e_phentsize or e_shentsize is not the ELF64 entry size;
 *  - e_flags with EF_RISCV_RVC (the core has no C) or a float ABI
 *    (EF_RISCV_FLOAT_ABI bits; the core has no F/D);
 *  - an SHF_ALLOC section, named with its range, outside IMEM [0, 0x8000)
 *    and SPAD [0x1_0000, 0x1_8000) (the host window loads only those),
 *    or not SHF_EXECINSTR in IMEM ("loadable data placed in IMEM: the core
 *    serves no data reads there"); code in SPAD loads (an image copies it
 *    to DRAM to run it there);
 *  - a PT_LOAD segment outside those regions, writable in IMEM, with
 *    filesz > memsz (memsz 0 included), with p_paddr != p_vaddr, in IMEM at an address that is
 *    not 4-aligned (the window writes IMEM in whole words), or overlapping
 *    another;
 *  - e_entry other than 0 (the reset PC is fixed at 0, sysnode-facts §1.3);
 *  - in the bytes an IMEM-bound PT_LOAD segment loads, whatever section (or
 *    none) holds them, a compressed (16-bit) or floating-point instruction
 *    (LOAD-FP, STORE-FP, FMADD/FMSUB/FNMSUB/FNMADD, OP-FP), reported with
 *    its address, word and section; an all-zero word is alignment padding
 *    and allowed. Other words the card lacks load, and trap when executed
 *    (card_isa.h).
 * err gets a NUL-terminated message of at most errlen bytes. */
int sn_elf_image_load(const char *path, sn_elf_image *out, char *err, size_t errlen);

/* Releases what sn_elf_image_load allocated; img becomes empty. Safe on an
 * empty or already freed image. */
void sn_elf_image_free(sn_elf_image *img);

/* The host window's writes (sysnode-facts §1.3), each returning 0 or -1:
 * imem_write one 32-bit word at IMEM byte address addr (4-aligned);
 * spad_write one 64-bit word at SPAD byte offset off (8-aligned), byte k of
 * value (little-endian) written where bit k of strobes is set. */
typedef int (*sn_imem_write_fn)(void *ctx, uint32_t addr, uint32_t word);
typedef int (*sn_spad_write_fn)(void *ctx, uint32_t off, uint64_t value, uint8_t strobes);

/* Pushes img's segments through the window in address order: IMEM one
 * word per write (a segment's last word zero-padded), SPAD one 64-bit word
 * per write with strobes set for the segment's bytes only, so a partial
 * word leaves its neighbours' bytes alone; .bss goes as written zeros (its
 * bytes in img are zero). Does not boot. Returns 0, or -1 with the reason
 * (naming the address) in err (errlen bytes) if a segment is outside IMEM
 * and SPAD, an IMEM segment is not 4-aligned, or a callback returns -1;
 * words pushed before the failure stay written. */
int sn_elf_image_push(const sn_elf_image *img, sn_imem_write_fn imem_write, sn_spad_write_fn spad_write, void *ctx,
                      char *err, size_t errlen);

#endif
