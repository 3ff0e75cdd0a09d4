/* Sv39 below M (sysnode-facts §1.1): three levels of tables in SPAD map VA
 * [0, 0x20000) page by page onto the same PA (user, RWX), except VA page
 * 0x10000, which maps PA 0x11000; VA page 0x20000 (the control region's
 * address) is not mapped. U stores 42
 * at VA 0x10400 (PA SPAD + 0x1400), then loads from VA 0x20000: load
 * page fault (13) to M, mtval the VA. The handler records {mcause, mepc,
 * mtval} at SPAD + 0x800 and exits with code 1. */
#include "sysnode/regs.h"
#include "to_user.h"

#define ROOT (SN_SPAD_BASE + 0x2000)
#define MID (SN_SPAD_BASE + 0x3000)
#define LEAF (SN_SPAD_BASE + 0x4000)
#define PTE_TABLE 0x01 /* V */
#define PTE_PAGE 0xDF  /* V R W X U A D */

    .text
    .globl _start
_start:
    la t0, on_fault
    csrw mtvec, t0
    li s0, SN_SPAD_BASE
    li t0, ROOT
    li t1, ((MID >> 12) << 10) | PTE_TABLE
    sd t1, 0(t0)
    li t0, MID
    li t1, ((LEAF >> 12) << 10) | PTE_TABLE
    sd t1, 0(t0)
    li t0, LEAF                 /* 32 pages: PPN i at entry i */
    li t2, 0
    li t3, 32
1:  slli t1, t2, 10
    ori t1, t1, PTE_PAGE
    sd t1, 0(t0)
    addi t0, t0, 8
    addi t2, t2, 1
    bne t2, t3, 1b
    li t0, LEAF + 8 * 0x10      /* VA page 0x10 -> PPN 0x11 */
    li t1, (0x11 << 10) | PTE_PAGE
    sd t1, 0(t0)
    li t0, (8 << 60) | (ROOT >> 12)
    csrw satp, t0
    mret_to_user user
    .p2align 7
user:
    li t0, SN_SPAD_BASE + 0x400 /* 0x100 */
    li t1, 42
    sd t1, 0(t0)
    li t0, SN_CTRL_BASE
    ld t1, 0(t0)                /* 0x114 */
1:  j 1b

on_fault:
    csrw satp, zero
    csrr t1, mcause
    csrr t2, mepc
    csrr t3, mtval
    addi t4, s0, 0x7f8
    sd t1, 8(t4)
    sd t2, 16(t4)
    sd t3, 24(t4)
    li t0, SN_CTRL_BASE
    li t1, 1
    sd t1, SN_CTRL_EXIT(t0)
1:  j 1b
