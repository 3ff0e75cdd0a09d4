/* DRAM through its base and its uncached alias (bit 38): test_hart presets
 * the 64-bit word at DRAM offset 0x100 and checks offsets 0x208 (a cached
 * store, in DRAM after the DCACHE flush) and 0x300; the exit code is the
 * word at 0x100 read through the base. Its .data and
 * .bss (one segment at SPAD: 8 file bytes, 64 in memory) test the .bss rule. */
#include "sysnode/regs.h"
#include "dram_views.h"

    dram_views_start
    ld a1, 0x100(t1)
    addi a1, a1, 1
    sd a1, 0x208(t0)
    li a2, 0x5a
    sb a2, 0x300(t1)
    ld a0, 0x100(t0)
    li t2, SN_CTRL_BASE
    li a3, 1
    sd a3, SN_CTRL_DCACHE(t2)
    sd a0, SN_CTRL_EXIT(t2)
1:  j 1b

    .data
    .quad 0x1122334455667788
    .bss
    .space 56
