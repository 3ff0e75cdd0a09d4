/* The vector-core kernel interpreter: a restatement in C of
 * compiler/kohakutpu/model.py@7703ee8 `VectorUnit` (execute, _kernel, _issue
 * and the per-instruction methods), with word layouts from
 * compiler/kohakutpu/hw/vector.py@7703ee8. Lane values are doubles and every
 * ALU result is rounded to E8M15 (fp_formats.h), as in that model. The peer
 * VDRAIN follows hw/vector.py@60942f3 (`vdrain` and the module docstring),
 * since model.py refuses it. */
#include "vector_core.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "fp_formats.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the lane model needs plain double arithmetic (FLT_EVAL_METHOD 0)"
#endif

/* Operand source selectors (hw/vector.py@7703ee8 SRC_*). */
enum { SRC_V = 0, SRC_S = 1, SRC_C = 2, SRC_K = 3 };

/* VLD/VST/VCVT dtypes. */
enum { DT_FP16 = 1, DT_FP32 = 2 };

/* VRED kinds, field vc (hw/vector.py@7703ee8 RED). */
enum { RED_SUM, RED_MAX, RED_MIN, RED_SUMSQ, RED_DOT, RED_EXPSUM, RED_ANY, RED_ALL };

/* ---- kernel word fields: sysnode/words.h kword_alu, kword_mem, kword_peer
 * (hw/vector.py@7703ee8 `alu`, `_addressed`); the two below are read only
 * here. ---- */
static unsigned wf(uint32_t w, unsigned hi, unsigned lo)
{
    return (unsigned)sn_bits64(w, hi, lo);
}
#define W_L1OFF(w) ((unsigned)sn_kword_mem_offset(w) % SN_VC_L1_WORDS) /* VFILL/VDRAIN L1 word */
#define W_BODY(w) wf(w, 12, 9)
#define W_KIND(w) wf(w, 7, 5) /* the model reads 3 of the 4 encoded bits */

/* Run state of one RUN. */
typedef struct run {
    sn_vector_core *vc;
    const sn_mem_port *mem;
    sn_vc_result *res;
    sn_vc_timing *time; /* NULL: untimed */
} run;

static uint32_t nchunk(const sn_vector_core *vc)
{
    return (vc->vl + SN_VC_LANES - 1) / SN_VC_LANES;
}

/* Cycles one kernel word costs at the current VL (hw/vector.py@7703ee8
 * `cycles`, artifacts-facts §7): set-up and the two bulk transfers are one,
 * everything else -- VHALT included -- ceil(VL/16). */
static uint32_t word_cycles(unsigned op, const sn_vector_core *vc)
{
    switch (op) {
    case SN_K_VFILL: case SN_K_VDRAIN: case SN_K_VBAR: case SN_K_VLOOP: case SN_K_VSETVL: case SN_K_VSETMODE: case SN_K_VSETI:
        return 1;
    default:
        return nchunk(vc);
    }
}

/* ---- address walks (model.py@7703ee8 `_walk`, `_span`) ---- */

/* Entries a descriptor walks: the product of its bounds. Wraps like the
 * model's int64 product (only a product >= 2^63 is affected). */
static int64_t walk_total(const sn_vc_desc *d)
{
    uint64_t t = 1;
    for (int i = 0; i < SN_VC_NDIM; i++)
        t *= d->bound[i];
    return (int64_t)t;
}

/* Address of entry i of a walk from base+off: dim 0 innermost. The walker
 * stops at its last entry, so i past the end repeats it. Index arithmetic is
 * floor division and modulo, as numpy does it. */
static uint64_t walk_addr(const sn_vc_desc *d, int64_t total, int64_t off, int64_t i)
{
    int64_t last = (int64_t)((uint64_t)total - 1);
    int64_t k = i < last ? i : last;
    uint64_t addr = d->base + (uint64_t)off;
    for (int dim = 0; dim < SN_VC_NDIM; dim++) {
        int64_t b = d->bound[dim];
        int64_t q = k / b, r = k % b;
        if (r < 0) {
            r += b;
            q -= 1;
        }
        addr += (uint64_t)(r * d->stride[dim]);
        k = q;
    }
    return addr;
}

/* The 14-bit offset of a load/store word, sign-extended (model.py@7703ee8
 * `_issue`). */
static int64_t word_offset(uint32_t w)
{
    int64_t off = (unsigned)sn_kword_mem_offset(w);
    return off >= 0x2000 ? off - 0x4000 : off;
}

static bool stop_fault(run *r, unsigned code)
{
    r->res->fault = (uint8_t)code;
    return true;
}

/* ---- ALU (model.py@7703ee8 `_source`, `_alu`, LANE_VALUE, LANE_PRED) ---- */

/* One operand: a vector register, or a scalar/constant broadcast. */
typedef struct operand {
    const double *vec; /* NULL for a broadcast */
    double scalar;
} operand;

static double opnd(const operand *o, unsigned i)
{
    return o->vec ? o->vec[i] : o->scalar;
}

/* Fills o; returns false (F_CHAIN) for source C, which FLAT does not wire. */
static bool source(const sn_vector_core *vc, unsigned sel, unsigned reg, operand *o)
{
    o->vec = NULL;
    o->scalar = 0.0;
    switch (sel) {
    case SRC_V:
        o->vec = vc->vreg[reg];
        return true;
    case SRC_S:
        o->scalar = sn_e8m15_to_double(vc->sreg[reg]);
        return true;
    case SRC_K:
        o->scalar = sn_e8m15_to_double(vc->kreg[reg & 3]);
        return true;
    default:
        return false;
    }
}

/* The exact (double) value of one lane before E8M15 rounding. */
static double lane_value(unsigned op, double a, double b, double c)
{
    volatile double prod; /* keeps a*b+c two roundings, never a fused FMA */
    switch (op) {
    case SN_K_VMOV: return a;
    case SN_K_VNEG: return -a;
    case SN_K_VABS: return fabs(a);
    case SN_K_VADD: return a + c; /* vb ignored (artifacts-facts §6) */
    case SN_K_VSUB: return a - c;
    case SN_K_VMUL: return a * b; /* vc ignored */
    case SN_K_VFMA: prod = a * b; return prod + c;
    case SN_K_VFNMA: prod = a * b; return -prod + c;
    case SN_K_VMAX: return a < b ? b : a; /* ties (and +-0) return a */
    case SN_K_VMIN: return a > b ? b : a;
    case SN_K_VSEL: return c != 0.0 ? a : b;
    case SN_K_VEXP2: return exp2(a);
    case SN_K_VLOG2: return log2(a);
    case SN_K_VINV: return 1.0 / a;
    case SN_K_VRSQRT: return 1.0 / sqrt(a);
    default: return a; /* unreachable: the caller dispatches op <= VRSQRT only */
    }
}

static bool compare(unsigned op, double a, double b)
{
    switch (op) {
    case SN_K_VCMPLT: return a < b;
    case SN_K_VCMPGT: return a > b;
    default: return a == b; /* VCMPEQ */
    }
}

/* Whether predicate mode pm lets element i be written: 0 always, 1 where
 * P[pr] is set, 2 and 3 where it is clear. */
static bool pred_keep(const sn_vector_core *vc, unsigned pm, unsigned pr, unsigned i)
{
    if (pm == 0)
        return true;
    return pm == 1 ? vc->preg[pr][i] != 0 : vc->preg[pr][i] == 0;
}

static bool exec_alu(run *r, unsigned op, uint32_t w)
{
    sn_vector_core *vc = r->vc;
    if (vc->vmode != SN_VC_FLAT) {
        r->res->unsupported = SN_VC_UNSUP_CHAIN_MODE;
        return true;
    }
    operand a, b, c;
    if (!source(vc, (unsigned)sn_kword_alu_sa(w), (unsigned)sn_kword_alu_va(w), &a) || !source(vc, (unsigned)sn_kword_alu_sb(w), (unsigned)sn_kword_alu_vb(w), &b) ||
        !source(vc, (unsigned)sn_kword_alu_sc(w), (unsigned)sn_kword_alu_vc(w), &c))
        return stop_fault(r, SN_VC_F_CHAIN);

    unsigned span = nchunk(vc) * SN_VC_LANES, vl = vc->vl;
    unsigned pr = (unsigned)sn_kword_alu_pr(w), pm = (unsigned)sn_kword_alu_pm(w);
    if (op >= SN_K_VCMPLT && op <= SN_K_VCMPEQ) { /* writes P[pr] under the tail mask only */
        for (unsigned i = 0; i < span && i < vl; i++)
            vc->preg[pr][i] = compare(op, opnd(&a, i), opnd(&b, i));
        return false;
    }
    double *d = vc->vreg[(unsigned)sn_kword_alu_vd(w)];
    for (unsigned i = 0; i < span && i < vl; i++)
        if (pred_keep(vc, pm, pr, i))
            d[i] = sn_e8m15_round(lane_value(op, opnd(&a, i), opnd(&b, i), opnd(&c, i)));
    return false;
}

/* ---- VRED (model.py@7703ee8 `_reduce`, `reduce_tree`) ---- */

static double red_comb(unsigned kind, double x, double y)
{
    switch (kind) {
    case RED_MAX: return (x >= y || isnan(x)) ? x : y; /* numpy maximum */
    case RED_MIN: return (x <= y || isnan(x)) ? x : y; /* numpy minimum */
    default: return x + y;
    }
}

/* Folds v[0..n) pairwise, rounding each node to E8M15; n a power of two. */
static double red_tree(unsigned kind, double *v, unsigned n)
{
    for (; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++)
            v[i] = sn_e8m15_round(red_comb(kind, v[2 * i], v[2 * i + 1]));
    return v[0];
}

static bool exec_vred(run *r, uint32_t w)
{
    sn_vector_core *vc = r->vc;
    unsigned kind = W_KIND(w), vl = vc->vl;
    if (kind == RED_ANY || kind == RED_ALL) { /* the predicate file: no mode or VL rule */
        bool any = false, all = true;
        for (unsigned i = 0; i < vl; i++) {
            any = any || vc->preg[(unsigned)sn_kword_alu_pr(w)][i];
            all = all && vc->preg[(unsigned)sn_kword_alu_pr(w)][i];
        }
        vc->sreg[(unsigned)sn_kword_alu_vd(w)] = (kind == RED_ANY ? any : all) ? SN_E8M15_ONE : 0;
        return false;
    }
    if (vl % SN_VC_LANES)
        return stop_fault(r, SN_VC_F_REDVL);
    if (vc->vmode != SN_VC_TREE)
        return stop_fault(r, SN_VC_F_OPCODE);

    const double *a = vc->vreg[(unsigned)sn_kword_alu_va(w)];
    unsigned n = vl / SN_VC_LANES;
    double totals[2 * SN_VC_VLMAX / SN_VC_LANES];
    unsigned ntotals;
    double col[SN_VC_LANES];
    if (kind == RED_SUMSQ || kind == RED_DOT || kind == RED_EXPSUM) {
        /* One element per leaf: beat t of 2n covers elements 8t..8t+7. SUMSQ
         * multiplies by vb like DOT; EXPSUM also writes its leaves to vb. */
        double leaves[SN_VC_VLMAX];
        double *other = vc->vreg[(unsigned)sn_kword_alu_vb(w)];
        for (unsigned i = 0; i < vl; i++)
            leaves[i] = sn_e8m15_round(kind == RED_EXPSUM ? exp2(a[i]) : a[i] * other[i]);
        if (kind == RED_EXPSUM)
            memcpy(other, leaves, vl * sizeof leaves[0]);
        ntotals = 2 * n;
        for (unsigned t = 0; t < ntotals; t++) {
            memcpy(col, &leaves[t * 8], 8 * sizeof col[0]);
            totals[t] = red_tree(kind, col, 8);
        }
    } else { /* SUM, MAX, MIN: chunk j's sixteen slices feed the tree */
        ntotals = n;
        for (unsigned j = 0; j < n; j++) {
            memcpy(col, &a[j * SN_VC_LANES], SN_VC_LANES * sizeof col[0]);
            totals[j] = red_tree(kind, col, SN_VC_LANES);
        }
    }
    /* Sixteen accumulators seeded with the identity; each total is folded
     * into its own, then one more tree pass combines them. */
    double ident = kind == RED_MAX ? -INFINITY : kind == RED_MIN ? INFINITY : 0.0;
    double acc[SN_VC_LANES];
    for (unsigned t = 0; t < SN_VC_LANES; t++)
        acc[t] = t < ntotals ? sn_e8m15_round(red_comb(kind, totals[t], ident)) : ident;
    vc->sreg[(unsigned)sn_kword_alu_vd(w)] = sn_double_to_e8m15(red_tree(kind, acc, SN_VC_LANES));
    return false;
}

/* ---- L1 <-> registers (model.py@7703ee8 `_load`, `_store`, `_convert`,
 * `_shuffle`, `_broadcast`) ---- */

static uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The L1 walk of a VLD or VST word: its dtype, descriptor A[ad], offset and
 * 128-bit word count (two words a chunk for FP32). */
typedef struct {
    unsigned dt, nwords;
    const sn_vc_desc *d;
    int64_t total, off;
} mem_walk;

/* false when the word's dtype is neither FP16 nor FP32 (a dtype fault). */
static bool mem_walk_of(const sn_vector_core *vc, uint32_t w, mem_walk *m)
{
    m->dt = (unsigned)sn_kword_mem_dtype(w);
    if (m->dt != DT_FP16 && m->dt != DT_FP32)
        return false;
    m->d = &vc->desc[(unsigned)sn_kword_mem_ad(w)];
    m->total = walk_total(m->d);
    m->off = word_offset(w);
    m->nwords = nchunk(vc) * (m->dt == DT_FP32 ? 2 : 1);
    return true;
}

/* The k-th L1 word of the walk (index mod 512). */
static uint8_t *mem_walk_word(sn_vector_core *vc, const mem_walk *m, unsigned k)
{
    return vc->l1[walk_addr(m->d, m->total, m->off, k) % SN_VC_L1_WORDS];
}

/* VLD: ceil(VL/16) words (twice that for FP32) along A[ad]+off, L1 index
 * taken mod 512; whole chunks land, no tail mask. */
static bool exec_vld(run *r, uint32_t w)
{
    mem_walk m;
    if (!mem_walk_of(r->vc, w, &m))
        return stop_fault(r, SN_VC_F_DTYPE);
    double *v = r->vc->vreg[(unsigned)sn_kword_alu_vd(w)];
    for (unsigned k = 0; k < m.nwords; k++) {
        const uint8_t *word = mem_walk_word(r->vc, &m, k);
        if (m.dt == DT_FP16)
            for (unsigned e = 0; e < 16; e++)
                v[16 * k + e] = sn_fp16_to_double(le16(word + 2 * e));
        else
            for (unsigned e = 0; e < 8; e++)
                v[8 * k + e] = sn_fp32_to_double(le32(word + 4 * e));
    }
    return false;
}

/* VST: whole chunks out, whatever VL says; FP16 saturates. Later words of a
 * walk that repeats its last address overwrite earlier ones. */
static bool exec_vst(run *r, uint32_t w)
{
    mem_walk m;
    if (!mem_walk_of(r->vc, w, &m))
        return stop_fault(r, SN_VC_F_DTYPE);
    const double *v = r->vc->vreg[(unsigned)sn_kword_alu_vd(w)];
    for (unsigned k = 0; k < m.nwords; k++) {
        uint8_t *word = mem_walk_word(r->vc, &m, k);
        if (m.dt == DT_FP16) {
            for (unsigned e = 0; e < 16; e++) {
                int sat;
                put_le16(word + 2 * e, sn_double_to_fp16_sat(v[16 * k + e], &sat));
                r->res->saturated += (uint32_t)sat;
            }
        } else {
            for (unsigned e = 0; e < 8; e++)
                put_le32(word + 4 * e, sn_double_to_fp32(v[8 * k + e]));
        }
    }
    return false;
}

/* VCVT: vd = va through dtype; FP32 is the identity, FP16 a saturating round
 * trip. Whole chunks, no predicate. */
static bool exec_vcvt(run *r, uint32_t w)
{
    sn_vector_core *vc = r->vc;
    unsigned dt = (unsigned)sn_kword_mem_dtype(w);
    if (dt != DT_FP16 && dt != DT_FP32)
        return stop_fault(r, SN_VC_F_DTYPE);
    const double *a = vc->vreg[(unsigned)sn_kword_alu_va(w)];
    double *d = vc->vreg[(unsigned)sn_kword_alu_vd(w)];
    unsigned span = nchunk(vc) * SN_VC_LANES;
    for (unsigned i = 0; i < span; i++) {
        double x = a[i];
        if (dt == DT_FP16) {
            int sat;
            x = sn_fp16_to_double(sn_double_to_fp16_sat(x, &sat));
            r->res->saturated += (uint32_t)sat;
        }
        d[i] = x;
    }
    return false;
}

/* VSHUF: vd[l] = va[(l + S[vb]) % 16] within each chunk, predicated by the
 * destination lane, no tail mask (docs/projects/kohakutpu/vector-core.md@7703ee8
 * §5.3). */
static bool exec_vshuf(run *r, uint32_t w)
{
    sn_vector_core *vc = r->vc;
    unsigned k = vc->sreg[(unsigned)sn_kword_alu_vb(w)] & 0xF, span = nchunk(vc) * SN_VC_LANES;
    unsigned pr = (unsigned)sn_kword_alu_pr(w), pm = (unsigned)sn_kword_alu_pm(w);
    const double *a = vc->vreg[(unsigned)sn_kword_alu_va(w)];
    double got[SN_VC_VLMAX];
    for (unsigned i = 0; i < span; i++)
        got[i] = a[(i & ~15u) + ((i + k) & 15u)];
    double *d = vc->vreg[(unsigned)sn_kword_alu_vd(w)];
    for (unsigned i = 0; i < span; i++)
        if (pred_keep(vc, pm, pr, i))
            d[i] = got[i];
    return false;
}

/* VBCAST: with sa = S, vd = S[va] in every lane of the active chunks (the
 * raw 24-bit value, unrounded); otherwise S[vd] = va[0] as E8M15 bits. */
static bool exec_vbcast(run *r, uint32_t w)
{
    sn_vector_core *vc = r->vc;
    if ((unsigned)sn_kword_alu_sa(w) == SRC_S) {
        double x = sn_e8m15_to_double(vc->sreg[(unsigned)sn_kword_alu_va(w)]);
        unsigned span = nchunk(vc) * SN_VC_LANES;
        for (unsigned i = 0; i < span; i++)
            vc->vreg[(unsigned)sn_kword_alu_vd(w)][i] = x;
    } else {
        vc->sreg[(unsigned)sn_kword_alu_vd(w)] = sn_double_to_e8m15(vc->vreg[(unsigned)sn_kword_alu_va(w)][0]);
    }
    return false;
}

/* ---- L1 <-> DRAM (model.py@7703ee8 `_fill`, `_sink`) ---- */

/* VFILL (drain false) or VDRAIN (true): one 32-byte word per entry of
 * A[ad]'s walk of DRAM byte addresses, against L1 from word offset mod 512.
 * A walk over 256 entries faults F_LEN before anything moves. */
static bool exec_stream(run *r, uint32_t w, bool drain)
{
    sn_vector_core *vc = r->vc;
    const sn_vc_desc *d = &vc->desc[(unsigned)sn_kword_mem_ad(w)];
    int64_t total = walk_total(d);
    if (total > SN_VC_MAX_WALK)
        return stop_fault(r, SN_VC_F_LEN);
    unsigned l1off = W_L1OFF(w);
    for (int64_t i = 0; i < total; i++) {
        uint64_t at = walk_addr(d, total, 0, i);
        uint8_t *word = vc->l1[(l1off + i) % SN_VC_L1_WORDS];
        int bad = drain ? r->mem->write(r->mem->ctx, at, word, SN_VC_WORD_BYTES)
                        : r->mem->read(r->mem->ctx, at, word, SN_VC_WORD_BYTES);
        if (bad) {
            r->res->mem_error = 1;
            r->res->bad_addr = at;
            return true;
        }
    }
    return false;
}

/* A peer VDRAIN (hw/vector.py@60942f3 `vdrain`): A[ad]'s base is
 * {ack_y[23:20], ack_x[19:16], receiver granule[15:0]} and its bounds are the
 * count, strides unused, since one CU_DATA transfer is a contiguous run. L1
 * words l1off.. (mod 512) are taken now and recorded as bursts for the mesh
 * to send; no DRAM is touched. The walk limit still applies (F_LEN). */
static bool exec_peer_drain(run *r, uint32_t w)
{
    sn_vector_core *vc = r->vc;
    const sn_vc_desc *d = &vc->desc[(unsigned)sn_kword_mem_ad(w)];
    int64_t total = walk_total(d);
    if (total > SN_VC_MAX_WALK)
        return stop_fault(r, SN_VC_F_LEN);
    uint32_t n = (uint32_t)total, nb = sn_cu_nbursts(n);
    if (nb > SN_VC_PEER_BURSTS - vc->npeer) {
        r->res->unsupported = SN_VC_UNSUP_PEER_BURSTS;
        return true;
    }
    sn_cu_burst head;
    memset(&head, 0, sizeof head);
    head.dst_x = (uint8_t)(unsigned)sn_kword_peer_dst_x(w);
    head.dst_y = (uint8_t)(unsigned)sn_kword_peer_dst_y(w);
    head.buf = (uint8_t)(unsigned)sn_kword_peer_buf(w);
    head.flags = (uint8_t)(unsigned)sn_kword_peer_signal(w);
    head.ack_y = (uint8_t)sn_vc_peer_base_ack_y(d->base);
    head.ack_x = (uint8_t)sn_vc_peer_base_ack_x(d->base);
    head.offset = (uint16_t)sn_vc_peer_base_word(d->base);
    uint8_t words[SN_VC_MAX_WALK][SN_CU_GRANULE_BYTES];
    unsigned l1off = W_L1OFF(w);
    for (uint32_t i = 0; i < n; i++)
        memcpy(words[i], vc->l1[(l1off + i) % SN_VC_L1_WORDS], SN_CU_GRANULE_BYTES);
    for (uint32_t i = 0; i < nb; i++)
        sn_cu_burst_of(&head, (const uint8_t (*)[SN_CU_GRANULE_BYTES])words, n, i, &vc->peer[vc->npeer++]);
    return false;
}

/* Entries a VFILL or VDRAIN word will move (0 for other words, and for a
 * walk past the limit, which faults before anything moves). */
static uint32_t walk_entries(const sn_vector_core *vc, unsigned op, uint32_t w)
{
    if (op != SN_K_VFILL && op != SN_K_VDRAIN)
        return 0;
    int64_t total = walk_total(&vc->desc[(unsigned)sn_kword_mem_ad(w)]);
    return total > 0 && total <= SN_VC_MAX_WALK ? (uint32_t)total : 0;
}

static bool exec_vdrain(run *r, uint32_t w)
{
    return (unsigned)sn_kword_peer_peer(w) ? exec_peer_drain(r, w) : exec_stream(r, w, true);
}

/* One kernel word that is neither VHALT, VSETI nor VLOOP (model.py@7703ee8
 * `_issue`). Returns true when the kernel must stop. */
static bool issue(run *r, unsigned op, uint32_t w)
{
    sn_vector_core *vc = r->vc;
    switch (op) {
    case SN_K_VLD: return exec_vld(r, w);
    case SN_K_VST: return exec_vst(r, w);
    case SN_K_VCVT: return exec_vcvt(r, w);
    case SN_K_VSHUF: return exec_vshuf(r, w);
    case SN_K_VBCAST: return exec_vbcast(r, w);
    case SN_K_VRED: return exec_vred(r, w);
    case SN_K_VFILL: return exec_stream(r, w, false);
    case SN_K_VDRAIN: return exec_vdrain(r, w);
    case SN_K_VSETVL: {
        uint32_t want = vc->sreg[(unsigned)sn_kword_alu_va(w)];
        if (want == 0 || want > SN_VC_VLMAX)
            return stop_fault(r, SN_VC_F_VL);
        vc->vl = want;
        return false;
    }
    case SN_K_VSETMODE:
        vc->vmode = (unsigned)sn_kword_alu_va(w) & 3;
        return false;
    case SN_K_VBAR: /* fills complete in program order here */
        return false;
    default:
        if (op <= SN_K_VRSQRT)
            return exec_alu(r, op, w);
        return stop_fault(r, SN_VC_F_OPCODE); /* unreachable: all 32 are defined */
    }
}

/* The sequencer (model.py@7703ee8 `_kernel`): one hardware loop level, the
 * loop closing when pc lands exactly on its end. */
static void run_kernel(run *r, unsigned start)
{
    sn_vector_core *vc = r->vc;
    unsigned pc = start, steps = 0;
    bool looping = false;
    unsigned top = 0, end = 0;
    int64_t count = 0;
    uint64_t spent = 0;
    for (;;) {
        if (pc >= SN_VC_IMEM_WORDS || steps > SN_VC_MAX_STEPS) {
            r->res->hang = 1;
            break;
        }
        uint32_t w = vc->imem[pc];
        unsigned op = (unsigned)sn_kword_alu_op(w);
        r->res->pc = (uint16_t)pc;
        pc++;
        steps++;
        spent += word_cycles(op, vc);
        if (r->time)
            sn_vc_timing_word(r->time, w, op, nchunk(vc), walk_entries(vc, op, w));
        if (op == SN_K_VHALT)
            break;
        if (op == SN_K_VSETI) {
            if (pc >= SN_VC_IMEM_WORDS) { /* the immediate would lie past IMEM */
                r->res->hang = 1;
                break;
            }
            uint32_t imm = vc->imem[pc++] & 0xFFFFFFu;
            if ((unsigned)sn_kword_alu_sa(w) == SRC_K)
                vc->kreg[3] = imm;
            else
                vc->sreg[(unsigned)sn_kword_alu_vd(w)] = imm;
        } else if (op == SN_K_VLOOP) {
            if (looping) {
                r->res->fault = SN_VC_F_LOOP;
                break;
            }
            looping = true;
            count = vc->sreg[(unsigned)sn_kword_alu_va(w)];
            top = pc;
            end = pc + W_BODY(w);
        } else if (issue(r, op, w)) {
            break;
        }
        if (looping && pc == end) {
            count--;
            looping = count > 0;
            if (looping)
                pc = top;
        }
    }
    r->res->retired = steps;
    r->res->cycles = (uint32_t)spent;
}

void sn_vc_reset(sn_vector_core *vc)
{
    memset(vc, 0, sizeof *vc);
    for (int a = 0; a < SN_VC_NDESC; a++)
        for (int d = 0; d < SN_VC_NDIM; d++)
            vc->desc[a].bound[d] = 1;
    vc->kreg[1] = SN_E8M15_ONE;
    vc->kreg[2] = SN_E8M15_MINUS_ONE;
    vc->vl = SN_VC_VLMAX;
    vc->vmode = SN_VC_FLAT;
}

/* DESC: field 0 is the base (34 low bits + [68:63] as bits 39:34), 1..4 a
 * {stride[17:0] signed, bound[15:0]} pair (model.py@7703ee8 `_descriptor`,
 * isa/vector.py@7703ee8 VecConfig). */
static void write_desc(sn_vector_core *vc, const sn_payload *p)
{
    sn_vc_desc *d = &vc->desc[sn_vc_desc_ad(p)];
    unsigned fld = (unsigned)sn_vc_desc_fld(p);
    uint64_t value = sn_vc_desc_value(p);
    if (fld == 0) {
        d->base = value | sn_vc_desc_value_hi(p) << SN_VC_VALUE_BITS;
    } else if (fld <= SN_VC_NDIM) {
        int32_t stride = (int32_t)sn_vc_dim_stride(value);
        d->stride[fld - 1] = stride >= (1 << 17) ? stride - (1 << 18) : stride;
        uint32_t bound = (uint32_t)sn_vc_dim_bound(value);
        d->bound[fld - 1] = bound ? bound : 1;
    }
}

sn_vc_result sn_vc_execute(sn_vector_core *vc, const sn_payload *payload, const sn_mem_port *mem,
                           sn_vc_timing *time)
{
    sn_vc_result res;
    memset(&res, 0, sizeof res);
    res.cycles = 1;
    vc->npeer = 0;
    switch (sn_vc_run_op(payload)) {
    case SN_VC_OP_IMEM:
        vc->imem[sn_vc_imem_addr(payload)] = (uint32_t)sn_vc_imem_word(payload);
        break;
    case SN_VC_OP_DESC:
        write_desc(vc, payload);
        break;
    case SN_VC_OP_RUN: {
        run r = {.vc = vc, .mem = mem, .res = &res, .time = time};
        run_kernel(&r, (unsigned)sn_vc_run_pc(payload));
        break;
    }
    default: /* retires at once as a no-op (sysnode-facts §3.2) */
        break;
    }
    vc->saturated += res.saturated;
    res.nbursts = vc->npeer;
    return res;
}

int sn_vc_l1_write(sn_vector_core *vc, uint32_t word_offset, const uint8_t *bytes, uint32_t nwords)
{
    if (word_offset > SN_VC_L1_WORDS || nwords > SN_VC_L1_WORDS - word_offset)
        return SN_VC_F_CUDATA;
    memcpy(vc->l1[word_offset], bytes, (size_t)nwords * SN_VC_WORD_BYTES);
    return 0;
}

int sn_vc_peer_burst(const sn_vector_core *vc, uint32_t i, sn_cu_burst *b)
{
    if (i >= vc->npeer)
        return -1;
    *b = vc->peer[i];
    return 0;
}
