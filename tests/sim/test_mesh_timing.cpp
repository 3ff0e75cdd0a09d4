/* Calibration of the simulated units through the mesh itself (unit shells,
 * DPI, timing models, router, mailbox) against KohakuTPU's unit RTL as
 * docs/reference/unit-timing.md records it: the five compiler cases, fed as
 * the RTL was (a stand-in mailbox sending the table's GOs 26 cycles apart,
 * unit-timing §9; a round's first GO 26 cycles after the last completion of
 * the round before reached the mailbox), and each unit's busy counter read
 * back with a CU_CTRL read of CU_COUNTERS (unit-timing §1) against the RTL's
 * (issue 24's table), within 2%. The kernels' cycle counts (CU_DBG) are
 * unit-timing §2.2's. The mesh has the default router FIFOs (512).
 *
 * The same cases fed at the card core's floor (firmware/bench/README.md)
 * show which busy figures follow the feed (docs/DESIGN.md §6, "Busy cycles
 * and the feed"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

extern "C" {
#include <cmocka.h>

#include "artifact.h"
#include "sysnode/table.h"
}

#include "mesh_harness.h"

#define RTL_GO_GAP 26   /* the RTL bench's feed, unit-timing §9 */
#define FLOOR_GO_GAP 36 /* the floor image's kick loop at L = 0, firmware/bench/README.md */
#define CASE_DRAM (16u << 20) /* DESIGN §6 default: holds every case */

struct unit_at {
    unsigned x, y;
};
/* mat0, mat1, vec0, vec1 (DESIGN §6) */
static const unit_at UNITS[4] = {{1, 1}, {2, 1}, {1, 0}, {1, 2}};

struct case_busy {
    const char *name;
    uint64_t busy[4]; /* RTL busy cycles, issue 24 (unit-timing §8); 0: unit unused */
    uint32_t kernel;  /* the last RUN's CU_DBG cycles, unit-timing §2.2; 0: none */
    bool fill_order;  /* its clusters' busy follows the order their first FILLs reach the memory node */
};

static const case_busy CASES[] = {
    {"vadd128", {0, 0, 582, 0}, 477, false},
    {"matmul_8x64x8", {757, 0, 0, 0}, 0, false},
    {"matmul_64x128x64", {3789, 3837, 0, 0}, 0, true},
    {"mm_silu_32x128x64", {1892, 1940, 2536, 2536}, 2251, true},
    {"matmul_512x256x512", {454748, 454892, 0, 0}, 0, false},
};

/* Ticks m until cycle `until`, popping every completion that arrives;
 * returns the completions popped and sets *last_seen to the cycle the last
 * one was first seen queued. */
static unsigned idle_until(mesh &m, uint64_t until, uint64_t *last_seen)
{
    unsigned popped = 0;
    while (m.cycle < until) {
        if (m.queued()) {
            *last_seen = m.cycle;
            m.pop();
            popped++;
        } else {
            m.tick();
        }
    }
    return popped;
}

/* Replays case `name` into m with GOs go_gap cycles apart, a round's first
 * GO go_gap after the last completion of the round before, until every
 * completion the round awaits is popped. */
static void replay(mesh &m, const char *name, unsigned go_gap)
{
    char dir[512];
    snprintf(dir, sizeof dir, SN_ARTIFACTS_DIR "/compiler/%s", name);
    sn_program prog;
    sn_error e = {};
    assert_int_equal(sn_program_load_case(&prog, dir, &e), SN_OK);
    uint64_t next_go = 100, last_seen = 0;
    for (size_t r = 0; r < prog.round_count; r++) {
        const sn_table_round *rd = &prog.rounds[r];
        unsigned want = 0, got = 0, per_node[16][16] = {};
        for (uint32_t s = 0; s < rd->step_count; s++) {
            const sn_table_step *st = &prog.steps[rd->step_first + s];
            if (st->op == SN_STEP_AWAIT)
                per_node[st->x][st->y] = std::max(per_node[st->x][st->y], st->await.completions);
        }
        for (auto &row : per_node)
            for (unsigned n : row)
                want += n;
        for (uint32_t s = 0; s < rd->step_count; s++) {
            const sn_table_step *st = &prog.steps[rd->step_first + s];
            if (st->op != SN_STEP_KICK)
                continue;
            for (uint32_t k = 0; k < st->kick.flits; k++) {
                got += idle_until(m, next_go - 6, &last_seen); /* send's 6 writes end with GO */
                m.send(st->x, st->y,
                       sn_table_row_payload(&prog.payloads[rd->payload_first + st->kick.first_slot + k]));
                next_go = m.cycle + go_gap;
            }
        }
        for (uint64_t guard = 0; got < want; guard++) {
            assert_true(guard < 2000000);
            got += idle_until(m, m.cycle + 1, &last_seen);
        }
        assert_int_equal(got, want);
        next_go = std::max(next_go, last_seen + go_gap);
    }
    sn_program_free(&prog);
}

/* Unit u's busy counter (CU_COUNTERS[31:0]) in m, printed against the RTL's
 * figure; its retired count must be one per payload. */
static uint64_t busy_of(mesh &m, const case_busy &c, unsigned u, const char *feed)
{
    uint64_t counters = m.ctrl_read(UNITS[u].x, UNITS[u].y, 2);
    uint64_t busy = counters & 0xFFFFFFFFu;
    printf("%s (%u,%u), %s: busy %llu, RTL %llu (%+.2f%%)\n", c.name, UNITS[u].x, UNITS[u].y, feed,
           (unsigned long long)busy, (unsigned long long)c.busy[u],
           100.0 * ((double)busy - (double)c.busy[u]) / (double)c.busy[u]);
    assert_int_equal(counters >> 32, m.units.unit[u].spans.size());
    return busy;
}

static void assert_within_2pct(uint64_t busy, uint64_t rtl)
{
    assert_true(busy >= rtl - rtl / 50 && busy <= rtl + rtl / 50);
}

static void rtl_feed(const case_busy &c)
{
    mesh m(4, CASE_DRAM);
    replay(m, c.name, RTL_GO_GAP);
    for (unsigned u = 0; u < 4; u++) {
        if (!c.busy[u])
            continue;
        assert_within_2pct(busy_of(m, c, u, "RTL feed"), c.busy[u]);
        if (c.kernel && u >= 2)
            assert_int_equal(m.ctrl_read(UNITS[u].x, UNITS[u].y, 3) & 0xFFFFFFFFu, c.kernel);
    }
}

// At the floor's spacing, a unit whose memory-node reads meet no other
// unit's keeps the RTL's busy whatever the feed (its payloads queue or stand
// alone as they did there): vadd128's vector core, matmul_8x64x8's cluster,
// mm_silu's vector cores (L1 and CU_DATA only). matmul_512x256x512's
// clusters stay within 2% too: over 1024 FILLs each, the order their streams
// reach the node in moves busy by under 1%.
static void floor_feed_alone(void **)
{
    for (const case_busy &c : CASES) {
        mesh m(4, CASE_DRAM);
        replay(m, c.name, FLOOR_GO_GAP);
        for (unsigned u = c.fill_order ? 2 : 0; u < 4; u++)
            if (c.busy[u])
                assert_within_2pct(busy_of(m, c, u, "floor feed"), c.busy[u]);
    }
}

// matmul_64x128x64 and mm_silu open with 7 payloads to (1,1), FILL FILL GEMM
// FILL FILL GEMM DRAIN, then the same to (2,1). The memory node serves the
// FILL streams one at a time in the order they reach it (unit-timing §4.2,
// tap at accept + 6 for both clusters, §3.2). Fed as the RTL was, (2,1)'s
// first FILL is accepted before (1,1)'s second, so it goes first and (1,1)
// waits a whole stream; at the floor's spacing it is accepted after, and
// (1,1) does not. This order, not a unit rule, is what moves their busy
// figures off the RTL's under the card's feed.
static void fill_order_follows_the_feed(void **)
{
    for (const case_busy &c : CASES) {
        if (!c.fill_order)
            continue;
        for (unsigned gap : {RTL_GO_GAP, FLOOR_GO_GAP}) {
            mesh m(4, CASE_DRAM);
            replay(m, c.name, gap);
            const std::vector<sn_busy_span> &a = m.units.unit[0].spans, &b = m.units.unit[1].spans;
            assert_true(a.size() >= 2 && !b.empty());
            /* (1,1)'s first FILL alone: 23 + 14n for n = 16 (§6); the next is accepted at completion - 1 */
            assert_int_equal(a[1].start - a[0].arrive, 23 + 14 * 16 - 1);
            if (gap == RTL_GO_GAP)
                assert_true(b[0].start < a[1].start);
            else
                assert_true(b[0].start > a[1].start);
            busy_of(m, c, 0, gap == RTL_GO_GAP ? "RTL feed" : "floor feed");
            busy_of(m, c, 1, gap == RTL_GO_GAP ? "RTL feed" : "floor feed");
        }
    }
}

static sn_payload mg_payload(unsigned op, unsigned n, int node)
{
    sn_payload p{};
    sn_mg_set_op(&p, op);
    sn_mg_set_n(&p, n);
    sn_mg_set_gm(&p, op == SN_MG_OP_GEMM ? 8 : 0);
    sn_mg_set_gn(&p, op == SN_MG_OP_GEMM ? 8 : 0);
    sn_mg_set_nk(&p, op == SN_MG_OP_GEMM ? 2 : 0);
    sn_mg_set_addr(&p, node ? 0 : 0x40000);
    if (node) { /* to vec0 (1,0), buffer 0 at granule addr[20:5] = 0, no DATA_RECEIVED */
        sn_mg_set_dnode(&p, 1);
        sn_mg_set_dst_x(&p, 1);
        sn_mg_set_dst_y(&p, 0);
    }
    return p;
}

// A node DRAIN is timed as a DRAM one (unit-timing §3.2, mg_drain): 64
// sub-tiles right behind a GEMM (8,8,2) in 260 (§6), after the sweep in
// 27 + 10 * 8, its bursts 10 cycles apart; to DRAM the same.
static void node_drain_as_dram_drain(void **)
{
    mesh m(4);
    m.send(1, 1, mg_payload(SN_MG_OP_GEMM, 0, 0));
    m.send(1, 1, mg_payload(SN_MG_OP_DRAIN, 64, 1));
    m.take(2);
    m.run(500);
    m.send(1, 1, mg_payload(SN_MG_OP_DRAIN, 64, 1));
    m.take(1);
    m.run(500);
    m.send(1, 1, mg_payload(SN_MG_OP_DRAIN, 64, 0));
    m.take(1);
    const std::vector<sn_busy_span> &sp = m.units.unit[0].spans;
    assert_int_equal(sp.size(), 4);
    assert_int_equal(sp[1].end - std::max(sp[1].arrive, sp[0].end), 260);
    assert_int_equal(sp[2].end - sp[2].arrive, 27 + 10 * 8);
    assert_int_equal(sp[3].end - sp[3].arrive, 27 + 10 * 8);
}

// DRAM latency L per memory transaction (unit-timing §4.5), at L = 30:
// "VFILL n; VBAR; VHALT" takes K = 40 + (12 + L)(n - 1) + L (§2.4, CU_DBG)
// and a FILL of n entries alone 23 + (14 + L) n (§3.2).
static void dram_latency_per_transaction(void **)
{
    const unsigned L = 30, n = 8;
    mesh m(4, 1u << 20, L);
    m.send(1, 0, sn_vc_desc_payload(0, 0, 0x1000));
    m.send(1, 0, sn_vc_desc_payload(0, 1, 32u << 16 | n));
    m.send(1, 0, sn_vc_imem_payload(0, SN_K_VFILL << 27));
    m.send(1, 0, sn_vc_imem_payload(1, SN_K_VBAR << 27));
    m.send(1, 0, sn_vc_imem_payload(2, SN_K_VHALT << 27));
    m.send(1, 0, sn_vc_run_payload(0));
    m.take(6);
    assert_int_equal(m.ctrl_read(1, 0, 3) & 0xFFFFFFFFu, 40 + (12 + L) * (n - 1) + L);
    sn_payload fill = mg_payload(SN_MG_OP_FILL, 16, 0);
    sn_mg_set_preq(&fill, 1);
    m.send(1, 1, fill);
    m.take(1);
    const sn_busy_span &sp = m.units.unit[0].spans.back();
    assert_int_equal(sp.end - sp.arrive, 23 + (14 + L) * 16);
}

static void vadd128(void **) { rtl_feed(CASES[0]); }
static void matmul_8x64x8(void **) { rtl_feed(CASES[1]); }
static void matmul_64x128x64(void **) { rtl_feed(CASES[2]); }
static void mm_silu_32x128x64(void **) { rtl_feed(CASES[3]); }
static void matmul_512x256x512(void **) { rtl_feed(CASES[4]); }

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vadd128),           cmocka_unit_test(matmul_8x64x8),
        cmocka_unit_test(matmul_64x128x64),  cmocka_unit_test(mm_silu_32x128x64),
        cmocka_unit_test(matmul_512x256x512), cmocka_unit_test(node_drain_as_dram_drain),
        cmocka_unit_test(dram_latency_per_transaction), cmocka_unit_test(floor_feed_alone),
        cmocka_unit_test(fill_order_follows_the_feed),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
