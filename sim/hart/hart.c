/* The RV64 hart on Unicorn 2.0.1; see hart.h. Unicorn's own behaviour that
 * shapes this file was measured on this machine's libunicorn 2.0.1 and is
 * cited where used as "(measured)". */
#include "hart.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicorn/unicorn.h>

#include "sysnode/regs.h"

#define CTRL_MAP_SIZE 0x1000u /* Unicorn maps whole 4 KB pages; past SN_CTRL_SIZE is outside the map */
#define UNCACHED_ALIAS (1ull << SN_UNCACHED_BIT)
#define ADVANCE_QUANTUM 64 /* cycles the hart may run ahead of the mesh between bus calls */
#define TB_MAX_INSNS 512   /* QEMU's cap on one translation block */
#define INSN_WFI 0x10500073u
#define INSN_EBREAK 0x00100073u

/* mcause values (sysnode-facts §1.2) and halt causes (§1.3) */
enum { CAUSE_ILLEGAL = 2, CAUSE_BREAKPOINT = 3, CAUSE_ECALL_M = 11 };
enum { HALT_ECALL = 1, HALT_EBREAK = 2, HALT_ILLEGAL = 3 };
#define MSTATUS_MIE (1ull << 3)
#define MSTATUS_MPIE (1ull << 7)
#define MSTATUS_MPP (3ull << 11)

/* A counter-CSR instruction in IMEM (SYSTEM opcode, CSR funct3, csr in
 * cycle 0xC00, time 0xC01, instret 0xC02, mcycle 0xB00, minstret 0xB02) and
 * the hart serving it. */
typedef struct counter_site {
    sn_hart *h;
    uint64_t addr;   /* instruction address */
    uint32_t word;   /* the instruction */
    unsigned rd;     /* destination register */
    unsigned rs1;    /* source register, or the 5-bit immediate when funct3 >= 5 */
    unsigned funct3; /* 1 csrrw, 2 csrrs, 3 csrrc, 5 csrrwi, 6 csrrsi, 7 csrrci */
    unsigned csr;    /* CSR number */
} counter_site;

/* What BOOT keeps: the host-loaded memories and the L1's storage. */
typedef struct memories {
    uint8_t imem[SN_IMEM_SIZE]; /* guest memory (uc_mem_map_ptr), so decoding reads it directly */
    uint8_t spad[SN_SPAD_SIZE];
    sn_l1 l1; /* emptied at BOOT */
} memories;

struct sn_hart {
    uc_engine *uc;
    sn_hart_bus bus;
    uint8_t *dram;
    uint64_t dram_size;
    memories *mem;
    bool booted;
    counter_site *sites;

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

    uint64_t pc; /* where the next run starts */
    bool running, stopping, done;
    bool exit_requested;
    uint64_t exit_code;
    sn_hart_result result;
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static uint64_t reg_read(sn_hart *h, int reg)
{
    uint64_t v = 0;
    uc_reg_read(h->uc, reg, &v);
    return v;
}

static void reg_write(sn_hart *h, int reg, uint64_t v)
{
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
 * address and size go to *ea and *size. Unicorn syncs the registers but not
 * the PC for MMIO callbacks and memory hooks (measured: the PC reads 0 or
 * the block start), so effective addresses are recomputed. A block ending in
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
        if (addr - at < bytes) {
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

/* The SysNode's exception entry (sysnode-facts §1.2-1.3): halt when mtvec is
 * 0, else an M-mode trap to mtvec (direct mode). The faulting instruction
 * ends its block and does not retire. */
static void take_exception(sn_hart *h, uint64_t pc, uint64_t cause, uint64_t tval, unsigned halt_cause)
{
    h->block_len = (uint32_t)((pc - h->block_addr) / 4) + 1;
    h->not_retired++;
    uint64_t mtvec = reg_read(h, UC_RISCV_REG_MTVEC);
    if (mtvec == 0) {
        h->result.halt_cause = halt_cause;
        stop(h, SN_HART_HALTED, pc);
        return;
    }
    reg_write(h, UC_RISCV_REG_MEPC, pc);
    reg_write(h, UC_RISCV_REG_MCAUSE, cause);
    reg_write(h, UC_RISCV_REG_MTVAL, tval);
    /* MPP = M, or mret would drop to U mode, where Unicorn refuses CSR access (measured) */
    uint64_t ms = reg_read(h, UC_RISCV_REG_MSTATUS);
    ms = (ms & ~(MSTATUS_MIE | MSTATUS_MPIE)) | (ms & MSTATUS_MIE ? MSTATUS_MPIE : 0) | MSTATUS_MPP;
    reg_write(h, UC_RISCV_REG_MSTATUS, ms);
    h->pc = mtvec & ~3ull;
    reg_write(h, UC_RISCV_REG_PC, h->pc);
}

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
    if ((addr | size) % 4 != 0) {
        h->block_len = 0;
        sim_error(h, addr,
                  "the block at 0x%" PRIx64 " starts off a 4-byte boundary or holds 16-bit code: the core has "
                  "no C extension",
                  addr);
        return;
    }
    uint64_t now = h->before_block + h->extra_cycles;
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

/* Starts a control-region access: finds its instruction (its PC goes to
 * *pc), brings the mesh to its cycle, charges the extra cycle. Returns false
 * if the bus asked to stop meanwhile: the access is then not made. */
static bool ctrl_begin(sn_hart *h, uint32_t offset, uint64_t *pc)
{
    uint64_t ea;
    unsigned size;
    uint32_t idx = locate_access(h, SN_CTRL_BASE + offset, &ea, &size);
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
    if (h->stopping)
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
    if (h->stopping)
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

/* Unicorn reports exceptions here without trapping (tool-pitfalls 2), with
 * the PC already past the faulting instruction (measured). Every ecall
 * arrives as 8 (from U) whatever the privilege; the SysNode runs M-mode code,
 * so it is ECALL from M. */
static void on_intr(uc_engine *uc, uint32_t intno, void *ud)
{
    (void)uc;
    sn_hart *h = ud;
    if (h->stopping)
        return;
    if (h->half.active) {
        lone_half(h);
        return;
    }
    uint64_t pc = reg_read(h, UC_RISCV_REG_PC) - 4;
    if (intno == 8)
        take_exception(h, pc, CAUSE_ECALL_M, 0, HALT_ECALL);
    else if (intno == 2)
        take_exception(h, pc, CAUSE_ILLEGAL, imem_word(h, pc), HALT_ILLEGAL);
    else
        sim_error(h, pc, "exception %u at 0x%" PRIx64 " is not modelled", intno, pc);
}

/* A counter-CSR instruction, skipped and served with simulated time
 * (tool-pitfalls 3): cycle/mcycle/time give cycles, instret/minstret the
 * instructions retired before this one. A CSR instruction ends its
 * translation block (measured), so the block is cut here. */
static void on_counter(uc_engine *uc, uint64_t addr, uint32_t size, void *ud)
{
    (void)uc;
    (void)size;
    const counter_site *c = ud;
    sn_hart *h = c->h;
    if (h->stopping)
        return;
    if (h->half.active) {
        lone_half(h);
        return;
    }
    uint32_t idx = (uint32_t)((addr - h->block_addr) / 4);
    bool writes = c->funct3 == 1 || c->funct3 == 5 || c->rs1 != 0;
    if (writes && (c->csr & 0xF00) == 0xC00) { /* cycle, time, instret are read-only */
        take_exception(h, addr, CAUSE_ILLEGAL, c->word, HALT_ILLEGAL);
        return;
    }
    uint64_t cycle = cycles_at(h, idx);
    advance_to(h, cycle);
    if (h->stopping) { /* writing the PC now would cancel the stop (measured) */
        h->block_len = idx;
        return;
    }
    uint64_t base = cycle, *delta = NULL;
    if (c->csr == 0xC00 || c->csr == 0xB00)
        delta = &h->mcycle_delta;
    if (c->csr == 0xC02 || c->csr == 0xB02) {
        base = h->before_block + idx - h->not_retired;
        delta = &h->minstret_delta;
    }
    uint64_t old = base + (delta ? *delta : 0);
    if (writes && delta) {
        uint64_t src = c->funct3 >= 5 ? c->rs1 : reg_read(h, UC_RISCV_REG_X0 + (int)c->rs1);
        uint64_t now = (c->funct3 & 3) == 1 ? src : (c->funct3 & 3) == 2 ? old | src : old & ~src;
        *delta = now - base;
    }
    if (c->rd != 0)
        reg_write(h, UC_RISCV_REG_X0 + (int)c->rd, old);
    h->block_len = idx + 1;
    reg_write(h, UC_RISCV_REG_PC, addr + 4); /* skips the instruction (measured) */
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
 * §1.3). Keeps the bus, the DRAM buffer, IMEM, SPAD and the L1's storage. */
static int power_on(sn_hart *h, char *err, size_t errlen)
{
    sn_hart_bus bus = h->bus;
    uint8_t *dram = h->dram;
    uint64_t dram_size = h->dram_size;
    memories *mem = h->mem;
    if (h->uc != NULL)
        uc_close(h->uc);
    free(h->sites);
    memset(h, 0, sizeof *h);
    h->bus = bus;
    h->dram = dram;
    h->dram_size = dram_size;
    h->mem = mem;
    const char *what = "uc_open";
    uc_err e = uc_open(UC_ARCH_RISCV, UC_MODE_RISCV64, &h->uc);
    if (e == UC_ERR_OK)
        e = build(h, &what);
    if (e != UC_ERR_OK) {
        set_err(err, errlen, "Unicorn %s: %s", what, uc_strerror(e));
        return -1;
    }
    return 0;
}

sn_hart *sn_hart_create(const sn_hart_bus *bus, uint8_t *dram, uint64_t dram_size, char *err, size_t errlen)
{
    if (bus == NULL || bus->ctrl_read == NULL || bus->ctrl_write == NULL || bus->advance == NULL) {
        set_err(err, errlen, "sn_hart_create: the bus needs ctrl_read, ctrl_write and advance");
        return NULL;
    }
    if (dram == NULL || dram_size == 0 || dram_size % 4096 != 0 || dram_size > UNCACHED_ALIAS - SN_DRAM_CPU_BASE) {
        set_err(err, errlen, "sn_hart_create: DRAM of 0x%" PRIx64 " bytes: need a buffer of a non-zero multiple of 4096",
                dram_size);
        return NULL;
    }
    sn_hart *h = calloc(1, sizeof *h);
    if (h == NULL) {
        set_err(err, errlen, "sn_hart_create: out of memory");
        return NULL;
    }
    h->bus = *bus;
    h->dram = dram;
    h->dram_size = dram_size;
    h->mem = calloc(1, sizeof *h->mem);
    if (h->mem == NULL) {
        set_err(err, errlen, "sn_hart_create: out of memory");
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
    if (h->uc != NULL)
        uc_close(h->uc);
    free(h->sites);
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
}

static bool is_counter_csr(uint32_t w)
{
    unsigned f3 = (w >> 12) & 7, csr = w >> 20;
    return (w & 0x7F) == 0x73 && f3 != 0 && f3 != 4 &&
           (csr == 0xC00 || csr == 0xC01 || csr == 0xC02 || csr == 0xB00 || csr == 0xB02);
}

/* Hooks every counter-CSR instruction in IMEM; a code hook on one address
 * costs nothing elsewhere (tool-pitfalls 3). */
static int hook_counters(sn_hart *h, char *err, size_t errlen)
{
    size_t n = 0;
    for (uint64_t a = 0; a < SN_IMEM_SIZE; a += 4)
        n += is_counter_csr(imem_word(h, a));
    h->sites = calloc(n ? n : 1, sizeof *h->sites);
    if (h->sites == NULL) {
        set_err(err, errlen, "sn_hart_boot: out of memory");
        return -1;
    }
    counter_site *s = h->sites;
    for (uint64_t a = 0; a < SN_IMEM_SIZE; a += 4) {
        uint32_t w = imem_word(h, a);
        if (!is_counter_csr(w))
            continue;
        *s = (counter_site){h, a, w, (w >> 7) & 31, (w >> 15) & 31, (w >> 12) & 7, w >> 20};
        uc_hook hk;
        uc_err e = uc_hook_add(h->uc, &hk, UC_HOOK_CODE, on_counter, s, a, a);
        if (e != UC_ERR_OK) {
            set_err(err, errlen, "sn_hart_boot: Unicorn code hook at 0x%" PRIx64 ": %s", a, uc_strerror(e));
            return -1;
        }
        s++;
    }
    return 0;
}

int sn_hart_boot(sn_hart *h, char *err, size_t errlen)
{
    if (power_on(h, err, errlen) != 0)
        return -1;
    sn_l1_init(&h->mem->l1, h->dram, h->dram_size);
    if (hook_counters(h, err, errlen) != 0)
        return -1;
    h->booted = true;
    return 0;
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

/* Handles a return from uc_emu_start that no hook asked for. */
static void unrequested_return(sn_hart *h, uc_err e)
{
    if (h->half.active) {
        lone_half(h);
        return;
    }
    uint64_t pc = reg_read(h, UC_RISCV_REG_PC);
    if (e == UC_ERR_INSN_INVALID) { /* ebreak ends the run here with the PC on it (measured) */
        uint32_t w = imem_word(h, pc);
        if (w == INSN_EBREAK)
            take_exception(h, pc, CAUSE_BREAKPOINT, 0, HALT_EBREAK);
        else
            take_exception(h, pc, CAUSE_ILLEGAL, w, HALT_ILLEGAL);
    } else if (e == UC_ERR_OK && pc >= 4 && imem_word(h, pc - 4) == INSN_WFI) { /* returns past the wfi (measured) */
        h->block_len = (uint32_t)((pc - h->block_addr) / 4);
        sim_error(h, pc - 4, "wfi with no interrupt source at 0x%" PRIx64 " (interrupts are a later feature)", pc - 4);
    } else {
        sim_error(h, pc, "Unicorn stopped at 0x%" PRIx64 " for no modelled reason: %s", pc, uc_strerror(e));
    }
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
    h->running = true;
    while (!h->stopping) {
        /* count 0 keeps block chaining (tool-pitfalls 4); the until address is never reached (5) */
        uc_err e = uc_emu_start(h->uc, h->pc, UINT64_MAX, 0, 0);
        if (!h->stopping)
            unrequested_return(h, e);
    }
    h->running = false;
    h->stopping = false;
    h->result.cycles = sn_hart_cycles(h);
    h->result.instret = h->before_block + h->block_len - h->not_retired;
    h->done = h->result.stop != SN_HART_CYCLE_LIMIT;
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
