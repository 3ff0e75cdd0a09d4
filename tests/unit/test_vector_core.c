/* Unit tests of sim/models/vector_core (and dram): the compiler's real vadd
 * artifacts replayed end to end against their expected bytes, the SiLU
 * epilogue kernels of mm_silu_32x128x64 on synthetic L1 data, hand-encoded
 * kernels checked against an independent computation (fp16_ref.h), and peer
 * VDRAIN bursts checked against fields and bytes worked out in the test. */
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_main.h"

#define JSMN_STATIC
#include <jsmn.h>

#include "dram.h"
#include "fp16_ref.h"
#include "sysnode/status.h"
#include "vector_core.h"

#define DRAM_SIZE (1u << 20)

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static void wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* ---- kernel-word encoders (hw/vector.py@7703ee8 layouts); payloads: sysnode/words.h ---- */

static uint64_t dim(int32_t stride, uint32_t bound)
{
    return ((uint64_t)stride & 0x3FFFF) << 16 | bound;
}

enum { S_V = 0, S_S = 1, S_C = 2, S_K = 3 };

static uint32_t alu(unsigned op, unsigned vd, unsigned va, unsigned vb, unsigned vc,
                    unsigned sa, unsigned sb, unsigned sc, unsigned pr, unsigned pm)
{
    return op << 27 | sa << 25 | sb << 23 | sc << 21 | vd << 17 | va << 13 | vb << 9 | vc << 5 |
           pr << 3 | pm << 1;
}

static uint32_t ls(unsigned op, unsigned dt, unsigned ad, unsigned vd, unsigned off)
{
    return op << 27 | dt << 24 | ad << 21 | vd << 17 | (off & 0x3FFF);
}

#define OP_VMOV 0x00
#define OP_VADD 0x03
#define OP_VSUB 0x04
#define OP_VMUL 0x05
#define OP_VMAX 0x08
#define OP_VCMPLT 0x0B
#define OP_VCMPGT 0x0C
#define OP_VLD 0x14
#define OP_VST 0x15
#define OP_VBCAST 0x16
#define OP_VSHUF 0x17
#define OP_VFILL 0x1D
#define OP_VDRAIN 0x1E
#define W_VSETVL(s) (0x18u << 27 | (s) << 13)
#define W_VSETMODE(m) (0x19u << 27 | (m) << 13)
#define W_VSETI(s) (0x1Au << 27 | (s) << 17)
#define W_VLOOP(s, body) (0x1Bu << 27 | (s) << 13 | (body) << 9)
#define W_VBAR (0x1Cu << 27)
#define W_VHALT (0x1Fu << 27)
#define W_VRED(sd, va, kind, vb, pr) (0x13u << 27 | (sd) << 17 | (va) << 13 | (vb) << 9 | (kind) << 5 | (pr) << 3)

/* A fixture: one core, 1 MiB of DRAM and its port. */
typedef struct fix {
    sn_vector_core vc;
    sn_dram dram;
    sn_mem_port port;
} fix;

static int setup(void **state)
{
    fix *f = malloc(sizeof *f);
    if (f == NULL || sn_dram_init(&f->dram, DRAM_SIZE) != SN_OK)
        return -1;
    sn_vc_reset(&f->vc);
    f->port = sn_dram_port(&f->dram);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fix *f = *state;
    sn_dram_free(&f->dram);
    free(f);
    return 0;
}

static sn_vc_result exec(fix *f, sn_payload p)
{
    return sn_vc_execute(&f->vc, &p, &f->port, NULL);
}

/* Loads words at IMEM 0.. and runs from 0. */
static sn_vc_result run_words(fix *f, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        sn_vc_result r = exec(f, sn_vc_imem_payload(i, w[i]));
        assert_int_equal(r.cycles, 1);
        assert_int_equal(r.fault, 0);
    }
    return exec(f, sn_vc_run_payload(0));
}

static void set_desc(fix *f, unsigned ad, uint64_t base, int32_t stride, uint32_t bound)
{
    exec(f, sn_vc_desc_payload(ad, 0, base));
    exec(f, sn_vc_desc_payload(ad, 1, dim(stride, bound)));
}

/* ---- tiny artifact readers (jsmn; throwaway, test-only) ---- */

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        fail_msg("cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    buf[n] = 0;
    if (len)
        *len = (size_t)n;
    return buf;
}

typedef struct json {
    char *text;
    jsmntok_t *tok;
    int ntok;
} json;

static json json_load(const char *path)
{
    json j;
    size_t len;
    j.text = slurp(path, &len);
    jsmn_parser p;
    jsmn_init(&p);
    int n = jsmn_parse(&p, j.text, len, NULL, 0);
    assert_true(n > 0);
    j.tok = calloc((size_t)n, sizeof *j.tok);
    jsmn_init(&p);
    j.ntok = jsmn_parse(&p, j.text, len, j.tok, (unsigned)n);
    assert_int_equal(j.ntok, n);
    return j;
}

static void json_free(json *j)
{
    free(j->text);
    free(j->tok);
}

static int json_skip(const json *j, int i)
{
    int next = i + 1;
    for (int k = 0; k < j->tok[i].size; k++)
        next = json_skip(j, next);
    return next;
}

/* The value token of key in object obj, or -1. */
static int key(const json *j, int obj, const char *name)
{
    int at = obj + 1;
    for (int k = 0; k < j->tok[obj].size; k++) {
        const jsmntok_t *t = &j->tok[at];
        if ((size_t)(t->end - t->start) == strlen(name) && !strncmp(j->text + t->start, name, strlen(name)))
            return at + 1;
        at = json_skip(j, at);
    }
    return -1;
}

/* A decimal integer token as a payload, keeping only bits 255:0. */
static sn_payload json_payload(const json *j, int i)
{
    uint32_t limb[10] = {0}; /* 320 bits, little-endian 32-bit limbs */
    for (int c = j->tok[i].start; c < j->tok[i].end; c++) {
        char ch = j->text[c];
        assert_true(ch >= '0' && ch <= '9');
        uint64_t carry = (uint64_t)(ch - '0');
        for (int l = 0; l < 10; l++) {
            uint64_t v = (uint64_t)limb[l] * 10 + carry;
            limb[l] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    sn_payload p;
    for (int w = 0; w < SN_PAYLOAD_WORDS; w++)
        p.w[w] = (uint64_t)limb[2 * w + 1] << 32 | limb[2 * w];
    return p;
}

static uint64_t json_u64(const json *j, int i)
{
    return strtoull(j->text + j->tok[i].start, NULL, 10);
}

static char *json_str(const json *j, int i)
{
    int n = j->tok[i].end - j->tok[i].start;
    char *s = malloc((size_t)n + 1);
    memcpy(s, j->text + j->tok[i].start, (size_t)n);
    s[n] = 0;
    return s;
}

/* Executes every flit of one artifact file on vc; returns how many, and
 * the result of the last. */
static int replay_artifact(fix *f, const char *path, sn_vc_result *last)
{
    json a = json_load(path);
    int flits = key(&a, 0, "flits");
    assert_true(flits > 0);
    int n = a.tok[flits].size;
    for (int k = 0, at = flits + 1; k < n; k++, at = json_skip(&a, at)) {
        *last = exec(f, json_payload(&a, at));
        assert_int_equal(last->fault, 0);
        assert_int_equal(last->mem_error, 0);
        assert_int_equal(last->unsupported, 0);
        assert_int_equal(last->hang, 0);
    }
    json_free(&a);
    return n;
}

/* Replays case dir end to end: uploads, flits, then compares every expected
 * output byte for byte. Returns the RUN's result. */
static sn_vc_result replay_case(fix *f, const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/compiler/%s/manifest.json", SN_ARTIFACTS_DIR, dir);
    json m = json_load(path);
    int ups = key(&m, 0, "uploads_before_round0");
    assert_true(ups > 0);
    for (int k = 0, at = ups + 1; k < m.tok[ups].size; k++, at = json_skip(&m, at)) {
        char *file = json_str(&m, key(&m, at, "file"));
        uint64_t addr = json_u64(&m, key(&m, at, "addr"));
        snprintf(path, sizeof path, "%s/compiler/%s/%s", SN_ARTIFACTS_DIR, dir, file);
        size_t len;
        char *bytes = slurp(path, &len);
        assert_int_equal(sn_dram_write(&f->dram, addr, bytes, len), SN_OK);
        free(bytes);
        free(file);
    }
    sn_vc_result last;
    snprintf(path, sizeof path, "%s/compiler/%s/artifact.json", SN_ARTIFACTS_DIR, dir);
    assert_int_equal(replay_artifact(f, path, &last), 26);

    int outs = key(&m, 0, "expected_outputs_after_last_round");
    assert_true(outs > 0 && m.tok[outs].size > 0);
    for (int k = 0, at = outs + 1; k < m.tok[outs].size; k++, at = json_skip(&m, at)) {
        char *file = json_str(&m, key(&m, at, "file"));
        uint64_t addr = json_u64(&m, key(&m, at, "addr"));
        uint64_t nbytes = json_u64(&m, key(&m, at, "nbytes"));
        snprintf(path, sizeof path, "%s/compiler/%s/%s", SN_ARTIFACTS_DIR, dir, file);
        size_t len;
        char *want = slurp(path, &len);
        assert_int_equal(len, nbytes);
        uint8_t *got = malloc(len);
        assert_int_equal(sn_dram_read(&f->dram, addr, got, len), SN_OK);
        assert_memory_equal(got, want, len);
        free(got);
        free(want);
        free(file);
    }
    json_free(&m);
    return last;
}

/* vadd128 kernel cost at VL 128, by the rule of artifacts-facts §7: VSETI,
 * VSETVL, VSETMODE, VFILL, VFILL, VBAR, VDRAIN one each (7); VLD, VLD, VADD,
 * VST and VHALT ceil(128/16) = 8 each (40). */
#define VADD128_RUN_CYCLES 47

static void test_vadd128_artifact(void **state)
{
    fix *f = *state;
    sn_vc_result r = replay_case(f, "vadd128");
    assert_int_equal(r.cycles, VADD128_RUN_CYCLES);
    assert_int_equal(r.retired, 12); /* 13 words, VSETI's immediate is not one */
    /* H-2P2's check (sysnode-facts §3.2): 3, 6, 9, 12 as FP16 */
    uint8_t head[8];
    sn_dram_read(&f->dram, 0x3000, head, sizeof head);
    assert_int_equal(rd16(head + 0), 0x4200);
    assert_int_equal(rd16(head + 2), 0x4600);
    assert_int_equal(rd16(head + 4), 0x4880);
    assert_int_equal(rd16(head + 6), 0x4A00);
}

static void test_vadd128_api_artifact(void **state)
{
    fix *f = *state;
    sn_vc_result r = replay_case(f, "vadd128_api");
    assert_int_equal(r.cycles, VADD128_RUN_CYCLES);
}

/* The SiLU epilogue rounds of mm_silu_32x128x64 (rounds 1 and 2, one per
 * vector core): x in L1 words 0..63, y = x * 1/(1 + 2^(x * -log2e)) written
 * to L1 64..127 and drained to 0x26000 / 0x26800 (see the case's
 * disasm.txt). The cluster's CU_DATA is replaced by synthetic FP16 data. */
static void check_silu_round(fix *f, const char *file, uint64_t out_addr, uint32_t seed)
{
    uint8_t l1[64 * SN_VC_WORD_BYTES];
    for (unsigned i = 0; i < 1024; i++) {
        seed = seed * 1664525u + 1013904223u;
        /* every finite exponent field (0..30), so exp2 also overflows to
         * infinity and underflows to zero; random fraction and sign */
        uint16_t h = (uint16_t)((seed >> 16 & 0x8000) | (((seed >> 8) % 31) << 10) | (seed & 0x3FF));
        wr16(l1 + 2 * i, h);
    }
    assert_int_equal(sn_vc_l1_write(&f->vc, 0, l1, 64), 0);

    char path[512];
    snprintf(path, sizeof path, "%s/compiler/mm_silu_32x128x64/%s", SN_ARTIFACTS_DIR, file);
    sn_vc_result last;
    assert_int_equal(replay_artifact(f, path, &last), 71);

    /* -log2(e) as the kernel's VSETI immediate 0xBFB8AA (FP32 bits >> 8) */
    const double neg_log2e = -0x1.7154p+0;
    uint8_t out[2048];
    assert_int_equal(sn_dram_read(&f->dram, out_addr, out, sizeof out), SN_OK);
    for (unsigned i = 0; i < 1024; i++) {
        double x = ref_fp16_value(rd16(l1 + 2 * i));
        double t = ref_e8m15(x * neg_log2e);
        t = ref_e8m15(exp2(t));
        t = ref_e8m15(t + 1.0);
        t = ref_e8m15(1.0 / t);
        uint16_t want = ref_fp16_store(ref_e8m15(x * t));
        assert_int_equal(rd16(out + 2 * i), want);
    }
    /* 8 x (VLD, VMUL, VEXP2, VADD, VINV, VMUL, VST) at 8 cycles + VHALT 8,
     * plus 2 VSETI, VSETVL, VSETMODE, VDRAIN at 1: 8*7*8 + 8 + 5 */
    assert_int_equal(last.cycles, 8 * 7 * 8 + 8 + 5);
}

static void test_mm_silu_epilogue_rounds(void **state)
{
    fix *f = *state;
    check_silu_round(f, "artifact_001.json", 0x26000, 1);
    sn_vc_reset(&f->vc); /* round 2 runs on the other core, (1,2) */
    check_silu_round(f, "artifact_002.json", 0x26800, 2);
}

/* ---- hand-encoded kernels ---- */

/* Random finite FP16 patterns, exponents spread so products overflow,
 * underflow and land on ties. */
static void random_fp16(uint16_t *v, unsigned n, uint32_t seed)
{
    for (unsigned i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        uint16_t h = (uint16_t)(seed >> 16);
        if ((h & 0x7C00) == 0x7C00)
            h ^= 0x4000; /* keep it finite */
        v[i] = h;
    }
}

/* VMUL, VSUB and VMAX over 128 FP16 pairs, through VFILL, VLD, VST, VDRAIN. */
static void test_binary_ops_vs_reference(void **state)
{
    fix *f = *state;
    uint16_t a[128], b[128];
    random_fp16(a, 128, 7);
    random_fp16(b, 128, 11);
    b[0] = a[0];                      /* VMAX tie returns va */
    a[1] = 0x0000, b[1] = 0x8000;     /* +0 against -0: va */
    for (unsigned i = 0; i < 128; i++) {
        uint8_t e[2];
        wr16(e, a[i]);
        sn_dram_write(&f->dram, 0x1000 + 2 * i, e, 2);
        wr16(e, b[i]);
        sn_dram_write(&f->dram, 0x2000 + 2 * i, e, 2);
    }
    set_desc(f, 0, 0x1000, 32, 8); /* DRAM walks, 32-byte words */
    set_desc(f, 1, 0x2000, 32, 8);
    set_desc(f, 2, 0, 1, 8);       /* L1 walks, word indices */
    set_desc(f, 3, 8, 1, 8);
    set_desc(f, 4, 16, 1, 8);
    set_desc(f, 5, 24, 1, 8);
    set_desc(f, 6, 32, 1, 8);
    set_desc(f, 7, 0x3000, 32, 24);
    const uint32_t k[] = {
        W_VSETI(0), 128, W_VSETVL(0), W_VSETMODE(0),
        ls(OP_VFILL, 0, 0, 0, 0), ls(OP_VFILL, 0, 1, 0, 8), W_VBAR,
        ls(OP_VLD, 1, 2, 0, 0), ls(OP_VLD, 1, 3, 1, 0),
        alu(OP_VMUL, 2, 0, 1, 9, S_V, S_V, S_V, 0, 0), /* vc names junk: ignored */
        alu(OP_VSUB, 3, 0, 9, 1, S_V, S_V, S_V, 0, 0), /* vb ignored */
        alu(OP_VMAX, 4, 0, 1, 9, S_V, S_V, S_V, 0, 0),
        ls(OP_VST, 1, 4, 2, 0), ls(OP_VST, 1, 5, 3, 0), ls(OP_VST, 1, 6, 4, 0),
        ls(OP_VDRAIN, 0, 7, 0, 16), W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    assert_int_equal(r.mem_error, 0);
    /* VSETI, VSETVL, VSETMODE, 2 VFILL, VBAR, VDRAIN: 7; 2 VLD, 3 ALU,
     * 3 VST, VHALT: 9 x 8 */
    assert_int_equal(r.cycles, 7 + 9 * 8);
    unsigned saturated = 0;
    for (unsigned i = 0; i < 128; i++) {
        double x = ref_fp16_value(a[i]), y = ref_fp16_value(b[i]);
        uint8_t got[2];
        double mul = ref_e8m15(x * y);
        saturated += isfinite(mul) && fabs(mul) >= 65520.0;
        sn_dram_read(&f->dram, 0x3000 + 2 * i, got, 2);
        assert_int_equal(rd16(got), ref_fp16_store(mul));
        double sub = ref_e8m15(x - y);
        saturated += isfinite(sub) && fabs(sub) >= 65520.0;
        sn_dram_read(&f->dram, 0x3000 + 256 + 2 * i, got, 2);
        assert_int_equal(rd16(got), ref_fp16_store(sub));
        sn_dram_read(&f->dram, 0x3000 + 512 + 2 * i, got, 2);
        assert_int_equal(rd16(got), x < y ? b[i] : a[i]);
    }
    assert_true(saturated > 0);
    assert_int_equal(r.saturated, saturated);
}

/* VLOOP: v1 += v0 five times, then VST; and a count of 0 runs the body once
 * (the sequencer decrements before it tests, model.py@7703ee8 `_kernel`). */
static void test_vloop(void **state)
{
    fix *f = *state;
    uint8_t l1[8 * 32];
    for (unsigned i = 0; i < 128; i++)
        wr16(l1 + 2 * i, (uint16_t)(0x3C00 + 37 * i)); /* 1.0 and up */
    sn_vc_l1_write(&f->vc, 0, l1, 8);
    set_desc(f, 0, 0, 1, 8);
    set_desc(f, 1, 8, 1, 8);
    const uint32_t k[] = {
        W_VSETI(1), 5,
        ls(OP_VLD, 1, 0, 0, 0),
        W_VLOOP(1, 1),
        alu(OP_VADD, 1, 1, 0, 0, S_V, S_V, S_V, 0, 0), /* v1 = v1 + v0 */
        ls(OP_VST, 1, 1, 1, 0),
        W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    /* VSETI 1, VLD 8, VLOOP 1, 5 x VADD 8, VST 8, VHALT 8 */
    assert_int_equal(r.cycles, 1 + 8 + 1 + 5 * 8 + 8 + 8);
    assert_int_equal(r.retired, 1 + 1 + 1 + 5 + 1 + 1);
    for (unsigned i = 0; i < 128; i++) {
        double x = ref_fp16_value(rd16(l1 + 2 * i)), acc = 0.0;
        for (int n = 0; n < 5; n++)
            acc = ref_e8m15(acc + x);
        assert_int_equal(rd16(f->vc.l1[8 + i / 16] + 2 * (i % 16)), ref_fp16_store(acc));
    }
    /* count 0: one pass, so v1 = 5x + x */
    exec(f, sn_vc_imem_payload(1, 0));
    r = exec(f, sn_vc_run_payload(0));
    assert_int_equal(r.retired, 1 + 1 + 1 + 1 + 1 + 1);
    double x = ref_fp16_value(rd16(l1)), acc = 0.0;
    for (int n = 0; n < 6; n++)
        acc = ref_e8m15(acc + x);
    assert_int_equal(rd16(f->vc.l1[8]), ref_fp16_store(acc));
}

/* A VL that is not a multiple of 16: the ALU writes lanes < VL only, VST
 * writes whole chunks, so lanes 20..31 carry the register's old values. */
static void test_vl_tail(void **state)
{
    fix *f = *state;
    uint8_t l1[24 * 32];
    for (unsigned i = 0; i < 3 * 128; i++)
        wr16(l1 + 2 * i, (uint16_t)(0x4000 + i)); /* 2.0 and up */
    sn_vc_l1_write(&f->vc, 0, l1, 24);
    set_desc(f, 0, 0, 1, 8);
    set_desc(f, 1, 8, 1, 8);
    set_desc(f, 2, 16, 1, 8);
    set_desc(f, 3, 32, 1, 8);
    const uint32_t k[] = {
        ls(OP_VLD, 1, 0, 0, 0), ls(OP_VLD, 1, 1, 1, 0), ls(OP_VLD, 1, 2, 2, 0), /* VL 128 */
        W_VSETI(0), 20, W_VSETVL(0),
        alu(OP_VADD, 2, 0, 0, 1, S_V, S_V, S_V, 0, 0),
        ls(OP_VST, 1, 3, 2, 0),
        W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    assert_int_equal(f->vc.vl, 20);
    for (unsigned i = 0; i < 32; i++) {
        uint16_t got = rd16(f->vc.l1[32 + i / 16] + 2 * (i % 16));
        double x = ref_fp16_value(rd16(l1 + 2 * i)), y = ref_fp16_value(rd16(l1 + 256 + 2 * i));
        uint16_t want = i < 20 ? ref_fp16_store(ref_e8m15(x + y)) : rd16(l1 + 512 + 2 * i);
        assert_int_equal(got, want);
    }
    /* the third chunk was not stored: ceil(20/16) = 2 words */
    assert_int_equal(rd16(f->vc.l1[34]), 0);
}

/* TREE reductions on small integers, exact at every node, so the expected
 * E8M15 words are plain arithmetic: sum 1..128 = 8256 = 2^13 * (1 + 2^-7)
 * -> exponent 140, fraction 1 << 8 -> 0x460100; max 128 = 2^7 -> 0x430000;
 * DOT of 1..32 with itself = 11440 = 2^13 * (1 + 12992/2^15) -> 0x4632C0.
 * Then compare + ANY/ALL, VBCAST both ways and a predicated VSHUF. */
static void test_reductions_predicates_shuffle(void **state)
{
    fix *f = *state;
    uint8_t l1[8 * 32];
    for (unsigned i = 0; i < 128; i++)
        wr16(l1 + 2 * i, ref_fp16_store(i + 1.0));
    sn_vc_l1_write(&f->vc, 0, l1, 8);
    set_desc(f, 0, 0, 1, 8);
    set_desc(f, 1, 16, 1, 8);
    const uint32_t k[] = {
        ls(OP_VLD, 1, 0, 0, 0),
        W_VSETMODE(3),
        W_VRED(1, 0, 0, 0, 0), /* S1 = sum v0 */
        W_VRED(2, 0, 1, 0, 0), /* S2 = max v0 */
        W_VSETI(0), 32, W_VSETVL(0),
        W_VRED(3, 0, 4, 0, 0), /* S3 = dot(v0, v0) */
        W_VSETI(0), 128, W_VSETVL(0), W_VSETMODE(0),
        alu(OP_VCMPGT, 0, 0, 0, 0, S_V, S_K, S_V, 0, 0), /* P0 = v0 > 0.0 */
        alu(OP_VCMPLT, 0, 0, 0, 0, S_V, S_K, S_V, 1, 0), /* P1 = v0 < 0.0 */
        W_VRED(4, 0, 7, 0, 0), /* S4 = ALL P0 */
        W_VRED(5, 0, 6, 0, 1), /* S5 = ANY P1 */
        alu(OP_VCMPLT, 0, 0, 0, 0, S_V, S_S, S_V, 2, 0), /* P2 = v0 < S1 */
        W_VSETI(6), 3,
        alu(OP_VMOV, 5, 0, 0, 0, S_V, S_V, S_V, 0, 0),   /* v5 = v0 */
        (uint32_t)OP_VSHUF << 27 | 5u << 17 | 0u << 13 | 6u << 9 | 3u << 3 | 2u << 1,
        W_VSETI(7), 0x3FC000,                            /* 1.5 */
        (uint32_t)OP_VBCAST << 27 | S_S << 25 | 6u << 17 | 7u << 13, /* v6 = S7 */
        (uint32_t)OP_VBCAST << 27 | 8u << 17 | 5u << 13,             /* S8 = v5[0] */
        ls(OP_VST, 1, 1, 6, 0),
        W_VHALT,
    };
    /* P3 is never written, so pm=2 (write where clear) shuffles every lane */
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    assert_int_equal(r.unsupported, 0);
    assert_int_equal(f->vc.sreg[1], 0x460100);
    assert_int_equal(f->vc.sreg[2], 0x430000);
    assert_int_equal(f->vc.sreg[3], 0x4632C0);
    assert_int_equal(f->vc.sreg[4], 0x3F8000); /* 1.0 */
    assert_int_equal(f->vc.sreg[5], 0);
    /* v5[l] = v0[chunk + (l + 3) % 16] = that element + 1 */
    for (unsigned i = 0; i < 128; i++)
        assert_true(f->vc.vreg[5][i] == (double)((i & ~15u) + ((i + 3) & 15u) + 1));
    assert_int_equal(f->vc.sreg[8], 0x408000); /* v5[0] = 4.0 */
    for (unsigned i = 0; i < 128; i++)
        assert_int_equal(rd16(f->vc.l1[16 + i / 16] + 2 * (i % 16)), 0x3E00); /* 1.5 */
}

/* Signed zeros through the tree, VL 128: DOT of -0.0 by 1.0 gives -0.0 in
 * every node, and its 16 totals fill all 16 accumulators; each is folded
 * with the +0.0 seed first, and -0 + +0 = +0, so the answer is +0
 * (0x000000). MAX's seed is -inf, which keeps -0 (0x800000). The operands
 * come from one L1 word each through stride-0 descriptors. */
static void test_vred_signed_zero(void **state)
{
    fix *f = *state;
    uint8_t words[64];
    for (unsigned i = 0; i < 16; i++) {
        wr16(words + 2 * i, 0x8000);
        wr16(words + 32 + 2 * i, 0x3C00);
    }
    sn_vc_l1_write(&f->vc, 0, words, 2);
    set_desc(f, 0, 0, 0, 8);
    set_desc(f, 1, 1, 0, 8);
    const uint32_t k[] = {
        ls(OP_VLD, 1, 0, 0, 0), ls(OP_VLD, 1, 1, 1, 0), W_VSETMODE(3),
        W_VRED(1, 0, 4, 1, 0), W_VRED(2, 0, 1, 0, 0), W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    assert_int_equal(f->vc.sreg[1], 0x000000);
    assert_int_equal(f->vc.sreg[2], 0x800000);
}

/* Walks: a VLD of 8 words along a 2-entry descriptor repeats its last entry
 * (the walker stops, it does not wrap); a 2-dim walk with a negative stride;
 * a negative offset wrapping the L1 index mod 512. */
static void test_walks(void **state)
{
    fix *f = *state;
    uint8_t words[3 * 32];
    for (unsigned w = 0; w < 3; w++)
        for (unsigned i = 0; i < 16; i++)
            wr16(words + 32 * w + 2 * i, ref_fp16_store(w + 1.0));
    sn_vc_l1_write(&f->vc, 0, words, 3);
    sn_vc_l1_write(&f->vc, 510, words, 2);
    set_desc(f, 0, 0, 1, 2);                        /* words 0, 1 */
    exec(f, sn_vc_desc_payload(1, 0, 40));
    exec(f, sn_vc_desc_payload(1, 1, dim(-1, 4)));              /* 40, 39, 38, 37 */
    exec(f, sn_vc_desc_payload(1, 2, dim(10, 2)));              /* then 50, 49, 48, 47 */
    set_desc(f, 2, 0, 1, 8);
    const uint32_t k[] = {
        ls(OP_VLD, 1, 0, 0, 0),
        ls(OP_VST, 1, 1, 0, 0),
        ls(OP_VLD, 1, 2, 1, 0x3FFE), /* offset -2: words 510, 511, 0, ..., 5 */
        W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    for (unsigned c = 0; c < 8; c++)
        assert_true(f->vc.vreg[0][16 * c + 5] == (c == 0 ? 1.0 : 2.0));
    const unsigned at[8] = {40, 39, 38, 37, 50, 49, 48, 47};
    for (unsigned c = 0; c < 8; c++)
        assert_int_equal(rd16(f->vc.l1[at[c]] + 6), ref_fp16_store(c == 0 ? 1.0 : 2.0));
    const double want[8] = {1, 2, 1, 2, 3, 0, 0, 0}; /* words 510, 511, 0..5 */
    for (unsigned c = 0; c < 8; c++)
        assert_true(f->vc.vreg[1][16 * c] == want[c]);
}

static bool same_value(double x, double y)
{
    return (isnan(x) && isnan(y)) || !memcmp(&x, &y, sizeof x);
}

/* The other ALU opcodes, a K3 constant from VSETI and VCVT, on random FP16
 * operands, each lane checked against the model's formula evaluated here. */
static void test_alu_battery(void **state)
{
    fix *f = *state;
    uint16_t in[3 * 128];
    random_fp16(in, 3 * 128, 23);
    for (unsigned i = 0; i < 128; i += 5)
        in[256 + i] = 0x8000; /* some zero selectors for VSEL */
    uint8_t l1[24 * 32];
    for (unsigned i = 0; i < 3 * 128; i++)
        wr16(l1 + 2 * i, in[i]);
    sn_vc_l1_write(&f->vc, 0, l1, 24);
    set_desc(f, 0, 0, 1, 8);
    set_desc(f, 1, 8, 1, 8);
    set_desc(f, 2, 16, 1, 8);
    const uint32_t k[] = {
        ls(OP_VLD, 1, 0, 0, 0), ls(OP_VLD, 1, 1, 1, 0), ls(OP_VLD, 1, 2, 2, 0),
        0x1Au << 27 | S_K << 25, 0x400000, /* K3 = 2.0 */
        alu(0x06, 3, 0, 1, 2, S_V, S_V, S_V, 0, 0),  /* VFMA */
        alu(0x07, 4, 0, 1, 2, S_V, S_V, S_V, 0, 0),  /* VFNMA */
        alu(0x0A, 5, 0, 1, 2, S_V, S_V, S_V, 0, 0),  /* VSEL */
        alu(0x01, 6, 0, 0, 0, S_V, S_V, S_V, 0, 0),  /* VNEG */
        alu(0x02, 7, 0, 0, 0, S_V, S_V, S_V, 0, 0),  /* VABS */
        alu(0x0F, 8, 7, 0, 0, S_V, S_V, S_V, 0, 0),  /* VLOG2 |a| */
        alu(0x11, 9, 7, 0, 0, S_V, S_V, S_V, 0, 0),  /* VRSQRT |a| */
        alu(0x0E, 10, 1, 0, 0, S_V, S_V, S_V, 0, 0), /* VEXP2 b */
        alu(OP_VMUL, 11, 0, 3, 0, S_V, S_K, S_V, 0, 0), /* a * K3 */
        0x12u << 27 | 1u << 24 | 12u << 17 | 3u << 13,  /* VCVT fp16 v12 = v3 */
        alu(0x10, 13, 1, 0, 0, S_V, S_V, S_V, 0, 0), /* VINV b */
        W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    assert_int_equal(f->vc.kreg[3], 0x400000);
    for (unsigned i = 0; i < 128; i++) {
        double a = ref_fp16_value(in[i]), b = ref_fp16_value(in[128 + i]), c = ref_fp16_value(in[256 + i]);
        volatile double ab = a * b; /* two roundings, as the model's numpy does */
        double fma_ = ref_e8m15(ab + c);
        assert_true(same_value(f->vc.vreg[3][i], fma_));
        assert_true(same_value(f->vc.vreg[4][i], ref_e8m15(-ab + c)));
        assert_true(same_value(f->vc.vreg[5][i], ref_e8m15(c != 0.0 ? a : b)));
        assert_true(same_value(f->vc.vreg[6][i], -a));
        assert_true(same_value(f->vc.vreg[7][i], fabs(a)));
        assert_true(same_value(f->vc.vreg[8][i], ref_e8m15(log2(fabs(a)))));
        assert_true(same_value(f->vc.vreg[9][i], ref_e8m15(1.0 / sqrt(fabs(a)))));
        assert_true(same_value(f->vc.vreg[10][i], ref_e8m15(exp2(b))));
        assert_true(same_value(f->vc.vreg[11][i], ref_e8m15(a * 2.0)));
        assert_true(same_value(f->vc.vreg[12][i], ref_fp16_value(ref_fp16_store(fma_))));
        assert_true(same_value(f->vc.vreg[13][i], ref_e8m15(1.0 / b)));
    }
}

/* EXPSUM over 0..15: leaves 2^i, written back to vb, and a sum of distinct
 * powers of two below 2^16 is exact: 65535 = 2^15 * (2 - 2^-15) -> exponent
 * 142, fraction all ones -> 0x477FFF. */
static void test_vred_expsum(void **state)
{
    fix *f = *state;
    uint8_t word[32];
    for (unsigned i = 0; i < 16; i++)
        wr16(word + 2 * i, ref_fp16_store(i));
    sn_vc_l1_write(&f->vc, 0, word, 1);
    set_desc(f, 0, 0, 1, 1);
    const uint32_t k[] = {
        W_VSETI(0), 16, W_VSETVL(0), ls(OP_VLD, 1, 0, 0, 0), W_VSETMODE(3),
        W_VRED(9, 0, 5, 14, 0), W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    assert_int_equal(f->vc.sreg[9], 0x477FFF);
    for (unsigned i = 0; i < 16; i++)
        assert_true(f->vc.vreg[14][i] == ldexp(1.0, (int)i));
}

/* An FP32 VLD keeps all 24 bits; a VST of FP32 writes them back unchanged;
 * any ALU op rounds to E8M15 (1 + 2^-20 -> 1.0). */
static void test_fp32_load_store(void **state)
{
    fix *f = *state;
    uint8_t l1[16 * 32] = {0};
    const uint32_t v = 0x3F800008; /* 1 + 2^-20 */
    for (unsigned i = 0; i < 128; i++)
        memcpy(l1 + 4 * i, &v, 4);
    sn_vc_l1_write(&f->vc, 0, l1, 16);
    set_desc(f, 0, 0, 1, 16);
    set_desc(f, 1, 16, 1, 16);
    set_desc(f, 2, 32, 1, 16);
    const uint32_t k[] = {
        ls(OP_VLD, 2, 0, 0, 0), ls(OP_VST, 2, 1, 0, 0),
        alu(OP_VMOV, 1, 0, 0, 0, S_V, S_V, S_V, 0, 0), ls(OP_VST, 2, 2, 1, 0),
        W_VHALT,
    };
    sn_vc_result r = run_words(f, k, sizeof k / sizeof k[0]);
    assert_int_equal(r.fault, 0);
    assert_memory_equal(f->vc.l1[16], l1, 16 * 32);
    uint32_t got;
    memcpy(&got, f->vc.l1[32 + 15] + 28, 4);
    assert_int_equal(got, 0x3F800000);
}

static sn_vc_result run_one(fix *f, const uint32_t *k, unsigned n)
{
    sn_vc_reset(&f->vc);
    return run_words(f, k, n);
}

static void test_faults(void **state)
{
    fix *f = *state;
    sn_vc_result r;
    /* 4: VRED outside TREE (every 5-bit opcode is defined, so this is F_OPCODE's one source) */
    const uint32_t red_flat[] = {W_VRED(1, 0, 0, 0, 0), W_VHALT};
    r = run_one(f, red_flat, 2);
    assert_int_equal(r.fault, SN_VC_F_OPCODE);
    assert_int_equal(r.pc, 0);
    assert_int_equal(r.cycles, 8);
    /* 7: VL > 128, and VL 0 */
    const uint32_t vl129[] = {W_VSETI(0), 129, W_VSETVL(0), W_VHALT};
    r = run_one(f, vl129, 4);
    assert_int_equal(r.fault, SN_VC_F_VL);
    assert_int_equal(f->vc.vl, 128);
    const uint32_t vl0[] = {W_VSETVL(3), W_VHALT};
    assert_int_equal(run_one(f, vl0, 2).fault, SN_VC_F_VL);
    /* 1: dtype 0 on VLD, 3 on VST */
    const uint32_t dt0[] = {ls(OP_VLD, 0, 0, 0, 0), W_VHALT};
    assert_int_equal(run_one(f, dt0, 2).fault, SN_VC_F_DTYPE);
    const uint32_t dt3[] = {ls(OP_VST, 3, 0, 0, 0), W_VHALT};
    assert_int_equal(run_one(f, dt3, 2).fault, SN_VC_F_DTYPE);
    /* 3: source C in FLAT, even in a slot the op ignores */
    const uint32_t chain[] = {alu(OP_VMOV, 1, 0, 0, 0, S_V, S_C, S_V, 0, 0), W_VHALT};
    assert_int_equal(run_one(f, chain, 2).fault, SN_VC_F_CHAIN);
    /* 5: a VFILL walk of 257 entries */
    sn_vc_reset(&f->vc);
    set_desc(f, 0, 0, 32, 257);
    const uint32_t len[] = {ls(OP_VFILL, 0, 0, 0, 0), W_VHALT};
    assert_int_equal(run_words(f, len, 2).fault, SN_VC_F_LEN);
    /* 6: VLOOP inside VLOOP */
    const uint32_t nest[] = {W_VLOOP(0, 3), W_VLOOP(0, 1), W_VBAR, W_VBAR, W_VHALT};
    r = run_one(f, nest, 5);
    assert_int_equal(r.fault, SN_VC_F_LOOP);
    assert_int_equal(r.pc, 1);
    /* 8: VRED SUM with VL 20 in TREE (checked before the mode) */
    const uint32_t redvl[] = {W_VSETI(0), 20, W_VSETVL(0), W_VSETMODE(3), W_VRED(1, 0, 0, 0, 0), W_VHALT};
    assert_int_equal(run_one(f, redvl, 6).fault, SN_VC_F_REDVL);
    /* ANY/ALL need neither TREE nor a whole chunk */
    const uint32_t any[] = {W_VSETI(0), 20, W_VSETVL(0), W_VRED(1, 0, 6, 0, 0), W_VHALT};
    assert_int_equal(run_one(f, any, 5).fault, 0);
    /* 9: a CU_DATA burst past L1 */
    uint8_t words[2 * 32] = {0};
    assert_int_equal(sn_vc_l1_write(&f->vc, 511, words, 2), SN_VC_F_CUDATA);
    assert_int_equal(sn_vc_l1_write(&f->vc, 510, words, 2), 0);
    /* a fault keeps what ran before it: S0 = 20 stays */
    r = run_one(f, redvl, 6);
    assert_int_equal(f->vc.sreg[0], 20);
}

static void test_stops_and_no_ops(void **state)
{
    fix *f = *state;
    sn_vc_result r;
    /* ALU words in a chaining mode are not executed by the compiler's model */
    const uint32_t d2[] = {W_VSETMODE(1), alu(OP_VADD, 1, 0, 0, 0, S_V, S_V, S_V, 0, 0), W_VHALT};
    assert_int_equal(run_one(f, d2, 3).unsupported, SN_VC_UNSUP_CHAIN_MODE);
    /* no VHALT: the kernel runs off IMEM */
    sn_vc_reset(&f->vc);
    r = exec(f, sn_vc_run_payload(500)); /* 12 zero words = VMOV v0, v0 */
    assert_int_equal(r.hang, 1);
    assert_int_equal(r.retired, 12);
    /* a VFILL past DRAM stops with the address */
    sn_vc_reset(&f->vc);
    set_desc(f, 0, DRAM_SIZE - 64, 32, 3);
    const uint32_t fill[] = {ls(OP_VFILL, 0, 0, 0, 0), W_VHALT};
    r = run_words(f, fill, 2);
    assert_int_equal(r.mem_error, 1);
    assert_int_equal(r.bad_addr, DRAM_SIZE);
    /* another CU_INST opcode retires as a no-op */
    sn_payload p = {{0}};
    sn_vc_imem_set_op(&p, 7);
    sn_vector_core before = f->vc;
    r = exec(f, p);
    assert_int_equal(r.fault, 0);
    assert_int_equal(r.cycles, 1);
    assert_memory_equal(&before, &f->vc, sizeof before);
}

/* A peer VDRAIN word (sysnode-facts §3.2; hw/vector.py@60942f3 `vdrain`):
 * bit 25 signal, bit 24 peer, dst_x [20:17], dst_y [16:13], buf [12:9],
 * L1 word [8:0]. */
static uint32_t peer_drain(unsigned ad, unsigned l1off, unsigned x, unsigned y, unsigned buf, unsigned signal)
{
    return ls(OP_VDRAIN, 0, ad, 0, l1off) | signal << 25 | 1u << 24 | x << 17 | y << 13 | buf << 9;
}

/* The byte L1 word w holds at byte b in test_peer_vdrain. */
static uint8_t peer_pattern(unsigned w, unsigned b)
{
    return (uint8_t)(w * 37 + b * 3 + 1);
}

/* Peer VDRAINs become CU_DATA bursts, not DRAM writes: A[ad].base =
 * {ack_y, ack_x, receiver granule}, the product of the bounds is the count
 * (strides unused), 8 granules a burst, L1 taken at issue and wrapping at
 * 512; the record lasts until the next payload. */
static void test_peer_vdrain(void **state)
{
    fix *f = *state;
    sn_vc_reset(&f->vc);
    for (unsigned w = 0; w < SN_VC_L1_WORDS; w++)
        for (unsigned b = 0; b < 32; b++)
            f->vc.l1[w][b] = peer_pattern(w, b);
    /* A3: ack (x 1, y 2), granule 0x123, 5 x 2 = 10 words, strides that a
     * DRAM walk would use (and a base past the 1 MiB DRAM) */
    exec(f, sn_vc_desc_payload(3, 0, 2u << 20 | 1u << 16 | 0x123));
    exec(f, sn_vc_desc_payload(3, 1, dim(32, 5)));
    exec(f, sn_vc_desc_payload(3, 2, dim(-7, 2)));
    /* A4: ack 0, granule 0x1FF, 3 words; A5: L1 word 5 for the VST */
    set_desc(f, 4, 0x1FF, 1, 3);
    set_desc(f, 5, 5, 1, 1);
    const uint32_t k[] = {
        peer_drain(3, 5, 1, 2, 3, 1),   /* L1 5..14 to (1,2) buffer 3, signalled */
        peer_drain(4, 510, 2, 1, 0, 0), /* L1 510, 511, 0 to (2,1) buffer 0 */
        ls(OP_VST, 1, 5, 0, 0),         /* zeros over L1 5..12 after the drain */
        W_VHALT,
    };
    sn_vc_result r = run_words(f, k, 4);
    assert_int_equal(r.fault, 0);
    assert_int_equal(r.mem_error, 0);
    assert_int_equal(r.unsupported, 0);
    assert_int_equal(r.cycles, 1 + 1 + 8 + 8);
    assert_int_equal(r.nbursts, 3);

    static const struct {
        unsigned x, y, buf, flags, ack_x, ack_y, offset, first, n;
    } want[3] = {
        {1, 2, 3, 1, 1, 2, 0x123, 5, 8},
        {1, 2, 3, 1, 1, 2, 0x12B, 13, 2},
        {2, 1, 0, 0, 0, 0, 0x1FF, 510, 3},
    };
    for (unsigned i = 0; i < 3; i++) {
        sn_cu_burst b;
        assert_int_equal(sn_vc_peer_burst(&f->vc, i, &b), 0);
        assert_int_equal(b.dst_x, want[i].x);
        assert_int_equal(b.dst_y, want[i].y);
        assert_int_equal(b.buf, want[i].buf);
        assert_int_equal(b.flags, want[i].flags);
        assert_int_equal(b.ack_x, want[i].ack_x);
        assert_int_equal(b.ack_y, want[i].ack_y);
        assert_int_equal(b.offset, want[i].offset);
        assert_int_equal(b.ngranules, want[i].n);
        for (unsigned g = 0; g < want[i].n; g++)
            for (unsigned byte = 0; byte < 32; byte++)
                assert_int_equal(b.bytes[g][byte], peer_pattern((want[i].first + g) % 512, byte));
    }
    sn_cu_burst b;
    assert_int_equal(sn_vc_peer_burst(&f->vc, 3, &b), -1);
    static const uint8_t zero[32] = {0};
    assert_memory_equal(f->vc.l1[5], zero, 32); /* the VST did land */
    /* the next payload starts with no bursts */
    assert_int_equal(exec(f, sn_vc_imem_payload(100, W_VHALT)).nbursts, 0);
    assert_int_equal(sn_vc_peer_burst(&f->vc, 0, &b), -1);

    /* a peer walk over 256 entries faults F_LEN before anything is recorded */
    set_desc(f, 4, 0, 1, 257);
    const uint32_t len[] = {peer_drain(4, 0, 1, 2, 0, 0), W_VHALT};
    r = run_words(f, len, 2);
    assert_int_equal(r.fault, SN_VC_F_LEN);
    assert_int_equal(r.nbursts, 0);

    /* three 256-word peer drains are 96 bursts, past the model's 64: the
     * third stops the RUN, the first two stay recorded */
    set_desc(f, 4, 0, 1, 256);
    const uint32_t many[] = {W_VSETI(0), 3, W_VLOOP(0, 1), peer_drain(4, 0, 1, 2, 0, 0), W_VHALT};
    r = run_words(f, many, 5);
    assert_int_equal(r.unsupported, SN_VC_UNSUP_PEER_BURSTS);
    assert_int_equal(r.pc, 3);
    assert_int_equal(r.nbursts, 64);
    assert_int_equal(sn_vc_peer_burst(&f->vc, 63, &b), 0);
    assert_int_equal(b.offset, 248);
}

/* DESC decoding: 40-bit base split across [245:212] and [68:63], signed
 * 18-bit strides, a written bound of 0 reading as 1, fields 5..7 ignored. */
static void test_descriptors(void **state)
{
    fix *f = *state;
    sn_vc_reset(&f->vc);
    assert_int_equal(f->vc.desc[3].bound[2], 1);
    exec(f, sn_vc_desc_payload(3, 0, 0xA5ull << 32 | 0x12345678)); /* bits 39:32 = 0xA5 */
    assert_int_equal(f->vc.desc[3].base, 0xA512345678ull);
    exec(f, sn_vc_desc_payload(3, 2, dim(-32, 0)));
    assert_int_equal(f->vc.desc[3].stride[1], -32);
    assert_int_equal(f->vc.desc[3].bound[1], 1);
    exec(f, sn_vc_desc_payload(3, 4, dim(131071, 65535)));
    assert_int_equal(f->vc.desc[3].stride[3], 131071);
    assert_int_equal(f->vc.desc[3].bound[3], 65535);
    sn_vector_core before = f->vc;
    exec(f, sn_vc_desc_payload(3, 5, dim(1, 1)));
    assert_memory_equal(&before, &f->vc, sizeof before);
}

static void test_dram(void **state)
{
    (void)state;
    sn_dram d;
    assert_int_equal(sn_dram_init(&d, 4096), SN_OK);
    uint8_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8];
    assert_int_equal(sn_dram_write(&d, 4088, buf, 8), SN_OK);
    assert_int_equal(sn_dram_read(&d, 4088, back, 8), SN_OK);
    assert_memory_equal(buf, back, 8);
    assert_int_equal(sn_dram_write(&d, 4089, buf, 8), SN_ERR_INPUT);
    assert_int_equal(sn_dram_read(&d, UINT64_MAX - 2, back, 8), SN_ERR_INPUT); /* wraps */
    assert_int_equal(sn_dram_read(&d, 4096, back, 0), SN_OK);
    sn_mem_port p = sn_dram_port(&d);
    assert_int_equal(p.read(p.ctx, 4095, back, 2), -1);
    assert_int_equal(p.read(p.ctx, 0, back, 8), 0);
    sn_dram_free(&d);
    assert_null(d.bytes);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test_setup_teardown(test_vadd128_artifact, setup, teardown),
             cmocka_unit_test_setup_teardown(test_vadd128_api_artifact, setup, teardown),
             cmocka_unit_test_setup_teardown(test_mm_silu_epilogue_rounds, setup, teardown),
             cmocka_unit_test_setup_teardown(test_binary_ops_vs_reference, setup, teardown),
             cmocka_unit_test_setup_teardown(test_vloop, setup, teardown),
             cmocka_unit_test_setup_teardown(test_vl_tail, setup, teardown),
             cmocka_unit_test_setup_teardown(test_reductions_predicates_shuffle, setup, teardown),
             cmocka_unit_test_setup_teardown(test_vred_signed_zero, setup, teardown),
             cmocka_unit_test_setup_teardown(test_walks, setup, teardown),
             cmocka_unit_test_setup_teardown(test_alu_battery, setup, teardown),
             cmocka_unit_test_setup_teardown(test_vred_expsum, setup, teardown),
             cmocka_unit_test_setup_teardown(test_fp32_load_store, setup, teardown),
             cmocka_unit_test_setup_teardown(test_faults, setup, teardown),
             cmocka_unit_test_setup_teardown(test_stops_and_no_ops, setup, teardown),
             cmocka_unit_test_setup_teardown(test_peer_vdrain, setup, teardown),
             cmocka_unit_test_setup_teardown(test_descriptors, setup, teardown), cmocka_unit_test(test_dram))
