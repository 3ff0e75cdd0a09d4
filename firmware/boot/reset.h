/* The reset steps every SysNode image takes before C (sysnode-facts §1.3,
 * §1.6): gp and sp from the linker script, mtvec pointed at \trap (direct
 * mode), then .bss zeroed from __bss_start to __bss_end, 32 bytes per
 * iteration (the linker scripts align both to 32): four 2-cycle scratchpad
 * stores and one taken branch per 32 bytes, where a doubleword per turn
 * with the test at the top cost 7 to 8 cycles per 8 bytes (core-timing §3,
 * §5.2). Clobbers t0, t1. Used by boot/crt0.S and bsp/crt0.S. */
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
    beq t0, t1, 2f
1:  sd zero, 0(t0)
    sd zero, 8(t0)
    sd zero, 16(t0)
    sd zero, 24(t0)
    addi t0, t0, 32
    bltu t0, t1, 1b
2:
.endm
