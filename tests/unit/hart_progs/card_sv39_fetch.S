/* Sv39 translates fetches (RISC-V privileged spec §4.3; sysnode-facts §1.1):
 * S-mode code at VA SV39_VA runs the bytes at PA SV39_PA, its CSR access and
 * ecall included, while the IMEM word at the VA's own address holds other
 * instructions; then a fetch from the unmapped SV39_UNMAPPED is an instruction
 * page fault (12), mepc and mtval the VA. The tables are in DRAM, written
 * through the uncached alias, since the walker reads DRAM and not the L1
 * (core-timing §10, KohakuTPU
 * src/kohakuaccel/pe/rv64-sys/core/rv64_mmu.v@3dfb7ca8): root 0x8010_0000 ->
 * 0x8010_1000 -> leaf table 0x8010_2000 with one 4 KiB leaf (V R X A D) for
 * the VA. Records: {mcause, mepc, mtval} of trap n at SPAD + 32n, a0 and a1 at
 * the first trap at SPAD + 0x800. Exit code: the trap count. */
#include "sysnode/regs.h"
#include "card_values.h"
#include "sv39_tables.h"

#define ROOT 0x80100000
#define MID 0x80101000
#define LEAF 0x80102000
#define PTE_CODE 0xCB  /* V R X A D */

    .text
    .globl _start
_start:
    la t0, on_trap
    csrw mtvec, t0
    li s0, SN_SPAD_BASE
    li s1, 0
    SV39_MAP_4K ROOT, MID, LEAF, SV39_VA, SV39_PA, PTE_CODE
    li t0, SV39_SCRATCH
    csrw sscratch, t0
    li t0, (8 << 60) | (ROOT >> 12)
    csrw satp, t0
    sfence.vma
    li t0, SV39_VA
    csrw mepc, t0
    li t0, 3 << 11
    csrc mstatus, t0
    li t0, 1 << 11              /* MPP = S */
    csrs mstatus, t0
    li a0, 0
    li a1, 0
    mret

on_trap:
    slli t4, s1, 5
    add t4, t4, s0
    csrr t1, mcause
    csrr t2, mepc
    csrr t3, mtval
    sd t1, 0(t4)
    sd t2, 8(t4)
    sd t3, 16(t4)
    addi s1, s1, 1
    li t0, 1
    bne s1, t0, done
    addi t4, s0, 0x7f8
    sd a0, 8(t4)
    sd a1, 16(t4)
    li t0, SV39_UNMAPPED        /* back to S (MPP is S again), at the unmapped page */
    csrw mepc, t0
    mret
done:
    li t0, SN_CTRL_BASE
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b

    .org SV39_VA                /* what a fetch by VA, not PA, would run */
    li a0, SV39_A0_AT_VA
    li a1, 0
    ebreak

    .org SV39_PA                /* what runs at SV39_VA */
    li a0, SV39_A0
    csrr a1, sscratch
    ecall
