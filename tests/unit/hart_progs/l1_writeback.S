/* Write-back (sysnode-facts §1.5): a cached store reaches DRAM only at a
 * DCACHE flush or when a conflicting line (same index, 2 KB away) evicts
 * it. test_hart snapshots DRAM at each store to SIGNAL (value = checkpoint)
 * and checks the cycles between the rdcycles around each flush store. */
#include "sysnode/regs.h"

#define SIGNAL SN_MBOX_ARG3

    .text
    .globl _start
_start:
    li t0, SN_DRAM_CPU_BASE
    li t1, SN_DRAM_CPU_BASE + 0x800 /* 2 KB on: the same L1 indices */
    li s1, SN_CTRL_BASE
    li a0, 0x1111111111111111
    sd a0, 0x500(t0)           /* store miss: allocated, dirty */
    li a1, 0
    sd a1, SIGNAL(s1)          /* checkpoint 0: DRAM 0x500 still old */
    li a2, 1
    rdcycle s2
    sd a2, SN_CTRL_DCACHE(s1)  /* flush: one line written back */
    rdcycle s3
    sub s3, s3, s2
    sd s3, SN_MBOX_ARG0(s1)    /* the store's 2 cycles and the rdcycle's first */
    li a1, 1
    sd a1, SIGNAL(s1)          /* checkpoint 1: DRAM 0x500 new */
    rdcycle s2
    sd a2, SN_CTRL_DCACHE(s1)  /* flush with nothing dirty */
    rdcycle s3
    sub s3, s3, s2
    sd s3, SN_MBOX_ARG0(s1)    /* the same: the scan runs on its own */
    li a0, 0x2222222222222222
    sd a0, 0x508(t0)           /* hit: dirty again */
    li a1, 2
    sd a1, SIGNAL(s1)          /* checkpoint 2: DRAM 0x508 still old */
    ld a3, 0x508(t1)           /* DRAM 0xd08: same index, other tag: evicts the dirty line */
    li a1, 3
    sd a1, SIGNAL(s1)          /* checkpoint 3: DRAM 0x508 new */
    sd a3, SN_CTRL_EXIT(s1)    /* the conflicting line's word */
1:  j 1b
