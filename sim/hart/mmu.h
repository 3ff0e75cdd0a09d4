/* Sv39 (sysnode-facts §1.1, core-timing §10): active below M with
 * satp.MODE = 8 (and for M's data accesses with MPRV set and MPP below M);
 * a 32-entry TLB, direct-mapped by VPN[4:0], shared by fetch and data, every
 * mapping cached as 4 KiB pages; sfence.vma empties it. Page-table entries
 * are read from physical memory (SPAD or DRAM) without the L1. */
#ifndef SN_MMU_H
#define SN_MMU_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { SN_XLATE_FETCH, SN_XLATE_LOAD, SN_XLATE_STORE } sn_xlate_kind;

typedef struct sn_tlb_entry {
    bool valid;
    uint64_t vpn, ppn;
    uint8_t pte; /* the leaf's flag bits: V R W X U G A D */
} sn_tlb_entry;

typedef struct sn_mmu {
    sn_tlb_entry tlb[32];
    uint64_t clear_until; /* sfence.vma's clear: translated accesses wait before this cycle */
    /* fetch: the one-page latch */
    bool latch_valid;
    uint64_t latch_vpn, latch_ppn, latch_ready;
    uint8_t latch_cause; /* 0, or the fetch page fault's mcause */
    /* data: the previous access, for the back-to-back rule */
    bool last_valid;
    sn_xlate_kind last_kind;
    uint64_t last_vpn, last_pa;
} sn_mmu;

struct sn_hart;

/* Translates va for kind at privilege priv (the effective level): 0 with
 * the physical address in *pa, or the page fault's mcause (12, 13, 15).
 * *levels is the number of page-table levels walked (0: TLB hit). */
unsigned sn_mmu_translate(struct sn_hart *h, uint64_t va, sn_xlate_kind kind, unsigned priv, uint64_t *pa,
                          unsigned *levels);

/* sfence.vma leaving E in cycle: the TLB empties over 32 cycles. */
void sn_mmu_sfence(sn_mmu *m, uint64_t cycle);

#endif
