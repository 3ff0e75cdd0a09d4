/* Code in DRAM runs, fetched through the I-cache, which only fence.i keeps
 * coherent (sysnode-facts §1.1, §1.5: 2 lines of 32 bytes; T-FI's
 * stale-then-fresh; core-timing §4.2, KohakuTPU
 * src/kohakuaccel/pe/rv64-sys/core/rv64_icache.v@e9de8c08). A one-line routine
 * is written to DRAM through the uncached alias (the I-cache fills from DRAM,
 * not from the L1), fenced and called; then rewritten and called again without
 * fence.i (the stale line answers), then after fence.i (the new code answers).
 * A routine of DCODE_LONG addi's and a ret, three lines, runs from DRAM too.
 * The four a0 values go to SPAD + 0x800. Exit code: 0. */
#include "sysnode/regs.h"
#include "card_values.h"

#define UNC(pa) ((1 << SN_UNCACHED_BIT) | (pa))

/* copy from, to, bytes (a multiple of 8): through t0-t3 */
.macro copy from, to, n
    la t0, \from
    li t1, UNC(\to)
    li t2, \n
1:  ld t3, 0(t0)
    sd t3, 0(t1)
    addi t0, t0, 8
    addi t1, t1, 8
    addi t2, t2, -8
    bnez t2, 1b
.endm

    .text
    .globl _start
_start:
    li s0, SN_SPAD_BASE + 0x800
    li s2, DCODE_ADDR
    copy v1, DCODE_ADDR, 8
    fence.i
    jalr ra, 0(s2)
    sd a0, 0(s0)
    copy v2, DCODE_ADDR, 8
    jalr ra, 0(s2)
    sd a0, 8(s0)
    fence.i
    jalr ra, 0(s2)
    sd a0, 16(s0)
    copy long, DCODE_LONG_ADDR, (DCODE_LONG + 2) * 4
    fence.i
    li s2, DCODE_LONG_ADDR
    jalr ra, 0(s2)
    sd a0, 24(s0)
    li t0, SN_CTRL_BASE
    sd zero, SN_CTRL_EXIT(t0)
1:  j 1b

    /* The routines as data in SPAD: the window loads them there, and the
       program copies them to DRAM. */
    .data
    .p2align 3
v1: li a0, DCODE_V1
    ret
v2: li a0, DCODE_V2
    ret
long:
    li a0, 0
    .rept DCODE_LONG
    addi a0, a0, 1
    .endr
    ret
