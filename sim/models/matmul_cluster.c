/* Matmul cluster datapath model; see matmul_cluster.h. Every rule cites the
 * compiler source it restates. */
#include "matmul_cluster.h"

#include <string.h>

#include "fp_formats.h"

/* Payload fields: sysnode/words.h SN_FIELDS_mg (isa/cluster.py@894a833
 * `_tail`; sysnode-facts §3.3). */

#define MACS_PER_CYCLE 512 /* kohakutpu/cost.py MACS_PER_CLUSTER (artifacts-facts §7) */

static uint64_t full_addr(const sn_payload *p)
{
    return SN_MG_DRAM_ADDR(p);
}

/* ceil(elems * 16 / 256): cycles a stream of FP16 elements holds a 256-bit
 * link (cost.py `flits`, artifacts-facts §7). */
static uint32_t flits16(uint64_t elems)
{
    return (uint32_t)((elems * 16 + 255) / 256);
}

/* 2^k as a double, built from its bits: k in [-1022, 1023]. A lane's scale
 * exponent es = byte >> 3 - SN_MX_SBIAS lies in [-20, 11]. */
static double pow2(int k)
{
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* Decodes one 128-byte entry laid out as sysnode/mxfp7.h says
 * (artifacts-facts §3.3); the scale bytes repeat in every word and are
 * taken from word 0. Value i of a word sits at bit SN_MX_Q_LO(i) =
 * 32 + 7 * (31 - i): values 31-8j down to 24-8j are the 56 bits from byte
 * 4 + 7j, taken as one integer. */
static inline void decode_entry(const uint8_t e[SN_MX_ENTRY_BYTES], unsigned sel, sn_mc_operand *op)
{
    for (unsigned w = 0; w < 4; w++) {
        const uint8_t *word = e + w * 32;
        for (unsigned j = 0; j < 4; j++) {
            uint64_t bits = 0;
            for (unsigned b = 0; b < 7; b++)
                bits |= (uint64_t)word[4 + 7 * j + b] << 8 * b;
            for (unsigned f = 0; f < 8; f++) {
                unsigned oi = 31 - 8 * j - f, v = (unsigned)(bits >> 7 * f) & ((1u << SN_MX_Q_BITS) - 1u);
                op->q[SN_MX_Q_LANE(sel, oi)][w * 8 + SN_MX_Q_K(sel, oi)] = (int16_t)(v >= 64 ? (int)v - 128 : (int)v);
            }
        }
    }
    for (unsigned lane = 0; lane < SN_MX_LANES; lane++) {
        uint8_t s = e[SN_MX_SCALE_BYTE(lane)];
        op->scale[lane] = (double)(8 + (s & 7)) * pow2((int)(s >> 3) - SN_MX_SBIAS);
    }
}

static sn_mc_result exec_fill(sn_matmul_cluster *mc, const sn_payload *p, const sn_mem_port *mem)
{
    sn_mc_result r = {0};
    uint32_t n = (uint32_t)sn_mg_n(p);
    unsigned sel = (unsigned)sn_mg_sel(p);
    uint32_t at = (uint32_t)sn_mg_fbank(p) * SN_MC_BANK_ENTRIES + (uint32_t)sn_mg_eoff(p);
    r.cycles = flits16((uint64_t)n * SN_MX_LANES * SN_MX_KBLOCK);
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
    if (n && mem->read(mem->ctx, full_addr(p), mc->l1[sel][at], n * SN_MX_ENTRY_BYTES) != 0) {
        r.mem_error = 1;
        r.bad_addr = full_addr(p);
    }
    return r;
}

static sn_mc_result exec_gemm(sn_matmul_cluster *mc, const sn_payload *p)
{
    sn_mc_result r = {0};
    uint32_t gm = (uint32_t)sn_mg_gm(p), gn = (uint32_t)sn_mg_gn(p);
    uint32_t nk = (uint32_t)sn_mg_nk(p);
    uint32_t a_at = (uint32_t)sn_mg_abank(p) * SN_MC_BANK_ENTRIES + (uint32_t)sn_mg_aoff(p);
    uint32_t b_at = (uint32_t)sn_mg_bbank(p) * SN_MC_BANK_ENTRIES + (uint32_t)sn_mg_boff(p);
    int chain = (int)sn_mg_acc(p) && mc->have_tile;
    uint64_t macs = (uint64_t)(gm * SN_MX_LANES) * (nk * SN_MX_KBLOCK) * (gn * SN_MX_LANES);
    r.cycles = (uint32_t)((macs + MACS_PER_CYCLE - 1) / MACS_PER_CYCLE);
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

    uint32_t cols = gn * SN_MX_LANES;
    for (uint32_t m = 0; m < gm; m++)
        for (uint32_t g = 0; g < gn; g++) {
            /* model.py@cd56929 `sweep`: per block, each cell's integer dot
             * product times 2^(esa+esb) * m8a*m8b/64 (exact in a double) is
             * added and the sum rounded to ACC24. Blocks outside, cells
             * inside: each cell still sums its blocks in order. */
            double v[SN_MX_LANES][SN_MX_LANES] = {{0.0}};
            for (uint32_t b = 0; b < nk; b++) {
                const sn_mc_operand *a = &mc->op[0][m * nk + b];
                const sn_mc_operand *bb = &mc->op[1][g * nk + b];
                for (unsigned rr = 0; rr < SN_MX_LANES; rr++)
                    for (unsigned ss = 0; ss < SN_MX_LANES; ss++) {
                        int32_t dot = 0;
                        for (unsigned k = 0; k < SN_MX_KBLOCK; k++)
                            dot += (int32_t)a->q[rr][k] * bb->q[ss][k];
                        /* exact: at most 8 significant bits, exponent in -46..16 */
                        double scale = a->scale[rr] * bb->scale[ss] * 0x1p-6;
                        v[rr][ss] = sn_acc24_round(v[rr][ss] + (double)dot * scale);
                    }
            }
            for (unsigned rr = 0; rr < SN_MX_LANES; rr++)
                for (unsigned ss = 0; ss < SN_MX_LANES; ss++) {
                    double *cell = &mc->acc[(m * SN_MX_LANES + rr) * cols + g * SN_MX_LANES + ss];
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
    uint32_t m = t / mc->tile_gn, g = t % mc->tile_gn, cols = mc->tile_gn * SN_MX_LANES, clamped = 0;
    for (unsigned rr = 0; rr < SN_MX_LANES; rr++)
        for (unsigned ss = 0; ss < SN_MX_LANES; ss++) {
            double v = mc->acc[(m * SN_MX_LANES + rr) * cols + g * SN_MX_LANES + ss];
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
    uint32_t n = (uint32_t)sn_mg_n(p);
    r.cycles = flits16((uint64_t)n * SN_MX_LANES * SN_MX_LANES);
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
    if (sn_mg_dnode(p)) {
        /* The mesh sends the bursts; offset = addr[20:5] (sysnode-facts §4). */
        sn_cu_burst *h = &mc->drain_head;
        memset(h, 0, sizeof *h);
        h->dst_x = (uint8_t)sn_mg_dst_x(p);
        h->dst_y = (uint8_t)sn_mg_dst_y(p);
        h->buf = (uint8_t)sn_mg_dbuf(p);
        h->flags = (uint8_t)sn_mg_dflags(p);
        h->ack_x = (uint8_t)sn_mg_dack_x(p);
        h->ack_y = (uint8_t)sn_mg_dack_y(p);
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
    switch ((unsigned)sn_mg_op(p)) {
    case SN_MG_OP_FILL:
        return exec_fill(mc, p, mem);
    case SN_MG_OP_GEMM:
        return exec_gemm(mc, p);
    case SN_MG_OP_DRAIN:
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
