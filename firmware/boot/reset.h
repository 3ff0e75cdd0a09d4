/* The reset steps every SysNode image takes before C (sysnode-facts §1.3,
 * §1.6): gp and sp from the linker script, mtvec pointed at \trap (direct
 * mode), then .bss zeroed a doubleword at a time from __bss_start to
 * __bss_end. Clobbers t0, t1. Used by boot/crt0.S and bsp/crt0.S. */
.macro sn_reset trap
    /* Under relaxation gp would be set relative to itself (tool-pitfalls 12). */
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top
    la t0, \trap
    csrw mtvec, t0
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 1b
2:
.endm
