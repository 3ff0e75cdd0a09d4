/* Read-only data that the default linker script places right after .text,
 * in IMEM: the loader must refuse it, naming .rodata. */
    .text
    .globl _start
_start:
1:  j 1b

    .section .rodata
    .word 1
