// DPI side of the unit endpoints and the modelled memory timing (see
// dpi_units.h). Every function the RTL imports is called from a clocked
// block (tool-pitfalls 7).
#include "dpi_units.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "Vsn_mesh_top__Dpi.h"
#include "err_text.h"
#include "zeroed.h"

static thread_local sn_dpi_units *bound;

static void model_error(sn_dpi_units *u, const char *fmt, unsigned a, unsigned long long b)
{
    if (!u->error[0])
        sn_text_fit(u->error, sizeof u->error, fmt, a, b);
}

// ---- memory: pending writes over DRAM ----

// Records an access of the executing payload, joined to the last one when it
// continues it (a VFILL walk, a FILL's entries).
static void track(sn_dpi_units *u, uint64_t addr, uint32_t n, uint8_t write)
{
    const sn_dpi_unit &unit = u->unit[u->exec_unit];
    uint64_t payload = unit.executed - 1;
    if (!u->accesses.empty()) {
        sn_unit_access &last = u->accesses.back();
        if (last.x == unit.x && last.y == unit.y && last.write == write && last.payload == payload &&
            last.addr + last.nbytes == addr) {
            last.nbytes += n;
            return;
        }
    }
    u->accesses.push_back(sn_unit_access{(uint8_t)unit.x, (uint8_t)unit.y, write, payload, addr, n});
}

static bool overlaps(const sn_dpi_write &w, uint64_t addr, uint64_t n)
{
    return w.addr < addr + n && addr < w.addr + w.bytes.size();
}

static int port_read(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    sn_dpi_units *u = static_cast<sn_dpi_units *>(ctx);
    if (sn_dram_read(u->dram, addr, dst, n) != SN_OK)
        return -1;
    uint8_t *out = static_cast<uint8_t *>(dst);
    for (const sn_dpi_write &w : u->pending) {
        if (!overlaps(w, addr, n))
            continue;
        uint64_t lo = std::max(addr, w.addr), hi = std::min(addr + n, w.addr + w.bytes.size());
        memcpy(out + (lo - addr), w.bytes.data() + (lo - w.addr), hi - lo);
    }
    u->exec_read_bytes += n;
    if (u->track)
        track(u, addr, n, 0);
    return 0;
}

static int port_write(void *ctx, uint64_t addr, const void *src, uint32_t n)
{
    sn_dpi_units *u = static_cast<sn_dpi_units *>(ctx);
    if (addr > u->dram->size || n > u->dram->size - addr)
        return -1;
    const uint8_t *in = static_cast<const uint8_t *>(src);
    u->exec_write_bytes += n;
    if (u->track)
        track(u, addr, n, 1);
    // A stream of consecutive words from one instruction is one pending write.
    if (!u->pending.empty()) {
        sn_dpi_write &last = u->pending.back();
        if (last.unit == u->exec_unit && !last.sent && last.addr + last.bytes.size() == addr) {
            last.bytes.insert(last.bytes.end(), in, in + n);
            return 0;
        }
    }
    u->pending.push_back(sn_dpi_write{u->exec_unit, addr, std::vector<uint8_t>(in, in + n), false, 0});
    return 0;
}

static void land(sn_dpi_units *u, const sn_dpi_write &w)
{
    sn_dram_write(u->dram, w.addr, w.bytes.data(), w.bytes.size());
}

void sn_mc_unmap::operator()(sn_matmul_cluster *mc) const
{
    sn_zeroed_free(mc, sizeof *mc);
}

void sn_dpi_units_init(sn_dpi_units *u, sn_dram *dram, unsigned dram_latency)
{
    u->dram = dram;
    u->dram_latency = dram_latency;
    u->port = sn_mem_port{u, port_read, port_write};
    sn_dpi_units_reset(u);
}

void sn_dpi_units_reset(sn_dpi_units *u)
{
    for (const sn_dpi_write &w : u->pending)
        land(u, w);
    u->pending.clear();
    u->mem_clock = u->now = 0;
    u->landed = false;
    sn_mem_node_reset(&u->mem_node, u->dram_latency);
    u->inject_fault = 0;
    u->inject_hit_unit = -1;
    for (sn_dpi_unit &unit : u->unit) {
        if (unit.vc)
            sn_vc_reset(unit.vc.get());
        if (unit.mc)
            sn_mc_reset(unit.mc.get());
        sn_mg_timing_reset(&unit.mg_time);
        unit.executed = 0;
        unit.rx_words.clear();
        unit.spans.clear();
        unit.arrivals.clear();
        unit.completed = 0;
    }
    u->error[0] = '\0';
}

void sn_dpi_units_bind(sn_dpi_units *u)
{
    bound = u;
}

size_t sn_dpi_units_pending_writes(const sn_dpi_units *u)
{
    return u->pending.size();
}

sn_vector_core *sn_dpi_units_vc(sn_dpi_units *u, unsigned i)
{
    return i < SN_DPI_MAX_UNITS ? u->unit[i].vc.get() : nullptr;
}

sn_matmul_cluster *sn_dpi_units_mc(sn_dpi_units *u, unsigned i)
{
    return i < SN_DPI_MAX_UNITS ? u->unit[i].mc.get() : nullptr;
}

// The model of unit i as type cu_type, created on first use; NULL (with the
// error set) when the index or type is wrong.
static sn_dpi_unit *unit_as(sn_dpi_units *u, unsigned i, unsigned cu_type)
{
    if (i >= SN_DPI_MAX_UNITS) {
        model_error(u, "mesh: unit index %u is past the models' table (%llu)", i, SN_DPI_MAX_UNITS);
        return nullptr;
    }
    sn_dpi_unit &unit = u->unit[i];
    if (unit.cu_type == 0) {
        if (cu_type == SN_CU_TYPE_VC) {
            unit.vc = std::make_unique<sn_vector_core>();
            sn_vc_reset(unit.vc.get());
        } else if (cu_type == SN_CU_TYPE_MG) {
            // all zero is the reset state (sn_mc_reset); pages no payload touches are never cleared
            unit.mc.reset(static_cast<sn_matmul_cluster *>(sn_zeroed_alloc(sizeof(sn_matmul_cluster))));
            if (!unit.mc) {
                model_error(u, "mesh: no memory for the model of unit %u (%llu bytes)", i, sizeof(sn_matmul_cluster));
                return nullptr;
            }
        } else {
            model_error(u, "mesh: unit %u has CU type 0x%llx, which has no model", i, cu_type);
            return nullptr;
        }
        unit.cu_type = cu_type;
    } else if (unit.cu_type != cu_type) {
        model_error(u, "mesh: unit %u used as two CU types (now 0x%llx)", i, cu_type);
        return nullptr;
    }
    return &unit;
}

// svBitVecVal word i holds bits [32i+31:32i] (tool-pitfalls 8).
static sn_payload payload_from(const svBitVecVal *v)
{
    sn_payload p;
    for (int i = 0; i < SN_PAYLOAD_WORDS; i++)
        p.w[i] = (uint64_t)v[2 * i] | ((uint64_t)v[2 * i + 1] << 32);
    return p;
}

static void payload_to(const uint8_t bytes[32], svBitVecVal *v)
{
    for (int i = 0; i < 8; i++)
        v[i] = (svBitVecVal)bytes[4 * i] | (svBitVecVal)bytes[4 * i + 1] << 8 |
               (svBitVecVal)bytes[4 * i + 2] << 16 | (svBitVecVal)bytes[4 * i + 3] << 24;
}

// ---- DPI imports of sn_unit_shell and sn_mesh_top ----

static void unit_burst(sn_dpi_units *u, unsigned i, unsigned burst, sn_cu_burst *b);

// The shell's countdown for a payload accepted at cycle accept that completes
// at cycle complete: it counts down c cycles and its completion taps c + 2
// cycles after the accept; with CU_DATA to send, the F flits go out one a
// cycle after the countdown, with the bursts' gaps between them
// (sn_dpi_unit_burst_head), and the completion 3 cycles after the last is
// loaded (sn_unit_shell). A cluster's node DRAIN passes its first flit's
// tap as `complete` with F = 0: its gaps carry it to its completion.
static uint64_t countdown(uint64_t accept, uint64_t complete, uint64_t flits)
{
    uint64_t fixed = 2 + (flits ? flits + 1 : 0);
    return complete > accept + fixed ? complete - accept - fixed : 1;
}

void sn_dpi_unit_exec(unsigned int unit_index, unsigned int cu_type, const svBitVecVal *payload,
                      unsigned int *fault, unsigned int *result, unsigned int *compute_cycles,
                      unsigned int *memory_cycles, svBit *kernel_run, unsigned int *nbursts,
                      unsigned int *dbg_fill, unsigned int *dbg_compute)
{
    sn_dpi_units *u = bound;
    *fault = *result = *memory_cycles = *nbursts = *dbg_fill = *dbg_compute = 0;
    *compute_cycles = 1;
    *kernel_run = 0;
    sn_dpi_unit *unit = unit_as(u, unit_index, cu_type);
    if (!unit)
        return;
    sn_payload p = payload_from(payload);
    u->exec_unit = unit_index;
    u->exec_read_bytes = u->exec_write_bytes = 0;
    unit->executed++;
    uint64_t accept = u->now, complete = accept + SN_UNIT_PLAIN_COMPLETE, flits = 0;
    uint32_t estimate;
    if (unit->vc) {
        sn_vc_timing clock;
        sn_vc_timing_start(&clock, accept, &u->mem_node);
        bool run = sn_vc_run_op(&p) == SN_VC_OP_RUN;
        sn_vc_result r = sn_vc_execute(unit->vc.get(), &p, &u->port, run ? &clock : nullptr);
        if (r.mem_error)
            model_error(u, "vector core %u: DRAM access at 0x%llx is outside DRAM", unit_index, r.bad_addr);
        if (r.unsupported == SN_VC_UNSUP_PEER_BURSTS)
            model_error(u, "vector core %u: the peer VDRAIN at pc %llu needs more CU_DATA bursts than the model "
                        "records for one RUN", unit_index, r.pc);
        if (r.unsupported == SN_VC_UNSUP_CHAIN_MODE)
            model_error(u, "vector core %u: an ALU word in a chaining mode at pc %llu is not modelled", unit_index,
                        r.pc);
        if (r.hang)
            model_error(u, "vector core %u: the kernel ran away (last pc %llu, no VHALT)", unit_index, r.pc);
        *fault = r.fault;
        *nbursts = r.nbursts;
        estimate = r.cycles;
        if (run) {
            uint64_t halt = sn_vc_timing_halt(&clock);
            complete = halt + SN_VC_HALT_TO_COMPLETE;
            *result = (unsigned)(halt - (accept + 2) + 1); /* CU_DBG: the kernel's cycles */
            *kernel_run = 1;
        }
    } else {
        sn_mc_result r = sn_mc_execute(unit->mc.get(), &p, &u->port);
        if (r.mem_error)
            model_error(u, "matmul cluster %u: DRAM access at 0x%llx is outside DRAM", unit_index, r.bad_addr);
        *fault = r.fault;
        *nbursts = r.node_drain ? r.nbursts : 0;
        estimate = r.cycles;
        sn_mg_cost c = sn_mg_timing_payload(&unit->mg_time, &p, r.fault || r.mem_error, accept, &u->mem_node);
        complete = c.complete;
        unit->drain_n = r.node_drain ? (uint32_t)sn_mg_n(&p) : 0;
        if (unit->drain_n) /* counts down to burst 0's descriptor; the gaps place the rest */
            complete = c.drain_start + sn_mg_drain_flit(unit->drain_n, 0);
        *dbg_fill = c.dbg_fill;
        *dbg_compute = c.dbg_compute;
    }
    for (unsigned b = 0; unit->vc && b < *nbursts; b++) {
        sn_cu_burst burst;
        unit_burst(u, unit_index, b, &burst);
        flits += 1 + burst.ngranules;
    }
    /* A payload that moves DRAM words holds its countdown while the hub holds
     * the memory node's link (the node is behind it, DESIGN §6). */
    uint64_t wait = countdown(accept, complete, flits);
    bool dram = u->exec_read_bytes || u->exec_write_bytes;
    *compute_cycles = dram ? 1 : (unsigned)std::min<uint64_t>(wait, UINT32_MAX - 1);
    *memory_cycles = dram ? (unsigned)std::min<uint64_t>(wait - 1, UINT32_MAX - 1) : 0;
    if (u->inject_fault != 0) {
        u->inject_hit_unit = (int)unit_index;
        u->inject_hit_payload = unit->executed - 1;
    }
    if (u->inject_fault == UINT32_MAX) /* injected unit-stuck: busy past any run */
        *compute_cycles = UINT32_MAX;
    else if (u->inject_fault != 0) /* injected unit-fault */
        *fault = u->inject_fault;
    u->inject_fault = 0;
    if (!unit->spans.empty())
        unit->spans.back().estimate = estimate;
}

void sn_dpi_unit_arrive(unsigned int unit_index)
{
    sn_dpi_units *u = bound;
    if (unit_index < SN_DPI_MAX_UNITS)
        u->unit[unit_index].arrivals.push_back(u->now);
}

void sn_dpi_unit_issue(unsigned int unit_index, unsigned int x, unsigned int y)
{
    sn_dpi_units *u = bound;
    if (unit_index >= SN_DPI_MAX_UNITS)
        return;
    sn_dpi_unit &unit = u->unit[unit_index];
    unit.x = x;
    unit.y = y;
    uint64_t arrive = u->now - 1;
    if (!unit.arrivals.empty()) {
        arrive = unit.arrivals.front();
        unit.arrivals.pop_front();
    }
    unit.spans.push_back({arrive, u->now, 0, 0});
}

void sn_dpi_unit_completed(unsigned int unit_index)
{
    sn_dpi_units *u = bound;
    if (unit_index >= SN_DPI_MAX_UNITS)
        return;
    sn_dpi_unit &unit = u->unit[unit_index];
    if (unit.completed < unit.spans.size())
        unit.spans[unit.completed++].end = u->now;
}

void sn_dpi_unit_writes_sent(unsigned int unit_index)
{
    sn_dpi_units *u = bound;
    for (sn_dpi_write &w : u->pending)
        if (w.unit == unit_index && !w.sent) {
            w.sent = true;
            w.land_at = u->mem_clock + SN_V4_WRITE_LANDING_CYCLES;
        }
}

unsigned int sn_dpi_unit_writes_outstanding(unsigned int unit_index)
{
    const sn_dpi_units *u = bound;
    return (unsigned)std::count_if(u->pending.begin(), u->pending.end(),
                                   [&](const sn_dpi_write &w) { return w.unit == unit_index; });
}

uint64_t sn_dpi_units_cycles_to_landing(const sn_dpi_units *u)
{
    uint64_t next = UINT64_MAX;
    for (const sn_dpi_write &w : u->pending)
        if (w.sent && w.land_at > u->mem_clock)
            next = std::min(next, w.land_at - u->mem_clock);
    return next;
}

// A write lands when its time has come and no earlier pending write to the
// same bytes is still waiting (DRAM ends as arrival order says).
void sn_dpi_mem_tick(svBit stalled, unsigned int cycles)
{
    sn_dpi_units *u = bound;
    if (stalled)
        return;
    u->mem_clock += cycles;
    for (auto it = u->pending.begin(); it != u->pending.end();) {
        bool due = it->sent && it->land_at <= u->mem_clock &&
                   std::none_of(u->pending.begin(), it, [&](const sn_dpi_write &e) {
                       return overlaps(e, it->addr, it->bytes.size());
                   });
        if (due) {
            u->landed = true;
            land(u, *it);
            it = u->pending.erase(it);
        } else {
            ++it;
        }
    }
}

// Burst `burst` of unit i's last payload: a cluster's node DRAIN or a vector
// core's peer VDRAINs (both recorded as cu_data.h bursts). On a missing burst
// the error is set and *b is an empty one-granule burst.
static void unit_burst(sn_dpi_units *u, unsigned i, unsigned burst, sn_cu_burst *b)
{
    const sn_dpi_unit *unit = i < SN_DPI_MAX_UNITS ? &u->unit[i] : nullptr;
    int rc = !unit ? -1
             : unit->vc ? sn_vc_peer_burst(unit->vc.get(), burst, b)
             : unit->mc ? sn_mc_node_burst(unit->mc.get(), burst, b)
                        : -1;
    if (rc != 0) {
        model_error(u, "unit %u: no CU_DATA burst %llu after its last payload", i, burst);
        memset(b, 0, sizeof *b);
        b->ngranules = 1;
    }
}

// Idle cycles after burst `burst`'s last data flit: a node DRAIN's bursts
// tap where the cluster's would, and its completion 4 after the last data
// flit (unit-timing §3.2; the shell's own path is 2); a peer VDRAIN's
// bursts go back to back after the kernel.
static unsigned burst_gap(const sn_dpi_unit *unit, unsigned burst, unsigned ngranules)
{
    uint32_t n = unit->mc ? unit->drain_n : 0;
    if (!n)
        return 0;
    if ((burst + 1) * SN_CU_BURST_GRANULES >= n)
        return 2;
    return (unsigned)(sn_mg_drain_flit(n, burst + 1) - sn_mg_drain_flit(n, burst) - ngranules - 1);
}

void sn_dpi_unit_burst_head(unsigned int unit_index, unsigned int burst, unsigned int *dst_x, unsigned int *dst_y,
                            unsigned int *buf_id, unsigned int *flags, unsigned int *ack_x, unsigned int *ack_y,
                            unsigned int *offset, unsigned int *ngranules, unsigned int *gap)
{
    sn_cu_burst b;
    unit_burst(bound, unit_index, burst, &b);
    *gap = unit_index < SN_DPI_MAX_UNITS ? burst_gap(&bound->unit[unit_index], burst, b.ngranules) : 0;
    *dst_x = b.dst_x;
    *dst_y = b.dst_y;
    *buf_id = b.buf;
    *flags = b.flags;
    *ack_x = b.ack_x;
    *ack_y = b.ack_y;
    *offset = b.offset;
    *ngranules = b.ngranules;
}

void sn_dpi_unit_burst_granule(unsigned int unit_index, unsigned int burst, unsigned int index, svBitVecVal *data)
{
    sn_dpi_units *u = bound;
    sn_cu_burst b;
    unit_burst(u, unit_index, burst, &b);
    if (index >= b.ngranules) {
        model_error(u, "unit %u: no granule %llu in its CU_DATA burst", unit_index, index);
        index = 0;
    }
    payload_to(b.bytes[index], data);
}

void sn_dpi_unit_data_flit(unsigned int unit_index, unsigned int index, const svBitVecVal *data)
{
    sn_dpi_units *u = bound;
    sn_dpi_unit *unit = unit_as(u, unit_index, SN_CU_TYPE_VC);
    if (!unit)
        return;
    if (index == 0)
        unit->rx_words.clear();
    sn_payload p = payload_from(data);
    for (int i = 0; i < SN_VC_WORD_BYTES; i++)
        unit->rx_words.push_back((uint8_t)(p.w[i / 8] >> (8 * (i % 8))));
}

// Only buffer 0 (the flat L1) takes CU_DATA (sysnode-facts §4).
unsigned int sn_dpi_unit_data_commit(unsigned int unit_index, unsigned int buf_id, unsigned int offset,
                                     unsigned int nwords, svBit intruded)
{
    sn_dpi_units *u = bound;
    sn_dpi_unit *unit = unit_as(u, unit_index, SN_CU_TYPE_VC);
    if (!unit)
        return 0;
    bool whole = unit->rx_words.size() == (size_t)nwords * SN_VC_WORD_BYTES;
    if (!whole)
        model_error(u, "vector core %u: a CU_DATA burst committed with %llu bytes staged", unit_index,
                    (unsigned long long)unit->rx_words.size());
    if (intruded || buf_id != 0 || !whole)
        return SN_VC_F_CUDATA;
    return (unsigned)sn_vc_l1_write(unit->vc.get(), offset, unit->rx_words.data(), nwords);
}
