/* The RV64 hart on Unicorn 2.0.1; see hart.h. Unicorn's own behaviour that
 * shapes this file was measured on this machine's libunicorn 2.0.1 and is
 * cited where used as "(measured)". */
#include "hart.h"
#include "err_text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicorn/unicorn.h>

#include "card_csr.h"
#include "card_isa.h"
#include "sysnode/regs.h"
#include "uc_cpu_state.h"

#define CTRL_MAP_SIZE 0x1000u /* Unicorn maps whole 4 KB pages; past SN_CTRL_SIZE is outside the map */
#define UNCACHED_ALIAS (1ull << SN_UNCACHED_BIT)
#define ADVANCE_QUANTUM 64 /* cycles the hart may run ahead of the mesh between bus calls */
#define TB_MAX_INSNS 512   /* QEMU's cap on one translation block */
#define IMEM_WORDS (SN_IMEM_SIZE / 4)
#define INTERRUPT (1ull << 63)

/* mcause values (sysnode-facts §1.2; 5 and 7, the access faults, from the
 * privileged spec) and halt causes (§1.3) */
enum {
    CAUSE_FETCH_MISALIGNED = 0,
    CAUSE_ILLEGAL = 2,
    CAUSE_BREAKPOINT = 3,
    CAUSE_LOAD_MISALIGNED = 4,
    CAUSE_LOAD_ACCESS = 5,
    CAUSE_STORE_MISALIGNED = 6,
    CAUSE_STORE_ACCESS = 7,
    CAUSE_ECALL_U = 8,
    CAUSE_LOAD_PAGE = 13,
    CAUSE_STORE_PAGE = 15,
};
enum { HALT_ECALL = 1, HALT_EBREAK = 2, HALT_ILLEGAL = 3 };
enum { PRIV_U = 0, PRIV_S = 1, PRIV_M = 3 };

/* What BOOT keeps: the host-loaded memories and the L1's storage; and the
 * per-word decode state of IMEM, which BOOT clears with the engine. */
typedef struct memories {
    uint8_t imem[SN_IMEM_SIZE]; /* guest memory (uc_mem_map_ptr), so decoding reads it directly */
    uint8_t spad[SN_SPAD_SIZE];
    sn_l1 l1; /* emptied at BOOT */
    /* A code hook on every word the hart must serve itself: CSR and system
     * instructions, LR/SC/AMOs, fence.i and illegal words (0: none). */
    uc_hook site[IMEM_WORDS];
    uc_hook breakpoint[IMEM_WORDS]; /* a debugger's code hooks (0: none) */
} memories;

struct sn_hart {
    uc_engine *uc;
    sn_hart_bus bus;
    uint8_t *dram;
    uint64_t dram_size;
    memories *mem;
    bool booted;
    uc_context *ctx; /* for privilege changes (uc_cpu_state.h) */
    /* Nothing has run on the engine, hooked it or written its registers
     * since power_on built it: BOOT may keep it instead of building another
     * the same (sn_hart_create's, about 1 ms). */
    bool engine_fresh;

    /* The card's CSR state Unicorn cannot hold (card_csr.h). */
    unsigned priv;         /* the card's privilege level */
    unsigned uc_priv;      /* Unicorn's: M while the hart reads or writes CSRs (csr_window) */
    bool xret_pending;     /* an mret/sret is executing: priv becomes next_priv at the next block */
    unsigned next_priv;

    /* Debugger: the instruction a run resumes at runs before any stop. */
    bool stepping, resume_armed;
    uint64_t resume_pc;
    uc_hook step_hook; /* a code hook on all of IMEM while stepping (0: none) */
    uint64_t medeleg, mideleg, mtimecmp;
    uint64_t mip_sw;       /* SSIP, STIP, SEIP as software wrote them */
    uint64_t irq_check_at; /* the first cycle an interrupt may become deliverable */

    /* The one rule for what executes (card_isa.h), checked once per
     * translated block: checked[i] is how many words of the block starting
     * at word i were found legal with their sites hooked (0: not checked).
     * Cleared by BOOT, fence.i and, around the word, by a host IMEM write.
     * Kept in the hart itself: on_block reads it for every block. */
    uint16_t checked[IMEM_WORDS];

    /* Time. Instructions executed = before_block + block_len. The block hook
     * charges a whole block on entry; where a block is cut short at a known
     * instruction (trap, counter CSR, exit store, fault) block_len is set to
     * what really ran. */
    uint64_t before_block;
    uint64_t block_addr;
    uint32_t block_len;
    uint32_t cursor;       /* block index after the last control-region access */
    uint64_t extra_cycles; /* one per control-region access (sysnode-facts §10), one per line a flush writes back */
    uint64_t not_retired;  /* instructions that trapped */
    uint64_t last_advance; /* cycle last given to bus->advance */
    uint64_t cycle_limit;
    uint64_t mcycle_delta, minstret_delta; /* what csrw mcycle/minstret added, modulo 2^64 */

    /* First half of an 8-byte control-region access (tool-pitfalls 1). */
    struct {
        bool active, write;
        uint32_t offset;
        uint64_t value, pc;
    } half;

    /* A trap found where the PC cannot be written (defer_misaligned). */
    struct {
        bool active;
        uint64_t pc, cause, tval;
    } deferred;

    unsigned dram_latency; /* L (sn_hart_set_dram_latency) */
    unsigned errata;       /* sn_erratum bits reproduced since BOOT */

    uint64_t pc; /* where the next run starts */
    bool running, stopping, done;
    bool exit_requested;
    uint64_t exit_code;
    sn_hart_result result;
};

static uint64_t reg_read(sn_hart *h, int reg)
{
    uint64_t v = 0;
    uc_reg_read(h->uc, reg, &v);
    return v;
}

static void reg_write(sn_hart *h, int reg, uint64_t v)
{
    h->engine_fresh = false;
    uc_reg_write(h->uc, reg, &v);
}

/* The instruction word at addr, or 0 outside IMEM. */
static uint32_t imem_word(const sn_hart *h, uint64_t addr)
{
    if (addr % 4 != 0 || addr >= SN_IMEM_SIZE)
        return 0;
    const uint8_t *p = &h->mem->imem[addr];
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t cycles_at(const sn_hart *h, uint32_t idx)
{
    return h->before_block + idx + h->extra_cycles;
}

static void advance_to(sn_hart *h, uint64_t cycle)
{
    if (cycle < h->last_advance)
        cycle = h->last_advance;
    h->last_advance = cycle;
    h->bus.advance(h->bus.ctx, cycle);
}

/* Records the first stop of a run and ends it. A stop requested from an MMIO
 * callback or a block hook takes effect before the next instruction
 * (measured). */
static void stop(sn_hart *h, sn_hart_stop why, uint64_t pc)
{
    if (h->stopping)
        return;
    h->stopping = true;
    h->result.stop = why;
    h->result.pc = pc;
    if (h->running)
        uc_emu_stop(h->uc);
}

static void sim_error(sn_hart *h, uint64_t pc, const char *fmt, ...)
{
    if (h->stopping)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->result.message, sizeof h->result.message, fmt, ap);
    va_end(ap);
    stop(h, SN_HART_SIM_ERROR, pc);
}

/* Block index of the instruction that accesses addr: the first load, store
 * or AMO at or after the cursor whose access covers addr; its effective
 * address and size go to *ea and *size (for the pieces Unicorn makes of a
 * misaligned access, which may lie off the access itself, tool-pitfalls 1:
 * the first whose access overlaps addr's 8-byte granule). Unicorn syncs
 * the registers but not the PC for MMIO callbacks and memory hooks
 * (measured: the PC reads 0 or the block start), so effective addresses
 * are recomputed. A block ending in
 * an illegal word is reported with size 0 (measured), hence the TB_MAX_INSNS
 * bound. Falls back to the cursor, leaving *ea and *size, if nothing
 * matches. */
static uint32_t locate_access(sn_hart *h, uint64_t addr, uint64_t *ea, unsigned *size)
{
    uint32_t n = h->block_len ? h->block_len : TB_MAX_INSNS;
    for (uint32_t i = h->cursor; i < n; i++) {
        uint32_t w = imem_word(h, h->block_addr + 4ull * i);
        int64_t imm;
        switch (w & 0x7F) {
        case 0x03: /* LOAD */
            imm = (int32_t)w >> 20;
            break;
        case 0x23: /* STORE */
            imm = ((int32_t)(w & 0xFE000000u) >> 20) | ((w >> 7) & 0x1F);
            break;
        case 0x2F: /* AMO */
            imm = 0;
            break;
        default:
            continue;
        }
        uint64_t at = reg_read(h, UC_RISCV_REG_X0 + (int)((w >> 15) & 31)) + (uint64_t)imm;
        unsigned bytes = 1u << ((w >> 12) & 3);
        uint64_t reg = addr & ~7ull; /* a misaligned access arrives as pieces of the registers it overlaps */
        if (addr - at < bytes || (reg < at + bytes && at < reg + 8)) {
            *ea = at;
            *size = bytes;
            return i;
        }
    }
    return h->cursor;
}

/* A memory access the SysNode does not serve (addr and size as Unicorn
 * reports them, which may be a fragment): stop, naming the instruction's
 * access and its PC. */
static void mem_error(sn_hart *h, bool write, uint64_t addr, unsigned size, const char *why)
{
    uint32_t idx = locate_access(h, addr, &addr, &size);
    uint64_t pc = h->block_addr + 4ull * idx;
    h->block_len = idx + 1;
    sim_error(h, pc, "%u-byte data %s at 0x%" PRIx64 " (pc 0x%" PRIx64 "): %s", size, write ? "write" : "read", addr,
              pc, why);
}

static void lone_half(sn_hart *h)
{
    h->half.active = false;
    sim_error(h, h->half.pc,
              "4-byte %s at control offset 0x%x (pc 0x%" PRIx64 "): the control region takes whole aligned "
              "64-bit registers only (and byte stores to R_CONSOLE)",
              h->half.write ? "write" : "read", h->half.offset, h->half.pc);
}

/* Whether a Unicorn hook serves this call: not once the hart is stopping,
 * and not while a 4-byte half of a control-register access waits for its
 * other half (an interrupt or a site in between leaves it alone: lone_half
 * stops the run). */
static bool hook_serves(sn_hart *h)
{
    if (h->stopping)
        return false;
    if (h->half.active) {
        lone_half(h);
        return false;
    }
    return true;
}

/* Unicorn reads and writes CSRs through its own privilege check, and below
 * a CSR's level it returns garbage or drops the write (measured;
 * tool-pitfalls 18), so the hart serves the card's CSRs with Unicorn in M
 * and then puts it back at the card's level (a trap may have changed it). */
static void csr_window_open(sn_hart *h)
{
    if (h->uc_priv != PRIV_M) {
        sn_uc_set_priv(h->uc, h->ctx, PRIV_M);
        h->uc_priv = PRIV_M;
    }
}

static void csr_window_close(sn_hart *h)
{
    if (h->uc_priv != h->priv) {
        sn_uc_set_priv(h->uc, h->ctx, h->priv);
        h->uc_priv = h->priv;
    }
}

/* The causes that go to S below M: medeleg's, or mideleg's without the
 * timer, which is never delegated (sysnode-facts §1.2). */
static uint64_t delegated(const sn_hart *h, bool irq)
{
    return irq ? h->mideleg & ~(1ull << SN_IRQ_MTI) : h->medeleg;
}

/* Enters a trap with cause (bit 63 set: an interrupt) at epc, as the card
 * does (sysnode-facts §1.1-1.2, the privileged spec's trap entry): to S
 * when the hart is below M and medeleg/mideleg delegates the cause, else to
 * M; xepc, xcause, xtval and the previous privilege and interrupt enable
 * are written and execution continues at xtvec (direct mode). */
static void enter_trap(sn_hart *h, uint64_t epc, uint64_t cause, uint64_t tval)
{
    bool irq = cause & INTERRUPT;
    uint64_t deleg = delegated(h, irq);
    uint64_t ms = reg_read(h, UC_RISCV_REG_MSTATUS), tvec;
    unsigned from = h->priv;
    if (from < PRIV_M && (deleg >> (cause & 63) & 1)) {
        reg_write(h, UC_RISCV_REG_SEPC, epc);
        reg_write(h, UC_RISCV_REG_SCAUSE, cause);
        reg_write(h, UC_RISCV_REG_STVAL, tval);
        ms = (ms & ~(SN_MSTATUS_SIE | SN_MSTATUS_SPIE | SN_MSTATUS_SPP)) | (ms & SN_MSTATUS_SIE ? SN_MSTATUS_SPIE : 0) |
             (from == PRIV_S ? SN_MSTATUS_SPP : 0);
        tvec = reg_read(h, UC_RISCV_REG_STVEC);
        h->priv = PRIV_S;
    } else {
        reg_write(h, UC_RISCV_REG_MEPC, epc);
        reg_write(h, UC_RISCV_REG_MCAUSE, cause);
        reg_write(h, UC_RISCV_REG_MTVAL, tval);
        ms = (ms & ~(SN_MSTATUS_MIE | SN_MSTATUS_MPIE | SN_MSTATUS_MPP)) | (ms & SN_MSTATUS_MIE ? SN_MSTATUS_MPIE : 0) |
             (uint64_t)from << SN_MSTATUS_MPP_LO;
        tvec = reg_read(h, UC_RISCV_REG_MTVEC);
        h->priv = PRIV_M;
    }
    reg_write(h, UC_RISCV_REG_MSTATUS, ms);
    h->irq_check_at = 0;
    h->pc = tvec & ~3ull;
    reg_write(h, UC_RISCV_REG_PC, h->pc);
}

/* An exception at pc (sysnode-facts §1.2-1.3): the faulting instruction
 * ends its block and does not retire; with mtvec = 0 and the trap bound for
 * M the core halts with halt_cause, else the trap is entered. */
static void take_exception(sn_hart *h, uint64_t pc, uint64_t cause, uint64_t tval, unsigned halt_cause)
{
    h->block_len = (uint32_t)((pc - h->block_addr) / 4) + 1;
    h->not_retired++;
    bool to_m = h->priv == PRIV_M || !(delegated(h, false) >> cause & 1);
    if (to_m && reg_read(h, UC_RISCV_REG_MTVEC) == 0) {
        h->result.halt_cause = halt_cause;
        h->result.mcause = cause;
        stop(h, SN_HART_HALTED, pc);
        return;
    }
    enter_trap(h, pc, cause, tval);
}

#define LINE_BITS ((1ull << SN_IRQ_MEI) | (1ull << SN_IRQ_MSI))

/* The mesh's interrupt lines at its current cycle (bus->irq_lines). */
static uint64_t lines(sn_hart *h)
{
    return h->bus.irq_lines ? h->bus.irq_lines(h->bus.ctx) & LINE_BITS : 0;
}

/* mip now (sysnode-facts §1.2): the software-written bits, MTIP while time
 * >= mtimecmp, MEIP and MSIP as the mesh drives them. */
static uint64_t pending(sn_hart *h, uint64_t now)
{
    return h->mip_sw | (now >= h->mtimecmp ? 1ull << SN_IRQ_MTI : 0) | lines(h);
}

/* The highest-priority interrupt that may be taken now, or -1 (privileged
 * spec: MEI, MSI, MTI, SEI, SSI, STI; an M interrupt is taken below M or in
 * M with MIE, a delegated one below S or in S with SIE; the timer is never
 * delegated, sysnode-facts §1.2). */
static int deliverable(sn_hart *h, uint64_t now)
{
    static const int order[] = {11, 3, 7, 9, 1, 5};
    uint64_t ie = reg_read(h, UC_RISCV_REG_MIE) & SN_IRQ_MASK, ip = pending(h, now) & ie;
    if (ip == 0)
        return -1;
    uint64_t ms = reg_read(h, UC_RISCV_REG_MSTATUS);
    bool m_on = h->priv < PRIV_M || (ms & SN_MSTATUS_MIE);
    bool s_on = h->priv < PRIV_S || (h->priv == PRIV_S && (ms & SN_MSTATUS_SIE));
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int i = order[k];
        if (!(ip >> i & 1))
            continue;
        if (delegated(h, true) >> i & 1 ? s_on : m_on)
            return i;
    }
    return -1;
}

/* At a block boundary at or after irq_check_at: takes the interrupt that is
 * deliverable (the block at addr does not run; xepc = addr), or sets the
 * next cycle one may become so: mtimecmp if the timer is enabled but not
 * yet due; the next block while an enabled mesh line could be taken (the
 * line is sampled at the mesh's current cycle, which trails the hart by
 * at most ADVANCE_QUANTUM); else never (a CSR write, a trap or an xret
 * resets it to 0). Returns true if an interrupt was taken. */
static bool check_interrupts(sn_hart *h, uint64_t addr, uint64_t now)
{
    int i = deliverable(h, now);
    if (i >= 0) {
        h->block_len = 0;
        enter_trap(h, addr, INTERRUPT | (uint64_t)i, 0);
        return true;
    }
    uint64_t ie = reg_read(h, UC_RISCV_REG_MIE);
    bool m_on = h->priv < PRIV_M || (reg_read(h, UC_RISCV_REG_MSTATUS) & SN_MSTATUS_MIE);
    h->irq_check_at = UINT64_MAX;
    if (m_on && (ie >> SN_IRQ_MTI & 1) && now < h->mtimecmp)
        h->irq_check_at = h->mtimecmp;
    if (m_on && (ie & LINE_BITS) && h->bus.irq_lines)
        h->irq_check_at = now + 1;
    return false;
}

static void on_site(uc_engine *uc, uint64_t addr, uint32_t size, void *ud);

/* Decodes the block at addr (size bytes; 0 when Unicorn's block ends in a
 * word it refuses, measured: then up to the first illegal word) with the
 * card's rule, hooking every word that needs the hart (card_isa.h).
 * Returns true if a hook was added: the caller must have the block
 * translated again. */
static bool check_block(sn_hart *h, uint64_t addr, uint32_t size)
{
    uint32_t n = size ? size / 4 : TB_MAX_INSNS, first = (uint32_t)(addr / 4);
    bool added = false;
    for (uint32_t i = 0; i < n && first + i < IMEM_WORDS; i++) {
        uint64_t at = addr + 4ull * i;
        sn_insn_class c = sn_card_insn_class(imem_word(h, at));
        if (c != SN_INSN_PLAIN && h->mem->site[first + i] == 0) {
            uc_hook hk;
            uc_err e = uc_hook_add(h->uc, &hk, UC_HOOK_CODE, on_site, h, at, at);
            if (e != UC_ERR_OK) {
                sim_error(h, at, "Unicorn code hook at 0x%" PRIx64 ": %s", at, uc_strerror(e));
                return false;
            }
            h->mem->site[first + i] = hk;
            added = true;
        }
        if (c == SN_INSN_ILLEGAL)
            break;
    }
    if (size != 0)
        h->checked[first] = (uint16_t)n;
    return added;
}

/* Every translated block, each time it runs: charges its instructions,
 * applies the one rule for what executes (checked once per block start,
 * card_isa.h), takes a due interrupt, stops at the cycle limit and keeps
 * the mesh within ADVANCE_QUANTUM. */
static void on_block(uc_engine *uc, uint64_t addr, uint32_t size, void *ud)
{
    (void)uc;
    sn_hart *h = ud;
    if (h->half.active) {
        lone_half(h);
        return;
    }
    h->before_block += h->block_len;
    h->block_addr = addr;
    h->block_len = size / 4;
    h->cursor = 0;
    if (addr >= SN_IMEM_SIZE || h->checked[addr / 4] < h->block_len || size == 0) {
        if (addr % 4 != 0 || addr >= SN_IMEM_SIZE) { /* a jump off 4 bytes traps first (measured) */
            h->block_len = 0;
            sim_error(h, addr,
                      "the block at 0x%" PRIx64 " starts off a 4-byte boundary or outside IMEM (code below M "
                      "must be mapped at its IMEM address: the hart decodes IMEM by address)",
                      addr);
            return;
        }
        if (check_block(h, addr, size)) { /* run it again with its hooks */
            h->block_len = 0;
            uc_ctl_remove_cache(h->uc, addr, addr + (size ? size : 4u * TB_MAX_INSNS));
            reg_write(h, UC_RISCV_REG_PC, addr);
            return;
        }
        if (h->stopping) {
            h->block_len = 0;
            return;
        }
    }
    uint64_t now = h->before_block + h->extra_cycles;
    if (now >= h->irq_check_at) { /* 0 after an xret, a trap or a CSR write */
        if (h->xret_pending) { /* Unicorn has executed it: both are at the new level */
            h->xret_pending = false;
            h->priv = h->uc_priv = h->next_priv;
        }
        csr_window_open(h);
        bool taken = check_interrupts(h, addr, now);
        csr_window_close(h);
        if (taken)
            return;
    }
    if (now >= h->cycle_limit) { /* a stop from here comes before the block runs (measured) */
        h->block_len = 0;
        h->pc = addr;
        stop(h, SN_HART_CYCLE_LIMIT, addr);
        return;
    }
    if (now > h->last_advance + ADVANCE_QUANTUM)
        advance_to(h, now);
    if (h->stopping) /* the bus asked to stop: the block does not run */
        h->block_len = 0;
}

/* A misaligned load or store on the control region traps as on the card
 * (sysnode-facts §1.2: 4 load, 6 store; mtval the address). Found inside
 * Unicorn's MMIO callback, where the PC cannot be redirected: the run is
 * stopped (the access's other pieces, which Unicorn still delivers, are
 * dropped: nothing of it is made) and sn_hart_run enters the trap. */
static void defer_misaligned(sn_hart *h, uint32_t idx, uint64_t ea, bool write)
{
    h->deferred.active = true;
    h->deferred.pc = h->block_addr + 4ull * idx;
    h->deferred.cause = write ? CAUSE_STORE_MISALIGNED : CAUSE_LOAD_MISALIGNED;
    h->deferred.tval = ea;
    uc_emu_stop(h->uc);
}

/* Starts a control-region access: finds its instruction (its PC goes to
 * *pc), brings the mesh to its cycle, charges the extra cycle. Returns false
 * if the access is misaligned (a trap, defer_misaligned) or the bus asked
 * to stop meanwhile: the access is then not made. */
static bool ctrl_begin(sn_hart *h, uint32_t offset, uint64_t *pc)
{
    uint64_t ea = SN_CTRL_BASE + offset;
    unsigned size = 8;
    uint32_t idx = locate_access(h, SN_CTRL_BASE + offset, &ea, &size);
    if (ea % size != 0) {
        uint32_t w = imem_word(h, h->block_addr + 4ull * idx);
        defer_misaligned(h, idx, ea, (w & 0x7F) == 0x23);
        return false;
    }
    h->cursor = idx + 1;
    *pc = h->block_addr + 4ull * idx;
    advance_to(h, cycles_at(h, idx));
    if (h->stopping) { /* a stop from an MMIO callback is immediate (measured) */
        h->block_len = idx;
        return false;
    }
    h->extra_cycles++;
    return true;
}

static void bad_ctrl(sn_hart *h, uint64_t off, unsigned size, bool write)
{
    uint64_t ea = SN_CTRL_BASE + off;
    unsigned bytes = size;
    uint32_t idx = locate_access(h, ea, &ea, &bytes);
    if (ea % bytes != 0) {
        defer_misaligned(h, idx, ea, write);
        return;
    }
    char why[160];
    if (off >= SN_CTRL_SIZE)
        snprintf(why, sizeof why, "outside the memory map (the control region is 1 KB)");
    else
        snprintf(why, sizeof why,
                 "control offset 0x%" PRIx64 " takes whole aligned 64-bit accesses only (and byte stores "
                 "to R_CONSOLE)",
                 off);
    mem_error(h, write, SN_CTRL_BASE + off, size, why);
}

/* After the control access at pc: the run ends right here if it was the
 * exit store or the bus asked to stop (a stop from an MMIO callback is
 * immediate, measured). */
static void after_access(sn_hart *h, uint64_t pc)
{
    if (!h->exit_requested && !h->stopping)
        return;
    h->block_len = (uint32_t)((pc - h->block_addr) / 4) + 1;
    if (h->exit_requested) {
        h->result.exit_code = h->exit_code;
        h->pc = pc + 4;
        stop(h, SN_HART_EXITED, pc);
    }
}

static uint64_t on_ctrl_read(uc_engine *uc, uint64_t off, unsigned size, void *ud)
{
    (void)uc;
    sn_hart *h = ud;
    if (h->stopping || h->deferred.active) /* the rest of a stopped access */
        return 0;
    if (h->half.active) {
        if (!h->half.write && size == 4 && off == h->half.offset + 4u) {
            h->half.active = false;
            return h->half.value >> 32;
        }
        lone_half(h);
        return 0;
    }
    if (size != 4 || off % 8 != 0 || off >= SN_CTRL_SIZE) {
        bad_ctrl(h, off, size, false);
        return 0;
    }
    uint64_t pc;
    if (!ctrl_begin(h, (uint32_t)off, &pc))
        return 0;
    uint64_t v = h->bus.ctrl_read(h->bus.ctx, (uint32_t)off);
    after_access(h, pc);
    h->half.active = true;
    h->half.write = false;
    h->half.offset = (uint32_t)off;
    h->half.value = v;
    h->half.pc = pc;
    return (uint32_t)v;
}

static void on_ctrl_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ud)
{
    (void)uc;
    sn_hart *h = ud;
    if (h->stopping || h->deferred.active) /* the rest of a stopped access */
        return;
    if (h->half.active) {
        if (h->half.write && size == 4 && off == h->half.offset + 4u) {
            h->half.active = false;
            h->bus.ctrl_write(h->bus.ctx, h->half.offset, h->half.value | (value & 0xFFFFFFFFu) << 32);
            after_access(h, h->half.pc);
            return;
        }
        lone_half(h);
        return;
    }
    uint64_t pc;
    if (size == 1 && off == SN_CTRL_CONSOLE) {
        if (!ctrl_begin(h, (uint32_t)off, &pc))
            return;
        h->bus.ctrl_write(h->bus.ctx, SN_CTRL_CONSOLE, value & 0xFF);
        after_access(h, pc);
        return;
    }
    if (size != 4 || off % 8 != 0 || off >= SN_CTRL_SIZE) {
        bad_ctrl(h, off, size, true);
        return;
    }
    if (!ctrl_begin(h, (uint32_t)off, &pc))
        return;
    h->half.active = true;
    h->half.write = true;
    h->half.offset = (uint32_t)off;
    h->half.value = value & 0xFFFFFFFFu;
    h->half.pc = pc;
}

/* Data access to IMEM. Mapping IMEM execute-only does not stop a load from
 * a page the TLB already holds for fetching (measured), so a range hook
 * catches every data access there. Any memory hook sends every load and
 * store through Unicorn's slow path: on a loop of 1/3 loads and stores over
 * SPAD it costs about 13% (measured: 67 vs 76 M instructions/s). */
static void on_imem_data(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ud)
{
    (void)uc;
    (void)value;
    mem_error(ud, type == UC_MEM_WRITE, addr, (unsigned)size, "IMEM is fetch-only");
}

static bool on_mem_invalid(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ud)
{
    (void)uc;
    (void)value;
    sn_hart *h = ud;
    switch (type) {
    case UC_MEM_FETCH_UNMAPPED:
    case UC_MEM_FETCH_PROT:
        sim_error(h, addr, "instruction fetch at 0x%" PRIx64 ": the core fetches only from IMEM [0x%llx, 0x%llx)%s",
                  addr, SN_IMEM_BASE, SN_IMEM_BASE + SN_IMEM_SIZE,
                  addr >= SN_DRAM_CPU_BASE ? " (DRAM-resident code is a later feature)" : "");
        break;
    case UC_MEM_READ_PROT:
    case UC_MEM_WRITE_PROT:
        mem_error(h, type == UC_MEM_WRITE_PROT, addr, (unsigned)size, "IMEM is fetch-only");
        break;
    default:
        mem_error(h, type == UC_MEM_WRITE_UNMAPPED, addr, (unsigned)size, "outside the memory map");
        break;
    }
    return false;
}

/* Where the jump or branch at pc goes when taken (its registers are still
 * unwritten when it faults, measured). */
static uint64_t jump_target(sn_hart *h, uint64_t pc)
{
    uint32_t w = imem_word(h, pc);
    int64_t imm;
    switch (w & 0x7F) {
    case 0x67: /* jalr */
        return (reg_read(h, UC_RISCV_REG_X0 + (int)((w >> 15) & 31)) + (uint64_t)(int64_t)((int32_t)w >> 20)) & ~1ull;
    case 0x6F: /* jal: imm[20|10:1|11|19:12] */
        imm = ((int64_t)(int32_t)(w & 0x80000000u) >> 11) | (w & 0xFF000) | ((w >> 9) & 0x800) | ((w >> 20) & 0x7FE);
        return pc + (uint64_t)imm;
    default: /* branch: imm[12|10:5] ... imm[4:1|11] */
        imm = ((int64_t)(int32_t)(w & 0x80000000u) >> 19) | ((w << 4) & 0x800) | ((w >> 20) & 0x7E0) |
              ((w >> 7) & 0x1E);
        return pc + (uint64_t)imm;
    }
}

/* An exception Unicorn raised itself (see on_intr). */
static void unicorn_exception(sn_hart *h, uint32_t intno, uint64_t pc)
{
    if (intno == CAUSE_ILLEGAL)
        take_exception(h, pc, CAUSE_ILLEGAL, imem_word(h, pc), HALT_ILLEGAL);
    else if (intno == CAUSE_FETCH_MISALIGNED && h->block_len > 0) {
        pc = h->block_addr + 4ull * (h->block_len - 1); /* a jump ends its block */
        take_exception(h, pc, CAUSE_FETCH_MISALIGNED, jump_target(h, pc), HALT_ILLEGAL);
    } else if (intno == CAUSE_LOAD_PAGE || intno == CAUSE_STORE_PAGE) {
        take_exception(h, pc, intno, sn_uc_fault_address(h->uc, h->ctx), HALT_ILLEGAL);
    } else
        sim_error(h, pc, "exception %u at 0x%" PRIx64 " is not modelled", intno, pc);
}

/* Unicorn reports exceptions here without trapping (tool-pitfalls 2), with
 * the PC already past the faulting instruction (measured). The hart's
 * sites (on_site) take ecall, ebreak, illegal words and misaligned LR/SC/
 * AMOs before Unicorn sees them; what remains comes from Unicorn's own
 * checks: a privileged instruction below its level (2), a jump to an
 * address off 4 bytes (0, found as its block's last instruction) and Sv39
 * load and store page faults (13, 15; mtval from Unicorn's state). An
 * instruction page fault (12) is not modelled. */
static void on_intr(uc_engine *uc, uint32_t intno, void *ud)
{
    (void)uc;
    sn_hart *h = ud;
    if (!hook_serves(h))
        return;
    uint64_t pc = reg_read(h, UC_RISCV_REG_PC) - 4;
    csr_window_open(h);
    unicorn_exception(h, intno, pc);
    csr_window_close(h);
}

/* Counter CSRs (tool-pitfalls 3): cycle/mcycle/time give cycles, instret/
 * minstret the instructions retired before this one; csrw mcycle/minstret
 * keeps a delta. *delta_out gets the delta a write changes, or NULL. */
static uint64_t counter_value(sn_hart *h, unsigned csr, uint32_t idx, uint64_t **delta_out, uint64_t *base_out)
{
    uint64_t base = cycles_at(h, idx), *delta = NULL;
    if (csr == 0xC00 || csr == 0xB00)
        delta = &h->mcycle_delta;
    if (csr == 0xC02 || csr == 0xB02) {
        base = h->before_block + idx - h->not_retired;
        delta = &h->minstret_delta;
    }
    *delta_out = delta;
    *base_out = base;
    return base + (delta ? *delta : 0);
}

/* A CSR instruction at addr (block index idx), executed here against the
 * card's CSR file (card_csr.h, sysnode-facts §1.2): the access is checked
 * against the privilege level, read-only numbers and mstatus.TVM (satp from
 * S), reads show only the
 * implemented bits, writes change only those. Unicorn never executes a CSR
 * instruction, so its own CSR file (pmpcfg, counters reading the host
 * clock, mstatus.FS) is unreachable. A CSR instruction ends its translation
 * block (measured), so the block is cut here. */
static void on_csr(sn_hart *h, uint64_t addr, uint32_t idx, uint32_t w)
{
    unsigned csr = w >> 20, f3 = (w >> 12) & 7, rd = (w >> 7) & 31, rs1 = (w >> 15) & 31;
    const sn_card_csr *c = sn_card_csr_find(csr);
    bool writes = f3 == 1 || f3 == 5 || rs1 != 0;
    bool tvm = csr == 0x180 && h->priv == PRIV_S && (reg_read(h, UC_RISCV_REG_MSTATUS) & SN_MSTATUS_TVM);
    if ((csr >> 8 & 3) > h->priv || (writes && (csr >> 10) == 3) || tvm) {
        take_exception(h, addr, CAUSE_ILLEGAL, w, HALT_ILLEGAL);
        return;
    }
    uint64_t now = cycles_at(h, idx), *shadow = NULL, *delta = NULL, base = 0, old = 0;
    if (c->kind == SN_CSR_COUNTER || c->kind == SN_CSR_IP) {
        advance_to(h, now);
        if (h->stopping) { /* writing the PC now would cancel the stop (measured) */
            h->block_len = idx;
            return;
        }
    }
    uint64_t wmask = c->mask;
    switch (c->kind) {
    case SN_CSR_BACKED:
        old = reg_read(h, c->uc_reg) & c->mask;
        break;
    case SN_CSR_CONST:
        old = c->mask;
        wmask = 0;
        break;
    case SN_CSR_SHADOW:
        shadow = csr == 0x302 ? &h->medeleg : csr == 0x303 ? &h->mideleg : &h->mtimecmp;
        old = *shadow;
        break;
    case SN_CSR_IP:
        if (csr == 0x144)
            wmask &= h->mideleg;
        old = pending(h, now) & (csr == 0x144 ? h->mideleg : SN_IRQ_MASK);
        break;
    case SN_CSR_IE_S:
        wmask = h->mideleg;
        old = reg_read(h, c->uc_reg) & wmask;
        break;
    case SN_CSR_COUNTER:
        old = counter_value(h, csr, idx, &delta, &base);
        if (delta == NULL)
            wmask = 0;
        break;
    }
    if (writes && wmask != 0) {
        uint64_t src = f3 >= 5 ? rs1 : reg_read(h, UC_RISCV_REG_X0 + (int)rs1);
        uint64_t now_v = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;
        switch (c->kind) {
        case SN_CSR_BACKED:
        case SN_CSR_IE_S: {
            uint64_t mode = now_v >> 60;
            if (csr == 0x180 && mode != 0 && mode != SN_SATP_MODE_SV39)
                break; /* satp: an unsupported MODE leaves it unchanged (WARL) */
            uint64_t raw = reg_read(h, c->uc_reg);
            if (csr == 0x300 && (now_v & SN_MSTATUS_MPP) == 2ull << SN_MSTATUS_MPP_LO)
                now_v = (now_v & ~SN_MSTATUS_MPP) | (raw & SN_MSTATUS_MPP); /* MPP is WARL: no level 2 (§1.1) */
            reg_write(h, c->uc_reg, (raw & ~wmask) | (now_v & wmask));
            break;
        }
        case SN_CSR_SHADOW:
            *shadow = now_v & wmask;
            break;
        case SN_CSR_IP:
            h->mip_sw = (h->mip_sw & ~wmask) | (now_v & wmask);
            break;
        case SN_CSR_COUNTER:
            *delta = now_v - base;
            break;
        case SN_CSR_CONST:
            break;
        }
        h->irq_check_at = 0;
    }
    if (rd != 0)
        reg_write(h, UC_RISCV_REG_X0 + (int)rd, old);
    h->block_len = idx + 1;
    reg_write(h, UC_RISCV_REG_PC, addr + 4); /* skips the instruction (measured) */
}

/* An LR, SC or AMO at addr, before Unicorn runs it as a plain read and write
 * (tool-pitfalls 19): the card refuses it on the control region with
 * an access fault (privileged spec: 5 for LR, 7 for SC and AMOs; the facts
 * list no access-fault code, sysnode-facts §1.2) and traps a misaligned one
 * (4 for LR, 6 for SC and AMOs, §1.2), mtval the address. Returns true if
 * it trapped; else Unicorn executes it. */
static bool amo_refused(sn_hart *h, uint64_t addr, uint32_t w)
{
    uint64_t ea = reg_read(h, UC_RISCV_REG_X0 + (int)((w >> 15) & 31));
    bool lr = sn_card_amo_is_lr(w);
    if (ea % sn_card_amo_bytes(w) != 0)
        take_exception(h, addr, lr ? CAUSE_LOAD_MISALIGNED : CAUSE_STORE_MISALIGNED, ea, HALT_ILLEGAL);
    else if (ea - SN_CTRL_BASE < CTRL_MAP_SIZE)
        take_exception(h, addr, lr ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS, ea, HALT_ILLEGAL);
    else
        return false;
    return true;
}

/* xret: checked against the privilege level (mret needs M, sret S), then
 * executed by Unicorn, which restores the interrupt enable and its
 * privilege level; the hart takes the new level at the next block. */
static bool xret_refused(sn_hart *h, bool mret)
{
    if (h->priv < (mret ? PRIV_M : PRIV_S))
        return true;
    uint64_t ms = reg_read(h, UC_RISCV_REG_MSTATUS);
    h->next_priv = mret ? (unsigned)(ms >> SN_MSTATUS_MPP_LO & 3) : (ms & SN_MSTATUS_SPP ? PRIV_S : PRIV_U);
    h->xret_pending = true;
    h->irq_check_at = 0;
    return false;
}

/* wfi at addr (block index idx): waits until an interrupt is pending and
 * enabled in mie, whatever mstatus says (privileged spec), with simulated
 * time advancing: to mtimecmp for the timer, and with the mesh clocked on
 * (bus->wait_irq) for its lines; Unicorn's wfi would end the run
 * (tool-pitfalls 2). The wait ends at the cycle limit, with the wfi to run
 * again. */
static void on_wfi(sn_hart *h, uint64_t addr, uint32_t idx)
{
    uint64_t now = cycles_at(h, idx), ie = reg_read(h, UC_RISCV_REG_MIE) & SN_IRQ_MASK;
    advance_to(h, now);
    if (h->stopping) {
        h->block_len = idx;
        return;
    }
    uint64_t timer = ie >> SN_IRQ_MTI & 1 ? h->mtimecmp : UINT64_MAX;
    bool by_lines = (ie & LINE_BITS) && h->bus.wait_irq, woke = (pending(h, now) & ie) != 0;
    uint64_t wake = now;
    if (!woke && timer == UINT64_MAX && !by_lines) {
        h->block_len = idx;
        sim_error(h, addr, "wfi at 0x%" PRIx64 " with no enabled interrupt that can wake it (mie 0x%" PRIx64 ")", addr,
                  ie);
        return;
    }
    if (!woke) {
        uint64_t limit = timer < h->cycle_limit ? timer : h->cycle_limit;
        if (by_lines && limit > now) {
            wake = h->bus.wait_irq(h->bus.ctx, ie & LINE_BITS, limit);
            h->last_advance = wake;
            woke = (lines(h) & ie) != 0;
        }
        if (h->stopping) {
            h->block_len = idx;
            return;
        }
        if (!woke) {
            wake = limit;
            woke = timer <= h->cycle_limit; /* else only the cycle limit ends the wait: the wfi runs again */
        }
    }
    h->extra_cycles += wake - now;
    h->block_len = idx + woke;
    h->irq_check_at = 0;
    advance_to(h, wake);
    if (h->stopping)
        return;
    reg_write(h, UC_RISCV_REG_PC, woke ? addr + 4 : addr);
}

/* Before the instruction at addr: stops the run there for a breakpoint or
 * a single step, unless it is the instruction the run resumed at. Returns
 * true if it stopped. */
static bool debug_stop(sn_hart *h, uint64_t addr)
{
    bool first = h->resume_armed && addr == h->resume_pc;
    h->resume_armed = false;
    if (first || !(h->stepping || (addr < SN_IMEM_SIZE && h->mem->breakpoint[addr / 4] != 0)))
        return false;
    h->block_len = (uint32_t)((addr - h->block_addr) / 4);
    h->pc = addr;
    stop(h, SN_HART_BREAK, addr);
    return true;
}

/* The debugger's code hooks (breakpoints, single step). A word with a site
 * is left to on_site, which asks debug_stop first. */
static void on_debug(uc_engine *uc, uint64_t addr, uint32_t size, void *ud)
{
    (void)uc;
    (void)size;
    sn_hart *h = ud;
    if (h->stopping || (addr < SN_IMEM_SIZE && h->mem->site[addr / 4] != 0))
        return;
    debug_stop(h, addr);
}

/* A word the hart serves itself (card_isa.h), before it executes. */
static void serve_site(sn_hart *h, uint64_t addr, uint32_t idx, uint32_t w)
{
    switch (sn_card_insn_class(w)) {
    case SN_INSN_CSR:
        on_csr(h, addr, idx, w);
        break;
    case SN_INSN_ECALL:
        take_exception(h, addr, CAUSE_ECALL_U + h->priv, 0, HALT_ECALL);
        break;
    case SN_INSN_EBREAK:
        take_exception(h, addr, CAUSE_BREAKPOINT, 0, HALT_EBREAK);
        break;
    case SN_INSN_MRET:
    case SN_INSN_SRET:
        if (xret_refused(h, sn_card_insn_class(w) == SN_INSN_MRET))
            take_exception(h, addr, CAUSE_ILLEGAL, w, HALT_ILLEGAL);
        break;
    case SN_INSN_AMO:
        amo_refused(h, addr, w);
        break;
    case SN_INSN_FENCE_I: /* the I-cache is dropped (sysnode-facts §1.5): so is the decode */
        memset(h->checked, 0, sizeof h->checked);
        break;
    case SN_INSN_WFI:
        on_wfi(h, addr, idx);
        break;
    case SN_INSN_SFENCE_VMA: /* Unicorn checks the privilege level and TVM/TW itself */
    case SN_INSN_PLAIN:
        break;
    case SN_INSN_ILLEGAL:
        take_exception(h, addr, CAUSE_ILLEGAL, w, HALT_ILLEGAL);
        break;
    }
}

/* The code hook on every such word: Unicorn in M while it is served. */
static void on_site(uc_engine *uc, uint64_t addr, uint32_t size, void *ud)
{
    (void)uc;
    (void)size;
    sn_hart *h = ud;
    if (!hook_serves(h))
        return;
    uint32_t w = imem_word(h, addr), idx = (uint32_t)((addr - h->block_addr) / 4);
    if ((h->stepping || h->resume_armed || h->mem->breakpoint[addr / 4] != 0) && debug_stop(h, addr))
        return;
    csr_window_open(h);
    serve_site(h, addr, idx, w);
    csr_window_close(h);
}

/* Cached DRAM window: every CPU load and store goes through the L1 model.
 * An 8-byte access arrives as two 4-byte calls (tool-pitfalls 1; measured
 * here too) and AMOs and LR/SC come through as plain reads and writes
 * (measured); the model serves any piece, and the mapping is exactly the
 * DRAM, so every offset is in range. */
static uint64_t on_dram_read(uc_engine *uc, uint64_t off, unsigned size, void *ud)
{
    (void)uc;
    sn_hart *h = ud;
    uint64_t v = 0;
    sn_l1_read(&h->mem->l1, off, size, &v);
    return v;
}

static void on_dram_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ud)
{
    (void)uc;
    sn_hart *h = ud;
    sn_l1_write(&h->mem->l1, off, size, value);
}

/* The memory map (sysnode-facts §1.4) and the hooks every image needs. On
 * failure *what names the step. */
static uc_err build(sn_hart *h, const char **what)
{
    uc_err e;
    *what = "map IMEM";
    if ((e = uc_mem_map_ptr(h->uc, SN_IMEM_BASE, SN_IMEM_SIZE, UC_PROT_EXEC, h->mem->imem)) != UC_ERR_OK)
        return e;
    *what = "map SPAD";
    if ((e = uc_mem_map_ptr(h->uc, SN_SPAD_BASE, SN_SPAD_SIZE, UC_PROT_READ | UC_PROT_WRITE, h->mem->spad)) !=
        UC_ERR_OK)
        return e;
    *what = "map the control region";
    if ((e = uc_mmio_map(h->uc, SN_CTRL_BASE, CTRL_MAP_SIZE, on_ctrl_read, h, on_ctrl_write, h)) != UC_ERR_OK)
        return e;
    /* Cached DRAM through the L1 model (sysnode-facts §1.5): about 6 ns more
     * per 8-byte access than the alias (measured: 110 vs 95 ns per loop of 3
     * accesses and 2 ALU instructions). The uncached alias goes straight onto
     * the buffer, where the runner reads its table. Unicorn accepts the
     * 40-bit alias address (measured). */
    *what = "map cached DRAM";
    if ((e = uc_mmio_map(h->uc, SN_DRAM_CPU_BASE, h->dram_size, on_dram_read, h, on_dram_write, h)) != UC_ERR_OK)
        return e;
    *what = "map the uncached DRAM alias";
    if ((e = uc_mem_map_ptr(h->uc, SN_DRAM_CPU_BASE | UNCACHED_ALIAS, h->dram_size, UC_PROT_READ | UC_PROT_WRITE,
                            h->dram)) != UC_ERR_OK)
        return e;
    *what = "add hooks";
    uc_hook hk;
    if ((e = uc_hook_add(h->uc, &hk, UC_HOOK_BLOCK, on_block, h, 1, 0)) != UC_ERR_OK ||
        (e = uc_hook_add(h->uc, &hk, UC_HOOK_INTR, on_intr, h, 1, 0)) != UC_ERR_OK ||
        (e = uc_hook_add(h->uc, &hk, UC_HOOK_MEM_INVALID, on_mem_invalid, h, 1, 0)) != UC_ERR_OK)
        return e;
    return uc_hook_add(h->uc, &hk, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, on_imem_data, h, SN_IMEM_BASE,
                       SN_IMEM_BASE + SN_IMEM_SIZE - 1);
}

/* A fresh core, memory map and hooks: the CPU side of HR_BOOT (sysnode-facts
 * §1.3). Keeps the bus, the DRAM buffer, IMEM, SPAD and the L1's storage,
 * and an engine still as power_on built it (engine_fresh). */
static int power_on(sn_hart *h, char *err, size_t errlen)
{
    sn_hart_bus bus = h->bus;
    uint8_t *dram = h->dram;
    uint64_t dram_size = h->dram_size;
    unsigned dram_latency = h->dram_latency;
    memories *mem = h->mem;
    uc_engine *uc = NULL;
    uc_context *ctx = NULL;
    if (h->engine_fresh) {
        uc = h->uc;
        ctx = h->ctx;
    } else {
        if (h->ctx != NULL)
            uc_context_free(h->ctx);
        if (h->uc != NULL)
            uc_close(h->uc);
    }
    memset(h, 0, sizeof *h);
    memset(mem->site, 0, sizeof mem->site);
    memset(mem->breakpoint, 0, sizeof mem->breakpoint);
    h->bus = bus;
    h->dram = dram;
    h->dram_size = dram_size;
    h->dram_latency = dram_latency;
    h->mem = mem;
    h->uc = uc;
    h->ctx = ctx;
    if (h->uc == NULL) {
        const char *what = "uc_open";
        uc_err e = uc_open(UC_ARCH_RISCV, UC_MODE_RISCV64, &h->uc);
        if (e == UC_ERR_OK)
            e = build(h, &what);
        if (e != UC_ERR_OK) {
            sn_err_text(err, errlen, "Unicorn %s: %s", what, uc_strerror(e));
            return -1;
        }
        if (sn_uc_cpu_state_init(h->uc, &h->ctx, err, errlen) != 0)
            return -1;
    }
    h->engine_fresh = true;
    h->priv = h->uc_priv = PRIV_M;
    h->mtimecmp = UINT64_MAX; /* [inferred] reset value not in the facts: no timer until written */
    h->irq_check_at = UINT64_MAX;
    return 0;
}

sn_hart *sn_hart_create(const sn_hart_bus *bus, uint8_t *dram, uint64_t dram_size, char *err, size_t errlen)
{
    if (bus == NULL || bus->ctrl_read == NULL || bus->ctrl_write == NULL || bus->advance == NULL) {
        sn_err_text(err, errlen, "sn_hart_create: the bus needs ctrl_read, ctrl_write and advance");
        return NULL;
    }
    if (dram == NULL || dram_size == 0 || dram_size % 4096 != 0 || dram_size > UNCACHED_ALIAS - SN_DRAM_CPU_BASE) {
        sn_err_text(err, errlen, "sn_hart_create: DRAM of 0x%" PRIx64 " bytes: need a buffer of a non-zero multiple of 4096",
                dram_size);
        return NULL;
    }
    sn_hart *h = calloc(1, sizeof *h);
    if (h == NULL) {
        sn_err_text(err, errlen, "sn_hart_create: out of memory");
        return NULL;
    }
    h->bus = *bus;
    h->dram = dram;
    h->dram_size = dram_size;
    h->mem = calloc(1, sizeof *h->mem);
    if (h->mem == NULL) {
        sn_err_text(err, errlen, "sn_hart_create: out of memory");
        free(h);
        return NULL;
    }
    sn_l1_init(&h->mem->l1, dram, dram_size);
    if (power_on(h, err, errlen) != 0) {
        sn_hart_destroy(h);
        return NULL;
    }
    return h;
}

void sn_hart_destroy(sn_hart *h)
{
    if (h == NULL)
        return;
    if (h->ctx != NULL)
        uc_context_free(h->ctx);
    if (h->uc != NULL)
        uc_close(h->uc);
    free(h->mem);
    free(h);
}

/* Where [addr, addr+n) of a region at base (size bytes) lives in mem, or NULL
 * if it is not all inside; the unsigned subtraction makes addr < base fail. */
static uint8_t *local(uint8_t *mem, uint64_t base, uint64_t size, uint64_t addr, uint64_t n)
{
    uint64_t off = addr - base;
    return off <= size && n <= size - off ? mem + off : NULL;
}

int sn_hart_imem_write(sn_hart *h, uint32_t addr, uint32_t word)
{
    if (addr % 4 != 0 || addr >= SN_IMEM_SIZE)
        return -1;
    uint8_t *p = &h->mem->imem[addr];
    for (unsigned k = 0; k < 4; k++)
        p[k] = (uint8_t)(word >> 8 * k);
    /* every block that may hold the word is decoded again, and translated again */
    uint32_t i = addr / 4, lo = i >= TB_MAX_INSNS ? i - TB_MAX_INSNS + 1 : 0;
    memset(&h->checked[lo], 0, (i - lo + 1) * sizeof h->checked[0]);
    if (h->mem->site[i] != 0) {
        uc_hook_del(h->uc, h->mem->site[i]);
        h->mem->site[i] = 0;
    }
    uc_ctl_remove_cache(h->uc, addr, addr + 4);
    return 0;
}

int sn_hart_spad_write(sn_hart *h, uint32_t offset, uint64_t value, uint8_t strobes)
{
    if (offset % 8 != 0 || offset >= SN_SPAD_SIZE)
        return -1;
    for (unsigned k = 0; k < 8; k++)
        if (strobes >> k & 1)
            h->mem->spad[offset + k] = (uint8_t)(value >> 8 * k);
    return 0;
}

void sn_hart_clear_memories(sn_hart *h)
{
    memset(h->mem->imem, 0, sizeof h->mem->imem);
    memset(h->mem->spad, 0, sizeof h->mem->spad);
    memset(h->checked, 0, sizeof h->checked);
    for (size_t i = 0; i < IMEM_WORDS; i++)
        if (h->mem->site[i] != 0) {
            uc_hook_del(h->uc, h->mem->site[i]);
            h->mem->site[i] = 0;
        }
    uc_ctl_remove_cache(h->uc, SN_IMEM_BASE, SN_IMEM_BASE + SN_IMEM_SIZE);
}

int sn_hart_boot(sn_hart *h, char *err, size_t errlen)
{
    if (power_on(h, err, errlen) != 0)
        return -1;
    sn_l1_init(&h->mem->l1, h->dram, h->dram_size);
    h->booted = true;
    return 0;
}

int sn_hart_set_dram_latency(sn_hart *h, unsigned cycles)
{
    if (cycles > 1000)
        return -1;
    h->dram_latency = cycles;
    return 0;
}

unsigned sn_hart_errata(const sn_hart *h)
{
    return h->errata;
}

const char *sn_hart_erratum_text(unsigned bit)
{
    static const char *const text[SN_ERRATUM_COUNT] = {
        [SN_ERRATUM_WFI_NO_WAIT] = "wfi does not wait: it retires at once, interrupt or not",
        [SN_ERRATUM_L1_BUSY_POLL] = "a DCACHE busy read right after the store that starts a flush or invalidate reads 0",
        [SN_ERRATUM_SV39_STALE_XLATE] = "under Sv39 an access right after another to the same page reuses the previous translation",
        [SN_ERRATUM_CSR_TRAP_TWICE] = "a trap taken on a CSR instruction is entered twice: MIE is lost and MPP reads M",
    };
    return bit < SN_ERRATUM_COUNT ? text[bit] : NULL;
}

void sn_hart_dcache_write(sn_hart *h, uint64_t value)
{
    if (value & 1)
        h->extra_cycles += sn_l1_flush(&h->mem->l1);
    if (value & 2)
        sn_l1_invalidate(&h->mem->l1);
}

uint64_t sn_hart_dcache_read(sn_hart *h)
{
    (void)h;
    return 0;
}

sn_l1_stats sn_hart_l1_stats(const sn_hart *h)
{
    return h->mem->l1.stats;
}

int sn_hart_spad_read(sn_hart *h, uint64_t addr, void *dst, size_t n)
{
    const uint8_t *src = local(h->mem->spad, SN_SPAD_BASE, SN_SPAD_SIZE, addr, n);
    if (src == NULL)
        return -1;
    memcpy(dst, src, n);
    return 0;
}

/* Adds (on) or removes the single-step hook; translations of IMEM are
 * dropped either way so blocks pick the change up. */
static int step_hook(sn_hart *h, bool on)
{
    uc_err e = UC_ERR_OK;
    h->engine_fresh = false;
    if (on && h->step_hook == 0)
        e = uc_hook_add(h->uc, &h->step_hook, UC_HOOK_CODE, on_debug, h, SN_IMEM_BASE, SN_IMEM_SIZE - 1);
    if (!on && h->step_hook != 0) {
        uc_hook_del(h->uc, h->step_hook);
        h->step_hook = 0;
    }
    uc_ctl_remove_cache(h->uc, SN_IMEM_BASE, SN_IMEM_SIZE);
    return e == UC_ERR_OK ? 0 : -1;
}

int sn_hart_breakpoint(sn_hart *h, uint64_t addr, int on)
{
    if (addr % 4 != 0 || addr >= SN_IMEM_SIZE)
        return -1;
    uc_hook *hk = &h->mem->breakpoint[addr / 4];
    h->engine_fresh = false;
    if (on && *hk == 0 && uc_hook_add(h->uc, hk, UC_HOOK_CODE, on_debug, h, addr, addr) != UC_ERR_OK)
        return -1;
    if (!on && *hk != 0) {
        uc_hook_del(h->uc, *hk);
        *hk = 0;
    }
    uc_ctl_remove_cache(h->uc, addr, addr + 4);
    return 0;
}

void sn_hart_single_step(sn_hart *h)
{
    h->stepping = true;
}

uint64_t sn_hart_register(sn_hart *h, unsigned i)
{
    return i < 32 ? reg_read(h, UC_RISCV_REG_X0 + (int)i) : i == 32 ? h->pc : 0;
}

int sn_hart_debug_read(sn_hart *h, uint64_t addr, void *dst, size_t n)
{
    const uint8_t *src = local(h->mem->imem, SN_IMEM_BASE, SN_IMEM_SIZE, addr, n);
    if (src == NULL)
        src = local(h->mem->spad, SN_SPAD_BASE, SN_SPAD_SIZE, addr, n);
    if (src == NULL)
        src = local(h->dram, SN_DRAM_CPU_BASE | UNCACHED_ALIAS, h->dram_size, addr, n);
    if (src != NULL) {
        memcpy(dst, src, n);
        return 0;
    }
    if (local(h->dram, SN_DRAM_CPU_BASE, h->dram_size, addr, n) == NULL)
        return -1;
    for (size_t k = 0; k < n; k++)
        ((uint8_t *)dst)[k] = sn_l1_peek(&h->mem->l1, addr - SN_DRAM_CPU_BASE + k);
    return 0;
}

/* Handles a return from uc_emu_start that no hook asked for. */
static void unrequested_return(sn_hart *h, uc_err e)
{
    if (h->half.active) {
        lone_half(h);
        return;
    }
    uint64_t pc = reg_read(h, UC_RISCV_REG_PC);
    sim_error(h, pc, "Unicorn stopped at 0x%" PRIx64 " for no modelled reason: %s", pc, uc_strerror(e));
}

sn_hart_result sn_hart_run(sn_hart *h, uint64_t cycle_limit)
{
    if (h->done)
        return h->result;
    if (!h->stopping) /* else a stop was requested between runs */
        memset(&h->result, 0, sizeof h->result);
    h->cycle_limit = cycle_limit;
    if (!h->booted)
        sim_error(h, 0, "sn_hart_run: not booted (write IMEM and SPAD through the window, then sn_hart_boot)");
    h->resume_pc = h->pc;
    h->resume_armed = true;
    h->engine_fresh = false;
    if (h->stepping && !h->stopping && step_hook(h, true) != 0)
        sim_error(h, h->pc, "Unicorn: cannot add the single-step hook");
    h->running = true;
    while (!h->stopping) {
        /* count 0 keeps block chaining (tool-pitfalls 4); the until address is never reached (5) */
        uc_err e = uc_emu_start(h->uc, h->pc, UINT64_MAX, 0, 0);
        if (h->deferred.active && !h->stopping) {
            h->deferred.active = false;
            csr_window_open(h);
            take_exception(h, h->deferred.pc, h->deferred.cause, h->deferred.tval, HALT_ILLEGAL);
            csr_window_close(h);
            continue;
        }
        if (!h->stopping)
            unrequested_return(h, e);
    }
    h->running = false;
    h->stopping = false;
    if (h->stepping) {
        step_hook(h, false);
        h->stepping = false;
    }
    h->result.cycles = sn_hart_cycles(h);
    h->result.instret = h->before_block + h->block_len - h->not_retired;
    h->done = h->result.stop != SN_HART_CYCLE_LIMIT && h->result.stop != SN_HART_BREAK;
    return h->result;
}

void sn_hart_request_exit(sn_hart *h, uint64_t code)
{
    h->exit_requested = true;
    h->exit_code = code;
}

void sn_hart_request_stop(sn_hart *h, const char *message)
{
    if (h->done)
        return;
    if (!h->stopping && !h->running)
        memset(&h->result, 0, sizeof h->result);
    /* the last control access of the current block, else its start */
    uint64_t pc = h->running ? h->block_addr + 4ull * (h->cursor ? h->cursor - 1 : 0) : h->pc;
    sim_error(h, pc, "%s", message);
}

uint64_t sn_hart_cycles(const sn_hart *h)
{
    return h->before_block + h->block_len + h->extra_cycles;
}
