/* Sv39; see mmu.h. The walk is the privileged specification's (4.3.2,
 * Sv39: 3 levels, 9-bit VPN fields, 44-bit PPN, superpages aligned); A and
 * D are not set by the walker: a leaf with A clear, or D clear for a
 * store, faults. */
#include "mmu.h"

#include <string.h>

#include "card_csr.h"
#include "core.h"

enum { PTE_V = 1, PTE_R = 2, PTE_W = 4, PTE_X = 8, PTE_U = 16, PTE_A = 64, PTE_D = 128 };

static bool read_pte(const sn_hart *h, uint64_t pa, uint64_t *pte)
{
    if (pa % 8 != 0)
        return false;
    if (pa >= SN_SPAD_BASE && pa - SN_SPAD_BASE < SN_SPAD_SIZE) {
        memcpy(pte, h->mem->spad + (pa - SN_SPAD_BASE), 8);
        return true;
    }
    uint64_t off = (pa & ~(1ull << SN_UNCACHED_BIT)) - SN_DRAM_CPU_BASE;
    if (pa >= SN_DRAM_CPU_BASE && off < h->dram_size && h->dram_size - off >= 8) {
        memcpy(pte, h->dram + off, 8);
        return true;
    }
    return false;
}

static unsigned fault(sn_xlate_kind kind)
{
    return kind == SN_XLATE_FETCH ? SN_CAUSE_FETCH_PAGE : kind == SN_XLATE_LOAD ? SN_CAUSE_LOAD_PAGE : SN_CAUSE_STORE_PAGE;
}

static bool allowed(const sn_hart *h, uint8_t pte, sn_xlate_kind kind, unsigned priv)
{
    if (!(pte & PTE_A))
        return false;
    bool user = pte & PTE_U;
    if (priv == SN_PRIV_U && !user)
        return false;
    if (priv == SN_PRIV_S && user && (kind == SN_XLATE_FETCH || !(h->mstatus & (1ull << 18)))) /* SUM */
        return false;
    switch (kind) {
    case SN_XLATE_FETCH:
        return pte & PTE_X;
    case SN_XLATE_LOAD:
        return (pte & PTE_R) || ((pte & PTE_X) && (h->mstatus & (1ull << 19))); /* MXR */
    default:
        return (pte & PTE_W) && (pte & PTE_D);
    }
}

unsigned sn_mmu_translate(sn_hart *h, uint64_t va, sn_xlate_kind kind, unsigned priv, uint64_t *pa,
                          unsigned *levels)
{
    *levels = 0;
    if ((uint64_t)((int64_t)(va << 25) >> 25) != va) /* bits 63:39 must equal bit 38 */
        return fault(kind);
    uint64_t vpn = (va >> 12) & 0x7FFFFFFull;
    sn_tlb_entry *t = &h->mmu.tlb[vpn & 31];
    if (!(t->valid && t->vpn == vpn)) {
        uint64_t table = (h->satp & 0xFFFFFFFull) << 12, pte = 0;
        int level;
        for (level = 2; level >= 0; level--) {
            ++*levels;
            uint64_t index = (vpn >> (9 * level)) & 0x1FF;
            if (!read_pte(h, table + 8 * index, &pte) || !(pte & PTE_V) || (!(pte & PTE_R) && (pte & PTE_W)))
                return fault(kind);
            if (pte & (PTE_R | PTE_X))
                break;
            table = ((pte >> 10) & 0xFFFFFFFFFFFull) << 12;
        }
        if (level < 0)
            return fault(kind);
        uint64_t ppn = (pte >> 10) & 0xFFFFFFFFFFFull, low = (1ull << (9 * level)) - 1;
        if (ppn & low) /* a misaligned superpage */
            return fault(kind);
        t->valid = true;
        t->vpn = vpn;
        t->ppn = ppn | (vpn & low);
        t->pte = (uint8_t)pte;
    }
    if (!allowed(h, t->pte, kind, priv))
        return fault(kind);
    *pa = t->ppn << 12 | (va & 0xFFF);
    return 0;
}

/* The 32-cycle clear counts from the sfence.vma's own E cycle: translated
 * accesses wait until cycle + 31 (the whole-run cycles of the sv39_* rows of
 * core-timing/expected.tsv). */
void sn_mmu_sfence(sn_mmu *m, uint64_t cycle)
{
    memset(m->tlb, 0, sizeof m->tlb);
    m->clear_until = cycle + 31;
    m->latch_valid = false;
    m->last_valid = false;
}
