/* The DCACHE busy bit and its erratum (core-timing §5.6, KohakuTPU
 * src/kohakuaccel/pe/rv64-sys/core/rv64_l1.v@ab5d30a8,
 * rv64_syscore.v@1a77e97e): a flush keeps the L1 busy for about 131 cycles
 * even when clean, but a read of 0x1C8 directly after the store that starts it
 * reads 0; with one instruction between, it reads 1. The L1's own scan after
 * reset is waited out first, and each flush is polled until it ends. The two
 * reads go to SPAD + 0x800 and 0x808. Exit code: 0. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li s0, SN_SPAD_BASE + 0x800
    li t0, SN_CTRL_BASE
    li t1, 1
0:  ld t2, SN_CTRL_DCACHE(t0)
    bnez t2, 0b
    sd t1, SN_CTRL_DCACHE(t0)
    ld a0, SN_CTRL_DCACHE(t0)
1:  ld t2, SN_CTRL_DCACHE(t0)
    bnez t2, 1b
    sd t1, SN_CTRL_DCACHE(t0)
    nop
    ld a1, SN_CTRL_DCACHE(t0)
2:  ld t2, SN_CTRL_DCACHE(t0)
    bnez t2, 2b
    sd a0, 0(s0)
    sd a1, 8(s0)
    sd zero, SN_CTRL_EXIT(t0)
3:  j 3b
