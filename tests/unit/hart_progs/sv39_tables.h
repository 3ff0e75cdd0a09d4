/* One 4 KiB Sv39 leaf (RISC-V privileged spec §4.4) for a VA below 2 MiB:
 * root -> mid -> leaf tables in DRAM, each entry written through the uncached
 * alias, since the walker reads DRAM and not the L1 (core-timing §10). For
 * the hart programs' .S files (after sysnode/regs.h); uses t0 and t1. */
#ifndef SN_HART_PROGS_SV39_TABLES_H
#define SN_HART_PROGS_SV39_TABLES_H

#define UNC(pa) ((1 << SN_UNCACHED_BIT) | (pa))
#define PTE_TABLE 0x01 /* V */

/* Maps va to pa with leaf permission bits pte, through tables at root, mid, leaf. */
.macro SV39_MAP_4K root, mid, leaf, va, pa, pte
    li t0, UNC(\root)
    li t1, ((\mid >> 12) << 10) | PTE_TABLE
    sd t1, 0(t0)
    li t0, UNC(\mid)
    li t1, ((\leaf >> 12) << 10) | PTE_TABLE
    sd t1, 0(t0)
    li t0, UNC(\leaf) + 8 * (\va >> 12)
    li t1, ((\pa >> 12) << 10) | \pte
    sd t1, 0(t0)
.endm

#endif
