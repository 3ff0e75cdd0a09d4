/* The Sv39 erratum reuses the address of the access before (core-timing
 * §10): after `sb` at the last byte of SPAD, a store to the same page
 * right after it is issued at that byte whatever its size. An 8-byte store
 * there would reach 7 bytes past SPAD; the card's result is unknown, so the
 * run stops naming it (the sd is at 0x84). Data accesses are translated
 * through MPRV with MPP = S; one 4 KiB leaf maps SPAD's last page to itself.
 * Tables in DRAM, written through the uncached alias (the walker reads DRAM,
 * not the L1). Exit 0x11 if the store completes. */
#include "sysnode/regs.h"
#include "sv39_tables.h"

#define ROOT 0x80001000
#define MID 0x80002000
#define LEAF 0x80003000
#define PAGE 0x17000
#define PTE_DATA 0xC7  /* V R W A D */

    .text
    .globl _start
_start:
    SV39_MAP_4K ROOT, MID, LEAF, PAGE, PAGE, PTE_DATA
    li t0, (8 << 60) | (ROOT >> 12)
    csrw satp, t0
    sfence.vma
    li t0, (1 << 17) | (1 << 11) /* MPRV, MPP = S */
    csrs mstatus, t0
    li t0, PAGE + 0x800
    li a1, -1
    sb a1, 0x7ff(t0)             /* the last byte of SPAD */
    sd a1, -0x800(t0)            /* same page, same kind: issued at the sb's address */
    li t0, SN_CTRL_BASE
    li a0, 0x11
    sd a0, SN_CTRL_EXIT(t0)
1:  j 1b
