/* CSRs, traps and interrupts; see csr.h. */
#include "csr.h"

#include "card_csr.h"
#include "core.h"

#define LINE_BITS ((1ull << SN_IRQ_MEI) | (1ull << SN_IRQ_MSI))

static uint64_t *field(sn_hart *h, sn_csr_field f)
{
    switch (f) {
    case SN_CSR_F_MSTATUS:
        return &h->mstatus;
    case SN_CSR_F_MIE:
        return &h->mie;
    case SN_CSR_F_STVEC:
        return &h->stvec;
    case SN_CSR_F_SSCRATCH:
        return &h->sscratch;
    case SN_CSR_F_SEPC:
        return &h->sepc;
    case SN_CSR_F_SCAUSE:
        return &h->scause;
    case SN_CSR_F_STVAL:
        return &h->stval;
    case SN_CSR_F_SATP:
        return &h->satp;
    case SN_CSR_F_MTVEC:
        return &h->mtvec;
    case SN_CSR_F_MSCRATCH:
        return &h->mscratch;
    case SN_CSR_F_MEPC:
        return &h->mepc;
    case SN_CSR_F_MCAUSE:
        return &h->mcause;
    case SN_CSR_F_MTVAL:
        return &h->mtval;
    default:
        return NULL;
    }
}

bool sn_csr_illegal(const sn_hart *h, const sn_insn *in)
{
    unsigned csr = in->csr;
    bool writes = in->fn == 1 || in->fn == 5 || in->rs1 != 0;
    if (in->csr_missing)
        return true;
    bool tvm = csr == 0x180 && h->priv == SN_PRIV_S && (h->mstatus & SN_MSTATUS_TVM);
    return (csr >> 8 & 3) > h->priv || (writes && (csr >> 10) == 3) || tvm;
}

/* The bus's lines as the core registered them for cycle (the mesh at cycle - 1). */
static uint64_t lines(sn_hart *h, uint64_t cycle)
{
    if (!h->bus.irq_lines)
        return 0;
    sn_core_advance(h, cycle ? cycle - 1 : 0);
    return h->bus.irq_lines(h->bus.ctx) & LINE_BITS;
}

static bool timer_due(const sn_hart *h, uint64_t cycle)
{
    if (cycle == 0)
        return false;
    uint64_t cmp = cycle - 1 >= h->mtimecmp_at ? h->mtimecmp : h->mtimecmp_old;
    return cycle - 1 >= cmp;
}

static uint64_t pending(sn_hart *h, uint64_t cycle, uint64_t want)
{
    uint64_t ip = h->mip_sw | (timer_due(h, cycle) ? 1ull << SN_IRQ_MTI : 0);
    if (want & LINE_BITS)
        ip |= lines(h, cycle);
    return ip;
}

static uint64_t counter(const sn_hart *h, unsigned csr, uint64_t cycle)
{
    switch (csr) {
    case 0xB00:
    case 0xC00:
        return cycle + h->mcycle_delta;
    case 0xC01:
        return cycle;
    default:
        return h->retired + h->minstret_delta;
    }
}

uint64_t sn_csr_execute(sn_hart *h, const sn_insn *in, uint64_t cycle)
{
    unsigned csr = in->csr, f3 = in->fn;
    const sn_card_csr *c = sn_card_csr_find(csr);
    bool writes = f3 == 1 || f3 == 5 || in->rs1 != 0;
    uint64_t *reg = field(h, c->field), wmask = c->mask, old = 0;
    if (c->kind == SN_CSR_COUNTER)
        sn_core_advance(h, cycle);
    switch (c->kind) {
    case SN_CSR_BACKED:
        old = *reg & c->mask;
        break;
    case SN_CSR_CONST:
        old = c->mask;
        wmask = 0;
        break;
    case SN_CSR_SHADOW:
        old = csr == 0x302 ? h->medeleg : csr == 0x303 ? h->mideleg : h->mtimecmp;
        break;
    case SN_CSR_IP:
        if (csr == 0x144)
            wmask &= h->mideleg;
        old = pending(h, cycle, LINE_BITS) & (csr == 0x144 ? h->mideleg : SN_IRQ_MASK);
        break;
    case SN_CSR_IE_S:
        wmask = h->mideleg;
        old = *reg & wmask;
        break;
    case SN_CSR_COUNTER:
        old = counter(h, csr, cycle);
        if (csr != 0xB00 && csr != 0xB02) /* time and the user aliases cannot be written */
            wmask = 0;
        break;
    }
    if (!writes || wmask == 0)
        return old;
    uint64_t src = f3 >= 5 ? in->rs1 : h->x[in->rs1];
    uint64_t v = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;
    switch (c->kind) {
    case SN_CSR_BACKED:
    case SN_CSR_IE_S:
        if (csr == 0x180 && (v >> 60) != 0 && (v >> 60) != SN_SATP_MODE_SV39)
            break; /* satp: an unsupported MODE leaves it unchanged (WARL) */
        if (csr == 0x300 && (v & SN_MSTATUS_MPP) == 2ull << SN_MSTATUS_MPP_LO)
            v = (v & ~SN_MSTATUS_MPP) | (*reg & SN_MSTATUS_MPP); /* MPP is WARL: no level 2 (§1.1) */
        *reg = (*reg & ~wmask) | (v & wmask);
        if (csr == 0x180) {
            h->mmu.latch_valid = false;
            sn_core_xlate(h);
        }
        break;
    case SN_CSR_SHADOW:
        if (csr == 0x302)
            h->medeleg = v & wmask;
        else if (csr == 0x303)
            h->mideleg = v & wmask;
        else { /* the compare sees it from the next cycle (core-timing §9) */
            h->mtimecmp_old = cycle >= h->mtimecmp_at ? h->mtimecmp : h->mtimecmp_old;
            h->mtimecmp = v;
            h->mtimecmp_at = cycle + 1;
        }
        break;
    case SN_CSR_IP:
        h->mip_sw = (h->mip_sw & ~wmask) | (v & wmask);
        break;
    case SN_CSR_COUNTER: /* §11: mcycle reads X in the next cycle; minstret X, then this csrw counted */
        if (csr == 0xB00)
            h->mcycle_delta = v - (cycle + 1);
        else
            h->minstret_delta = v - h->retired;
        break;
    case SN_CSR_CONST:
        break;
    }
    return old;
}

/* The causes that go to S below M: medeleg's, or mideleg's without the
 * timer, which is never delegated (sysnode-facts §1.2). */
static uint64_t delegated(const sn_hart *h, bool irq)
{
    return irq ? h->mideleg & ~(1ull << SN_IRQ_MTI) : h->medeleg;
}

bool sn_trap_halts(const sn_hart *h, uint64_t cause)
{
    bool to_m = h->priv == SN_PRIV_M || !(delegated(h, false) >> cause & 1);
    return to_m && h->mtvec == 0;
}

const char *sn_cause_name(uint64_t cause)
{
    static const char *const name[] = {
        [0] = "instruction address misaligned",
        [1] = "instruction access fault",
        [2] = "illegal instruction",
        [3] = "breakpoint",
        [4] = "load address misaligned",
        [5] = "load access fault",
        [6] = "store/AMO address misaligned",
        [7] = "store/AMO access fault",
        [8] = "ecall from U",
        [9] = "ecall from S",
        [11] = "ecall from M",
        [12] = "instruction page fault",
        [13] = "load page fault",
        [15] = "store/AMO page fault",
    };
    return cause < sizeof name / sizeof name[0] && name[cause] ? name[cause] : "unknown";
}

uint64_t sn_trap_enter(sn_hart *h, uint64_t epc, uint64_t cause, uint64_t tval)
{
    bool irq = cause & SN_INTERRUPT;
    unsigned from = h->priv;
    uint64_t ms = h->mstatus;
    h->reserved = false;
    if (from < SN_PRIV_M && (delegated(h, irq) >> (cause & 63) & 1)) {
        h->sepc = epc;
        h->scause = cause;
        h->stval = tval;
        h->mstatus = (ms & ~(SN_MSTATUS_SIE | SN_MSTATUS_SPIE | SN_MSTATUS_SPP)) |
                     (ms & SN_MSTATUS_SIE ? SN_MSTATUS_SPIE : 0) | (from == SN_PRIV_S ? SN_MSTATUS_SPP : 0);
        h->priv = SN_PRIV_S;
        sn_core_xlate(h);
        return h->stvec & ~3ull;
    }
    h->mepc = epc;
    h->mcause = cause;
    h->mtval = tval;
    h->mstatus = (ms & ~(SN_MSTATUS_MIE | SN_MSTATUS_MPIE | SN_MSTATUS_MPP)) | (ms & SN_MSTATUS_MIE ? SN_MSTATUS_MPIE : 0) |
                 (uint64_t)from << SN_MSTATUS_MPP_LO;
    h->priv = SN_PRIV_M;
    sn_core_xlate(h);
    return h->mtvec & ~3ull;
}

bool sn_xret_illegal(const sn_hart *h, bool mret)
{
    return h->priv < (mret ? SN_PRIV_M : SN_PRIV_S);
}

uint64_t sn_xret(sn_hart *h, bool mret)
{
    uint64_t ms = h->mstatus;
    h->reserved = false;
    if (mret) {
        h->priv = (unsigned)(ms >> SN_MSTATUS_MPP_LO & 3);
        h->mstatus = (ms & ~(SN_MSTATUS_MIE | SN_MSTATUS_MPP)) | (ms & SN_MSTATUS_MPIE ? SN_MSTATUS_MIE : 0) |
                     SN_MSTATUS_MPIE;
        if (h->priv != SN_PRIV_M)
            h->mstatus &= ~(1ull << 17); /* MPRV */
        sn_core_xlate(h);
        return h->mepc;
    }
    h->priv = ms & SN_MSTATUS_SPP ? SN_PRIV_S : SN_PRIV_U;
    h->mstatus = (ms & ~(SN_MSTATUS_SIE | SN_MSTATUS_SPP)) | (ms & SN_MSTATUS_SPIE ? SN_MSTATUS_SIE : 0) | SN_MSTATUS_SPIE;
    h->mstatus &= ~(1ull << 17);
    sn_core_xlate(h);
    return h->sepc;
}

int sn_irq_taken(sn_hart *h, uint64_t cycle)
{
    static const int order[] = {11, 3, 7, 9, 1, 5};
    uint64_t ie = h->mie & SN_IRQ_MASK;
    if (ie == 0)
        return -1;
    bool m_on = h->priv < SN_PRIV_M || (h->mstatus & SN_MSTATUS_MIE);
    bool s_on = h->priv < SN_PRIV_S || (h->priv == SN_PRIV_S && (h->mstatus & SN_MSTATUS_SIE));
    uint64_t deleg = delegated(h, true), can = 0;
    for (unsigned i = 1; i < 12; i += 2)
        if (ie >> i & 1 && (deleg >> i & 1 ? s_on : m_on))
            can |= 1ull << i;
    if (can == 0)
        return -1;
    uint64_t ip = pending(h, cycle, can) & can;
    if (ip == 0)
        return -1;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (ip >> order[k] & 1)
            return order[k];
    return -1;
}
