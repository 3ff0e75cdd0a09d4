/* S-mode code at VA 0x5000, mapped by a 4 KiB leaf (V R X A D) to PA
 * 0x8001_0000, the first byte past the test's 64 KiB of DRAM: the fetch
 * stops the run, naming the VA and the physical address. Tables in DRAM,
 * written through the uncached alias. */
#include "sysnode/regs.h"

#define UNC(pa) ((1 << SN_UNCACHED_BIT) | (pa))
#define ROOT 0x80001000
#define MID 0x80002000
#define LEAF 0x80003000
#define VA 0x5000
#define PA 0x80010000

    .text
    .globl _start
_start:
    li t0, UNC(ROOT)
    li t1, ((MID >> 12) << 10) | 0x01
    sd t1, 0(t0)
    li t0, UNC(MID)
    li t1, ((LEAF >> 12) << 10) | 0x01
    sd t1, 0(t0)
    li t0, UNC(LEAF) + 8 * (VA >> 12)
    li t1, ((PA >> 12) << 10) | 0xCB
    sd t1, 0(t0)
    li t0, (8 << 60) | (ROOT >> 12)
    csrw satp, t0
    sfence.vma
    li t0, VA
    csrw mepc, t0
    li t0, 3 << 11
    csrc mstatus, t0
    li t0, 1 << 11 /* MPP = S */
    csrs mstatus, t0
    mret
