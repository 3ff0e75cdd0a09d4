/* Verilator-level tests of the mesh (sim/rtl) with its DPI models, driven
 * through the top's CPU ports with no CPU: routing to every unit of
 * rv64_mesh_2p2 and back, misrouted flits reported, CU_CAPS/CU_STATUS,
 * the hub stall with nothing lost, CU_DATA receive and its faults, the
 * CU_VERSION 4 and 5 completion generations against DRAM landing, GEMM
 * retiring on issue with DRAIN waiting for the sweep, and a node DRAIN's
 * bursts acknowledged with DATA_RECEIVED credited to the vector core, and
 * a vector core's peer VDRAIN into another vector core's L1.
 * Expected coordinates, codes and layouts come from sysnode-facts (§2-§5,
 * §7.1, §9) and from arithmetic worked out here, not from the RTL.
 * The mesh is built with ROUTER_FIFO_DEPTH 4 (tests/sim/CMakeLists.txt), so
 * a stalled hub backs traffic up into the units within a few flits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "mesh_harness.h"

#define ROUTER_FIFO_DEPTH 4 /* -G of this test's mesh */

/* rv64_mesh_2p2 (sysnode-facts §5); unit index = sn_mesh_top's list order */
struct unit_ref {
    unsigned index, x, y, cu_type;
};
static const unit_ref VEC0 = {2, 1, 0, SN_CU_TYPE_VC};
static const unit_ref VEC1 = {3, 1, 2, SN_CU_TYPE_VC};
static const unit_ref MAT0 = {0, 1, 1, SN_CU_TYPE_MG};
static const unit_ref MAT1 = {1, 2, 1, SN_CU_TYPE_MG};
static const unit_ref UNITS[] = {VEC0, VEC1, MAT0, MAT1};

static void expect(const completion &c, const unit_ref &u, unsigned code, unsigned arg)
{
    assert_int_equal(c.x, u.x);
    assert_int_equal(c.y, u.y);
    assert_int_equal(c.code, code);
    assert_int_equal(c.arg, arg);
}

/* Takes batches + acks completions in any order: src's BATCH_COMPLETE with
 * txn first_txn, first_txn + 1, ... in order, and acker's DATA_RECEIVED (txn
 * 0) for a peer drain's bursts (DESIGN §6); then nothing more may arrive
 * within 100 cycles. */
static void take_batches_and_acks(mesh &m, const unit_ref &src, unsigned first_txn, unsigned batches,
                                  const unit_ref &acker, unsigned acks)
{
    unsigned got_batches = 0, got_acks = 0;
    for (const completion &c : m.take(batches + acks)) {
        if (c.x == src.x && c.y == src.y) {
            expect(c, src, SN_SIG_BATCH_COMPLETE, first_txn + got_batches++);
        } else {
            expect(c, acker, SN_SIG_DATA_RECEIVED, 0);
            got_acks++;
        }
    }
    assert_int_equal(got_batches, batches);
    assert_int_equal(got_acks, acks);
    m.run(100);
    assert_int_equal(m.queued(), 0);
}

// ---- payloads (sysnode-facts §3.2, §3.3) ----

static const uint32_t VFILL_A0_L1_0 = 0x1Du << 27;  // VFILL A0 -> L1 offset 0
static const uint32_t VDRAIN_A0_L1_0 = 0x1Eu << 27; // VDRAIN A0 <- L1 offset 0
static const uint32_t VBAR = 0x1Cu << 27;
static const uint32_t VHALT = 0x1Fu << 27;

// vec1's 6-payload kernel: VFILL of 8 words from addr (dim 1: stride 32 B,
// bound 8) into L1, then VBAR, VHALT, RUN.
static void send_vfill_kernel(mesh &m, uint64_t addr)
{
    m.send(VEC1.x, VEC1.y, sn_vc_desc_payload(0, 0, addr));
    m.send(VEC1.x, VEC1.y, sn_vc_desc_payload(0, 2, 32u << 16 | 8));
    m.send(VEC1.x, VEC1.y, sn_vc_imem_payload(0, VFILL_A0_L1_0));
    m.send(VEC1.x, VEC1.y, sn_vc_imem_payload(1, VBAR));
    m.send(VEC1.x, VEC1.y, sn_vc_imem_payload(2, VHALT));
    m.send(VEC1.x, VEC1.y, sn_vc_run_payload(0));
}

// CU_DATA descriptor: buf_id, offset (granules), len = words-1, flags, ack.
static sn_payload cu_data_desc(unsigned buf, unsigned offset, unsigned words, unsigned flags, unsigned ack_x,
                               unsigned ack_y)
{
    sn_payload p{};
    sn_cu_data_desc_set_buf(&p, buf);
    sn_cu_data_desc_set_offset(&p, offset);
    sn_cu_data_desc_set_len(&p, words - 1);
    sn_cu_data_desc_set_flags(&p, flags);
    sn_cu_data_desc_set_ack_y(&p, ack_y);
    sn_cu_data_desc_set_ack_x(&p, ack_x);
    return p;
}
static sn_payload word_of(uint8_t seed)
{
    sn_payload p;
    for (int i = 0; i < 4; i++)
        p.w[i] = 0x0101010101010101ull * (uint8_t)(seed + i);
    return p;
}
static void bytes_of(const sn_payload &p, uint8_t out[32])
{
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(p.w[i / 8] >> (8 * (i % 8)));
}

enum { MC_FILL = 1, MC_GEMM = 2, MC_DRAIN = 3 };
static sn_payload mc_op(unsigned op, uint64_t addr, unsigned n)
{
    sn_payload p{};
    sn_mg_set_op(&p, op);
    sn_mg_set_addr(&p, addr);
    sn_mg_set_n(&p, n);
    sn_mg_set_anchor(&p, 0x28); // anchor 2*SBIAS
    return p;
}
static sn_payload mc_fill(uint64_t addr, unsigned n, unsigned sel)
{
    sn_payload p = mc_op(MC_FILL, addr, n);
    sn_mg_set_sel(&p, sel);
    return p;
}
static sn_payload mc_gemm(unsigned gm, unsigned gn, unsigned nk)
{
    sn_payload p = mc_op(MC_GEMM, 0, 0);
    sn_mg_set_gm(&p, gm);
    sn_mg_set_gn(&p, gn);
    sn_mg_set_nk(&p, nk);
    return p;
}

// One 128-byte MXFP7 entry whose lane l holds q[l] at every K, scale 1.0
// (field 0xA0: E=20=SBIAS, M=0) (sysnode-facts §9).
static void mxfp7_entry(const int q[4], unsigned sel, uint8_t out[128])
{
    for (unsigned w = 0; w < 4; w++) {
        sn_payload p{};
        for (unsigned oi = 0; oi < 32; oi++) {
            unsigned lane = sel ? oi % 4 : oi / 8;
            sn_field_set(&p, 255 - 7 * oi, 249 - 7 * oi, (uint64_t)(q[lane] & 0x7F));
        }
        for (unsigned l = 0; l < 4; l++)
            sn_field_set(&p, 31 - 8 * l, 24 - 8 * l, 0xA0);
        bytes_of(p, out + 32 * w);
    }
}

// FP16 of a positive integer that FP16 holds exactly.
static uint16_t fp16_of(unsigned v)
{
    int e = (int)std::floor(std::log2((double)v));
    double m = (double)v / std::ldexp(1.0, e) - 1.0;
    unsigned mant = (unsigned)(m * 1024.0);
    assert_true(std::ldexp(1.0 + mant / 1024.0, e) == (double)v);
    return (uint16_t)((unsigned)(e + 15) << 10 | mant);
}

// ---- tests ----

// Every unit answers a CU_CTRL read and an instruction, with its own source
// coordinate: routing out through the router and back through the hub.
static void routes_to_every_unit_and_back(void **)
{
    mesh m(4);
    unsigned txn = 0;
    for (const unit_ref &u : UNITS) {
        m.ctrl_read(u.x, u.y, 0);
        sn_payload nop{}; // opcode 0: a vector core retires it; a cluster faults (op not FILL/GEMM/DRAIN = 1)
        m.send(u.x, u.y, nop);
        txn++; // the CU_CTRL read used a GO, hence a txn
        completion c = m.take(1)[0];
        if (u.cu_type == SN_CU_TYPE_VC)
            expect(c, u, SN_SIG_BATCH_COMPLETE, txn);
        else
            expect(c, u, SN_SIG_FAULT, SN_MC_FAULT_OPCODE);
        txn++;
    }
    assert_false(m.noroute_seen);
}

// A flit for a coordinate with no endpoint is consumed and reported: off
// the grid east of mat1, and the memory node, whose flits are not modelled.
// A GO while STAT[15] is set is dropped silently (DESIGN §2; sysnode-facts
// §2.4): two GOs on consecutive cycles offer one flit, which retires once
// with txn 0; the dropped GO takes no txn, so the next accepted one has 1.
static void go_while_offered_is_dropped(void **)
{
    mesh m(4);
    sn_payload nop{}; // opcode 0: retires at once as a no-op (sysnode-facts §3.2)
    m.send(1, 0, nop);
    assert_int_equal(sn_stat_offered(m.read(SN_MBOX_STAT)), 1);
    m.write(SN_MBOX_GO, 1);
    assert_int_equal(m.top->accepted_go, 1);
    assert_int_equal(m.top->dropped_go, 1);
    m.send(1, 0, nop);
    std::vector<completion> c = m.take(2);
    expect(c[0], VEC0, SN_SIG_BATCH_COMPLETE, 0);
    expect(c[1], VEC0, SN_SIG_BATCH_COMPLETE, 1);
    m.run(200);
    assert_int_equal(m.queued(), 0);
}

static void reports_flits_without_endpoint(void **)
{
    const unsigned coords[][2] = {{3, 1}, {2, 2}, {0, 1}, {0, 3}};
    for (auto &xy : coords) {
        mesh m(4);
        sn_payload nop{};
        m.send(xy[0], xy[1], nop);
        m.run(20);
        assert_true(m.noroute_seen);
        assert_int_equal(m.noroute_coord, xy[1] << 4 | xy[0]);
    }
}

// CU_CAPS = {type, cfg version, 2 buffers, inst_depth 512}; CU_STATUS shows
// 512 free entries when idle (sysnode-facts §7.1, §7.2).
static void cu_caps_report_type_version_depth(void **)
{
    for (unsigned version : {4u, 5u}) {
        mesh m(version);
        for (const unit_ref &u : UNITS) {
            uint64_t caps = m.ctrl_read(u.x, u.y, 0);
            assert_int_equal(caps >> 48, u.cu_type);
            assert_int_equal(caps >> 40 & 0xFF, version);
            assert_int_equal(caps >> 36 & 0xF, 2);
            assert_int_equal(caps >> 20 & 0xFFFF, 512);
            assert_int_equal(caps & 0xFFFFF, 0);
            uint64_t status = m.ctrl_read(u.x, u.y, 1);
            assert_int_equal(status >> 63, 0);
            assert_int_equal(status >> 32 & 0xFFFF, 512);
        }
    }
}

// CU_COUNTERS as the unit RTL counts it (unit-timing §1): busy is the union
// of [arrival + 1, completion - 1] over the payloads, the queued time
// included, and retired one per completion; CU_DBG gives the kernel's
// cycles, 40 + 12 (n - 1) for "VFILL 8; VBAR; VHALT" (§2.4), and the RUN,
// arriving to an idle unit, is served in K + 6 (§2.1).
static void cu_counters_count_queued_time(void **)
{
    mesh m(4);
    send_vfill_kernel(m, 0x1000);
    m.take(6);
    assert_int_equal(m.ctrl_read(VEC1.x, VEC1.y, 3) & 0xFFFFFFFFu, 40 + 12 * 7);
    uint64_t counters = m.ctrl_read(VEC1.x, VEC1.y, 2);
    const std::vector<sn_busy_span> &spans = m.units.unit[VEC1.index].spans;
    assert_int_equal(spans.size(), 6);
    uint64_t busy = 0, covered = 0;
    for (const sn_busy_span &sp : spans) {
        assert_true(sp.arrive < sp.start && sp.start < sp.end);
        uint64_t from = std::max(sp.arrive + 1, covered);
        if (sp.end > from)
            busy += sp.end - from;
        covered = std::max(covered, sp.end);
    }
    assert_int_equal(counters & 0xFFFFFFFFu, busy);
    assert_int_equal(counters >> 32, 6);
    const sn_busy_span &run = spans.back();
    if (run.arrive >= spans[4].end)
        assert_int_equal(run.end - run.arrive, 40 + 12 * 7 + 6);
}

// With the completion queue full the hub takes nothing: vec0's completions
// back up through the router into its 16-deep signal queue and it stops
// issuing; vec1's memory traffic does not advance. Draining delivers every
// completion, in order, none lost.
static void hub_stall_holds_units_and_loses_nothing(void **)
{
    mesh m(4);
    const unsigned sends = 60;
    for (unsigned i = 0; i < sends; i++) {
        sn_payload nop{};
        m.send(VEC0.x, VEC0.y, nop);
    }
    // vec1: a VFILL of 8 words (memory traffic) sent while the hub is stalled
    m.run(200);
    assert_int_equal(m.queued(), SN_CQ_DEPTH);
    assert_true(m.top->hub_stalled);
    send_vfill_kernel(m, 0x1000);
    m.run(2000);
    // vec0 stopped: CQ 16 + router FIFO + signal queue 16 + the completion
    // in hand, far fewer than were sent
    uint64_t executed = m.units.unit[VEC0.index].executed;
    assert_true(executed < sends);
    assert_true(executed <= SN_CQ_DEPTH + ROUTER_FIFO_DEPTH + 16 + 2);
    m.run(2000);
    assert_int_equal(m.units.unit[VEC0.index].executed, executed);
    assert_true(m.top->hub_stalled);
    // wedged: nothing can move until the CPU pops, so the mesh is quiet with
    // no countdown running (vec1's memory time is held), the stretch event-
    // driven clocking skips (sim/README.md, Clocking)
    assert_true(m.top->quiet);
    assert_int_equal(m.top->quiet_cycles, 0xFFFFFFFFu);
    // every VFILL read is done at issue; its memory time waits for the hub
    assert_int_equal(m.units.unit[VEC1.index].executed, 6);

    // drain: all 60 + 6 completions, vec0's txns 0..59 in order
    unsigned next_txn = 0, vec1_seen = 0;
    uint64_t vec1_run_at = 0, unstalled_at = m.cycle;
    for (unsigned i = 0; i < sends + 6; i++) {
        completion c = m.take(1)[0];
        if (c.x == VEC0.x && c.y == VEC0.y) {
            expect(c, VEC0, SN_SIG_BATCH_COMPLETE, next_txn++);
        } else {
            expect(c, VEC1, SN_SIG_BATCH_COMPLETE, sends + vec1_seen++);
            vec1_run_at = m.cycle;
        }
    }
    assert_int_equal(next_txn, sends);
    assert_int_equal(vec1_seen, 6);
    // the RUN's time, held with it, ran only after the stall: at least its 8
    // plain reads at the memory node, 12 cycles each (unit-timing §4.2)
    assert_true(vec1_run_at - unstalled_at >= 8 * 12);
    m.run(100);
    assert_int_equal(m.queued(), 0);
    assert_false(m.top->hub_stalled);
    assert_true(m.top->quiet);
}

// The quiet bound is the unit's countdown: while vec1 runs a kernel and
// nothing else moves, quiet holds and quiet_cycles falls by one a cycle to
// 0, its last work cycle; on that edge the completion is made and the mesh
// stops being quiet (sim/README.md, Clocking).
static void quiet_bound_is_the_countdown(void **)
{
    mesh m(4);
    send_vfill_kernel(m, 0x1000);
    for (unsigned guard = 0; !(m.top->quiet && m.top->quiet_cycles != 0xFFFFFFFFu && m.top->quiet_cycles > 8);
         guard++) {
        assert_true(guard < 10000);
        m.tick();
    }
    uint32_t q = m.top->quiet_cycles;
    for (uint32_t k = 1; k <= q; k++) {
        m.tick();
        assert_true(m.top->quiet);
        assert_int_equal(m.top->quiet_cycles, q - k);
    }
    m.tick();
    assert_false(m.top->quiet);
    m.wait_queued(6);
}

// CU_DATA to a vector core: buffer 0 lands in L1 and is acknowledged with
// DATA_RECEIVED (arg buf_id); another buffer or a burst past the 512-word
// L1 is fault 9 and writes nothing; with flags[0] clear a good burst is
// silent (sysnode-facts §4).
static void cu_data_receive_and_faults(void **)
{
    mesh m(4);
    auto burst = [&](unsigned buf, unsigned offset, unsigned words, unsigned flags) {
        m.send(VEC0.x, VEC0.y, cu_data_desc(buf, offset, words, flags, 0, 0), SN_T_CU_DATA);
        for (unsigned i = 0; i < words; i++)
            m.send(VEC0.x, VEC0.y, word_of((uint8_t)(0x10 * (i + 1))), SN_T_CU_DATA);
    };
    burst(1, 0, 1, 1);
    expect(m.take(1)[0], VEC0, SN_SIG_FAULT, 9);
    burst(0, 511, 2, 1); // words 511 and 512: past L1
    expect(m.take(1)[0], VEC0, SN_SIG_FAULT, 9);
    sn_vector_core *vc = sn_dpi_units_vc(&m.units, VEC0.index);
    assert_non_null(vc);
    static const uint8_t zero[32] = {0};
    assert_memory_equal(vc->l1[511], zero, 32);
    assert_memory_equal(vc->l1[0], zero, 32);

    burst(0, 510, 2, 1);
    expect(m.take(1)[0], VEC0, SN_SIG_DATA_RECEIVED, 0);
    uint8_t want[32];
    bytes_of(word_of(0x10), want);
    assert_memory_equal(vc->l1[510], want, 32);
    bytes_of(word_of(0x20), want);
    assert_memory_equal(vc->l1[511], want, 32);

    burst(0, 3, 1, 0);
    m.run(200);
    assert_int_equal(m.queued(), 0);
    bytes_of(word_of(0x10), want);
    assert_memory_equal(vc->l1[3], want, 32);
}

// vec0 gets 8 words by CU_DATA and drains them (256 B) to DRAM 0x3000
// over old bytes 0xAA; returns when the RUN's completion (txn 13: 9 CU_DATA
// GOs, 4 setup payloads, then RUN) is queued, with the cycles it took.
static const uint64_t DRAIN_ADDR = 0x3000;
static const unsigned DRAIN_RUN_TXN = 13;
static uint64_t drain_kernel(mesh &m, uint8_t want[256])
{
    std::vector<uint8_t> old(256, 0xAA);
    sn_dram_write(&m.dram, DRAIN_ADDR, old.data(), old.size());
    m.send(VEC0.x, VEC0.y, cu_data_desc(0, 0, 8, 0, 0, 0), SN_T_CU_DATA);
    for (unsigned i = 0; i < 8; i++) {
        sn_payload w = word_of((uint8_t)(i * 4 + 1));
        m.send(VEC0.x, VEC0.y, w, SN_T_CU_DATA);
        bytes_of(w, want + 32 * i);
    }
    m.send(VEC0.x, VEC0.y, sn_vc_desc_payload(0, 0, DRAIN_ADDR));
    m.send(VEC0.x, VEC0.y, sn_vc_desc_payload(0, 2, 32u << 16 | 8));
    m.send(VEC0.x, VEC0.y, sn_vc_imem_payload(0, VDRAIN_A0_L1_0));
    m.send(VEC0.x, VEC0.y, sn_vc_imem_payload(1, VHALT));
    for (auto &c : m.take(4))
        assert_int_equal(c.code, SN_SIG_BATCH_COMPLETE);
    m.send(VEC0.x, VEC0.y, sn_vc_run_payload(0));
    return m.wait_queued(1);
}

static bool dram_is(mesh &m, const uint8_t *bytes)
{
    uint8_t now[256];
    sn_dram_read(&m.dram, DRAIN_ADDR, now, sizeof now);
    return memcmp(now, bytes, sizeof now) == 0;
}

// CU_VERSION 4: the completion leaves with the last write beat; a DRAM read
// right after it sees the old bytes, SN_V4_WRITE_LANDING_CYCLES later the
// new ones (DESIGN §6, sysnode-facts §2.4).
static void version4_completion_before_bytes_land(void **)
{
    mesh m(4);
    uint8_t want[256];
    std::vector<uint8_t> old(256, 0xAA);
    uint64_t took = drain_kernel(m, want);
    expect(m.pop(), VEC0, SN_SIG_BATCH_COMPLETE, DRAIN_RUN_TXN);
    assert_true(took < SN_V4_WRITE_LANDING_CYCLES);
    assert_true(dram_is(m, old.data()));
    assert_int_equal(sn_dpi_units_pending_writes(&m.units), 1);
    m.run(SN_V4_WRITE_LANDING_CYCLES - 20);
    assert_true(dram_is(m, old.data()));
    m.run(20);
    assert_true(dram_is(m, want));
    assert_int_equal(sn_dpi_units_pending_writes(&m.units), 0);
}

// CU_VERSION 5: the completion is held until the writes landed.
static void version5_completion_after_bytes_land(void **)
{
    mesh m(5);
    uint8_t want[256];
    uint64_t took = drain_kernel(m, want);
    expect(m.pop(), VEC0, SN_SIG_BATCH_COMPLETE, DRAIN_RUN_TXN);
    assert_true(took > SN_V4_WRITE_LANDING_CYCLES);
    assert_true(dram_is(m, want));
    assert_int_equal(sn_dpi_units_pending_writes(&m.units), 0);
}

// A model read sees a pending write (the memory node serves in order): vec1
// fills what vec0 drained before it landed.
static void model_reads_see_pending_writes(void **)
{
    mesh m(4);
    uint8_t want[256];
    drain_kernel(m, want);
    m.pop();
    send_vfill_kernel(m, DRAIN_ADDR);
    m.take(6);
    assert_int_equal(sn_dpi_units_pending_writes(&m.units), 1); // not landed yet
    sn_vector_core *vc = sn_dpi_units_vc(&m.units, VEC1.index);
    for (unsigned i = 0; i < 8; i++)
        assert_memory_equal(vc->l1[i], want + 32 * i, 32);
}

// GEMM completes when issued; the DRAIN after it waits for the sweep:
// gm = gn = 16, nk = 1 is 64*32*64/512 = 256 cycles (artifacts-facts §7).
static void gemm_completes_at_issue_drain_waits(void **)
{
    mesh m(4);
    m.send(MAT0.x, MAT0.y, mc_fill(0x1000, 16, 0));
    m.send(MAT0.x, MAT0.y, mc_fill(0x2000, 16, 1));
    m.take(2);
    uint64_t kicked = m.cycle;
    m.send(MAT0.x, MAT0.y, mc_gemm(16, 16, 1));
    m.send(MAT0.x, MAT0.y, mc_op(MC_DRAIN, 0x8000, 1));
    m.wait_queued(1);
    uint64_t gemm_done = m.cycle - kicked;
    expect(m.pop(), MAT0, SN_SIG_BATCH_COMPLETE, 2);
    m.wait_queued(1);
    uint64_t drain_done = m.cycle - kicked;
    expect(m.pop(), MAT0, SN_SIG_BATCH_COMPLETE, 3);
    assert_true(gemm_done < 64);
    assert_true(drain_done > 256);
}

// A node DRAIN of a 3x3-sub-tile product to vec0 (1,0), buffer 0, from
// granule 2 (addr 0x40 >> 5), ack (0,0): 9 granules go as bursts of 8 and
// 1; each burst is acknowledged by DATA_RECEIVED from vec0 itself (DESIGN
// §6), and L1 holds C = A x B: A lane r of entry m is 4m+r+1 at every K, B
// lane s of entry g is 4g+s+1, so C[4m+r][4g+s] = 32 (4m+r+1)(4g+s+1).
static void node_drain_bursts_acked_by_vector_core(void **)
{
    mesh m(4);
    for (unsigned e = 0; e < 3; e++) {
        uint8_t entry[128];
        int q[4];
        for (unsigned l = 0; l < 4; l++)
            q[l] = (int)(4 * e + l + 1);
        mxfp7_entry(q, 0, entry);
        sn_dram_write(&m.dram, 0x1000 + 128 * e, entry, 128);
        mxfp7_entry(q, 1, entry);
        sn_dram_write(&m.dram, 0x2000 + 128 * e, entry, 128);
    }
    m.send(MAT0.x, MAT0.y, mc_fill(0x1000, 3, 0));
    m.send(MAT0.x, MAT0.y, mc_fill(0x2000, 3, 1));
    m.send(MAT0.x, MAT0.y, mc_gemm(3, 3, 1));
    sn_payload drain = mc_op(MC_DRAIN, 0x40, 9);
    sn_mg_set_dnode(&drain, 1);
    sn_mg_set_dst_x(&drain, VEC0.x);
    sn_mg_set_dst_y(&drain, VEC0.y);
    sn_mg_set_dbuf(&drain, 0);
    sn_mg_set_dflags(&drain, 1);           // dflags: ask for DATA_RECEIVED
    m.send(MAT0.x, MAT0.y, drain);
    take_batches_and_acks(m, MAT0, 0, 4, VEC0, 2);

    sn_vector_core *vc = sn_dpi_units_vc(&m.units, VEC0.index);
    assert_non_null(vc);
    for (unsigned t = 0; t < 9; t++) {
        unsigned mm = t / 3, g = t % 3;
        uint8_t want[32];
        for (unsigned r = 0; r < 4; r++)
            for (unsigned s = 0; s < 4; s++) {
                uint16_t h = fp16_of(32 * (4 * mm + r + 1) * (4 * g + s + 1));
                want[2 * (4 * r + s)] = (uint8_t)h;
                want[2 * (4 * r + s) + 1] = (uint8_t)(h >> 8);
            }
        assert_memory_equal(vc->l1[2 + t], want, 32);
    }
    static const uint8_t zero[32] = {0};
    assert_memory_equal(vc->l1[1], zero, 32);
    assert_memory_equal(vc->l1[11], zero, 32);
}

// vec0 fills 10 words from DRAM 0x1000 and peer-drains them (VDRAIN bit 24,
// sysnode-facts §3.2) to vec1 (1,2) buffer 0 at granule 4, asking for
// DATA_RECEIVED with ack (0,0): the 10 granules go as bursts of 8 and 2, and
// each is acknowledged to the SysNode mailbox from vec1 (DESIGN §6), beside
// vec0's RUN completion (txn 8, after 8 setup GOs). A vec1 kernel then drains
// its L1 words 4..13 to DRAM 0x5000, which must hold the original bytes.
static void peer_vdrain_vec0_to_vec1(void **)
{
    mesh m(5);
    std::vector<uint8_t> want(10 * 32);
    for (unsigned i = 0; i < 10; i++)
        bytes_of(word_of((uint8_t)(i * 4 + 3)), &want[32 * i]);
    sn_dram_write(&m.dram, 0x1000, want.data(), want.size());
    const uint32_t peer_drain_a1 = 0x1Eu << 27 | 1u << 25 | 1u << 24 | 1u << 21 | VEC1.x << 17 | VEC1.y << 13;
    m.send(VEC0.x, VEC0.y, sn_vc_desc_payload(0, 0, 0x1000));
    m.send(VEC0.x, VEC0.y, sn_vc_desc_payload(0, 1, 32u << 16 | 10));
    m.send(VEC0.x, VEC0.y, sn_vc_desc_payload(1, 0, 0u << 20 | 0u << 16 | 4)); // ack (0,0), granule 4
    m.send(VEC0.x, VEC0.y, sn_vc_desc_payload(1, 1, 1u << 16 | 10));
    m.send(VEC0.x, VEC0.y, sn_vc_imem_payload(0, VFILL_A0_L1_0));
    m.send(VEC0.x, VEC0.y, sn_vc_imem_payload(1, VBAR));
    m.send(VEC0.x, VEC0.y, sn_vc_imem_payload(2, peer_drain_a1));
    m.send(VEC0.x, VEC0.y, sn_vc_imem_payload(3, VHALT));
    for (auto &c : m.take(8))
        assert_int_equal(c.code, SN_SIG_BATCH_COMPLETE);
    m.send(VEC0.x, VEC0.y, sn_vc_run_payload(0));
    take_batches_and_acks(m, VEC0, 8, 1, VEC1, 2);

    sn_vector_core *vc1 = sn_dpi_units_vc(&m.units, VEC1.index);
    assert_non_null(vc1);
    static const uint8_t zero[32] = {0};
    assert_memory_equal(vc1->l1[3], zero, 32);
    assert_memory_equal(vc1->l1[14], zero, 32);
    m.send(VEC1.x, VEC1.y, sn_vc_desc_payload(0, 0, 0x5000));
    m.send(VEC1.x, VEC1.y, sn_vc_desc_payload(0, 1, 32u << 16 | 10));
    m.send(VEC1.x, VEC1.y, sn_vc_imem_payload(0, VDRAIN_A0_L1_0 | 4)); // from L1 word 4
    m.send(VEC1.x, VEC1.y, sn_vc_imem_payload(1, VHALT));
    m.send(VEC1.x, VEC1.y, sn_vc_run_payload(0));
    std::vector<completion> done = m.take(5);
    for (unsigned i = 0; i < done.size(); i++)
        expect(done[i], VEC1, SN_SIG_BATCH_COMPLETE, 9 + i); // txn 9..13 after vec0's 9 GOs
    std::vector<uint8_t> got(want.size());
    sn_dram_read(&m.dram, 0x5000, got.data(), got.size());
    assert_memory_equal(got.data(), want.data(), want.size());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(routes_to_every_unit_and_back),
        cmocka_unit_test(go_while_offered_is_dropped),
        cmocka_unit_test(reports_flits_without_endpoint),
        cmocka_unit_test(cu_caps_report_type_version_depth),
        cmocka_unit_test(hub_stall_holds_units_and_loses_nothing),
        cmocka_unit_test(quiet_bound_is_the_countdown),
        cmocka_unit_test(cu_data_receive_and_faults),
        cmocka_unit_test(version4_completion_before_bytes_land),
        cmocka_unit_test(version5_completion_after_bytes_land),
        cmocka_unit_test(model_reads_see_pending_writes),
        cmocka_unit_test(gemm_completes_at_issue_drain_waits),
        cmocka_unit_test(cu_counters_count_queued_time),
        cmocka_unit_test(node_drain_bursts_acked_by_vector_core),
        cmocka_unit_test(peer_vdrain_vec0_to_vec1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
