/* Unit tests of host/inputs/mxfp7.c: the SHA-256 witnesses of artifacts-facts
 * §3.3, the FILL-driven conversion of every matmul case's uploads against
 * its mxfp7_*.bin, tool-pitfalls 16's edge cases, and a sweep of the block
 * peak over every finite FP16 against a slow reference written here from
 * the prose of §3.3 (the scale as "the smallest representable scale with
 * peak/scale <= 63", found by search; q by exact rounding). */
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
#include <nettle/sha2.h>

#include "artifact.h"
#include "kicked_flits.h"
#include "manifest.h"
#include "mxfp7.h"
#include "sysnode/words.h"

#define CASE_DIR SN_ARTIFACTS_DIR "/compiler/"


static void sha256_hex(const uint8_t *data, size_t len, char out[65])
{
    struct sha256_ctx c;
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    sha256_update(&c, len, data);
    sha256_digest(&c, sizeof d, d);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_sha256_abc(void **state)
{
    (void)state;
    char hex[65];
    sha256_hex((const uint8_t *)"abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* ---- the slow reference (artifacts-facts §3.3 prose) ---- */

static const int ref_recip[8] = {4096, 3641, 3277, 2979, 2731, 2520, 2341, 2185}; /* step 4 */

/* Exact |value| of a finite FP16 pattern. */
static double ref_mag(uint16_t h)
{
    unsigned ef = (h >> 10) & 31, fr = h & 0x3FF;
    return ef ? ldexp(1024 + fr, (int)ef - 25) : ldexp(fr, -24);
}

/* The smallest es*m8 grid point (unbounded es) with peak <= 63 * scale,
 * then es clamped to -20..11; a zero peak is es 0, m8 8. */
static void ref_scale(uint16_t peak, int *es, int *m8)
{
    double p = ref_mag(peak);
    *es = 0;
    *m8 = 8;
    if (p == 0)
        return;
    for (int e = -80; e < 40; e++)
        for (int m = 8; m < 16; m++)
            if (p <= 63.0 * ldexp(m, e - 3)) {
                *es = e < -20 ? -20 : e > 11 ? 11 : e;
                *m8 = m;
                return;
            }
    fail();
}

/* q: round half up of sig * RECIP[m8] / 2^(37 + es - e), 0 past a shift of
 * 40, capped at 63, sign applied (steps 1 and 5). */
static int ref_q(uint16_t h, int es, int m8)
{
    unsigned ef = (h >> 10) & 31, fr = h & 0x3FF;
    double sig = ef ? 1024 + fr : fr;
    int e = ef ? (int)ef : 1, sh = 37 + es - e;
    if (sh > 40)
        return 0;
    double v = ldexp(sig * ref_recip[m8 - 8], -sh);
    double mag = floor(v);
    if (v - mag >= 0.5)
        mag += 1;
    if (mag > 63)
        mag = 63;
    return (h & 0x8000) ? -(int)mag : (int)mag;
}

static void check_block(const uint16_t h[32])
{
    uint16_t peak = 0;
    for (int k = 0; k < 32; k++)
        if ((h[k] & 0x7FFF) > peak)
            peak = h[k] & 0x7FFF;
    int es, m8;
    ref_scale(peak, &es, &m8);
    int8_t q[32];
    uint8_t s;
    sn_mx_quantise_block(h, q, &s);
    if (s != (uint8_t)(((es + 20) & 31) << 3 | (m8 - 8)))
        fail_msg("peak 0x%04x: scale byte 0x%02x, reference es %d m8 %d", peak, s, es, m8);
    for (int k = 0; k < 32; k++)
        if (q[k] != ref_q(h[k], es, m8))
            fail_msg("peak 0x%04x element 0x%04x: q %d, reference %d", peak, h[k], q[k], ref_q(h[k], es, m8));
}

/* Every finite FP16 peak, each with 31 companions spread below it (both
 * signs, the peak's own exponent, subnormals and zeros). */
static void test_peak_sweep(void **state)
{
    (void)state;
    for (uint32_t p = 0; p <= 0x7BFF; p++) {
        uint16_t h[32];
        for (int k = 0; k < 32; k++) {
            uint32_t v = (p * (uint32_t)(k + 1) * 2654435761u >> 7) % (p + 1);
            if (k % 4 == 0)
                v = p - (p >> (k / 4)); /* near the peak: exercises the cap */
            h[k] = (uint16_t)(v | ((k % 3 == 1) ? 0x8000 : 0));
        }
        h[p % 32] = (uint16_t)(p | ((p & 1) ? 0x8000 : 0));
        check_block(h);
    }
}

static void one_peak(uint16_t peak, uint8_t want_scale, int want_q)
{
    uint16_t h[32] = {0};
    h[5] = peak;
    h[6] = (uint16_t)(peak | 0x8000);
    int8_t q[32];
    uint8_t s;
    sn_mx_quantise_block(h, q, &s);
    assert_int_equal(s, want_scale);
    assert_int_equal(q[5], want_q);
    assert_int_equal(q[6], -want_q);
    check_block(h);
}

/* tool-pitfalls 16: values worked by hand from the §3.3 steps. */
static void test_edge_peaks(void **state)
{
    (void)state;
    uint16_t h[32];
    int8_t q[32];
    uint8_t s;
    memset(h, 0, sizeof h);
    sn_mx_quantise_block(h, q, &s);
    assert_int_equal(s, SN_MX_ZERO_SCALE);
    for (int k = 0; k < 32; k++)
        h[k] = 0x8000; /* -0 */
    sn_mx_quantise_block(h, q, &s);
    assert_int_equal(s, 0xA0);
    for (int k = 0; k < 32; k++)
        assert_int_equal(q[k], 0);
    /* 0x0001: renormalised sig 1024, ep -9 -> m8 9, es -30 clamped to -20;
     * q = 3641 >> 16 rounds to 0. */
    one_peak(0x0001, 0x01, 0);
    /* 0x03FF: sig 2046, ep 0 -> m8 17 -> 9, es -20; q = 1023*3641 / 2^16 = 56.8 -> 57. */
    one_peak(0x03FF, 0x01, 57);
    /* 0x3F6C = sig 1900, ep 15 -> m8 16 -> 8, es -5 (byte 15<<3|0);
     * q = 1900*4096 / 2^17 = 59.4 -> 59. */
    one_peak(0x3F6C, 0x78, 59);
    /* 0x3FE1 = sig 2017 -> m8 17 -> 9, es -5; q = 2017*3641 / 2^17 = 56.03 -> 56. */
    one_peak(0x3FE1, 0x79, 56);
    /* 65504: sig 2047, ep 30 -> m8 17 -> 9, es 10; q = 2047*3641 / 2^17 = 56.9 -> 57. */
    one_peak(0x7BFF, 0xF1, 57);
    int es, m8;
    sn_mx_scale(0x7BFF, &es, &m8);
    assert_int_equal(es, 10);
    assert_int_equal(m8, 9);
}

/* Bit i (0 = LSB) of a little-endian 256-bit word. */
static unsigned word_bit(const uint8_t *w, unsigned i)
{
    return (w[i / 8] >> (i % 8)) & 1;
}

/* Both slot orders, read back MSB-first bit by bit (§3.3 "Inside word w"). */
static void test_pack_slot_orders(void **state)
{
    (void)state;
    int8_t q[4 * 32];
    uint8_t sc[4] = {0x11, 0x22, 0x33, 0x44};
    for (int l = 0; l < 4; l++)
        for (int k = 0; k < 32; k++)
            q[l * 32 + k] = (int8_t)((l * 37 + k * 5) % 127 - 63);
    for (unsigned layout = 0; layout < 2; layout++) {
        uint8_t e[128];
        sn_mx_pack_entry(q, sc, layout, e);
        for (unsigned w = 0; w < 4; w++) {
            const uint8_t *word = e + 32 * w;
            unsigned bit = 255;
            for (unsigned oi = 0; oi < 32; oi++) {
                unsigned v = 0;
                for (int b = 0; b < 7; b++)
                    v = v << 1 | word_bit(word, bit--);
                unsigned lane = layout ? oi % 4 : oi / 8, kk = layout ? oi / 4 : oi % 8;
                assert_int_equal(v, (unsigned)q[lane * 32 + w * 8 + kk] & 0x7F);
            }
            assert_int_equal(bit, 31);
            for (unsigned l = 0; l < 4; l++) {
                unsigned v = 0;
                for (int b = 0; b < 8; b++)
                    v = v << 1 | word_bit(word, 31 - 8 * l - (unsigned)b);
                assert_int_equal(v, sc[l]);
            }
        }
    }
}

/* A [lanes][K] row-major FP16 operand -> MXFP7 entries in (tile, chunk,
 * group, block) order (artifacts-facts §3.2), each entry gathered into the
 * FP16 entry layout first. */
static uint8_t *tiled_mxfp7(const uint8_t *rowmajor, unsigned lanes, unsigned K, unsigned G, unsigned Bc,
                            unsigned layout, size_t *len)
{
    unsigned groups = lanes / 4, blocks = K / 32, n = 0;
    uint8_t *out = malloc((size_t)groups * blocks * 128);
    for (unsigned t = 0; t < groups / G; t++)
        for (unsigned c = 0; c < blocks / Bc; c++)
            for (unsigned g = 0; g < G; g++)
                for (unsigned b = 0; b < Bc; b++, n++) {
                    uint8_t entry[256];
                    for (unsigned l = 0; l < 4; l++)
                        memcpy(entry + l * 64, rowmajor + (((t * G + g) * 4 + l) * K + (c * Bc + b) * 32) * 2, 64);
                    sn_mx_convert_entry(entry, layout, out + (size_t)n * 128);
                }
    *len = (size_t)n * 128;
    return out;
}

static void witness(const char *dir, const char *input, unsigned lanes, unsigned K, unsigned G, unsigned Bc,
                    unsigned layout, const char *canonical, const char *sha)
{
    char path[512];
    size_t in_len, out_len, can_len;
    snprintf(path, sizeof path, CASE_DIR "%s/%s", dir, input);
    uint8_t *in = slurp(path, &in_len);
    assert_int_equal(in_len, (size_t)lanes * K * 2);
    uint8_t *out = tiled_mxfp7(in, lanes, K, G, Bc, layout, &out_len);
    char hex[65];
    sha256_hex(out, out_len, hex);
    assert_string_equal(hex, sha);
    snprintf(path, sizeof path, CASE_DIR "%s/%s", dir, canonical);
    uint8_t *can = slurp(path, &can_len);
    assert_int_equal(can_len, out_len);
    assert_memory_equal(can, out, out_len);
    free(can);
    free(out);
    free(in);
}

/* The four SHA-256 witnesses of artifacts-facts §3.3. */
static void test_sha_witnesses(void **state)
{
    (void)state;
    witness("mm4x32", "input_A_rowmajor_f16.bin", 4, 32, 1, 1, 0, "mxfp7_canonical_A_g1b1_blayout0.bin",
            "581d4772cefbcd696e2dab88f0d5d4377505c73702d527dcc921a0ee4e673e6f");
    witness("mm4x32", "input_B_rowmajor_f16.bin", 4, 32, 1, 1, 1, "mxfp7_canonical_B_g1b1_blayout1.bin",
            "cbd4fb795795b7a2cf2d782225c2f701ac0e06ebc21ef627ff6b5a50f283c527");
    witness("matmul_64x128x64", "input_a_rowmajor_f16.bin", 64, 128, 8, 2, 0,
            "mxfp7_canonical_a_g8b2_blayout0.bin",
            "224c370edb9bc80e2b8f8ed2199e01457f3e2ff0540b963985843f3ea7b3452c");
    witness("matmul_64x128x64", "input_b_rowmajor_f16.bin", 64, 128, 8, 2, 1,
            "mxfp7_canonical_b_g8b2_blayout1.bin",
            "eabfbf5da2a09cf29a84cf1e25e2f0bf256fadf1a923bc5a3ee4f2d88241390b");
}

typedef struct {
    const sn_program *p;
    const sn_manifest *m;
    sn_payload *out;
    size_t n;
} mg_collector;

static void collect_mg(void *ctx, const sn_table_step *kick, size_t at)
{
    mg_collector *c = ctx;
    for (size_t i = 0; i < c->m->mg_count; i++)
        if (c->m->mg[i].x == kick->x && c->m->mg[i].y == kick->y) {
            c->out[c->n++] = sn_table_row_payload(&c->p->payloads[at]);
            return;
        }
}

/* The MG payloads of a program (kicks to a manifest MG coordinate), in
 * order, as sn_payload. */
static sn_payload *mg_payloads(const sn_program *p, const sn_manifest *m, size_t *count)
{
    mg_collector c = {p, m, calloc(p->payload_count, sizeof *c.out), 0};
    each_kicked_flit(p, collect_mg, &c);
    *count = c.n;
    return c.out;
}

/* Converts a case's uploads as the loader will and compares each upload
 * region with the mxfp7_*.bin that replaces it, byte for byte. */
static void convert_case(const char *name, size_t want_regions)
{
    char dir[512];
    snprintf(dir, sizeof dir, CASE_DIR "%s", name);
    sn_error e = {0};
    sn_manifest m;
    sn_program p;
    assert_int_equal(sn_manifest_load(&m, dir, &e), SN_OK);
    assert_int_equal(sn_manifest_read_data(&m, &e), SN_OK);
    assert_int_equal(sn_program_load_case(&p, dir, &e), SN_OK);
    uint64_t size = 0;
    for (size_t i = 0; i < m.upload_count; i++)
        if (m.uploads[i].addr + m.uploads[i].nbytes > size)
            size = m.uploads[i].addr + m.uploads[i].nbytes;
    uint8_t *image = calloc(size, 1);
    for (size_t i = 0; i < m.upload_count; i++)
        memcpy(image + m.uploads[i].addr, m.uploads[i].data, m.uploads[i].nbytes);
    size_t nrows, regions = 0;
    sn_payload *rows = mg_payloads(&p, &m, &nrows);
    sn_status st = sn_mx_convert_image(image, 0, size, rows, nrows, NULL, &regions, &e);
    if (st != SN_OK)
        fail_msg("%s: %s", name, e.msg);
    assert_int_equal(regions, want_regions);
    for (size_t i = 0; i < m.upload_count; i++) {
        const char *file = m.uploads[i].file;
        assert_memory_equal(file, "upload_", 7);
        char path[600];
        snprintf(path, sizeof path, "%s/mxfp7_%s", dir, file + 7);
        size_t len;
        uint8_t *want = slurp(path, &len);
        assert_int_equal(len, m.uploads[i].nbytes);
        assert_memory_equal(image + m.uploads[i].addr, want, len);
        free(want);
    }
    free(rows);
    free(image);
    sn_program_free(&p);
    sn_manifest_free(&m);
}

static void test_convert_mm4x32(void **state)
{
    (void)state;
    convert_case("mm4x32", 2);
}

static void test_convert_matmul_8x64x8(void **state)
{
    (void)state;
    convert_case("matmul_8x64x8", 2);
}

/* Each A chunk is read by both clusters: 16 FILLs, 8 distinct regions. */
static void test_convert_matmul_64x128x64(void **state)
{
    (void)state;
    convert_case("matmul_64x128x64", 8);
}

static void test_convert_matmul_512x256x512(void **state)
{
    (void)state;
    convert_case("matmul_512x256x512", 128);
}

static void test_convert_mm_silu(void **state)
{
    (void)state;
    convert_case("mm_silu_32x128x64", 6);
}

static sn_payload fill_payload(uint64_t addr, unsigned n, unsigned sel)
{
    sn_payload p = {{0}};
    sn_mg_set_op(&p, 1);
    sn_mg_set_addr(&p, addr & ((1ull << 34) - 1));
    sn_mg_set_addr_hi(&p, addr >> 34);
    sn_mg_set_n(&p, n);
    sn_mg_set_sel(&p, sel);
    return p;
}

/* The same region twice converts once; a region read with both sels, a
 * FILL outside the image and a foreign opcode are refused untouched. */
static void test_convert_rules(void **state)
{
    (void)state;
    enum { BASE = 0x1000, SIZE = 0x1000 };
    uint8_t *img = malloc(SIZE), *orig = malloc(SIZE);
    for (int i = 0; i < SIZE; i++)
        orig[i] = (uint8_t)(i * 7 + (i >> 8));
    memcpy(img, orig, SIZE);
    sn_error e = {0};
    size_t regions = 0;
    sn_payload twice[3] = {fill_payload(BASE, 2, 1), fill_payload(BASE, 2, 1), {{0}}};
    sn_mg_set_op(&twice[2], 2); /* a GEMM is skipped */
    assert_int_equal(sn_mx_convert_image(img, BASE, SIZE, twice, 3, NULL, &regions, &e), SN_OK);
    assert_int_equal(regions, 1);
    uint8_t want[256];
    sn_mx_convert_fill(orig, 2, 1, want);
    assert_memory_equal(img, want, 256);
    for (int i = 256; i < 512; i++)
        assert_int_equal(img[i], 0);
    assert_memory_equal(img + 512, orig + 512, SIZE - 512);

    memcpy(img, orig, SIZE);
    sn_payload both[2] = {fill_payload(BASE, 2, 0), fill_payload(BASE + 256, 1, 1)};
    assert_int_equal(sn_mx_convert_image(img, BASE, SIZE, both, 2, NULL, NULL, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "different slot orders"));
    sn_payload outside[1] = {fill_payload(BASE + SIZE - 256, 2, 0)};
    assert_int_equal(sn_mx_convert_image(img, BASE, SIZE, outside, 1, NULL, NULL, &e), SN_ERR_INPUT);
    sn_payload hi[1] = {fill_payload(BASE | 1ull << 34, 1, 0)};
    assert_int_equal(sn_mx_convert_image(img, BASE, SIZE, hi, 1, NULL, NULL, &e), SN_ERR_INPUT);
    sn_payload vec[1] = {{{0}}};
    sn_mg_set_op(&vec[0], 5);
    assert_int_equal(sn_mx_convert_image(img, BASE, SIZE, vec, 1, NULL, NULL, &e), SN_ERR_INPUT);
    assert_memory_equal(img, orig, SIZE);
    free(img);
    free(orig);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_sha256_abc), cmocka_unit_test(test_edge_peaks),
             cmocka_unit_test(test_peak_sweep), cmocka_unit_test(test_pack_slot_orders),
             cmocka_unit_test(test_sha_witnesses), cmocka_unit_test(test_convert_mm4x32),
             cmocka_unit_test(test_convert_matmul_8x64x8), cmocka_unit_test(test_convert_matmul_64x128x64),
             cmocka_unit_test(test_convert_matmul_512x256x512), cmocka_unit_test(test_convert_mm_silu),
             cmocka_unit_test(test_convert_rules))
