/* Matmul cluster datapath model; see matmul_cluster.h. Every rule cites the
 * compiler source it restates. */
#include "matmul_cluster.h"

#include <string.h>

#include "fp_formats.h"

/* Payload fields, MSB-first (isa/cluster.py@894a833 `_tail`; sysnode-facts
 * §3.3). */
#define F_OP 255, 252
#define F_ADDR 251, 218
#define F_N 217, 202
#define F_SEL 201, 201
#define F_ACC 200, 200
#define F_GM 199, 192
#define F_GN 191, 184
#define F_NK 183, 176
#define F_EOFF 140, 133
#define F_AOFF 132, 125
#define F_BOFF 124, 117
#define F_ABANK 114, 114
#define F_BBANK 113, 113
#define F_FBANK 112, 112
#define F_DNODE 111, 111
#define F_DST_X 110, 107
#define F_DST_Y 106, 103
#define F_DBUF 102, 95
#define F_DFLAGS 94, 87
#define F_DACK_Y 86, 83
#define F_DACK_X 82, 79
#define F_ADDR_HI 68, 63
#define ADDR_LO_BITS 34 /* isa/cluster.py@894a833 IsaConfig.addr_bits */

#define SBIAS 20           /* hw/mxfp7.py@fd96dee */
#define MACS_PER_CYCLE 512 /* kohakutpu/cost.py MACS_PER_CLUSTER (artifacts-facts §7) */

static uint64_t full_addr(const sn_payload *p)
{
    return sn_field_get(p, F_ADDR) | sn_field_get(p, F_ADDR_HI) << ADDR_LO_BITS;
}

/* ceil(elems * 16 / 256): cycles a stream of FP16 elements holds a 256-bit
 * link (cost.py `flits`, artifacts-facts §7). */
static uint32_t flits16(uint64_t elems)
{
    return (uint32_t)((elems * 16 + 255) / 256);
}

/* 2^k as a double, built from its bits: k in [-1022, 1023]. A lane's scale
 * exponent es = byte >> 3 - SBIAS lies in [-20, 11]. */
static double pow2(int k)
{
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* Decodes one 128-byte entry (artifacts-facts §3.3): word w holds K
 * 8w..8w+7; slot oi at bits [255-7oi : 249-7oi] is lane*8+kk (sel 0) or
 * kk*4+lane (sel 1), int7 two's complement; the scale bytes repeat in every
 * word's bits 31..0 and are taken from word 0, lane l at [31-8l : 24-8l]. */
static void decode_entry(const uint8_t e[SN_MC_ENTRY_BYTES], unsigned sel, sn_mc_operand *op)
{
    for (unsigned w = 0; w < 4; w++) {
        const uint8_t *word = e + w * 32;
        for (unsigned oi = 0; oi < 32; oi++) {
            /* bits lo..lo+6 span at most two bytes; the top slot ends in byte 31 */
            unsigned lo = 249 - 7 * oi, at = lo / 8;
            unsigned two = word[at] | (at < 31 ? (unsigned)word[at + 1] << 8 : 0u);
            unsigned v = (two >> (lo % 8)) & 0x7Fu;
            unsigned lane = sel ? oi % 4 : oi / 8;
            unsigned kk = sel ? oi / 4 : oi % 8;
            op->q[lane][w * 8 + kk] = (int8_t)(v >= 64 ? (int)v - 128 : (int)v);
        }
    }
    for (unsigned lane = 0; lane < SN_MC_LANES; lane++) {
        uint8_t s = e[3 - lane];
        op->scale[lane] = (double)(8 + (s & 7)) * pow2((int)(s >> 3) - SBIAS);
    }
}


static sn_mc_result exec_fill(sn_matmul_cluster *mc, const sn_payload *p, const sn_mem_port *mem)
{
    sn_mc_result r = {0};
    uint32_t n = (uint32_t)sn_field_get(p, F_N);
    unsigned sel = (unsigned)sn_field_get(p, F_SEL);
    uint32_t at = (uint32_t)sn_field_get(p, F_FBANK) * SN_MC_BANK_ENTRIES + (uint32_t)sn_field_get(p, F_EOFF);
    r.cycles = flits16((uint64_t)n * SN_MC_LANES * SN_MC_KBLOCK);
    if (at + n > SN_MC_SIDE_ENTRIES) {
        r.fault = SN_MC_FAULT_FILL_RANGE;
        return r;
    }
    /* A GEMM retires when its sweep starts, so a FILL into the entries it
     * still reads would corrupt it silently; the model refuses it
     * (model.py@cd56929 `_hazard`). */
    if (mc->reading_span[sel] && at < (uint32_t)mc->reading_at[sel] + mc->reading_span[sel] &&
        mc->reading_at[sel] < at + n) {
        r.fault = SN_MC_FAULT_HAZARD;
        return r;
    }
    if (n && mem->read(mem->ctx, full_addr(p), mc->l1[sel][at], n * SN_MC_ENTRY_BYTES) != 0) {
        r.mem_error = 1;
        r.bad_addr = full_addr(p);
    }
    return r;
}

static sn_mc_result exec_gemm(sn_matmul_cluster *mc, const sn_payload *p)
{
    sn_mc_result r = {0};
    uint32_t gm = (uint32_t)sn_field_get(p, F_GM), gn = (uint32_t)sn_field_get(p, F_GN);
    uint32_t nk = (uint32_t)sn_field_get(p, F_NK);
    uint32_t a_at = (uint32_t)sn_field_get(p, F_ABANK) * SN_MC_BANK_ENTRIES + (uint32_t)sn_field_get(p, F_AOFF);
    uint32_t b_at = (uint32_t)sn_field_get(p, F_BBANK) * SN_MC_BANK_ENTRIES + (uint32_t)sn_field_get(p, F_BOFF);
    int chain = (int)sn_field_get(p, F_ACC) && mc->have_tile;
    uint64_t macs = (uint64_t)(gm * SN_MC_LANES) * (nk * SN_MC_KBLOCK) * (gn * SN_MC_LANES);
    r.cycles = (uint32_t)((macs + MACS_PER_CYCLE - 1) / MACS_PER_CYCLE);
    r.retire_on_issue = 1;
    if (gm == 0 || gn == 0 || gm * gn > SN_MC_TILES || a_at + gm * nk > SN_MC_SIDE_ENTRIES ||
        b_at + gn * nk > SN_MC_SIDE_ENTRIES) {
        r.fault = SN_MC_FAULT_GEMM_RANGE;
        return r;
    }
    if (chain && (mc->tile_gm != gm || mc->tile_gn != gn)) {
        r.fault = SN_MC_FAULT_CHAIN;
        return r;
    }
    /* The sweep reads entries group-major, K-block-minor: A at
     * a_at + m*nk + b, B at b_at + g*nk + b (model.py@cd56929 `_operand`). */
    for (uint32_t i = 0; i < gm * nk; i++)
        decode_entry(mc->l1[0][a_at + i], 0, &mc->op[0][i]);
    for (uint32_t i = 0; i < gn * nk; i++)
        decode_entry(mc->l1[1][b_at + i], 1, &mc->op[1][i]);

    uint32_t cols = gn * SN_MC_LANES;
    for (uint32_t m = 0; m < gm; m++)
        for (uint32_t g = 0; g < gn; g++) {
            /* model.py@cd56929 `sweep`: per block, each cell's integer dot
             * product times 2^(esa+esb) * m8a*m8b/64 (exact in a double) is
             * added and the sum rounded to ACC24. Blocks outside, cells
             * inside: each cell still sums its blocks in order. */
            double v[SN_MC_LANES][SN_MC_LANES] = {{0.0}};
            for (uint32_t b = 0; b < nk; b++) {
                const sn_mc_operand *a = &mc->op[0][m * nk + b];
                const sn_mc_operand *bb = &mc->op[1][g * nk + b];
                for (unsigned rr = 0; rr < SN_MC_LANES; rr++)
                    for (unsigned ss = 0; ss < SN_MC_LANES; ss++) {
                        int32_t dot = 0;
                        for (unsigned k = 0; k < SN_MC_KBLOCK; k++)
                            dot += (int32_t)a->q[rr][k] * bb->q[ss][k];
                        /* exact: at most 8 significant bits, exponent in -46..16 */
                        double scale = a->scale[rr] * bb->scale[ss] * 0x1p-6;
                        v[rr][ss] = sn_acc24_round(v[rr][ss] + (double)dot * scale);
                    }
            }
            for (unsigned rr = 0; rr < SN_MC_LANES; rr++)
                for (unsigned ss = 0; ss < SN_MC_LANES; ss++) {
                    double *cell = &mc->acc[(m * SN_MC_LANES + rr) * cols + g * SN_MC_LANES + ss];
                    /* A chained GEMM adds its own sweep to the tile and
                     * rounds once more (model.py@cd56929 `_gemm`). */
                    *cell = chain ? sn_acc24_round(*cell + v[rr][ss]) : v[rr][ss];
                }
        }
    mc->have_tile = 1;
    mc->tile_gm = (uint16_t)gm;
    mc->tile_gn = (uint16_t)gn;
    mc->reading_at[0] = (uint16_t)a_at;
    mc->reading_span[0] = (uint16_t)(gm * nk);
    mc->reading_at[1] = (uint16_t)b_at;
    mc->reading_span[1] = (uint16_t)(gn * nk);
    return r;
}

/* Sub-tile t (row-major over gm x gn) of the tile as a 32-byte granule:
 * element (r, s) clamped to +-65504 and rounded to FP16, half to even
 * (model.py@cd56929 `_subtiles`). Returns the elements clamped. */
static uint32_t granule(const sn_matmul_cluster *mc, uint32_t t, uint8_t out[SN_CU_GRANULE_BYTES])
{
    uint32_t m = t / mc->tile_gn, g = t % mc->tile_gn, cols = mc->tile_gn * SN_MC_LANES, clamped = 0;
    for (unsigned rr = 0; rr < SN_MC_LANES; rr++)
        for (unsigned ss = 0; ss < SN_MC_LANES; ss++) {
            double v = mc->acc[(m * SN_MC_LANES + rr) * cols + g * SN_MC_LANES + ss];
            if (v > SN_FP16_MAX || v < -SN_FP16_MAX) {
                v = v < 0 ? -SN_FP16_MAX : SN_FP16_MAX;
                clamped++;
            }
            uint16_t h = sn_double_to_fp16(v);
            out[(rr * 4 + ss) * 2] = (uint8_t)h;
            out[(rr * 4 + ss) * 2 + 1] = (uint8_t)(h >> 8);
        }
    return clamped;
}

static sn_mc_result exec_drain(sn_matmul_cluster *mc, const sn_payload *p, const sn_mem_port *mem)
{
    sn_mc_result r = {0};
    uint32_t n = (uint32_t)sn_field_get(p, F_N);
    r.cycles = flits16((uint64_t)n * SN_MC_LANES * SN_MC_LANES);
    r.waits_sweep = 1;
    if (!mc->have_tile) {
        r.fault = SN_MC_FAULT_NO_TILE;
        return r;
    }
    /* The model slices the first n sub-tiles and would silently write fewer
     * than n; refusing is the honest reading of a DRAIN past the tile. */
    if (n > (uint32_t)mc->tile_gm * mc->tile_gn) {
        r.fault = SN_MC_FAULT_DRAIN_RANGE;
        return r;
    }
    uint32_t clamped = 0;
    for (uint32_t t = 0; t < n; t++)
        clamped += granule(mc, t, mc->drained[t]);
    if (sn_field_get(p, F_DNODE)) {
        /* The mesh sends the bursts; offset = addr[20:5] (sysnode-facts §4). */
        sn_cu_burst *h = &mc->drain_head;
        memset(h, 0, sizeof *h);
        h->dst_x = (uint8_t)sn_field_get(p, F_DST_X);
        h->dst_y = (uint8_t)sn_field_get(p, F_DST_Y);
        h->buf = (uint8_t)sn_field_get(p, F_DBUF);
        h->flags = (uint8_t)sn_field_get(p, F_DFLAGS);
        h->ack_x = (uint8_t)sn_field_get(p, F_DACK_X);
        h->ack_y = (uint8_t)sn_field_get(p, F_DACK_Y);
        h->offset = (uint16_t)((full_addr(p) >> 5) & 0xFFFF);
        mc->drain_granules = n;
        r.node_drain = 1;
        r.nbursts = sn_cu_nbursts(n);
    } else if (n && mem->write(mem->ctx, full_addr(p), mc->drained, n * SN_CU_GRANULE_BYTES) != 0) {
        r.mem_error = 1;
        r.bad_addr = full_addr(p);
        return r;
    }
    /* A DRAIN ends the sweep in front of it (model.py@cd56929 `_drain`). */
    mc->reading_span[0] = mc->reading_span[1] = 0;
    r.saturated = clamped;
    mc->saturated += clamped;
    return r;
}

void sn_mc_reset(sn_matmul_cluster *mc)
{
    memset(mc, 0, sizeof *mc);
}

sn_mc_result sn_mc_execute(sn_matmul_cluster *mc, const sn_payload *p, const sn_mem_port *mem)
{
    mc->drain_granules = 0;
    switch ((unsigned)sn_field_get(p, F_OP)) {
    case SN_MC_OP_FILL:
        return exec_fill(mc, p, mem);
    case SN_MC_OP_GEMM:
        return exec_gemm(mc, p);
    case SN_MC_OP_DRAIN:
        return exec_drain(mc, p, mem);
    default: {
        sn_mc_result r = {0};
        r.fault = SN_MC_FAULT_OPCODE;
        r.cycles = 1;
        return r;
    }
    }
}

int sn_mc_node_burst(const sn_matmul_cluster *mc, uint32_t i, sn_cu_burst *b)
{
    return sn_cu_burst_of(&mc->drain_head, mc->drained, mc->drain_granules, i, b);
}
