// The simulated SysNode (see sim.h): owns the Verilated mesh and its clock,
// the hart, the DRAM and the unit models, and keeps the mesh clocked in step
// with the hart's simulated cycles.
#include "sim.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <unistd.h>

#include "Vsn_mesh_top.h"
#include "dpi_units.h"
#include "err_text.h"
#include "fst_fault.h"
#include "inject.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "escape.h"
#include "messages.h"
#include "sysnode/words.h"

extern "C" {
#include "dram.h"
#include "elf_image.h"
#include "hart.h"
#include "sysnode/regs.h"
}

struct sn_sim {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vsn_mesh_top> mesh;
    sn_hart *hart = nullptr;
    sn_dram dram{};
    sn_dpi_units units{};
    std::vector<sn_unit_access> taken; /* the last sn_sim_take_accesses */
    uint64_t mesh_cycle = 0;
    uint64_t mesh_edges = 0; // rising edges since BOOT (a jump is one)
    // Quiet cycles advance has counted but not clocked yet: the mesh is at
    // mesh_cycle, the hart's view of it at mesh_cycle + owed (sim/README.md,
    // Clocking). quiet_budget: the quiet bound measured at the last edge.
    uint64_t owed = 0, quiet_budget = 0;
    // Stores to DST and ARG0..ARG3 among the owed cycles, not yet clocked:
    // the next edge writes them (cpu_late_wr; store_data).
    uint8_t late_mask = 0;
    uint64_t late_value[5] = {};
    bool rdata_fresh = false; // cpu_rdata is evaluated for cpu_addr since the last edge
    sn_sim_progress_fn progress = nullptr;
    void *progress_ctx = nullptr;
    uint64_t next_progress = 0; // mesh cycle of the next progress call
    std::string console;
    std::string console_text; // sn_sim_console_text's rendering
    std::string error; // first simulation error of the current run
    unsigned cu_version = 4; // every unit's CU_VERSION (DESIGN §6)
    bool lockstep = false;   // every cycle an edge: no jumps
    // Measurements since BOOT (sn_sim_get_stats): counted at the access, so
    // they do not depend on how the mesh is clocked in between.
    uint64_t hart_cycle = 0; // the cycle last given to advance: the current access's
    uint64_t mmio_reads = 0, mmio_writes = 0;
    uint64_t dst = 0; // DST as the hart last wrote it
    std::vector<sn_go_record> gos;
    std::vector<sn_completion_record> completions;
    bool booted = false;
    sn_injector inject{}; // an injected fault (inject.h), taken at control accesses
    // FST dump of the mesh (sn_sim_fst_open): every mesh cycle in [fst_from, fst_to)
    std::unique_ptr<VerilatedFstC> fst;
    uint64_t fst_from = 0, fst_to = 0;
    std::string fst_path, fst_tmp;
    std::string errata_text; // sn_sim_errata's
    int fst_fault = 0; // the signal that stopped the FST writer (fst_fault.h); the dump is then abandoned
};

// The signal that asked the running simulation to stop, 0 while none.
static volatile std::sig_atomic_t interrupted = 0;

static const char *signal_name(int signo)
{
    return signo == SIGTERM ? "SIGTERM" : signo == SIGINT ? "SIGINT" : "a signal";
}

static void sim_fail(sn_sim *s, const char *fmt, ...)
{
    if (!s->error.empty())
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    sn_text_vfit(buf, sizeof buf, fmt, ap);
    va_end(ap);
    s->error = buf;
    sn_hart_request_stop(s->hart, buf);
}

// One rising edge standing for `cycles` mesh cycles (1: an ordinary cycle;
// more: a jump, see advance). The CPU-side inputs set before the call are
// seen at this edge (tool-pitfalls 11: inputs change between edges).
// The writer in s->fst lost mid-call to a fault: dropped, never called again (fst_fault.h).
static void fst_abandon(sn_sim *s, int sig)
{
    s->fst_fault = sig;
    (void)s->fst.release(); // its state is half-changed: neither flushed nor freed
    sn_fst_fault_catch(false);
    // its stdio buffers are still flushed at exit, into files already removed: past a size limit, not a kill
    std::signal(SIGXFSZ, SIG_IGN);
}

static void fst_dump(sn_sim *s, uint64_t time)
{
    int sig = sn_fst_guarded([&] { s->fst->dump(time); });
    if (sig)
        fst_abandon(s, sig);
}

static void edge(sn_sim *s, uint32_t cycles)
{
    sn_dpi_units_bind(&s->units);
    s->units.now = s->mesh_cycle;
    s->units.landed = false;
    s->mesh->edge_cycles = cycles;
    s->mesh->cpu_late_wr = s->late_mask;
    for (unsigned i = 0; i < 5; i++)
        if (s->late_mask >> i & 1) {
            s->mesh->cpu_late_wdata[2 * i] = static_cast<uint32_t>(s->late_value[i]);
            s->mesh->cpu_late_wdata[2 * i + 1] = static_cast<uint32_t>(s->late_value[i] >> 32);
        }
    // a waveform holds every cycle of its window, which advance clocks one by one
    bool dump = s->fst && cycles == 1 && s->mesh_cycle >= s->fst_from && s->mesh_cycle < s->fst_to;
    s->mesh->clk = 0;
    s->mesh->eval();
    if (dump)
        fst_dump(s, 2 * s->mesh_cycle);
    s->mesh->clk = 1;
    s->mesh->eval();
    if (dump && s->fst)
        fst_dump(s, 2 * s->mesh_cycle + 1);
    s->mesh->edge_cycles = 1;
    s->mesh->cpu_late_wr = 0;
    s->late_mask = 0;
    s->mesh_cycle += cycles;
    s->mesh_edges++;
    s->rdata_fresh = false;
    if (interrupted)
        sim_fail(s, "interrupted (%s) at mesh cycle %llu", signal_name(interrupted),
                 (unsigned long long)s->mesh_cycle);
    if (s->mesh->noroute_valid)
        sim_fail(s, "mesh: a flit for (%u,%u) has no endpoint (cycle %llu)",
                 s->mesh->noroute_coord & 0xF, s->mesh->noroute_coord >> 4,
                 (unsigned long long)s->mesh_cycle);
    if (s->mesh->bad_flit)
        sim_fail(s, "mesh: a unit received a flit type it does not take (bad_flit mask 0x%x)",
                 s->mesh->bad_flit);
    if (s->units.error[0])
        sim_fail(s, "%s", s->units.error);
}

static void tick(sn_sim *s)
{
    edge(s, 1);
}

// Mesh cycles from now in which nothing but busy countdowns can move: the
// mesh's quiet bound, and the next DRAM write landing (its memory clock
// stands still while the hub is stalled). 0 when something moves now, or may
// (a fenced unit after a landing, dpi_units.h).
static uint64_t quiet_cycles(const sn_sim *s)
{
    if (!s->mesh->quiet || s->units.landed)
        return 0;
    uint64_t bound = s->mesh->quiet_cycles;
    if (!s->mesh->hub_stalled)
        bound = std::min(bound, sn_dpi_units_cycles_to_landing(&s->units) - 1);
    return bound;
}

// Clocks the cycles advance counted but left unclocked, as jump edges: before
// the mesh must act (a CPU store) and when a run ends. Nothing the hart can
// read changes in them (no flit moves), so reads need not wait for this.
static void clock_owed(sn_sim *s)
{
    while (s->owed > 0 && s->error.empty()) {
        uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(s->owed, UINT32_MAX));
        s->owed -= n;
        edge(s, n);
    }
}

static void report_progress(sn_sim *s)
{
    s->next_progress = s->mesh_cycle + s->owed + SN_SIM_PROGRESS_CYCLES;
    sn_status_block sb;
    uint32_t done = 0;
    if (sn_sim_status_block(s, &sb) == 0)
        done = sb.phase == SN_PHASE_DONE ? sb.round + 1 : sb.round;
    s->progress(s->progress_ctx, s->mesh_cycle + s->owed, done);
}

// Cycles from `now` that may pass without an edge each: up to the FST
// window, whose every cycle is dumped (0 inside it, all with no dump open).
static uint64_t cycles_before_dump(const sn_sim *s, uint64_t now)
{
    if (!s->fst || now >= s->fst_to)
        return UINT64_MAX;
    return now < s->fst_from ? s->fst_from - now : 0;
}

// One step of the mesh toward `cycle` (above the hart's view of it,
// mesh_cycle + owed). Event-driven: quiet cycles are only counted (owed), up
// to the quiet bound measured at the last edge, that is short of every event
// that changes more than the countdowns (a countdown's last work cycle, a
// write landing), and short of an FST window; they are clocked as one jump
// edge when the bound is reached or the CPU stores to the mesh. Event cycles,
// and every cycle with --lockstep or in an FST window, are ordinary edges.
// Exactly the every-cycle result (sim/README.md, Clocking).
static void step_toward(sn_sim *s, uint64_t cycle)
{
    uint64_t now = s->mesh_cycle + s->owed;
    uint64_t free_run = s->lockstep ? 0 : cycles_before_dump(s, now);
    if (free_run > 0) {
        if (interrupted) { // a quiet stretch may bring no edge (tick) to stop at for long
            sim_fail(s, "interrupted (%s) at mesh cycle %llu", signal_name(interrupted), (unsigned long long)now);
            return;
        }
        if (s->owed == 0)
            s->quiet_budget = quiet_cycles(s);
        uint64_t room = std::min(s->quiet_budget - s->owed, free_run);
        if (room > 0) {
            s->owed += std::min(room, cycle - now);
            return;
        }
    }
    clock_owed(s);
    tick(s);
}

// Brings the mesh to `cycle` (bus->advance).
static void advance(void *ctx, uint64_t cycle)
{
    sn_sim *s = static_cast<sn_sim *>(ctx);
    s->hart_cycle = cycle;
    while (s->mesh_cycle + s->owed < cycle && s->error.empty())
        step_toward(s, cycle);
    if (s->progress && s->mesh_cycle + s->owed >= s->next_progress)
        report_progress(s);
}

// A CPU store to a mesh register at the hart's cycle (mesh_cycle + owed): an
// ordinary edge with cpu_wr set. When that cycle lies inside the quiet stretch
// the last edge measured (owed < quiet_budget), the owed cycles ride the same
// edge: in all of them, the store's included, only the countdowns move (the
// store reaches nothing but the mailbox's registers within its cycle), so one
// edge of owed + 1 cycles is the jump and the store's edge in one. Not while an
// FST dump is open: its window's every cycle is an edge (sim/README.md, Clocking).
static void store(sn_sim *s, uint32_t off, uint64_t value)
{
    uint64_t ride = 0;
    if (s->owed > 0 && s->owed < s->quiet_budget && s->owed < UINT32_MAX && !s->fst) {
        ride = s->owed;
        s->owed = 0;
    }
    clock_owed(s);
    s->mesh->cpu_wr = 1;
    s->mesh->cpu_addr = off;
    s->mesh->cpu_wdata = value;
    edge(s, static_cast<uint32_t>(ride + 1));
    s->mesh->cpu_wr = 0;
}

// DST and ARG0..ARG3: registers only a GO and a CPU read look at.
static int data_reg(uint32_t off)
{
    return off >= SN_MBOX_DST && off <= SN_MBOX_ARG3 ? static_cast<int>((off - SN_MBOX_DST) / 8) : -1;
}

// A CPU store to DST or ARGn (i = data_reg) whose cycle lies inside the quiet
// stretch measured at the last edge, deferred: its cycle is owed and the next
// edge, jump or GO, writes it (cpu_late_wr), before any store of its own, and
// a GO at that edge sends it. Nothing else reads these registers (reads
// clock the owed cycles first: settle_for_read), so the register is written
// at a later edge with no effect. False when the store needs its own edge.
static bool store_data_late(sn_sim *s, int i, uint64_t value)
{
    if (s->lockstep || s->fst)
        return false;
    if (s->owed == 0)
        s->quiet_budget = quiet_cycles(s);
    if (s->owed >= s->quiet_budget || s->owed >= UINT32_MAX - 1)
        return false;
    s->owed++;
    s->late_mask = static_cast<uint8_t>(s->late_mask | 1u << i);
    s->late_value[i] = value;
    return true;
}

// Before a read of DST or ARGn: a deferred store to it is written first.
static void settle_for_read(sn_sim *s, uint32_t off)
{
    int i = data_reg(off);
    if (i >= 0 && (s->late_mask >> i & 1))
        clock_owed(s);
}

// A mailbox register's value at the mesh's current cycle, without a CPU
// access (not counted as MMIO, no side effect: the read port is a mux).
static uint64_t peek_reg(sn_sim *s, uint32_t off)
{
    s->mesh->cpu_wr = 0;
    s->mesh->cpu_addr = off;
    s->mesh->eval();
    return s->mesh->cpu_rdata;
}

// The interrupt lines (sysnode-facts §1.2) as mip bits: the external line
// MEIP is the level OR of a non-empty completion queue and a non-empty RX
// queue (irq_summary's mover fault, halt request and inbound doorbell are not
// modelled); the software line MSIP (the host doorbell) is not modelled: low.
static uint64_t irq_lines(void *ctx)
{
    sn_sim *s = static_cast<sn_sim *>(ctx);
    bool external = sn_stat_queued(peek_reg(s, SN_MBOX_STAT)) != 0 || peek_reg(s, SN_CTRL_RX_USED) != 0;
    return external ? 1ull << 11 : 0;
}

static bool is_mesh_reg(uint32_t off)
{
    return (off >= SN_MBOX_DST && off <= SN_MBOX_HEAD) || (off >= SN_CTRL_RX_HDR && off <= SN_CTRL_RX_USED);
}

// ---- fault injection (inject.h): the bus the injector acts through ----

static sn_sim *of(void *ctx)
{
    return static_cast<sn_sim *>(ctx);
}

static uint64_t bus_cycle(void *ctx)
{
    return of(ctx)->hart_cycle; /* the current access's cycle, however the mesh is clocked */
}

static uint64_t bus_mbox_read(void *ctx, uint32_t off)
{
    sn_sim *s = of(ctx);
    settle_for_read(s, off);
    s->mesh->cpu_wr = 0;
    s->mesh->cpu_addr = off;
    s->mesh->eval();
    return s->mesh->cpu_rdata;
}

static void bus_mbox_write(void *ctx, uint32_t off, uint64_t value)
{
    store(of(ctx), off, value); // at the mesh's own cycle, as ctrl_write's
}

static int bus_spad_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    return sn_hart_spad_read(of(ctx)->hart, addr, dst, n);
}

static int bus_dram_flip(void *ctx, uint64_t addr)
{
    uint8_t byte;
    sn_sim *s = of(ctx);
    if (sn_dram_read(&s->dram, addr, &byte, 1) != 0)
        return -1;
    byte = uint8_t(~byte);
    return sn_dram_write(&s->dram, addr, &byte, 1) == 0 ? 0 : -1;
}

static void bus_unit_fault(void *ctx, uint32_t fault)
{
    clock_owed(of(ctx)); // the quiet bound was measured without the fault: measure it again
    of(ctx)->units.inject_fault = fault;
}

static void bus_mailbox_gen_a(void *ctx)
{
    clock_owed(of(ctx)); // as bus_unit_fault
    of(ctx)->mesh->cfg_mbox_drop_on_full = 1;
}

static sn_inject_bus inject_bus(sn_sim *s)
{
    return {s, bus_cycle, bus_mbox_read, bus_mbox_write, bus_spad_read, bus_dram_flip, bus_unit_fault,
            bus_mailbox_gen_a};
}

static uint64_t ctrl_read(void *ctx, uint32_t off)
{
    sn_sim *s = static_cast<sn_sim *>(ctx);
    uint64_t injected;
    if (s->inject.spec.kind != SN_INJECT_NONE) {
        sn_inject_bus bus = inject_bus(s);
        if (sn_injector_access(&s->inject, &bus, 0, off, &injected))
            return injected;
    }
    if (is_mesh_reg(off)) {
        s->mmio_reads++;
        settle_for_read(s, off);
        if (!s->rdata_fresh || s->mesh->cpu_addr != off) { // a poll of an unchanged mesh reads the same
            s->mesh->cpu_wr = 0;
            s->mesh->cpu_addr = off;
            s->mesh->eval();
            s->rdata_fresh = true;
        }
        return s->mesh->cpu_rdata;
    }
    switch (off) {
    case SN_CTRL_EXIT:
    case SN_CTRL_CONSOLE:
        return 0;
    case SN_CTRL_DCACHE:
        return sn_hart_dcache_read(s->hart);
    default:
        sim_fail(s, "control region: read of offset 0x%x, which this simulator does not model", off);
        return 0;
    }
}

static void ctrl_write(void *ctx, uint32_t off, uint64_t value)
{
    sn_sim *s = static_cast<sn_sim *>(ctx);
    if (s->inject.spec.kind != SN_INJECT_NONE) {
        sn_inject_bus bus = inject_bus(s);
        if (sn_injector_access(&s->inject, &bus, 1, off, &value))
            return;
    }
    if (is_mesh_reg(off)) {
        uint32_t accepted = s->mesh->accepted_go;
        uint64_t ops_before = s->mmio_reads + s->mmio_writes;
        s->mmio_writes++;
        if (off == SN_MBOX_DST)
            s->dst = value;
        if (data_reg(off) >= 0 && store_data_late(s, data_reg(off), value))
            return;
        if (off == SN_MBOX_HEAD) { // a pop: log the word it removes (owed cycles move no flit)
            s->mesh->cpu_wr = 0;
            s->mesh->cpu_addr = off;
            s->mesh->eval();
            uint64_t head = s->mesh->cpu_rdata;
            s->completions.push_back({s->hart_cycle, static_cast<uint8_t>(sn_head_src_x(head)),
                                      static_cast<uint8_t>(sn_head_src_y(head)), static_cast<uint8_t>(sn_head_code(head)),
                                      static_cast<uint32_t>(sn_head_arg(head))});
        }
        store(s, off, value);
        if (off == SN_MBOX_GO && s->mesh->accepted_go != accepted)
            s->gos.push_back({s->hart_cycle, ops_before, static_cast<uint8_t>(sn_dst_typed(s->dst)),
                              static_cast<uint8_t>(SN_NODE_ID(s->dst & 0xF, (s->dst >> 8) & 0xF))});
        return;
    }
    switch (off) {
    case SN_CTRL_EXIT:
        sn_hart_request_exit(s->hart, value);
        return;
    case SN_CTRL_CONSOLE:
        s->console.push_back(static_cast<char>(value & 0xFF));
        return;
    case SN_CTRL_DCACHE:
        sn_hart_dcache_write(s->hart, value);
        return;
    default:
        sim_fail(s, "control region: store of 0x%llx to offset 0x%x, which this simulator does not model",
                 (unsigned long long)value, off);
    }
}

extern "C" sn_sim *sn_sim_create(const sn_sim_config *cfg, char *err, size_t errlen)
{
    auto s = std::make_unique<sn_sim>();
    uint64_t dram_size = cfg && cfg->dram_size ? cfg->dram_size : SN_DRAM_DEFAULT_SIZE;
    unsigned cu_version = cfg && cfg->cu_version ? cfg->cu_version : 4;
    if (cu_version != 4 && cu_version != 5) {
        sn_text_fit(err, errlen, "CU_VERSION %u is not modelled (4: completion when the last write is sent; "
                              "5: completion after the writes land)", cu_version);
        return nullptr;
    }
    s->cu_version = cu_version;
    s->lockstep = cfg && cfg->lockstep;
    if (sn_dram_init(&s->dram, dram_size) != 0) {
        sn_text_fit(err, errlen, "cannot allocate %llu bytes of DRAM", (unsigned long long)dram_size);
        return nullptr;
    }
    sn_dpi_units_init(&s->units, &s->dram, cfg ? cfg->dram_latency : 0);
    s->ctx = std::make_unique<VerilatedContext>();
    s->mesh = std::make_unique<Vsn_mesh_top>(s->ctx.get(), "mesh");
    sn_hart_bus bus = {s.get(), ctrl_read, ctrl_write, advance, irq_lines};
    s->hart = sn_hart_create(&bus, s->dram.bytes, s->dram.size, err, errlen);
    if (!s->hart) {
        sn_dram_free(&s->dram);
        return nullptr;
    }
    if (cfg && sn_hart_set_dram_latency(s->hart, cfg->dram_latency) != 0) {
        sn_text_fit(err, errlen, "DRAM latency %u cycles: the model takes 0 to 1000", cfg->dram_latency);
        sn_hart_destroy(s->hart);
        sn_dram_free(&s->dram);
        return nullptr;
    }
    return s.release();
}

extern "C" void sn_sim_destroy(sn_sim *s)
{
    if (!s)
        return;
    sn_sim_fst_close(s, nullptr, 0);
    sn_hart_destroy(s->hart);
    s->mesh->final();
    sn_dram_free(&s->dram);
    delete s;
}

extern "C" int sn_sim_imem_write(sn_sim *s, uint32_t addr, uint32_t word)
{
    return sn_hart_imem_write(s->hart, addr, word);
}

extern "C" int sn_sim_spad_write(sn_sim *s, uint32_t offset, uint64_t value, uint8_t strobes)
{
    return sn_hart_spad_write(s->hart, offset, value, strobes);
}

extern "C" int sn_sim_spad_read(sn_sim *s, uint32_t offset, void *dst, size_t n)
{
    return sn_hart_spad_read(s->hart, SN_SPAD_BASE + static_cast<uint64_t>(offset), dst, n);
}

extern "C" void sn_sim_clear_memories(sn_sim *s)
{
    sn_hart_clear_memories(s->hart);
    s->booted = false;
}

static int window_imem(void *s, uint32_t addr, uint32_t word)
{
    return sn_sim_imem_write(static_cast<sn_sim *>(s), addr, word);
}

static int window_spad(void *s, uint32_t offset, uint64_t value, uint8_t strobes)
{
    return sn_sim_spad_write(static_cast<sn_sim *>(s), offset, value, strobes);
}

extern "C" int sn_sim_write_boot_args(sn_sim *s, const sn_boot_args *args)
{
    uint64_t words[sizeof *args / 8];
    memcpy(words, args, sizeof *args);
    for (size_t i = 0; i < sizeof *args / 8; i++)
        if (sn_sim_spad_write(s, (uint32_t)(SN_BOOT_ARGS_ADDR - SN_SPAD_BASE + 8 * i), words[i], 0xFF) != 0)
            return -1;
    return 0;
}

extern "C" int sn_sim_load_image(sn_sim *s, const char *elf_path, char *err, size_t errlen)
{
    sn_elf_image img;
    if (sn_elf_image_load(elf_path, &img, err, errlen) != 0)
        return -1;
    sn_sim_clear_memories(s);
    int rc = sn_elf_image_push(&img, window_imem, window_spad, s, err, errlen);
    sn_elf_image_free(&img);
    return rc;
}

extern "C" int sn_sim_dram_write(sn_sim *s, uint64_t addr, const void *src, uint64_t n)
{
    return sn_dram_write(&s->dram, addr, src, n) == 0 ? 0 : -1;
}

extern "C" int sn_sim_dram_read(sn_sim *s, uint64_t addr, void *dst, uint64_t n)
{
    return sn_dram_read(&s->dram, addr, dst, n) == 0 ? 0 : -1;
}

extern "C" void sn_sim_track_accesses(sn_sim *s, int on)
{
    s->units.track = on != 0;
    s->units.accesses.clear();
    s->taken.clear();
}

extern "C" size_t sn_sim_take_accesses(sn_sim *s, const sn_unit_access **out)
{
    s->taken.swap(s->units.accesses);
    s->units.accesses.clear();
    *out = s->taken.data();
    return s->taken.size();
}

extern "C" uint64_t sn_sim_dram_size(const sn_sim *s)
{
    return s->dram.size;
}

static void reset_mesh(sn_sim *s)
{
    sn_dpi_units_reset(&s->units);
    s->mesh->cpu_wr = 0;
    s->mesh->cpu_addr = 0;
    s->mesh->cpu_wdata = 0;
    s->mesh->cfg_cu_version = static_cast<uint8_t>(s->cu_version);
    s->mesh->edge_cycles = 1;
    s->mesh->cfg_mbox_drop_on_full = 0;
    s->mesh->rst_n = 0;
    s->mesh->clk = 0;
    s->mesh->eval();
    s->mesh->clk = 1;
    s->mesh->eval();
    s->mesh->rst_n = 1;
    s->mesh->clk = 0;
    s->mesh->eval();
    s->mesh_cycle = 0;
    s->mesh_edges = 0;
    s->owed = 0;
    s->late_mask = 0;
    s->rdata_fresh = false;
    s->next_progress = SN_SIM_PROGRESS_CYCLES;
}

extern "C" int sn_sim_boot(sn_sim *s, char *err, size_t errlen)
{
    s->console.clear();
    s->error.clear();
    sn_inject_bus bus = inject_bus(s);
    sn_injector_boot(&s->inject, &bus);
    s->hart_cycle = s->mmio_reads = s->mmio_writes = s->dst = 0;
    s->gos.clear();
    s->completions.clear();
    reset_mesh(s);
    s->booted = sn_hart_boot(s->hart, err, errlen) == 0;
    return s->booted ? 0 : -1;
}

extern "C" sn_run_status sn_sim_run(sn_sim *s, uint64_t cycle_limit)
{
    sn_run_status r;
    memset(&r, 0, sizeof r);
    if (!s->booted) {
        r.stop = SN_RUN_SIM_ERROR;
        sn_text_fit(r.message, sizeof r.message, "run without BOOT");
        return r;
    }
    sn_hart_result h = sn_hart_run(s->hart, cycle_limit);
    clock_owed(s);
    sn_injector_end(&s->inject, s->units.inject_fault != 0, s->units.inject_hit_unit, s->units.inject_hit_payload);
    s->units.inject_fault = 0;
    s->units.inject_hit_unit = -1;
    r.exit_code = h.exit_code;
    r.halt_cause = h.halt_cause;
    r.cycles = h.cycles;
    r.instret = h.instret;
    r.pc = h.pc;
    std::string why = s->error.empty() ? h.message : s->error;
    if (h.stop != SN_HART_EXITED) {
        char where[sizeof r.message];
        sn_sim_stop_where(s, where, sizeof where);
        why += why.empty() ? where : std::string("; ") + where;
    }
    sn_text_fit(r.message, sizeof r.message, "%s", why.c_str());
    switch (h.stop) {
    case SN_HART_EXITED:
        r.stop = s->error.empty() ? SN_RUN_EXITED : SN_RUN_SIM_ERROR;
        break;
    case SN_HART_HALTED:
        r.stop = SN_RUN_HALTED;
        break;
    case SN_HART_CYCLE_LIMIT:
        r.stop = SN_RUN_CYCLE_LIMIT;
        break;
    case SN_HART_BREAK:
        r.stop = SN_RUN_BREAK;
        break;
    default:
        r.stop = SN_RUN_SIM_ERROR;
    }
    return r;
}

extern "C" int sn_sim_debug_breakpoint(sn_sim *s, uint64_t addr, int on)
{
    return sn_hart_breakpoint(s->hart, addr, on);
}

extern "C" void sn_sim_debug_step(sn_sim *s)
{
    sn_hart_single_step(s->hart);
}

extern "C" uint64_t sn_sim_debug_register(sn_sim *s, unsigned i)
{
    return sn_hart_register(s->hart, i);
}

extern "C" int sn_sim_debug_read(sn_sim *s, uint64_t addr, void *dst, size_t n)
{
    if (addr < SN_CTRL_BASE || addr - SN_CTRL_BASE >= SN_CTRL_SIZE || n > SN_CTRL_BASE + SN_CTRL_SIZE - addr)
        return sn_hart_debug_read(s->hart, addr, dst, n);
    uint8_t *out = static_cast<uint8_t *>(dst);
    for (size_t k = 0; k < n; k++) {
        uint32_t off = static_cast<uint32_t>(addr - SN_CTRL_BASE + k), reg = off & ~7u;
        uint64_t v = 0;
        if (is_mesh_reg(reg))
            v = peek_reg(s, reg);
        else if (reg != SN_CTRL_EXIT && reg != SN_CTRL_CONSOLE && reg != SN_CTRL_DCACHE)
            return -1;
        out[k] = static_cast<uint8_t>(v >> 8 * (off & 7));
    }
    return 0;
}

extern "C" const char *sn_sim_console_text(sn_sim *s)
{
    s->console_text.clear();
    for (unsigned char c : s->console) {
        char text[4];
        s->console_text.append(text, sn_console_escape(c, text));
    }
    return s->console_text.c_str();
}

extern "C" const char *sn_sim_console(const sn_sim *s)
{
    return s->console.c_str();
}

extern "C" size_t sn_sim_console_length(const sn_sim *s)
{
    return s->console.size();
}

// The runner's place from its status block (kept current as it runs) and
// the counts from the simulator's own logs, which are true at any cycle:
// payload GOs the mailbox accepted and completions the core popped, per node.
extern "C" char *sn_sim_stop_where(sn_sim *s, char *buf, size_t size)
{
    sn_status_block sb;
    std::string out;
    char part[160];
    if (sn_sim_status_block(s, &sb) == 0)
        out = std::string(sn_runner_where(&sb, part, sizeof part)) + "; ";
    else
        out = "the runner had not started (no status block yet); ";
    uint32_t gos[256] = {0}, popped[256] = {0}, total_gos = 0;
    for (const sn_go_record &g : s->gos)
        if (!g.typed) {
            gos[g.node]++;
            total_gos++;
        }
    for (const sn_completion_record &c : s->completions)
        popped[SN_NODE_ID(c.x, c.y)]++;
    sn_text_fit(part, sizeof part, "the mailbox accepted %u payload GO%s, the core popped %zu completion%s", total_gos,
             total_gos == 1 ? "" : "s", s->completions.size(), s->completions.size() == 1 ? "" : "s");
    out += part;
    const char *sep = " (";
    for (unsigned n = 0; n < 256; n++)
        if (gos[n] || popped[n]) {
            sn_text_fit(part, sizeof part, "%snode (%u,%u): %u GO%s, %u popped", sep, n & 0xF, n >> 4, gos[n],
                     gos[n] == 1 ? "" : "s", popped[n]);
            out += part;
            sep = "; ";
        }
    if (*sep == ';')
        out += ")";
    sn_text_fit(buf, size, "%s", out.c_str());
    return buf;
}

extern "C" int sn_sim_status_block(sn_sim *s, sn_status_block *out)
{
    if (sn_hart_spad_read(s->hart, SN_STATUS_BLOCK_ADDR, out, sizeof *out) != 0)
        return -1;
    return out->magic == SN_STATUS_MAGIC ? 0 : -1;
}

extern "C" uint32_t sn_sim_accepted_gos(const sn_sim *s)
{
    return s->mesh->accepted_go;
}

extern "C" const char *sn_sim_errata(sn_sim *s)
{
    s->errata_text.clear();
    unsigned bits = sn_hart_errata(s->hart);
    for (unsigned k = 0; k < SN_ERRATUM_COUNT; k++)
        if (bits >> k & 1)
            s->errata_text.append(sn_hart_erratum_text(k)).append("\n");
    return s->errata_text.c_str();
}

extern "C" uint32_t sn_sim_dropped_gos(const sn_sim *s)
{
    return s->mesh->dropped_go + s->inject.go_drops;
}

extern "C" void sn_sim_set_inject(sn_sim *s, const sn_inject_spec *spec)
{
    s->inject.spec = *spec;
}

extern "C" const char *sn_sim_inject_report(const sn_sim *s)
{
    return s->inject.report;
}

extern "C" uint64_t sn_sim_mesh_edges(const sn_sim *s)
{
    return s->mesh_edges;
}

extern "C" void sn_sim_set_progress(sn_sim *s, sn_sim_progress_fn fn, void *ctx)
{
    s->progress = fn;
    s->progress_ctx = ctx;
}

static_assert(SN_DPI_MAX_UNITS <= SN_MESH_MAX_UNITS, "every unit fits sn_run_stats.units");

extern "C" void sn_sim_get_stats(sn_sim *s, sn_run_stats *out)
{
    memset(out, 0, sizeof *out);
    out->mmio_reads = s->mmio_reads;
    out->mmio_writes = s->mmio_writes;
    out->go_count = s->gos.size();
    out->gos = s->gos.data();
    out->completion_count = s->completions.size();
    out->completions = s->completions.data();
    for (const sn_dpi_unit &u : s->units.unit)
        if (!u.spans.empty())
            out->units[out->unit_count++] = {static_cast<uint8_t>(u.x), static_cast<uint8_t>(u.y),
                                             static_cast<uint16_t>(u.cu_type), u.spans.size(), u.spans.data()};
}

extern "C" uint64_t sn_sim_saturated(sn_sim *s, unsigned x, unsigned y)
{
    uint64_t n = 0;
    for (const sn_dpi_unit &u : s->units.unit)
        if (u.cu_type && u.x == x && u.y == y)
            n += (u.vc ? u.vc->saturated : 0) + (u.mc ? u.mc->saturated : 0);
    return n;
}

extern "C" int sn_sim_fst_open(sn_sim *s, const char *path, uint64_t from, uint64_t to, char *err, size_t errlen)
{
    if (s->fst) {
        sn_text_fit(err, errlen, "%s: an FST dump (%s) is already open", path, s->fst_path.c_str());
        return -1;
    }
    if (from >= to) {
        sn_text_fit(err, errlen, "%s: the window %llu:%llu holds no cycle", path, (unsigned long long)from,
                 (unsigned long long)to);
        return -1;
    }
    s->fst_path = path;
    s->fst_tmp = s->fst_path + ".partial-" + std::to_string(getpid());
    FILE *probe = fopen(s->fst_tmp.c_str(), "wx");
    if (!probe) {
        sn_text_fit(err, errlen, "%s: cannot create %s beside it: %s", path, s->fst_tmp.c_str(), strerror(errno));
        s->fst_tmp.clear();
        return -1;
    }
    fclose(probe);
    s->fst_fault = 0;
    sn_fst_fault_catch(true);
    s->ctx->traceEverOn(true);
    s->fst = std::make_unique<VerilatedFstC>();
    int sig = sn_fst_guarded([&] {
        s->mesh->trace(s->fst.get(), 99);
        s->fst->open(s->fst_tmp.c_str()); // writes the hierarchy already
    });
    if (sig) {
        fst_abandon(s, sig);
        return sn_sim_fst_close(s, err, errlen);
    }
    if (!s->fst->isOpen()) {
        sn_text_fit(err, errlen, "%s: Verilator could not open %s", path, s->fst_tmp.c_str());
        s->fst.reset();
        sn_fst_fault_catch(false);
        remove(s->fst_tmp.c_str());
        s->fst_tmp.clear();
        return -1;
    }
    s->fst_from = from;
    s->fst_to = to;
    return 0;
}

extern "C" int sn_sim_fst_close(sn_sim *s, char *err, size_t errlen)
{
    if (s->fst) {
        int sig = sn_fst_guarded([&] { s->fst->close(); });
        if (sig)
            fst_abandon(s, sig);
        else
            sn_fst_fault_catch(false);
        s->fst.reset();
    }
    /* The writer ignores failed writes (a full disk): the file's own blocks tell whether it is whole. */
    bool cut = !s->fst_fault && !s->fst_tmp.empty() && !sn_fst_file_whole(s->fst_tmp.c_str());
    if (s->fst_fault || cut) { // the writer's own files too: the dump and its hierarchy beside it
        if (err)
            sn_text_fit(err, errlen, "%s: the dump could not be written (%s); nothing of it is kept",
                     s->fst_path.c_str(), cut ? "a write failed, as on a full disk: its blocks stop short of its end" : s->fst_fault == SIGBUS
                                                  ? "SIGBUS: the disk is full or a file-size limit was reached"
                                                  : "SIGXFSZ: a file-size limit was reached");
        remove(s->fst_tmp.c_str());
        remove((s->fst_tmp + ".hier").c_str());
        s->fst_fault = 0;
        s->fst_tmp.clear();
        return -1;
    }
    if (s->fst_tmp.empty())
        return 0;
    if (rename(s->fst_tmp.c_str(), s->fst_path.c_str()) != 0) {
        if (err)
            sn_text_fit(err, errlen, "%s: cannot rename %s over it: %s", s->fst_path.c_str(), s->fst_tmp.c_str(),
                     strerror(errno));
        remove(s->fst_tmp.c_str());
        s->fst_tmp.clear();
        return -1;
    }
    s->fst_tmp.clear();
    return 0;
}

extern "C" void sn_sim_interrupt(int signo)
{
    interrupted = signo;
}

extern "C" int sn_sim_interrupted(void)
{
    return interrupted;
}
