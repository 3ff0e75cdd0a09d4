/* The core's pipeline, cycle by cycle (core-timing.md §2.2, in its order:
 * every value from the state at the start of the cycle). F looks up the
 * predictor and fetches along the predicted path; an instruction is
 * performed when it enters E, which also decides how many cycles it holds E
 * (§2.3, §5-§10) and what it kills. Wrong-path instructions never reach E.
 * A stall of E on a long operation is skipped in one step where nothing but
 * a known I-cache landing can happen in it, which is the every-cycle result. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "card_csr.h"
#include "core.h"
#include "csr.h"
#include "err_text.h"
#include "exec.h"
#include "memmap.h"

#define ADVANCE_QUANTUM 64 /* cycles the hart may run ahead of the mesh between bus calls */
#define CYCLES_MUL 9
#define CYCLES_DIV 67
#define COLD __attribute__((cold, noinline)) /* off the per-cycle path: keeps the loop tight */

void sn_pipeline_reset(sn_hart *h)
{
    h->pc = 0;
    memset(h->slots, 0, sizeof h->slots);
    h->f2 = &h->slots[0];
    h->d = &h->slots[1];
    memset(&h->e, 0, sizeof h->e);
    h->e.s = &h->slots[2];
    memset(&h->jalr, 0, sizeof h->jalr);
    h->redirect_pending = h->jalr_check = false;
    h->pending_target = 0;
    h->hold_end = 0;
    h->sfence_hold = UINT64_MAX;
    h->mem_last = UINT64_MAX - 1;
    sn_bpred_reset(&h->bp);
    sn_icache_reset(&h->ic);
    memset(&h->port, 0, sizeof h->port);
    h->port.latency = h->latency;
    memset(&h->mmu, 0, sizeof h->mmu);
}

/* The F-stage PC's physical address, once its page's translation is in the
 * latch (core-timing §10: a page change holds fetch for the data access in
 * E, 2 wait cycles, the lookup and a settle cycle: 5; a walk of n levels
 * 3 + n(4 + L) more, which reproduces the whole-run cycles of every sv39_*
 * and probe_sv39_* row of core-timing/expected.tsv).
 * Returns false while fetch holds for it. */
static bool fetch_address(sn_hart *h, uint64_t cycle, uint64_t *pa)
{
    *pa = h->pc;
    if (!h->xlate)
        return true;
    sn_mmu *m = &h->mmu;
    uint64_t vpn = h->pc >> 12;
    if (!m->latch_valid || m->latch_vpn != vpn) {
        uint64_t from = cycle;
        if (h->e.valid && h->e.executed && h->mem_last == h->e.last && h->e.last >= cycle)
            from = h->e.last + 1;
        if (from < m->clear_until)
            from = m->clear_until;
        unsigned levels;
        uint64_t phys = 0;
        m->latch_cause = (uint8_t)sn_mmu_translate(h, h->pc, SN_XLATE_FETCH, h->priv, &phys, &levels);
        m->latch_valid = true;
        m->latch_vpn = vpn;
        m->latch_ppn = phys >> 12;
        m->latch_ready = from + 5 + (levels ? 3 + levels * (4ull + h->latency) : 0);
    }
    if (cycle < m->latch_ready)
        return false;
    *pa = m->latch_ppn << 12 | (h->pc & 0xFFF);
    return true;
}

/* fetch_hold of §2.2: the 2 cycles after a trap or xret, the cycle after
 * sfence.vma, a translation or an I-cache miss of the F-stage PC. The
 * lookups run every cycle, held or not. */
static bool fetch_hold(sn_hart *h, uint64_t cycle)
{
    if (h->pc < SN_IMEM_SIZE && !h->xlate) /* IMEM never stalls (§4.1) */
        return cycle < h->hold_end || cycle == h->sfence_hold;
    uint64_t pa;
    bool held = !fetch_address(h, cycle, &pa);
    if (!held && sn_region_of(pa) == SN_REGION_CACHED)
        held = sn_icache_hold(&h->ic, &h->port, h->dram, h->dram_size, pa, cycle);
    return held || cycle < h->hold_end || cycle == h->sfence_hold;
}

/* The word of the instruction at the F-stage PC (IMEM at PC[14:2] for every
 * address outside cached DRAM, §4.1). */
static void fetch_word(sn_hart *h, sn_slot *s)
{
    uint64_t pa = h->pc;
    if (pa < SN_IMEM_SIZE && !h->xlate)
        goto imem;
    if (h->xlate) {
        if (h->mmu.latch_cause) {
            s->fetch_cause = (uint8_t)(1 + h->mmu.latch_cause);
            s->in = (sn_insn){0};
            s->in.op = SN_OP_ILLEGAL;
            return;
        }
        pa = h->mmu.latch_ppn << 12 | (h->pc & 0xFFF);
    }
    if (sn_region_of(pa) == SN_REGION_CACHED) {
        s->in = sn_decode(sn_icache_word(&h->ic, pa, &s->outside));
        s->fetch_pa = pa;
        return;
    }
imem:;
    unsigned i = (unsigned)(pa >> 2) & (SN_IMEM_WORDS - 1);
    sn_memories *m = h->mem;
    if (!m->decoded_ok[i]) {
        const uint8_t *p = &m->imem[4 * i];
        m->decoded[i] = sn_decode((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        m->decoded_ok[i] = true;
    }
    s->in = m->decoded[i];
}

/* The instruction at the F-stage PC leaving F: its word, and the
 * predictor's answer for it, which only a branch or jump uses (§3.1). */
static void fetch(sn_hart *h, sn_slot *s)
{
    s->valid = true;
    s->pc = h->pc;
    s->fetch_cause = 0;
    s->outside = false;
    fetch_word(h, s);
    if (sn_op_is_jump(s->in.op))
        sn_bpred_lookup(&h->bp, h->pc, &s->btb_hit, &s->btb_target, &s->pht);
}

/* A trap taken in cycle t by the instruction in E (a halt when it is an
 * exception bound for M with mtvec = 0). */
COLD static void trap_at(sn_hart *h, uint64_t t, uint64_t cause, uint64_t tval, unsigned halt_cause)
{
    sn_estage *e = &h->e;
    e->last = t;
    e->kill_last = e->trap_last = true;
    e->is_load = e->jalr = e->update_bp = false;
    if (!(cause & SN_INTERRUPT) && sn_trap_halts(h, cause)) {
        h->result.halt_cause = halt_cause;
        h->result.mcause = cause;
        sn_text_fit(h->result.message, sizeof h->result.message, "mcause %" PRIu64 " (%s), mtval 0x%" PRIx64, cause,
                 sn_cause_name(cause), tval);
        h->cycle = t + 4; /* [inferred] as HR_CYCLES after an exit store (core-timing §0) */
        sn_core_stop(h, SN_HART_HALTED, e->s->pc);
        return;
    }
    e->next = sn_trap_enter(h, e->s->pc, cause, tval);
}

/* A trap on a CSR instruction: taken in its first cycle and again in its
 * second (core-timing §9), so the second entry saves the cleared MIE and M. */
COLD static void trap_twice(sn_hart *h, uint64_t cause, uint64_t tval)
{
    sn_estage *e = &h->e;
    uint64_t c = e->first;
    trap_at(h, c, cause, tval, SN_HALT_ILLEGAL);
    if (h->stopping)
        return;
    e->trap_first = true;
    trap_at(h, c + 1, cause, tval, SN_HALT_ILLEGAL);
    h->errata |= 1u << SN_ERRATUM_CSR_TRAP_TWICE;
}

/* The effective level of a data access (MPRV, privileged specification). */
static unsigned data_priv(const sn_hart *h)
{
    if (h->priv == SN_PRIV_M && (h->mstatus & (1ull << 17)))
        return (unsigned)(h->mstatus >> SN_MSTATUS_MPP_LO & 3);
    return h->priv;
}

/* A data access's translation (core-timing §10), its first cycle moved to
 * *start: 2 cycles on a TLB hit, 5 + n(4 + L) on a walk of n levels, none
 * right after an access of the same kind to the same page, which then
 * reuses that access's address (*stale: the erratum; also set, with the
 * cost of an isolated access, right after any other access, where a store
 * writes the stale address too). Returns 0 or the page fault's mcause. */
COLD static unsigned translate_data(sn_hart *h, uint64_t va, sn_xlate_kind kind, uint64_t *start, uint64_t *pa,
                               uint64_t *stale, bool *same)
{
    *pa = va;
    *stale = UINT64_MAX;
    *same = false;
    unsigned priv = data_priv(h);
    if (priv == SN_PRIV_M || (h->satp >> 60) != SN_SATP_MODE_SV39)
        return 0;
    sn_mmu *m = &h->mmu;
    if (*start < m->clear_until)
        *start = m->clear_until;
    bool b2b = m->last_valid && h->mem_last + 1 == h->e.first;
    unsigned levels;
    unsigned cause = sn_mmu_translate(h, va, kind, priv, pa, &levels);
    if (cause != 0)
        return cause;
    if (b2b) {
        *stale = m->last_pa;
        *same = m->last_kind == kind && m->last_vpn == va >> 12;
        if ((*same || kind == SN_XLATE_STORE) && *stale != *pa)
            h->errata |= 1u << SN_ERRATUM_SV39_STALE_XLATE;
    }
    if (!*same)
        *start += levels ? 5 + levels * (4ull + h->latency) : 2;
    m->last_valid = true;
    m->last_kind = kind;
    m->last_vpn = va >> 12;
    m->last_pa = *pa;
    return 0;
}

/* A load or store entering E in cycle c. */
static void load_store(sn_hart *h, uint64_t c)
{
    sn_estage *e = &h->e;
    const sn_insn *in = &e->s->in;
    bool store = in->op == SN_OP_STORE;
    unsigned size = 1u << (in->fn & 3);
    uint64_t va = h->x[in->rs1] + (uint64_t)in->imm, pa, stale, start = c;
    if (va - SN_SPAD_BASE < SN_SPAD_SIZE && va % size == 0 && (h->satp >> 60) != SN_SATP_MODE_SV39) {
        /* an untranslated, aligned SPAD access: 2 cycles, the data in the second (§5.2) */
        uint8_t *p = h->mem->spad + (va - SN_SPAD_BASE);
        e->last = h->mem_last = c + 1;
        if (store) {
            uint64_t v = h->x[in->rs2];
            memcpy(p, &v, size);
        } else if (in->rd != 0) {
            uint64_t raw = 0;
            memcpy(&raw, p, size);
            e->is_load = true;
            h->x[in->rd] = sn_load_extend(in->fn, raw);
        }
        return;
    }
    bool same;
    unsigned cause = 0;
    pa = va;
    stale = UINT64_MAX;
    same = false;
    if ((h->satp >> 60) == SN_SATP_MODE_SV39)
        cause = translate_data(h, va, store ? SN_XLATE_STORE : SN_XLATE_LOAD, &start, &pa, &stale, &same);
    if (cause != 0) {
        trap_at(h, start, cause, va, SN_HALT_ILLEGAL);
        return;
    }
    sn_region r = sn_region_of(pa);
    if (va % size != 0) { /* the aligned doubleword is read, then the trap (core-timing §9) */
        uint64_t t = sn_access_time(h, pa & ~7ull, r, start), off = sn_dram_offset(h, pa & ~7ull, 8), raw;
        if (r == SN_REGION_CACHED && off != UINT64_MAX)
            sn_l1_read(&h->mem->l1, off, 8, &raw);
        h->mem_last = t;
        trap_at(h, t, store ? SN_CAUSE_STORE_MISALIGNED : SN_CAUSE_LOAD_MISALIGNED, va, SN_HALT_ILLEGAL);
        return;
    }
    if (same && (store || r == SN_REGION_CACHED || r == SN_REGION_UNCACHED))
        pa = stale; /* issued with the previous access's address (the SPAD and CTRL data are re-read) */
    uint64_t t = sn_access_time(h, pa, r, start);
    uint64_t at = r == SN_REGION_SPAD || r == SN_REGION_CTRL ? start + 1 : t;
    e->last = t;
    h->mem_last = t;
    if (store) {
        if (stale != UINT64_MAX && !same && sn_region_of(stale) != SN_REGION_NONE && sn_region_of(stale) != SN_REGION_IMEM)
            sn_mem_write(h, e->s->pc, stale, size, h->x[in->rs2], at);
        if (!h->stopping)
            sn_mem_write(h, e->s->pc, pa, size, h->x[in->rs2], at);
        return;
    }
    uint64_t raw;
    if (!sn_mem_read(h, e->s->pc, pa, size, at, &raw))
        return;
    e->is_load = in->rd != 0;
    if (in->rd != 0)
        h->x[in->rd] = sn_load_extend(in->fn, raw);
}

/* An LR, SC or AMO entering E in cycle c (core-timing §8): a sequence of
 * ordinary accesses to its address, each starting the cycle after the one
 * before completes: read, read, write, read for an AMO and a successful
 * SC; read, read, read for LR and a failing SC. Refused on the control
 * region (an access fault, 5 for LR and 7 for the rest: the privileged
 * specification's codes; as the hart always did). */
COLD static void amo(sn_hart *h, uint64_t c)
{
    sn_estage *e = &h->e;
    const sn_insn *in = &e->s->in;
    bool lr = in->fn == 0x02, sc = in->fn == 0x03;
    unsigned size = in->word32 ? 4 : 8;
    uint64_t va = h->x[in->rs1], pa, stale, start = c;
    bool same;
    unsigned cause = translate_data(h, va, lr ? SN_XLATE_LOAD : SN_XLATE_STORE, &start, &pa, &stale, &same);
    if (cause != 0) {
        trap_at(h, start, cause, va, SN_HALT_ILLEGAL);
        return;
    }
    sn_region r = sn_region_of(pa);
    if (r == SN_REGION_CTRL && va % size == 0) {
        trap_at(h, start, lr ? SN_CAUSE_LOAD_ACCESS : SN_CAUSE_STORE_ACCESS, va, SN_HALT_ILLEGAL);
        return;
    }
    bool misaligned = va % size != 0, writes = !lr && !(sc && !(h->reserved && h->reservation == pa));
    if (misaligned)
        pa &= ~7ull;
    if (!misaligned && r != SN_REGION_SPAD && r != SN_REGION_CACHED && r != SN_REGION_UNCACHED) {
        uint64_t raw;
        sn_mem_read(h, e->s->pc, pa, size, start + 1, &raw); /* the error names the access */
        return;
    }
    uint64_t old = 0, raw, t = start - 1; /* t: the last cycle of the access before */
    unsigned accesses = writes ? 4 : 3;
    for (unsigned k = 0; k < accesses && !h->stopping; k++) {
        t = sn_access_time(h, pa, r, t + 1);
        if (misaligned)
            continue;
        if (k == 0)
            sn_mem_read(h, e->s->pc, pa, size, t, &old);
        else if (k == 2 && writes)
            sn_mem_write(h, e->s->pc, pa, size, sc ? h->x[in->rs2] : sn_amo_result(in->fn, in->word32, old, h->x[in->rs2]),
                         t);
        else
            sn_mem_read(h, e->s->pc, pa, size, t, &raw);
    }
    if (h->stopping)
        return;
    e->last = t;
    h->mem_last = t;
    if (misaligned) {
        trap_at(h, t, lr ? SN_CAUSE_LOAD_MISALIGNED : SN_CAUSE_STORE_MISALIGNED, va, SN_HALT_ILLEGAL);
        return;
    }
    uint64_t result = in->word32 ? (uint64_t)(int64_t)(int32_t)old : old;
    if (lr) {
        h->reserved = true;
        h->reservation = pa;
    } else if (sc) {
        result = writes ? 0 : 1;
        h->reserved = false;
    }
    if (in->rd != 0)
        h->x[in->rd] = result;
}

/* A jump or taken branch to target: traps with cause 0 off 4 bytes. */
static bool misaligned_target(sn_hart *h, uint64_t c, uint64_t target)
{
    if (target % 4 == 0)
        return false;
    trap_at(h, c, SN_CAUSE_FETCH_MISALIGNED, target, SN_HALT_ILLEGAL);
    return true;
}

/* The instruction just entered E in cycle c: performed, its E cycles and
 * redirects decided (core-timing §2.3, §9). */
static void enter(sn_hart *h, uint64_t c)
{
    sn_estage *e = &h->e;
    const sn_slot *s = e->s;
    const sn_insn *in = &s->in;
    uint64_t pc = s->pc, *x = h->x;
    e->first = e->last = c;
    e->trap_first = e->kill_last = e->trap_last = e->xret_last = false;
    e->is_load = e->jalr = e->update_bp = e->taken = false;
    e->next = pc + 4;
    if (s->outside) {
        if (s->fetch_pa == pc)
            sn_core_error(h, pc, "instruction fetch at 0x%" PRIx64 ": " SN_DRAM_OUTSIDE, pc, h->dram_size);
        else
            sn_core_error(h, pc, "instruction fetch at 0x%" PRIx64 " (Sv39: physical 0x%" PRIx64 "): " SN_DRAM_OUTSIDE,
                          pc, s->fetch_pa, h->dram_size);
        return;
    }
    if (s->fetch_cause) {
        trap_at(h, c, s->fetch_cause - 1u, pc, SN_HALT_ILLEGAL);
        return;
    }
    unsigned op = in->op;
    if ((h->mie & SN_IRQ_MASK) && op != SN_OP_LOAD && op != SN_OP_STORE && op != SN_OP_AMO && op != SN_OP_MUL &&
        op != SN_OP_DIV) { /* taken in the first cycle of the rest (§9) */
        int irq = sn_irq_taken(h, c);
        if (irq >= 0) {
            if (op == SN_OP_CSR)
                trap_twice(h, SN_INTERRUPT | (uint64_t)irq, 0);
            else
                trap_at(h, c, SN_INTERRUPT | (uint64_t)irq, 0, 0);
            return;
        }
    }
    switch (op) {
    case SN_OP_ALU:
        if (in->rd != 0)
            x[in->rd] = sn_alu(in->fn, in->word32, in->pc_rel ? pc : x[in->rs1],
                               in->use_imm ? (uint64_t)in->imm : x[in->rs2]);
        break;
    case SN_OP_MUL:
    case SN_OP_DIV: {
        e->last = c + (op == SN_OP_MUL ? CYCLES_MUL : CYCLES_DIV) - 1;
        int irq = (h->mie & SN_IRQ_MASK) ? sn_irq_taken(h, e->last) : -1; /* taken in its last cycle */
        if (irq >= 0) {
            trap_at(h, e->last, SN_INTERRUPT | (uint64_t)irq, 0, 0);
            return;
        }
        if (in->rd != 0)
            x[in->rd] = sn_alu(in->fn, in->word32, x[in->rs1], x[in->rs2]);
        break;
    }
    case SN_OP_BRANCH:
        e->target = pc + (uint64_t)in->imm;
        e->taken = sn_branch_taken(in->fn, x[in->rs1], x[in->rs2]);
        if (e->taken && misaligned_target(h, c, e->target))
            return;
        e->update_bp = true;
        e->next = e->taken ? e->target : pc + 4;
        e->kill_last = e->taken != s->pred_taken || (e->taken && e->target != s->pred_target);
        break;
    case SN_OP_JAL:
        e->target = pc + (uint64_t)in->imm;
        if (misaligned_target(h, c, e->target))
            return;
        if (in->rd != 0)
            x[in->rd] = pc + 4;
        e->taken = e->update_bp = true;
        e->next = e->target;
        e->kill_last = !s->pred_taken || e->target != s->pred_target;
        break;
    case SN_OP_JALR:
        e->target = (x[in->rs1] + (uint64_t)in->imm) & ~1ull;
        if (misaligned_target(h, c, e->target))
            return;
        if (in->rd != 0)
            x[in->rd] = pc + 4;
        e->jalr = e->taken = true;
        e->next = e->target;
        break;
    case SN_OP_LOAD:
    case SN_OP_STORE:
        load_store(h, c);
        if (h->stopping || e->trap_last)
            return;
        break;
    case SN_OP_AMO:
        amo(h, c);
        if (h->stopping || e->trap_last)
            return;
        break;
    case SN_OP_CSR: {
        if (sn_csr_illegal(h, in)) {
            trap_twice(h, SN_CAUSE_ILLEGAL, in->word);
            return;
        }
        e->last = c + 1;
        uint64_t old = sn_csr_execute(h, in, c + 1);
        if (in->rd != 0)
            x[in->rd] = old;
        break;
    }
    case SN_OP_FENCE:
        break;
    case SN_OP_FENCE_I:
        sn_icache_fence_i(&h->ic, &h->port, c);
        break;
    case SN_OP_WFI: /* a 1-cycle no-op on the card (core-timing §2.3) */
        h->errata |= 1u << SN_ERRATUM_WFI_NO_WAIT;
        break;
    case SN_OP_SFENCE_VMA:
        if (h->priv == SN_PRIV_U || (h->priv == SN_PRIV_S && (h->mstatus & SN_MSTATUS_TVM))) {
            trap_at(h, c, SN_CAUSE_ILLEGAL, in->word, SN_HALT_ILLEGAL);
            return;
        }
        sn_mmu_sfence(&h->mmu, c);
        h->sfence_hold = c + 1;
        break;
    case SN_OP_MRET:
    case SN_OP_SRET:
        if (sn_xret_illegal(h, op == SN_OP_MRET)) {
            trap_at(h, c, SN_CAUSE_ILLEGAL, in->word, SN_HALT_ILLEGAL);
            return;
        }
        e->next = sn_xret(h, op == SN_OP_MRET);
        e->kill_last = e->xret_last = true;
        h->mmu.latch_valid = false;
        break;
    case SN_OP_ECALL:
        trap_at(h, c, SN_CAUSE_ECALL_U + h->priv, 0, SN_HALT_ECALL);
        return;
    case SN_OP_EBREAK:
        trap_at(h, c, SN_CAUSE_BREAKPOINT, 0, SN_HALT_EBREAK);
        return;
    default:
        trap_at(h, c, SN_CAUSE_ILLEGAL, in->word, SN_HALT_ILLEGAL);
        return;
    }
    h->retired++;
}

/* Whether the instruction entering E right after the exit store leaves E,
 * untrapped, in its first cycle: HR_RETIRED counts it (core-timing §0). */
COLD static bool retires_at_once(const sn_slot *s)
{
    if (s->fetch_cause || s->outside)
        return false;
    switch (s->in.op) {
    case SN_OP_ALU:
    case SN_OP_BRANCH:
    case SN_OP_JAL:
    case SN_OP_JALR:
    case SN_OP_FENCE:
    case SN_OP_FENCE_I:
    case SN_OP_WFI:
        return true;
    default:
        return false;
    }
}

/* The instruction entering E: a debugger's stop, the cycle after the exit
 * store, or performed. */
static void enter_e(sn_hart *h, uint64_t c)
{
    sn_estage *e = &h->e;
    if (h->exiting) {
        if (c == h->exit_cycle + 1 && retires_at_once(e->s))
            h->retired++;
        e->executed = true;
        e->last = c;
        return;
    }
    if (h->debugging) {
        bool first = h->resume_armed && e->s->pc == h->resume_pc;
        h->resume_armed = false;
        if (!first && (h->stepping || (e->s->pc < SN_IMEM_SIZE && e->s->pc % 4 == 0 && h->mem->breakpoint[e->s->pc / 4]))) {
            sn_core_stop(h, SN_HART_BREAK, e->s->pc);
            return;
        }
    }
    e->executed = true;
    enter(h, c);
    if (h->exit_requested && !h->exiting) {
        h->exiting = true;
        h->exit_cycle = e->last;
        h->exit_pc = e->s->pc;
    }
}

/* One cycle of §2.2. */
static void cycle(sn_hart *h, uint64_t c)
{
    sn_estage *e = &h->e;
    bool hold = fetch_hold(h, c);
    if (e->valid && !e->executed) {
        enter_e(h, c);
        if (h->stopping)
            return;
    }
    bool go = !(e->valid && c < e->last), advance = false;
    if (go) {
        bool load_use =
            e->valid && e->is_load && h->d->valid && (h->d->in.raw1 == e->s->in.rd || h->d->in.raw2 == e->s->in.rd);
        advance = !(hold || load_use || (e->valid && e->jalr));
    }

    bool kill = false;
    uint64_t kill_target = 0;
    if (e->valid) {
        if (c == e->first && e->trap_first) {
            kill = true;
            kill_target = e->next;
            h->hold_end = c + 3;
        }
        if (c == e->last) {
            if (e->update_bp)
                sn_bpred_train(&h->bp, c, e->s->pc, e->s->in.op == SN_OP_BRANCH, e->taken, e->target);
            if (e->kill_last) {
                kill = true;
                kill_target = e->next;
                if (e->trap_last || e->xret_last)
                    h->hold_end = c + 3;
            }
        }
    }
    if (h->jalr_check) { /* the JALR that left E in the cycle before */
        h->jalr_check = false;
        sn_bpred_train(&h->bp, c, h->jalr.pc, false, true, h->jalr.target);
        if (!h->jalr.pred_taken || h->jalr.target != h->jalr.pred_target) {
            kill = true;
            kill_target = h->jalr.target;
        }
    }
    if (kill && (!h->redirect_pending || advance))
        h->pending_target = kill_target;

    if (go && e->valid && e->jalr && !e->trap_last) {
        h->jalr.pc = e->s->pc;
        h->jalr.target = e->target;
        h->jalr.pred_taken = e->s->pred_taken;
        h->jalr.pred_target = e->s->pred_target;
        h->jalr_check = true;
    }
    if (advance) {
        sn_slot *d = h->d, *f2 = h->f2, *free;
        /* D's prediction (§3): only a branch or jump, and not before cycle 1026 */
        bool pred = d->valid && sn_op_is_jump(d->in.op) && c >= SN_BP_FIRST_PREDICTION && d->btb_hit && d->pht >= 2;
        bool d_redirect = pred && !h->redirect_pending;
        bool squash = h->redirect_pending || d_redirect;
        uint64_t next_pc = h->redirect_pending ? h->pending_target : d_redirect ? d->btb_target : h->pc + 4;
        if (d->valid && !kill && !h->redirect_pending) {
            free = e->s;
            e->valid = true;
            e->executed = false;
            e->s = d;
            d->pred_taken = pred;
            d->pred_target = d->btb_target;
        } else {
            free = d;
            e->valid = false;
        }
        h->d = f2;
        f2->valid = f2->valid && !squash;
        h->f2 = free;
        if (squash)
            free->valid = false;
        else
            fetch(h, free);
        h->pc = next_pc;
        h->redirect_pending = kill;
    } else {
        if (kill)
            h->redirect_pending = true;
        if (go)
            e->valid = false;
    }
    if (h->bp.busy)
        sn_bpred_end_cycle(&h->bp, c);
}

/* Cycles from `from` that only repeat a stall of E: none of §2.2's rules
 * fires in them but an I-cache landing, which ends the skip. */
static uint64_t stall_end(const sn_hart *h, uint64_t from)
{
    const sn_estage *e = &h->e;
    if (!e->valid || !e->executed || h->exiting || e->last <= from)
        return from;
    uint64_t to = e->last;
    if (h->ic.filling) {
        uint64_t land = h->port.ifill_accept + 4u + h->latency;
        if (land < to)
            to = land > from ? land : from;
    }
    if (h->mmu.latch_valid && h->mmu.latch_ready > from && h->mmu.latch_ready < to)
        to = h->mmu.latch_ready;
    return to < h->cycle_limit ? to : (h->cycle_limit > from ? h->cycle_limit : from);
}

/* The next instruction to enter E (the PC a stop reports). */
uint64_t sn_pipeline_next_pc(const sn_hart *h)
{
    if (h->e.valid && !h->e.executed)
        return h->e.s->pc;
    if (h->redirect_pending)
        return h->pending_target;
    if (h->jalr_check)
        return h->jalr.target;
    if (h->e.valid && h->e.kill_last)
        return h->e.next;
    if (h->d->valid)
        return h->d->pc;
    if (h->f2->valid)
        return h->f2->pc;
    return h->pc;
}

void sn_pipeline_run(sn_hart *h)
{
    uint64_t check_at = 0; /* the first cycle one of the checks below may fire (an early one only rechecks) */
    while (!h->stopping) {
        uint64_t c = h->cycle;
        if (c >= check_at) {
            if (h->exiting && c > h->exit_cycle + 1) {
                h->result.exit_code = h->exit_code;
                h->cycle = h->exit_cycle + 4; /* HR_CYCLES = c_exit + 4 (core-timing §0) */
                sn_core_stop(h, SN_HART_EXITED, h->exit_pc);
                break;
            }
            if (c >= h->cycle_limit && !h->exiting) {
                sn_core_stop(h, SN_HART_CYCLE_LIMIT, sn_pipeline_next_pc(h));
                break;
            }
            if (c >= h->last_advance + ADVANCE_QUANTUM) {
                sn_core_advance(h, c);
                if (h->stopping)
                    break;
            }
            check_at = h->last_advance + ADVANCE_QUANTUM;
            if (h->cycle_limit < check_at)
                check_at = h->cycle_limit;
            if (h->exiting)
                check_at = c + 1;
        }
        cycle(h, c);
        if (h->stopping) /* at c, or at what a halt set */
            break;
        if (h->exiting)
            check_at = c + 1;
        uint64_t to = h->e.last > c + 1 ? stall_end(h, c + 1) : c + 1;
        if (to > c + 1)
            sn_bpred_end_cycle(&h->bp, to - 1);
        h->cycle = to;
    }
}
