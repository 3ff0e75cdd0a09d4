/* Unit tests of sim/models/matmul_cluster: the compiler's real matmul cases
 * replayed end to end on two cluster instances against expected_output.bin;
 * mm_silu's node DRAINs checked by delivering their bursts to the vector-core
 * model and running the SiLU epilogue rounds to the case's expected bytes;
 * ACC24 per-block rounding, chaining, cycles and every fault on hand-built
 * payloads whose expected values are worked out in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_main.h"

#include "json.h"
#include "test_files.h"

#include "artifact.h"
#include "dram.h"
#include "manifest.h"
#include "matmul_cluster.h"
#include "mxfp7.h"
#include "vector_core.h"

#define CASE_DIR SN_ARTIFACTS_DIR "/compiler/"
#define DRAM_SIZE (16u << 20) /* DESIGN §6 default */


/* ---- payload encoders (isa/cluster.py field table, sysnode-facts §3.3) ---- */

static sn_payload fill(uint64_t addr, unsigned n, unsigned sel, unsigned fbank, unsigned eoff)
{
    sn_payload p = {{0}};
    sn_mg_set_op(&p, 1);
    sn_mg_set_addr(&p, addr);
    sn_mg_set_n(&p, n);
    sn_mg_set_sel(&p, sel);
    sn_mg_set_fbank(&p, fbank);
    sn_mg_set_eoff(&p, eoff);
    return p;
}

static sn_payload gemm(unsigned gm, unsigned gn, unsigned nk, unsigned acc)
{
    sn_payload p = {{0}};
    sn_mg_set_op(&p, 2);
    sn_mg_set_acc(&p, acc);
    sn_mg_set_gm(&p, gm);
    sn_mg_set_gn(&p, gn);
    sn_mg_set_nk(&p, nk);
    return p;
}

static sn_payload drain(uint64_t addr, unsigned n)
{
    sn_payload p = {{0}};
    sn_mg_set_op(&p, 3);
    sn_mg_set_addr(&p, addr);
    sn_mg_set_n(&p, n);
    return p;
}

typedef struct fix {
    sn_dram dram;
    sn_mem_port port;
    sn_matmul_cluster *mc[2];
} fix;

static int setup(void **state)
{
    fix *f = calloc(1, sizeof *f);
    assert_int_equal(sn_dram_init(&f->dram, DRAM_SIZE), SN_OK);
    f->port = sn_dram_port(&f->dram);
    for (int i = 0; i < 2; i++) {
        f->mc[i] = malloc(sizeof *f->mc[i]);
        sn_mc_reset(f->mc[i]);
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fix *f = *state;
    sn_dram_free(&f->dram);
    free(f->mc[0]);
    free(f->mc[1]);
    free(f);
    return 0;
}

static sn_mc_result exec(fix *f, int which, sn_payload p)
{
    return sn_mc_execute(f->mc[which], &p, &f->port);
}

/* Which cluster a kick targets: (1,1) -> 0, (2,1) -> 1, else -1 (a vector
 * core; DESIGN §6 mesh). */
static int cluster_of(unsigned x, unsigned y)
{
    return y == 1 && (x == 1 || x == 2) ? (int)x - 1 : -1;
}

typedef struct case_data {
    sn_manifest m;
    sn_program p;
} case_data;

/* Loads a case and writes its MXFP7 replacement uploads into DRAM. */
static void load_case(fix *f, case_data *c, const char *name)
{
    char dir[512];
    snprintf(dir, sizeof dir, CASE_DIR "%s", name);
    sn_error e = {0};
    assert_int_equal(sn_manifest_load(&c->m, dir, &e), SN_OK);
    assert_int_equal(sn_manifest_read_data(&c->m, &e), SN_OK);
    assert_int_equal(sn_program_load_case(&c->p, dir, &e), SN_OK);
    for (size_t i = 0; i < c->m.upload_count; i++) {
        char path[600];
        size_t len;
        snprintf(path, sizeof path, "%s/mxfp7_%s", dir, c->m.uploads[i].file + strlen("upload_"));
        uint8_t *img = slurp(path, &len);
        assert_int_equal(len, c->m.uploads[i].nbytes);
        assert_int_equal(sn_dram_write(&f->dram, c->m.uploads[i].addr, img, len), SN_OK);
        free(img);
    }
}

static void free_case(case_data *c)
{
    sn_program_free(&c->p);
    sn_manifest_free(&c->m);
}

static void expect_outputs(fix *f, const case_data *c)
{
    for (size_t i = 0; i < c->m.expected_count; i++) {
        const sn_region *r = &c->m.expected[i];
        uint8_t *got = malloc(r->nbytes);
        assert_int_equal(sn_dram_read(&f->dram, r->addr, got, r->nbytes), SN_OK);
        assert_memory_equal(got, r->data, r->nbytes);
        free(got);
    }
}

/* Per-cluster totals of one replay. */
typedef struct tally {
    uint64_t cycles[2];
    uint32_t payloads[2];
} tally;

/* Executes every cluster payload of round r in kick order. Node DRAIN
 * bursts go to vcs[] (indexed by dst_y: (1,0) -> 0, (1,2) -> 1) when given;
 * acks[] counts bursts asking for DATA_RECEIVED per receiving core. */
static void run_round(fix *f, const sn_program *p, size_t r, tally *t, sn_vector_core **vcs, uint32_t acks[2])
{
    const sn_table_round *rd = &p->rounds[r];
    for (uint32_t s = 0; s < rd->step_count; s++) {
        const sn_table_step *st = &p->steps[rd->step_first + s];
        if (st->op != SN_STEP_KICK)
            continue;
        int which = cluster_of(st->x, st->y);
        assert_true(which >= 0);
        for (uint32_t k = 0; k < st->kick.flits; k++) {
            sn_payload pl = sn_table_row_payload(&p->payloads[rd->payload_first + st->kick.first_slot + k]);
            sn_mc_result res = exec(f, which, pl);
            assert_int_equal(res.fault, 0);
            assert_int_equal(res.mem_error, 0);
            t->cycles[which] += res.cycles;
            t->payloads[which]++;
            if (!res.node_drain)
                continue;
            assert_non_null(vcs);
            uint32_t n = (uint32_t)sn_mg_n(&pl);
            assert_int_equal(res.nbursts, (n + 7) / 8);
            sn_cu_burst b;
            for (uint32_t i = 0; i < res.nbursts; i++) {
                assert_int_equal(sn_mc_node_burst(f->mc[which], i, &b), 0);
                assert_int_equal(b.dst_x, 1);
                assert_true(b.dst_y == 0 || b.dst_y == 2);
                assert_int_equal(b.buf, 0);
                assert_int_equal(b.ack_x, 0);
                assert_int_equal(b.ack_y, 0);
                assert_int_equal(b.ngranules, i + 1 < res.nbursts ? 8 : n - 8 * i);
                assert_int_equal(b.offset, 8 * i); /* addr 0: L1 word 0 */
                assert_int_equal(sn_vc_l1_write(vcs[b.dst_y / 2], b.offset, &b.bytes[0][0], b.ngranules), 0);
                if (b.flags & 1)
                    acks[b.dst_y / 2]++;
            }
            assert_int_equal(sn_mc_node_burst(f->mc[which], res.nbursts, &b), -1);
        }
    }
}

/* Replays every round of the case on the clusters, checks its expected
 * bytes, and returns the cycles and payloads of each cluster. */
static tally replay_case(void **state, const char *name)
{
    fix *f = *state;
    case_data c;
    load_case(f, &c, name);
    tally t = {{0}, {0}};
    for (size_t r = 0; r < c.p.round_count; r++)
        run_round(f, &c.p, r, &t, NULL, NULL);
    expect_outputs(f, &c);
    free_case(&c);
    return t;
}

static void replay_matmul(void **state, const char *name, uint32_t want_payloads)
{
    tally t = replay_case(state, name);
    assert_int_equal(t.payloads[0] + t.payloads[1], want_payloads);
}

/* mm4x32: FILL 1 entry = flits(128) = 8 cycles, twice; GEMM
 * ceil(4*32*4/512) = 1; DRAIN 1 sub-tile = flits(16) = 1 (§7). */
static void test_replay_mm4x32(void **state)
{
    tally t = replay_case(state, "mm4x32"); /* one round */
    assert_int_equal(t.cycles[0], 8 + 8 + 1 + 1);
    assert_int_equal(t.payloads[1], 0);
}

static void test_replay_matmul_8x64x8(void **state)
{
    replay_matmul(state, "matmul_8x64x8", 4);
}

/* Per cluster: 2 instances x (4 FILLs of 16 entries = 128 cycles each,
 * 2 GEMMs 8x8x2 = ceil(32*64*32/512) = 128 each, DRAIN of 64 = 64). */
static void test_replay_matmul_64x128x64(void **state)
{
    tally t = replay_case(state, "matmul_64x128x64"); /* one round */
    assert_int_equal(t.cycles[0], 2 * (4 * 128 + 2 * 128 + 64));
    assert_int_equal(t.cycles[1], t.cycles[0]);
}

static void test_replay_matmul_512x256x512(void **state)
{
    replay_matmul(state, "matmul_512x256x512", 3328);
}

/* Round 0 on the clusters; the node DRAINs' bursts land in two vector-core
 * models, whose rounds 1-2 (the SiLU epilogue) must then write the case's
 * expected bytes. Bursts asking for an ack match the round's awaits on (1,0)
 * and (1,2): 8 each = ceil(64/8). */
static void test_mm_silu_node_drain(void **state)
{
    fix *f = *state;
    case_data c;
    load_case(f, &c, "mm_silu_32x128x64");
    sn_vector_core *vcs[2];
    for (int i = 0; i < 2; i++) {
        vcs[i] = malloc(sizeof *vcs[i]);
        sn_vc_reset(vcs[i]);
    }
    uint32_t acks[2] = {0, 0};
    tally t = {{0}, {0}};
    run_round(f, &c.p, 0, &t, vcs, acks);
    const sn_table_round *rd = &c.p.rounds[0];
    for (uint32_t s = 0; s < rd->step_count; s++) {
        const sn_table_step *st = &c.p.steps[rd->step_first + s];
        if (st->op == SN_STEP_AWAIT && st->x == 1 && st->y != 1)
            assert_int_equal(acks[st->y / 2], st->await.completions);
    }
    assert_int_equal(acks[0], 8);
    assert_int_equal(acks[1], 8);
    for (size_t r = 1; r < c.p.round_count; r++) {
        rd = &c.p.rounds[r];
        for (uint32_t s = 0; s < rd->step_count; s++) {
            const sn_table_step *st = &c.p.steps[rd->step_first + s];
            if (st->op != SN_STEP_KICK)
                continue;
            assert_true(st->x == 1 && (st->y == 0 || st->y == 2));
            for (uint32_t k = 0; k < st->kick.flits; k++) {
                sn_payload pl = sn_table_row_payload(&c.p.payloads[rd->payload_first + st->kick.first_slot + k]);
                sn_vc_result res = sn_vc_execute(vcs[st->y / 2], &pl, &f->port, NULL);
                assert_int_equal(res.fault, 0);
                assert_int_equal(res.mem_error, 0);
            }
        }
    }
    expect_outputs(f, &c);
    free(vcs[0]);
    free(vcs[1]);
    free_case(&c);
}

/* ---- hand-built operands ---- */

/* Writes an entry with lane 0 holding q at k = 0 and scale (es, m8), all
 * other q zero and the other lanes' scales 0xA0, at DRAM addr. */
static void put_entry(fix *f, uint64_t addr, int q0, int es, int m8, unsigned layout)
{
    int8_t q[4 * 32] = {0};
    uint8_t sc[4] = {sn_mx_scale_byte(es, m8), 0xA0, 0xA0, 0xA0};
    q[0] = (int8_t)q0;
    uint8_t e[128];
    sn_mx_pack_entry(q, sc, layout, e);
    assert_int_equal(sn_dram_write(&f->dram, addr, e, sizeof e), SN_OK);
}

static uint16_t read_h(fix *f, uint64_t addr)
{
    uint8_t b[2];
    assert_int_equal(sn_dram_read(&f->dram, addr, b, 2), SN_OK);
    return (uint16_t)(b[0] | b[1] << 8);
}

/* nk = 255 blocks on element (0,0): block 0 gives 1*1 * 2^14 * 64/64 =
 * 16384; blocks 1..254 each 1*1 * 2^-3 = 0.125, half an ACC24 ulp of 16384
 * (2^14 / 2^16 = 0.25), so every per-block rounding ties to the even 16384.
 * Rounded once at the end it would be 16415.75 -> FP16 16416 (0x7402);
 * per block it stays 16384 (0x7400). */
static void test_acc24_per_block(void **state)
{
    fix *f = *state;
    enum { A = 0x10000, B = 0x20000, C = 0x30000, NK = 255 };
    for (unsigned b = 0; b < NK; b++) {
        put_entry(f, A + b * 128, 1, b ? -2 : 7, 8, 0);
        put_entry(f, B + b * 128, 1, b ? -1 : 7, 8, 1);
    }
    assert_int_equal(exec(f, 0, fill(A, NK, 0, 0, 0)).fault, 0);
    assert_int_equal(exec(f, 0, fill(B, NK, 1, 0, 0)).fault, 0);
    sn_mc_result g = exec(f, 0, gemm(1, 1, NK, 0));
    assert_int_equal(g.fault, 0);
    assert_int_equal(g.cycles, (4 * NK * 32 * 4 + 511) / 512);
    assert_int_equal(exec(f, 0, drain(C, 1)).fault, 0);
    assert_int_equal(read_h(f, C), 0x7400);
    for (unsigned e = 1; e < 16; e++)
        assert_int_equal(read_h(f, C + 2 * e), 0);
}

/* gemm(1, 1, 1, acc) with A from entry aoff of bank 0 and B from entry
 * boff of bank 1, as test_chain_and_saturate places them. */
static sn_payload gemm_1x1_at(unsigned acc, unsigned aoff, unsigned boff)
{
    sn_payload g = gemm(1, 1, 1, acc);
    sn_mg_set_aoff(&g, aoff);
    sn_mg_set_bbank(&g, 1);
    sn_mg_set_boff(&g, boff);
    return g;
}

/* Chaining: GEMM 1 leaves 16384 (as above, nk 1); a chained GEMM over
 * block entries giving 0.125 adds and rounds once more: 16384.125 ties to
 * 16384. 3 chained GEMMs of 0.125 each stay 16384 (0x7400); an unchained
 * one replaces the tile with 0.125 (0x3000). Saturation: 2^16 * 63*63 per
 * block clamps to 65504 (0x7BFF) on DRAIN. */
static void test_chain_and_saturate(void **state)
{
    fix *f = *state;
    put_entry(f, 0x1000, 1, 7, 8, 0);
    put_entry(f, 0x2000, 1, 7, 8, 1);
    put_entry(f, 0x1080, 1, -2, 8, 0);
    put_entry(f, 0x2080, 1, -1, 8, 1);
    put_entry(f, 0x1100, -63, 8, 8, 0);
    put_entry(f, 0x2100, 63, 8, 8, 1);
    assert_int_equal(exec(f, 0, fill(0x1000, 3, 0, 0, 0)).fault, 0);
    assert_int_equal(exec(f, 0, fill(0x2000, 3, 1, 1, 5)).fault, 0);
    assert_int_equal(exec(f, 0, gemm_1x1_at(0, 0, 5)).fault, 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(exec(f, 0, gemm_1x1_at(1, 1, 6)).fault, 0);
    assert_int_equal(exec(f, 0, drain(0x3000, 1)).saturated, 0);
    assert_int_equal(read_h(f, 0x3000), 0x7400);
    assert_int_equal(exec(f, 0, gemm_1x1_at(0, 1, 6)).fault, 0);
    assert_int_equal(exec(f, 0, drain(0x3000, 1)).fault, 0);
    assert_int_equal(read_h(f, 0x3000), 0x3000);
    assert_int_equal(exec(f, 0, gemm_1x1_at(0, 2, 7)).fault, 0);
    sn_mc_result d = exec(f, 0, drain(0x3000, 1));
    assert_int_equal(d.saturated, 1);
    assert_int_equal(read_h(f, 0x3000), 0xFBFF); /* -63*63 * 2^16 -> -65504 */
}

/* Every refusal of the compiler's model, and a DRAM access outside memory. */
static void test_faults(void **state)
{
    fix *f = *state;
    sn_payload bad = {{0}};
    sn_mg_set_op(&bad, 7);
    sn_mc_result r = exec(f, 0, bad);
    assert_int_equal(r.fault, SN_MC_FAULT_OPCODE);
    assert_int_equal(r.cycles, 1);
    assert_int_equal(exec(f, 0, drain(0x3000, 1)).fault, SN_MC_FAULT_NO_TILE);
    assert_int_equal(exec(f, 0, fill(0x1000, 2, 0, 1, 255)).fault, SN_MC_FAULT_FILL_RANGE);
    assert_int_equal(exec(f, 0, fill(0x1000, 1, 0, 1, 255)).fault, 0);
    assert_int_equal(exec(f, 0, gemm(0, 1, 1, 0)).fault, SN_MC_FAULT_GEMM_RANGE);
    assert_int_equal(exec(f, 0, gemm(65, 64, 1, 0)).fault, SN_MC_FAULT_GEMM_RANGE); /* > 4096 sub-tiles */
    sn_payload past = gemm(2, 1, 1, 0);
    sn_mg_set_abank(&past, 1);
    sn_mg_set_aoff(&past, 255); /* A entries 511..512 */
    assert_int_equal(exec(f, 0, past).fault, SN_MC_FAULT_GEMM_RANGE);
    assert_int_equal(exec(f, 0, gemm(2, 2, 2, 0)).fault, 0);
    /* The sweep reads A 0..3 and B 0..3: a FILL there is the hazard, one
     * in the other bank is not; a DRAIN ends the sweep. */
    assert_int_equal(exec(f, 0, fill(0x1000, 1, 1, 0, 3)).fault, SN_MC_FAULT_HAZARD);
    assert_int_equal(exec(f, 0, fill(0x1000, 4, 0, 1, 0)).fault, 0);
    assert_int_equal(exec(f, 0, gemm(1, 2, 2, 1)).fault, SN_MC_FAULT_CHAIN);
    assert_int_equal(exec(f, 0, drain(0x3000, 5)).fault, SN_MC_FAULT_DRAIN_RANGE);
    r = exec(f, 0, drain(DRAM_SIZE - 32, 4));
    assert_int_equal(r.mem_error, 1);
    assert_int_equal(r.bad_addr, DRAM_SIZE - 32);
    assert_int_equal(exec(f, 0, drain(0x3000, 4)).cycles, 4);
    assert_int_equal(exec(f, 0, fill(0x1000, 1, 1, 0, 3)).fault, 0);
    r = exec(f, 0, fill(DRAM_SIZE - 64, 1, 0, 0, 0));
    assert_int_equal(r.mem_error, 1);
    assert_int_equal(r.bad_addr, DRAM_SIZE - 64);
    sn_cu_burst b;
    assert_int_equal(sn_mc_node_burst(f->mc[0], 0, &b), -1);
}

/* Every test between its own setup and teardown. */
#define FIXTURE_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
SN_TEST_MAIN(NULL, NULL, FIXTURE_TEST(test_replay_mm4x32), FIXTURE_TEST(test_replay_matmul_8x64x8),
             FIXTURE_TEST(test_replay_matmul_64x128x64), FIXTURE_TEST(test_replay_matmul_512x256x512),
             FIXTURE_TEST(test_mm_silu_node_drain), FIXTURE_TEST(test_acc24_per_block),
             FIXTURE_TEST(test_chain_and_saturate), FIXTURE_TEST(test_faults))
