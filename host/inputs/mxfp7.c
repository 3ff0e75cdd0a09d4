/* MXFP7 quantiser, entry packer and FILL-driven image conversion; see
 * mxfp7.h. Rules cite compiler/kohakutpu/hw/mxfp7.py@fd96dee and
 * hw/tensor.py@4c0fe81 as restated in artifacts-facts §3.3. */
#include "mxfp7.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err_text.h"
#include "sysnode/words.h" /* cluster payload fields and opcodes */

/* round(4096 * 8 / m8) for m8 = 8..15 (mxfp7.py@fd96dee RECIP; mx_quant.v
 * holds the same table). */
static const uint32_t recip[8] = {4096, 3641, 3277, 2979, 2731, 2520, 2341, 2185};

void sn_mx_scale(uint16_t peak, int *es, int *m8)
{
    unsigned ef = (peak >> 10) & 31u, fr = peak & 0x3FFu;
    uint32_t sig = ef ? (1024u | fr) : fr;
    int ep = ef ? (int)ef : 1;
    if (sig == 0) {
        *es = 0;
        *m8 = 8;
        return;
    }
    /* A subnormal peak is renormalised into [1024, 2048) first. */
    while (sig < 1024) {
        sig <<= 1;
        ep--;
    }
    int m = (int)((sig + 125) / 126); /* ceil(sig/126), 9..17 */
    int e = m >= 16 ? ep - 20 : ep - 21;
    if (m == 17)
        m = 9;
    else if (m == 16)
        m = 8;
    /* E5 holds -20..11; a subnormal peak clamps low and keeps fewer bits. */
    if (e < -SN_MX_SBIAS)
        e = -SN_MX_SBIAS;
    if (e > 31 - SN_MX_SBIAS)
        e = 31 - SN_MX_SBIAS;
    *es = e;
    *m8 = m;
}

uint8_t sn_mx_scale_byte(int es, int m8)
{
    return (uint8_t)((((unsigned)(es + SN_MX_SBIAS) & 31u) << 3) | ((unsigned)(m8 - 8) & 7u));
}

void sn_mx_quantise_block(const uint16_t h[SN_MX_KBLOCK], int8_t q[SN_MX_KBLOCK], uint8_t *scale)
{
    /* Sign-magnitude order on bits 14:0 is numeric order, so the peak is an
     * unsigned max. */
    uint16_t peak = 0;
    for (int k = 0; k < SN_MX_KBLOCK; k++)
        if ((h[k] & 0x7FFF) > peak)
            peak = h[k] & 0x7FFF;
    int es, m8;
    sn_mx_scale(peak, &es, &m8);
    *scale = sn_mx_scale_byte(es, m8);

    for (int k = 0; k < SN_MX_KBLOCK; k++) {
        unsigned ef = (h[k] >> 10) & 31u, fr = h[k] & 0x3FFu;
        uint64_t sig = ef ? (1024u | fr) : fr;
        int e = ef ? (int)ef : 1;
        /* q = round(x/scale) as sig * recip >> (25 + 12 + es - e), rounding
         * half up on the magnitude by the bit below the cut. */
        uint64_t prod = sig * recip[m8 - 8];
        int sh = 37 + es - e;
        uint64_t mag = 0;
        if (sh <= 40) {
            int t = sh < 0 ? 0 : sh > 62 ? 62 : sh;
            int r = t - 1 < 0 ? 0 : t - 1;
            mag = (prod >> t) + ((prod >> r) & 1u);
        }
        if (mag > SN_MX_QMAX)
            mag = SN_MX_QMAX;
        q[k] = (int8_t)((h[k] >> 15) ? -(int)mag : (int)mag);
    }
}

/* Inserts the low `width` bits of v at bit lo of a little-endian 256-bit
 * word held in 32 bytes. */
static void put_bits(uint8_t word[32], unsigned lo, unsigned width, unsigned v)
{
    /* width <= 8: the field touches at most two bytes, the second only when
     * it crosses a byte boundary (and then lo + width <= 256 keeps it in). */
    unsigned span = (v & ((1u << width) - 1u)) << (lo % 8);
    word[lo / 8] |= (uint8_t)span;
    if (span >> 8)
        word[lo / 8 + 1] |= (uint8_t)(span >> 8);
}

void sn_mx_pack_entry(const int8_t q[SN_MX_LANES * SN_MX_KBLOCK], const uint8_t scale[SN_MX_LANES],
                      unsigned layout, uint8_t out[SN_MX_ENTRY_BYTES])
{
    memset(out, 0, SN_MX_ENTRY_BYTES);
    for (unsigned w = 0; w < 4; w++) {
        uint8_t *word = out + w * 32;
        for (unsigned oi = 0; oi < 32; oi++) {
            unsigned lane = SN_MX_Q_LANE(layout, oi), kk = SN_MX_Q_K(layout, oi);
            put_bits(word, SN_MX_Q_LO(oi), SN_MX_Q_BITS, (unsigned)q[lane * SN_MX_KBLOCK + w * 8 + kk]);
        }
        for (unsigned lane = 0; lane < SN_MX_LANES; lane++)
            word[SN_MX_SCALE_BYTE(lane)] = scale[lane];
    }
}

void sn_mx_convert_entry(const uint8_t fp16[SN_MX_FP16_ENTRY_BYTES], unsigned layout,
                         uint8_t out[SN_MX_ENTRY_BYTES])
{
    int8_t q[SN_MX_LANES * SN_MX_KBLOCK];
    uint8_t scale[SN_MX_LANES];
    for (unsigned lane = 0; lane < SN_MX_LANES; lane++) {
        uint16_t h[SN_MX_KBLOCK];
        for (unsigned k = 0; k < SN_MX_KBLOCK; k++) {
            const uint8_t *p = fp16 + (lane * SN_MX_KBLOCK + k) * 2;
            h[k] = (uint16_t)(p[0] | p[1] << 8);
        }
        sn_mx_quantise_block(h, q + lane * SN_MX_KBLOCK, &scale[lane]);
    }
    sn_mx_pack_entry(q, scale, layout, out);
}

void sn_mx_convert_fill(const uint8_t *fp16, uint32_t n, unsigned sel, uint8_t *out)
{
    for (uint32_t i = 0; i < n; i++)
        sn_mx_convert_entry(fp16 + (size_t)i * SN_MX_FP16_ENTRY_BYTES, sel,
                            out + (size_t)i * SN_MX_ENTRY_BYTES);
}

/* One distinct FILL region and where its converted bytes are kept. */
typedef struct fill {
    uint64_t addr;
    uint32_t n;
    unsigned sel;
    size_t row;     /* first payload index that reads it, for messages */
    size_t out_off; /* offset of its n x 128 bytes in the output buffer */
} fill;

static int fill_cmp(const void *a, const void *b)
{
    const fill *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    if (x->sel != y->sel)
        return x->sel < y->sel ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Collects the FILLs of rows into *out (sorted by address, identical
 * regions merged). */
static sn_status collect_fills(const sn_payload *rows, size_t nrows, uint64_t base, uint64_t size,
                               fill **out, size_t *count, sn_error *e)
{
    fill *f = calloc(nrows ? nrows : 1, sizeof *f);
    if (!f)
        return sn_error_set(e, SN_ERR_INTERNAL, "mxfp7: out of memory");
    size_t nf = 0;
    for (size_t i = 0; i < nrows; i++) {
        unsigned op = (unsigned)sn_mg_op(&rows[i]);
        if (op == SN_MG_OP_GEMM || op == SN_MG_OP_DRAIN)
            continue;
        if (op != SN_MG_OP_FILL) {
            free(f);
            return sn_error_set(e, SN_ERR_INPUT, "mxfp7: payload %zu has opcode %u, not a cluster FILL/GEMM/DRAIN",
                                i, op);
        }
        uint64_t addr = SN_MG_DRAM_ADDR(&rows[i]);
        uint32_t n = (uint32_t)sn_mg_n(&rows[i]);
        if (n == 0)
            continue;
        uint64_t bytes = (uint64_t)n * SN_MX_FP16_ENTRY_BYTES;
        if (addr < base || addr - base > size || size - (addr - base) < bytes) {
            free(f);
            return sn_error_set(e, SN_ERR_INPUT,
                                "mxfp7: FILL payload %zu reads [0x%llx, 0x%llx), outside the image [0x%llx, 0x%llx)",
                                i, (unsigned long long)addr, (unsigned long long)(addr + bytes),
                                (unsigned long long)base, (unsigned long long)(base + size));
        }
        f[nf++] = (fill){addr, n, (unsigned)sn_mg_sel(&rows[i]), i, 0};
    }
    qsort(f, nf, sizeof *f, fill_cmp);
    size_t u = 0;
    for (size_t i = 0; i < nf; i++)
        if (u == 0 || f[i].addr != f[u - 1].addr || f[i].n != f[u - 1].n || f[i].sel != f[u - 1].sel)
            f[u++] = f[i];
    *out = f;
    *count = u;
    return SN_OK;
}

/* Row i's name for a message: names[i], or "payload i". */
static const char *row_name(const char *const *names, size_t i, char *buf, size_t len)
{
    if (names)
        return names[i];
    sn_text_fit(buf, len, "payload %zu", i);
    return buf;
}

/* Checks that no FP16 byte is read with both sels and that overlapping
 * outputs agree byte for byte. f is sorted by address, outputs in buf. */
static sn_status check_fills(const fill *f, size_t nf, const uint8_t *buf, const char *const *names, sn_error *e)
{
    char a_name[32], b_name[32];
    for (size_t i = 0; i < nf; i++) {
        uint64_t src_end = f[i].addr + (uint64_t)f[i].n * SN_MX_FP16_ENTRY_BYTES;
        uint64_t out_end = f[i].addr + (uint64_t)f[i].n * SN_MX_ENTRY_BYTES;
        for (size_t j = i + 1; j < nf && f[j].addr < src_end; j++) {
            if (f[j].sel != f[i].sel)
                return sn_error_set(e, SN_ERR_INPUT,
                                    "mxfp7: the FILLs %s (sel %u, 0x%llx) and %s (sel %u, 0x%llx) read "
                                    "common FP16 bytes with different slot orders",
                                    row_name(names, f[i].row, a_name, sizeof a_name), f[i].sel,
                                    (unsigned long long)f[i].addr, row_name(names, f[j].row, b_name, sizeof b_name),
                                    f[j].sel, (unsigned long long)f[j].addr);
            if (f[j].addr >= out_end)
                continue;
            uint64_t end = f[j].addr + (uint64_t)f[j].n * SN_MX_ENTRY_BYTES;
            if (end > out_end)
                end = out_end;
            const uint8_t *a = buf + f[i].out_off + (f[j].addr - f[i].addr);
            const uint8_t *b = buf + f[j].out_off;
            if (memcmp(a, b, (size_t)(end - f[j].addr)) != 0)
                return sn_error_set(e, SN_ERR_INPUT,
                                    "mxfp7: the FILLs %s (0x%llx) and %s (0x%llx) would write different MXFP7 "
                                    "bytes to the same address: a cluster reads MXFP7 converted in place from the "
                                    "FP16 at its FILL's address, and these two FP16 windows overlap at different "
                                    "offsets, so no one MXFP7 image serves both (DESIGN.md §6)",
                                    row_name(names, f[i].row, a_name, sizeof a_name), (unsigned long long)f[i].addr,
                                    row_name(names, f[j].row, b_name, sizeof b_name), (unsigned long long)f[j].addr);
        }
    }
    return SN_OK;
}

int sn_mx_fill_source(const sn_payload *q, uint64_t *addr, uint64_t *bytes)
{
    if (sn_mg_op(q) != SN_MG_OP_FILL)
        return 0;
    *addr = SN_MG_DRAM_ADDR(q);
    *bytes = sn_mg_n(q) * SN_MX_FP16_ENTRY_BYTES;
    return 1;
}

sn_status sn_mx_convert_image(uint8_t *image, uint64_t image_base, uint64_t image_size,
                              const sn_payload *rows, size_t nrows, const char *const *names, size_t *regions,
                              sn_error *e)
{
    fill *f = NULL;
    size_t nf = 0;
    sn_status st = collect_fills(rows, nrows, image_base, image_size, &f, &nf, e);
    if (st != SN_OK)
        return st;
    size_t total = 0;
    for (size_t i = 0; i < nf; i++) {
        f[i].out_off = total;
        total += (size_t)f[i].n * SN_MX_ENTRY_BYTES;
    }
    uint8_t *buf = malloc(total ? total : 1);
    if (!buf) {
        free(f);
        return sn_error_set(e, SN_ERR_INTERNAL, "mxfp7: out of memory for %zu converted bytes", total);
    }
    /* Every conversion reads the image as given, before anything is written. */
    for (size_t i = 0; i < nf; i++)
        sn_mx_convert_fill(image + (f[i].addr - image_base), f[i].n, f[i].sel, buf + f[i].out_off);
    st = check_fills(f, nf, buf, names, e);
    if (st == SN_OK) {
        for (size_t i = 0; i < nf; i++)
            memset(image + (f[i].addr - image_base), 0, (size_t)f[i].n * SN_MX_FP16_ENTRY_BYTES);
        for (size_t i = 0; i < nf; i++)
            memcpy(image + (f[i].addr - image_base), buf + f[i].out_off, (size_t)f[i].n * SN_MX_ENTRY_BYTES);
        if (regions)
            *regions = nf;
    }
    free(buf);
    free(f);
    return st;
}
