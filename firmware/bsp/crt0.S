/* Reset entry of a picolibc image on the SysNode: gp, sp, tp (the TLS block
 * in place), a trap vector, .tbss and .bss zeroed, then exit(main()). A
 * trap exits with code 0x100 + mcause. Sources: sysnode-facts §1.3 (reset
 * PC 0), §1.6 (crt0), §1.7 (EXIT). */
#include "sysnode/regs.h"

    .section .text.init, "ax"
    .globl _start
_start:
    .option push
    .option norelax /* else gp would be set relative to itself (tool-pitfalls 12) */
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top
    la tp, __tls_base
    la t0, bsp_trap
    csrw mtvec, t0
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 1b
2:  li a0, 0
    li a1, 0
    call main
    call exit
3:  j 3b

    .align 2
bsp_trap:
    csrr t1, mcause
    ori t1, t1, 0x100
    li t0, SN_CTRL_BASE
    sd t1, SN_CTRL_EXIT(t0)
4:  j 4b
