/* The card's CSR file (sysnode-facts §1.2): each CSR is written all ones
 * (or a probe value) and read back; word k of SPAD gets the k-th value
 * below. Exit code 0. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li s0, SN_SPAD_BASE
    li t6, -1
    csrr a0, misa
    sd a0, 0(s0)              /* 0: misa */
    csrw misa, zero
    csrr a0, misa
    sd a0, 8(s0)              /* 1: misa after a write */
    li t0, 0x10003
    csrw mtvec, t0
    csrr a0, mtvec
    sd a0, 16(s0)             /* 2: mtvec: direct only */
    csrw mstatus, t6
    csrr a0, mstatus
    sd a0, 24(s0)             /* 3: mstatus: no FS, XS, SD */
    csrw mstatus, zero
    csrw mie, t6
    csrr a0, mie
    sd a0, 32(s0)             /* 4: mie */
    csrw mie, zero
    csrw medeleg, t6
    csrr a0, medeleg
    sd a0, 40(s0)             /* 5: medeleg */
    csrw mideleg, t6
    csrr a0, mideleg
    sd a0, 48(s0)             /* 6: mideleg */
    csrw mip, t6
    csrr a0, mip
    sd a0, 56(s0)             /* 7: mip: SSIP STIP SEIP */
    csrr a0, sip
    sd a0, 64(s0)             /* 8: sip: those delegated */
    csrw mip, zero
    li t0, 0x123456789
    csrw 0x7c0, t0
    csrr a0, 0x7c0
    sd a0, 72(s0)             /* 9: mtimecmp */
    csrr a0, mhartid
    sd a0, 80(s0)             /* 10: mhartid */
    csrw satp, t6
    csrr a0, satp
    sd a0, 88(s0)             /* 11: satp: MODE 15 is refused (WARL) */
    li t0, (8 << 60) | (0xffff << 44) | 0xfffffffff
    csrw satp, t0
    csrr a0, satp
    sd a0, 96(s0)             /* 12: satp: Sv39, no ASID, 28-bit PPN */
    csrw satp, zero
    csrw sstatus, t6
    csrr a0, sstatus
    sd a0, 104(s0)            /* 13: sstatus */
    csrr a0, mstatus
    sd a0, 112(s0)            /* 14: mstatus after sstatus */
    li t0, SN_CTRL_BASE
    sd zero, SN_CTRL_EXIT(t0)
1:  j 1b
