/* Reset entry of a picolibc image on the SysNode: gp, sp, tp (the TLS block
 * in place), a trap vector, .tbss and .bss zeroed, then exit(main()). A
 * trap exits with code 0x100 + mcause. Sources: sysnode-facts §1.3 (reset
 * PC 0), §1.6 (crt0), §1.7 (EXIT). */
#include "sysnode/regs.h"
#include "../boot/reset.h"

    .section .text.init, "ax"
    .globl _start
_start:
    sn_reset bsp_trap
    la tp, __tls_base
    li a0, 0
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
