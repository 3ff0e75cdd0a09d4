/* Calibration of the units' timing models (sim/models vc_timing, mg_timing,
 * mem_node) against KohakuTPU's unit RTL as docs/reference/unit-timing.md
 * records it (KohakuTPU@7703ee80 under Verilator):
 *  - single-payload patterns of its §9 plans, each against the closed form
 *    or figure the sheet gives (§2, §3, §6), at L = 0 and, for the memory
 *    patterns, at L = 30 (§4.5);
 *  - the five compiler cases' per-unit busy cycles against the RTL's (issue
 *    24's table, kept in CASES below), within 2%, and the two kernels' cycle
 *    counts of §2.2.
 * The RTL was fed by a stand-in mailbox, so a unit's busy counter, which
 * counts queued time, depends on when payloads arrived. This test is that
 * stand-in: GOs in table order 26 cycles apart (§9), each at its unit's port
 * 3 cycles later (§5), a round's first GO 26 cycles after the last
 * completion of the round before reached the mailbox (3 after its tap). The
 * test then applies the port rules itself (§1, §2.1, §3.1: accept =
 * max(tap + 1, previous completion - 1); busy = the union of
 * [tap + 1, completion - 1]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_main.h"

#include "artifact.h"
#include "dram.h"
#include "mem_node.h"
#include "mg_timing.h"
#include "sysnode/table.h"
#include "vc_timing.h"
#include "vector_core.h"

#define CASE_DIR SN_ARTIFACTS_DIR "/compiler/"
#define DRAM_SIZE (16u << 20)
#define GO_GAP 26     /* §9: 26-cycle GO gap */
#define GO_TO_PORT 3  /* §5: mailbox GO to the unit port */
#define NUNITS 4      /* DESIGN §6 mesh: mat0 (1,1), mat1 (2,1), vec0 (1,0), vec1 (1,2) */
#define L_BENCH 30    /* §4.5: the latency the facts were re-measured at */

/* ---- the stand-in bench: four units behind one memory node ---- */

typedef struct bench {
    sn_dram dram;
    sn_mem_port port;
    sn_mem_node mem;
    sn_vector_core *vc[2];
    sn_mg_timing mg[2];
    uint64_t prev_o[NUNITS], covered[NUNITS], busy[NUNITS];
    uint32_t last_k[NUNITS]; /* the last RUN's kernel cycles (CU_DBG) */
} bench;

static void bench_init(bench *b, unsigned latency)
{
    memset(b, 0, sizeof *b);
    assert_int_equal(sn_dram_init(&b->dram, DRAM_SIZE), SN_OK);
    b->port = sn_dram_port(&b->dram);
    sn_mem_node_reset(&b->mem, latency);
    for (int i = 0; i < 2; i++) {
        b->vc[i] = malloc(sizeof *b->vc[i]);
        assert_non_null(b->vc[i]);
        sn_vc_reset(b->vc[i]);
        sn_mg_timing_reset(&b->mg[i]);
    }
}

static void bench_free(bench *b)
{
    free(b->vc[0]);
    free(b->vc[1]);
    sn_dram_free(&b->dram);
}

static unsigned unit_of(unsigned x, unsigned y)
{
    if (y == 1)
        return x == 1 ? 0 : 1;
    return y == 0 ? 2 : 3;
}

/* The completion tap of payload p accepted by unit u at cycle acc. */
static uint64_t serve(bench *b, unsigned u, const sn_payload *p, uint64_t acc)
{
    if (u < 2)
        return sn_mg_timing_payload(&b->mg[u], p, 0, acc, &b->mem).complete;
    sn_vector_core *vc = b->vc[u - 2];
    if (sn_vc_run_op(p) != SN_VC_OP_RUN) {
        sn_vc_execute(vc, p, &b->port, NULL);
        return acc + 4; /* §2.1: IMEM, DESC */
    }
    sn_vc_timing t;
    sn_vc_timing_start(&t, acc, &b->mem);
    sn_vc_result r = sn_vc_execute(vc, p, &b->port, &t);
    assert_int_equal(r.fault, 0);
    uint64_t h = sn_vc_timing_halt(&t);
    b->last_k[u] = (uint32_t)(h - (acc + 2) + 1); /* §2.1 */
    return h + 4;
}

typedef struct job {
    unsigned unit;
    uint64_t tap; /* at the unit port */
    sn_payload p;
    uint64_t acc, o; /* filled by run_jobs */
} job;

/* Serves every job, in each unit in order, the unit with the earliest
 * accept first (so the memory node sees requests in time order). Returns
 * the last completion tap. */
static uint64_t run_jobs(bench *b, job *jobs, size_t n)
{
    size_t next[NUNITS] = {0};
    uint64_t last = 0;
    for (;;) {
        int pick = -1;
        size_t pick_j = 0;
        uint64_t pick_acc = UINT64_MAX;
        for (unsigned u = 0; u < NUNITS; u++) {
            size_t j = next[u];
            while (j < n && jobs[j].unit != u)
                j++;
            if (j == n)
                continue;
            uint64_t acc = jobs[j].tap + 1;
            if (b->prev_o[u] && b->prev_o[u] - 1 > acc)
                acc = b->prev_o[u] - 1;
            if (acc < pick_acc) {
                pick = (int)u;
                pick_j = j;
                pick_acc = acc;
            }
        }
        if (pick < 0)
            return last;
        job *jb = &jobs[pick_j];
        unsigned u = (unsigned)pick;
        jb->acc = pick_acc;
        jb->o = serve(b, u, &jb->p, pick_acc);
        uint64_t from = jb->tap + 1 > b->covered[u] ? jb->tap + 1 : b->covered[u];
        if (jb->o > from)
            b->busy[u] += jb->o - from;
        b->covered[u] = jb->o;
        b->prev_o[u] = jb->o;
        last = jb->o > last ? jb->o : last;
        next[u] = pick_j + 1;
    }
}

/* Service of job j within its unit: o - max(tap, previous completion) (§0). */
static uint64_t service(const job *jobs, size_t j)
{
    uint64_t from = jobs[j].tap;
    for (size_t i = j; i-- > 0;)
        if (jobs[i].unit == jobs[j].unit) {
            if (jobs[i].o > from)
                from = jobs[i].o;
            break;
        }
    return jobs[j].o - from;
}

/* ---- kernel words (sysnode/words.h kword layouts) ---- */

static uint32_t alu(unsigned op, unsigned vd, unsigned va, unsigned vb, unsigned vc)
{
    return op << 27 | vd << 17 | va << 13 | vb << 9 | vc << 5;
}
static uint32_t mem_word(unsigned op, unsigned dtype, unsigned ad, unsigned vd)
{
    return op << 27 | dtype << 24 | ad << 21 | vd << 17;
}
#define W_VHALT (SN_K_VHALT << 27)
#define W_VBAR (SN_K_VBAR << 27)

/* Loads kernel words[0..n) and A0 = base 0x1000 with bound `entries`; then
 * one RUN 26 cycles after the last set-up payload. Returns the RUN's K. */
static uint32_t run_kernel(unsigned latency, const uint32_t *words, size_t n, unsigned entries)
{
    bench b;
    bench_init(&b, latency);
    job jobs[64];
    size_t nj = 0;
    uint64_t t = 0;
    jobs[nj++] = (job){2, t += GO_GAP, sn_vc_desc_payload(0, 0, 0x1000), 0, 0};
    jobs[nj++] = (job){2, t += GO_GAP, sn_vc_desc_payload(0, 1, 32u << 16 | entries), 0, 0};
    jobs[nj++] = (job){2, t += GO_GAP, sn_vc_desc_payload(1, 0, 0x8000), 0, 0};
    jobs[nj++] = (job){2, t += GO_GAP, sn_vc_desc_payload(1, 1, 32u << 16 | entries), 0, 0};
    for (size_t i = 0; i < n; i++)
        jobs[nj++] = (job){2, t += GO_GAP, sn_vc_imem_payload((unsigned)i, words[i]), 0, 0};
    jobs[nj++] = (job){2, t += GO_GAP, sn_vc_run_payload(0), 0, 0};
    run_jobs(&b, jobs, nj);
    assert_int_equal(service(jobs, nj - 1), b.last_k[2] + 6); /* §2.1: isolated RUN = K + 6 */
    uint32_t k = b.last_k[2];
    bench_free(&b);
    return k;
}

/* VSETI S1 = vl; VSETVL S1 (10 cycles, the prefix every VL test shares). */
static size_t set_vl(uint32_t *w, unsigned vl)
{
    w[0] = SN_K_VSETI << 27 | 1u << 17;
    w[1] = vl;
    w[2] = alu(SN_K_VSETVL, 0, 1, 0, 0);
    return 3;
}

/* ---- §9 vc_ctrl: IMEM and DESC, 5 cycles alone, 3 back to back (§2.1) ---- */
static void test_vc_ctrl(void **state)
{
    (void)state;
    for (int gap = 1; gap <= GO_GAP; gap += GO_GAP - 1) {
        bench b;
        bench_init(&b, 0);
        job jobs[16];
        for (unsigned i = 0; i < 16; i++)
            jobs[i] = (job){2, 10 + (uint64_t)gap * i,
                            i < 8 ? sn_vc_imem_payload(i, 0) : sn_vc_desc_payload(i & 7, 1, 0x10008), 0, 0};
        run_jobs(&b, jobs, 16);
        assert_int_equal(service(jobs, 0), 5);
        for (unsigned i = 1; i < 16; i++)
            assert_int_equal(service(jobs, i), gap == 1 ? 3 : 5);
        bench_free(&b);
    }
}

/* ---- §9 vc_base: set-up words and loops, K = sum of word costs - 1 (§2.2) ---- */
static void test_vc_base(void **state)
{
    (void)state;
    uint32_t w[16];
    w[0] = W_VHALT;
    assert_int_equal(run_kernel(0, w, 1, 1), 6 - 1);
    size_t n = set_vl(w, 128);
    w[n++] = alu(SN_K_VSETMODE, 0, 0, 0, 0);
    w[n++] = W_VBAR;
    w[n++] = W_VHALT;
    assert_int_equal(run_kernel(0, w, n, 1), 6 + 4 + 4 + 5 + 6 - 1);
    /* VLOOP S2 times over one VSETVL word: the loop-back costs nothing */
    n = 0;
    w[n++] = SN_K_VSETI << 27 | 2u << 17;
    w[n++] = 4;
    w[n++] = SN_K_VLOOP << 27 | 2u << 13 | 1u << 9;
    w[n++] = alu(SN_K_VSETVL, 0, 1, 0, 0);
    w[n++] = W_VHALT;
    w[n++] = 0;
    /* S1 must hold a legal VL: use VSETI S1 first */
    uint32_t v[16];
    size_t m = set_vl(v, 128);
    memcpy(v + m, w, n * sizeof w[0]);
    assert_int_equal(run_kernel(0, v, m + n - 1, 1), 6 + 4 + 6 + 4 + 4 * 4 + 6 - 1);
}

/* ---- §9 vc_alu_indep / vc_alu_dep: one op every nch + 5 / nch + 17 (§2.3) ---- */
static uint32_t alu_chain_of(unsigned op, unsigned vl, unsigned ops, int dependent)
{
    uint32_t w[32];
    size_t n = set_vl(w, vl);
    for (unsigned i = 0; i < ops; i++)
        w[n++] = dependent ? alu(op, 1, 1, 0, 0) : alu(op, 2 + i, 0, 0, 0);
    w[n++] = W_VHALT;
    return run_kernel(0, w, n, 1);
}

static uint32_t alu_chain(unsigned vl, unsigned ops, int dependent)
{
    return alu_chain_of(SN_K_VADD, vl, ops, dependent);
}

static void test_vc_alu(void **state)
{
    (void)state;
    static const unsigned vls[] = {16, 32, 64, 100, 128};
    for (size_t i = 0; i < sizeof vls / sizeof vls[0]; i++) {
        unsigned nch = (vls[i] + 15) / 16;
        assert_int_equal(alu_chain(vls[i], 8, 0) - alu_chain(vls[i], 7, 0), nch + 5);
        assert_int_equal(alu_chain(vls[i], 8, 1) - alu_chain(vls[i], 7, 1), nch + 17);
        /* one op before VHALT: VHALT waits for the pipe, last beat + 79,
         * where it would issue 5 after the last beat */
        assert_int_equal(alu_chain(vls[i], 1, 0), 10 + (5 + nch) + (79 - 5) + 6 - 1);
    }
    /* 4-deep chains: every op has the same latency (§2.3); a compare
     * writes a predicate, so its "chain" runs at the independent rate */
    static const unsigned ops[] = {SN_K_VMUL, SN_K_VEXP2, SN_K_VINV, SN_K_VRSQRT, SN_K_VLOG2, SN_K_VMAX};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        assert_int_equal(alu_chain_of(ops[i], 128, 4, 1) - alu_chain_of(ops[i], 128, 3, 1), 8 + 17);
    assert_int_equal(alu_chain_of(SN_K_VCMPLT, 128, 4, 1) - alu_chain_of(SN_K_VCMPLT, 128, 3, 1), 8 + 5);
}

/* ---- §9 vc_ldst: VLD / VST costs per nch (§2.2) ---- */
static void test_vc_ldst(void **state)
{
    (void)state;
    static const unsigned vls[] = {16, 64, 128};
    for (size_t i = 0; i < 3; i++) {
        unsigned nch = (vls[i] + 15) / 16;
        for (unsigned dt = 1; dt <= 2; dt++) {
            uint32_t w[16];
            size_t n = set_vl(w, vls[i]);
            for (int k = 0; k < 4; k++)
                w[n++] = mem_word(SN_K_VLD, dt, 0, 1 + k);
            for (int k = 0; k < 4; k++)
                w[n++] = mem_word(SN_K_VST, dt, 0, 1 + k);
            w[n++] = W_VHALT;
            uint32_t cost = 4 * (5 + (dt == 2 ? 8 : 4) * nch) + 4 * (5 + (dt == 2 ? 4 : 3) * nch);
            assert_int_equal(run_kernel(0, w, n, 1), 10 + cost + 6 - 1);
        }
    }
}

/* VST after an ALU op waits for the pipe: last beat + 79, against its issue
 * 5 after the last beat (§2.3; mm_silu's 74 of §2.2); VLD, ALU, VLD: the
 * second VLD waits the same way. */
static void test_vc_ldst_after_alu(void **state)
{
    (void)state;
    uint32_t w[16];
    size_t n = set_vl(w, 128);
    w[n++] = alu(SN_K_VADD, 1, 2, 0, 3);
    w[n++] = mem_word(SN_K_VST, 1, 0, 1);
    w[n++] = W_VHALT;
    assert_int_equal(run_kernel(0, w, n, 1), 10 + 13 + 74 + 29 + 6 - 1);
    n = set_vl(w, 128);
    w[n++] = mem_word(SN_K_VLD, 1, 0, 2);
    w[n++] = alu(SN_K_VADD, 1, 2, 0, 2);
    w[n++] = mem_word(SN_K_VLD, 1, 0, 3);
    w[n++] = W_VHALT;
    assert_int_equal(run_kernel(0, w, n, 1), 10 + 37 + 13 + 74 + 37 + 6 - 1);
}

/* §9 vc_misc: VCVT, VSHUF, VBCAST scalar to vector 5 + 3 nch, vector to
 * scalar 8 (§2.2), at VL 16 and 128. */
static void test_vc_misc(void **state)
{
    (void)state;
    for (unsigned vl = 16; vl <= 128; vl += 112) {
        unsigned nch = vl / 16;
        uint32_t w[16];
        size_t n = set_vl(w, vl);
        w[n++] = mem_word(SN_K_VCVT, 1, 0, 1);
        w[n++] = alu(SN_K_VSHUF, 2, 1, 0, 0);
        w[n++] = alu(SN_K_VBCAST, 3, 1, 0, 0) | 1u << 25; /* sa = S */
        w[n++] = alu(SN_K_VBCAST, 4, 1, 0, 0);            /* to S4 */
        w[n++] = W_VHALT;
        assert_int_equal(run_kernel(0, w, n, 1), 10 + 3 * (5 + 3 * nch) + 8 + 6 - 1);
    }
}

/* ---- §9 vc_misc: an isolated VRED sum costs nb + 145, 153 at VL 128 (§2.2) ---- */
static void test_vc_vred(void **state)
{
    (void)state;
    uint32_t w[16];
    size_t n = set_vl(w, 128);
    w[n++] = alu(SN_K_VSETMODE, 0, 3, 0, 0); /* TREE */
    size_t before = n;
    w[n++] = alu(SN_K_VRED, 3, 1, 0, 0);     /* S3 = sum(V1) */
    w[n++] = W_VHALT;
    uint32_t with = run_kernel(0, w, n, 1);
    w[before] = W_VHALT;
    uint32_t without = run_kernel(0, w, before + 1, 1);
    /* VHALT waits for the tail's pipe drain: tail + 79 against the next word at tail + 63 */
    assert_int_equal(with - without, 153 + (79 - 63 - 3));
    /* sumsq, dot, expsum: nb = 2 nch; three sums in a row, 153 each; any: 4 */
    for (unsigned kind = 3; kind <= 5; kind++) {
        w[before] = alu(SN_K_VRED, 3, 1, 0, 0) | kind << 5;
        w[before + 1] = W_VHALT;
        assert_int_equal(run_kernel(0, w, before + 2, 1) - without, 16 + 145 + (79 - 63 - 3));
    }
    for (unsigned k = 0; k < 3; k++)
        w[before + k] = alu(SN_K_VRED, 3, 1, 0, 0);
    w[before + 3] = W_VHALT;
    assert_int_equal(run_kernel(0, w, before + 4, 1) - without, 3 * 153 + (79 - 63 - 3));
    w[before] = alu(SN_K_VRED, 3, 1, 0, 0) | 6u << 5;
    w[before + 1] = W_VHALT;
    assert_int_equal(run_kernel(0, w, before + 2, 1) - without, 4);
}

/* ---- §9 vc_fill: "VFILL n; VBAR; VHALT", K = 40 + (12 + L)(n - 1) + L (§2.4) ---- */
static void test_vc_fill(void **state)
{
    (void)state;
    static const unsigned ns[] = {1, 2, 8, 64, 256};
    const uint32_t w[3] = {SN_K_VFILL << 27, W_VBAR, W_VHALT};
    for (unsigned latency = 0; latency <= L_BENCH; latency += L_BENCH)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            assert_int_equal(run_kernel(latency, w, 3, ns[i]), 40 + (12 + latency) * (ns[i] - 1) + latency);
    /* VFILL without VBAR: VHALT waits for the words just the same */
    const uint32_t nobar[2] = {SN_K_VFILL << 27, W_VHALT};
    assert_int_equal(run_kernel(0, nobar, 2, 8), 40 + 12 * 7 - 5);
    /* two VFILLs back to back: the second issues the cycle after the first's
     * last word landed (vadd128's K = 477, §2.2, checked in test_cases), and
     * its own last word lands 30 + 12(n - 1) after its issue: request 5 + 3j
     * after it (E + 6, E = issue - 1), 6 to the node, taken 1 later, answered
     * in 12, landed 6 later (§2.4, §4.2) */
    const uint32_t two[4] = {SN_K_VFILL << 27, SN_K_VFILL << 27 | 1u << 21 | 8u, W_VBAR, W_VHALT};
    uint32_t one = run_kernel(0, w, 3, 8);
    assert_int_equal(run_kernel(0, two, 4, 8), one + 1 + 30 + 12 * 7);
}

/* ---- §9 vc_drain / vc_peer: 10 + 3n, a peer's +1 when n > 1 (§2.2) ---- */
static void test_vc_drain(void **state)
{
    (void)state;
    static const unsigned ns[] = {1, 8, 64, 256};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint32_t w[2] = {SN_K_VDRAIN << 27, W_VHALT};
        assert_int_equal(run_kernel(0, w, 2, ns[i]), 10 + 3 * ns[i] + 6 - 1);
        assert_int_equal(run_kernel(L_BENCH, w, 2, ns[i]), 10 + 3 * ns[i] + 6 - 1); /* writes are not waited for */
        w[0] |= 1u << 24 | 1u << 17 | 2u << 13; /* peer, to (1,2) */
        assert_int_equal(run_kernel(0, w, 2, ns[i]), 10 + 3 * ns[i] + (ns[i] > 1) + 6 - 1);
    }
}

/* ---- matmul cluster payloads ---- */

static sn_payload mg(unsigned op, unsigned n, unsigned gm, unsigned gn, unsigned nk)
{
    sn_payload p = {{0}};
    sn_mg_set_op(&p, op);
    sn_mg_set_addr(&p, 0x20000);
    sn_mg_set_n(&p, n);
    sn_mg_set_gm(&p, gm);
    sn_mg_set_gn(&p, gn);
    sn_mg_set_nk(&p, nk);
    sn_mg_set_preq(&p, 1);
    return p;
}

/* §9 mg_fill: one FILL alone, 23 + (14 + L) n (§3.2, §6). */
static void test_mg_fill(void **state)
{
    (void)state;
    static const unsigned ns[] = {1, 2, 4, 16, 64, 128};
    for (unsigned latency = 0; latency <= L_BENCH; latency += L_BENCH)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            bench b;
            bench_init(&b, latency);
            job j = {0, 100, mg(SN_MG_OP_FILL, ns[i], 0, 0, 0), 0, 0};
            run_jobs(&b, &j, 1);
            assert_int_equal(service(&j, 0), 23 + (14 + latency) * ns[i]);
            bench_free(&b);
        }
}

/* §9 mg_gemm, mg_drain, mg_stream: GEMM 8 alone, 6 queued; DRAIN after the
 * sweep 27 + 10b (n = 8b), 23 for n = 1; DRAIN 64 right behind GEMM
 * (8,8,2): 260 (§3.2, §6). */
static void test_mg_gemm_drain(void **state)
{
    (void)state;
    bench b;
    bench_init(&b, 0);
    job jobs[6] = {
        {0, 100, mg(SN_MG_OP_GEMM, 0, 8, 8, 2), 0, 0},  {0, 1000, mg(SN_MG_OP_DRAIN, 64, 0, 0, 0), 0, 0},
        {0, 2000, mg(SN_MG_OP_DRAIN, 1, 0, 0, 0), 0, 0}, {0, 3000, mg(SN_MG_OP_GEMM, 0, 8, 8, 2), 0, 0},
        {0, 3000, mg(SN_MG_OP_DRAIN, 64, 0, 0, 0), 0, 0}, {0, 3000, mg(SN_MG_OP_GEMM, 0, 8, 8, 2), 0, 0},
    };
    run_jobs(&b, jobs, 6);
    assert_int_equal(service(jobs, 0), 8);
    assert_int_equal(service(jobs, 1), 27 + 10 * 8);
    assert_int_equal(service(jobs, 2), 23);
    assert_int_equal(service(jobs, 3), 8);
    assert_int_equal(service(jobs, 4), 260);
    assert_int_equal(service(jobs, 5), 6);
    bench_free(&b);
}

/* §9 mg_gemm: GEMM then DRAIN n = 1, queued: the DRAIN waits for the array,
 * free at g + ic + 33, with ic = 1 + (gm gn nk - 1)(1 + p), p = 0 when
 * nk = 1 or gm gn >= 5, else 4 / 2 / 1 for gm gn = 1 / 2 / 3-4; then
 * 16 + 1 + 4 to its completion (§3.2). Two GEMMs back to back: a wide one
 * waits for the manager (g + ic + 22), a small one for the array. */
static void test_mg_gemm_shapes(void **state)
{
    (void)state;
    static const unsigned shapes[][3] = {{1, 1, 1}, {1, 1, 4}, {2, 1, 4}, {1, 3, 2}, {2, 2, 2}, {5, 1, 2},
                                         {8, 8, 1}, {8, 8, 2}, {4, 4, 8}, {1, 8, 4}, {2, 2, 1}, {3, 1, 3},
                                         {16, 16, 2}, {1, 2, 16}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        unsigned gm = shapes[i][0], gn = shapes[i][1], nk = shapes[i][2], t = gm * gn;
        unsigned p = nk == 1 || t >= 5 ? 0 : t == 1 ? 4 : t == 2 ? 2 : 1;
        uint64_t ic = 1 + (uint64_t)(t * nk - 1) * (1 + p);
        bench b;
        bench_init(&b, 0);
        job jobs[4] = {{0, 100, mg(SN_MG_OP_GEMM, 0, gm, gn, nk), 0, 0},
                       {0, 100, mg(SN_MG_OP_DRAIN, 1, 0, 0, 0), 0, 0},
                       {0, 5000, mg(SN_MG_OP_GEMM, 0, gm, gn, nk), 0, 0},
                       {0, 5000, mg(SN_MG_OP_GEMM, 0, gm, gn, nk), 0, 0}};
        run_jobs(&b, jobs, 4);
        uint64_t g = jobs[0].o - 6;
        assert_int_equal(jobs[1].o, g + ic + 33 + 16 + 1 + 4);
        uint64_t g2 = jobs[2].o - 6;
        assert_int_equal(jobs[3].o - 6, g2 + ic + (t < 5 ? 33 : 22));
        bench_free(&b);
    }
}

/* §9 mg_fill2: both clusters FILL at once; the node serves one whole FILL
 * after the other (§4.2): the second's first word comes 17 cycles after the
 * first's last (its take), so it completes (17 + 14(n - 1) + 3) later. */
static void test_mg_fill2(void **state)
{
    (void)state;
    static const unsigned ns[] = {1, 16, 64};
    for (size_t i = 0; i < 3; i++) {
        bench b;
        bench_init(&b, 0);
        job jobs[2] = {{0, 100, mg(SN_MG_OP_FILL, ns[i], 0, 0, 0), 0, 0},
                       {1, 100, mg(SN_MG_OP_FILL, ns[i], 0, 0, 0), 0, 0}};
        run_jobs(&b, jobs, 2);
        assert_int_equal(service(jobs, 0), 23 + 14 * ns[i]);
        assert_int_equal(jobs[1].o - jobs[0].o, 17 + 14 * (ns[i] - 1) + 3);
        bench_free(&b);
    }
}

/* §9 mg_drain: DRAIN n = 8b to DRAM after the sweep, 27 + 10b, b up to 64
 * (n = 512), and partial last bursts by the Q rule (§3.2). */
static void test_mg_drain(void **state)
{
    (void)state;
    for (unsigned n = 8; n <= 512; n *= 2) {
        bench b;
        bench_init(&b, 0);
        job j = {0, 100, mg(SN_MG_OP_DRAIN, n, 0, 0, 0), 0, 0};
        run_jobs(&b, &j, 1);
        assert_int_equal(service(&j, 0), 27 + 10 * (n / 8));
        bench_free(&b);
    }
    /* n = 12: burst 0 of 8 at s + 23, burst 1 of 4 at max(s + 27, s + 33) =
     * s + 33, its data to s + 37, completion s + 41; s = accept + 1 = tap + 2 */
    bench b;
    bench_init(&b, 0);
    job j = {0, 100, mg(SN_MG_OP_DRAIN, 12, 0, 0, 0), 0, 0};
    run_jobs(&b, &j, 1);
    assert_int_equal(service(&j, 0), 2 + 41);
    bench_free(&b);
}

/* ---- the five cases through the stand-in mailbox ---- */

typedef struct case_busy {
    const char *name;
    uint64_t busy[NUNITS]; /* RTL busy cycles (issue 24; unit-timing §8), 0: unit unused */
} case_busy;

static const case_busy CASES[] = {
    {"vadd128", {0, 0, 582, 0}},
    {"matmul_8x64x8", {757, 0, 0, 0}},
    {"matmul_64x128x64", {3789, 3837, 0, 0}},
    {"mm_silu_32x128x64", {1892, 1940, 2536, 2536}},
    {"matmul_512x256x512", {454748, 454892, 0, 0}},
};

/* Replays case c at latency 0 through the stand-in and returns its bench. */
static void replay(const char *name, bench *b)
{
    char dir[512];
    snprintf(dir, sizeof dir, CASE_DIR "%s", name);
    sn_program prog;
    sn_error e = {0};
    assert_int_equal(sn_program_load_case(&prog, dir, &e), SN_OK);
    bench_init(b, 0);
    job *jobs = malloc(SN_STAGE_SLOTS * sizeof *jobs);
    assert_non_null(jobs);
    uint64_t t = 0;
    for (size_t r = 0; r < prog.round_count; r++) {
        const sn_table_round *rd = &prog.rounds[r];
        size_t nj = 0;
        for (uint32_t s = 0; s < rd->step_count; s++) {
            const sn_table_step *st = &prog.steps[rd->step_first + s];
            if (st->op != SN_STEP_KICK)
                continue;
            for (uint32_t k = 0; k < st->kick.flits; k++) {
                t += GO_GAP;
                jobs[nj++] = (job){unit_of(st->x, st->y), t + GO_TO_PORT,
                                   sn_table_row_payload(&prog.payloads[rd->payload_first + st->kick.first_slot + k]),
                                   0, 0};
            }
        }
        t = run_jobs(b, jobs, nj) + GO_TO_PORT;
    }
    free(jobs);
    sn_program_free(&prog);
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        bench b;
        replay(CASES[c].name, &b);
        for (unsigned u = 0; u < NUNITS; u++) {
            uint64_t want = CASES[c].busy[u];
            double err = want ? ((double)b.busy[u] - (double)want) / (double)want : 0.0;
            printf("%s unit %u: busy %llu, RTL %llu (%+.2f%%)\n", CASES[c].name, u, (unsigned long long)b.busy[u],
                   (unsigned long long)want, 100.0 * err);
            assert_true(want ? err >= -0.02 && err <= 0.02 : b.busy[u] == 0);
        }
        if (!strcmp(CASES[c].name, "vadd128"))
            assert_int_equal(b.last_k[2], 477); /* §2.2 */
        if (!strcmp(CASES[c].name, "mm_silu_32x128x64"))
            assert_int_equal(b.last_k[2], 2251);
        bench_free(&b);
    }
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_vc_ctrl), cmocka_unit_test(test_vc_base), cmocka_unit_test(test_vc_alu),
             cmocka_unit_test(test_vc_ldst), cmocka_unit_test(test_vc_vred), cmocka_unit_test(test_vc_fill),
             cmocka_unit_test(test_vc_drain), cmocka_unit_test(test_vc_ldst_after_alu),
             cmocka_unit_test(test_vc_misc), cmocka_unit_test(test_mg_fill), cmocka_unit_test(test_mg_fill2),
             cmocka_unit_test(test_mg_gemm_drain), cmocka_unit_test(test_mg_gemm_shapes), cmocka_unit_test(test_mg_drain),
             cmocka_unit_test(test_cases))
