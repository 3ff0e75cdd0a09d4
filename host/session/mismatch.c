/* See mismatch.h. */
#include "mismatch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "err_text.h"

double sn_fp16_value(uint16_t h)
{
    int exp = (h >> 10) & 0x1F;
    double mant = h & 0x3FF, sign = h & 0x8000 ? -1.0 : 1.0;
    if (exp == 0x1F)
        return mant != 0 ? NAN : sign * INFINITY;
    if (exp == 0)
        return sign * ldexp(mant, -24); /* subnormal: mant * 2^-14 * 2^-10 */
    return sign * ldexp(1024.0 + mant, exp - 25);
}

static int fp16_nan(uint16_t h)
{
    return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
}

/* FP16 words on one integer line, so that neighbours differ by one: the ULP
 * distance is the difference (+0 and -0 coincide). */
static int32_t fp16_ordinal(uint16_t h)
{
    return h & 0x8000 ? -(int32_t)(h & 0x7FFF) : (int32_t)h;
}

void sn_mismatch_count_region(sn_mismatch *mm, const sn_region *x)
{
    mm->elems += x->fp16 ? x->nbytes / 2 : x->nbytes;
}

static sn_region_diff *region_of(sn_mismatch *mm, const sn_region *x, int32_t after_round)
{
    char file[sizeof mm->regions[0].file]; /* as a region keeps it: cut with "..." at a character boundary */
    sn_text_fit(file, sizeof file, "%s", x->file);
    for (uint32_t i = 0; i < mm->region_count && i < SN_DIFF_REGIONS; i++)
        if (mm->regions[i].addr == x->addr && mm->regions[i].after_round == after_round &&
            strcmp(mm->regions[i].file, file) == 0)
            return &mm->regions[i];
    if (mm->region_count >= SN_DIFF_REGIONS) { /* compared in pieces: count each region once */
        if (mm->counted != x || mm->counted_round != after_round)
            mm->region_count++;
        mm->counted = x;
        mm->counted_round = after_round;
        return NULL;
    }
    mm->region_count++;
    sn_region_diff *r = &mm->regions[mm->region_count - 1];
    memset(r, 0, sizeof *r);
    memcpy(r->file, file, sizeof r->file);
    r->after_round = after_round;
    r->addr = x->addr;
    r->nbytes = x->nbytes;
    r->fp16 = x->fp16;
    r->rows = x->rows;
    r->cols = x->cols;
    r->max_abs = -1.0; /* none yet */
    return r;
}

void sn_mismatch_add(sn_mismatch *mm, const sn_region *x, int32_t after_round, uint64_t off, const uint8_t *got,
                     const uint8_t *want, uint64_t len, uint32_t limit)
{
    unsigned size = x->fp16 ? 2 : 1;
    sn_region_diff *r = NULL;
    for (uint64_t k = 0; k + size <= len; k += size) {
        if (memcmp(got + k, want + k, size) == 0)
            continue;
        if (!r) {
            r = region_of(mm, x, after_round);
            if (!r) { /* past the regions described: counted only */
                for (uint64_t j = k; j < len; j++)
                    mm->diff_bytes += got[j] != want[j];
                for (uint64_t j = k; j + size <= len; j += size)
                    mm->diff_elems += memcmp(got + j, want + j, size) != 0;
                return;
            }
        }
        unsigned bytes = (got[k] != want[k]) + (size == 2 && got[k + 1] != want[k + 1]);
        uint64_t index = (off + k) / size;
        uint32_t g = size == 2 ? (uint32_t)(got[k] | got[k + 1] << 8) : got[k];
        uint32_t w = size == 2 ? (uint32_t)(want[k] | want[k + 1] << 8) : want[k];
        r->diff_bytes += bytes;
        mm->diff_bytes += bytes;
        r->diff_elems++;
        mm->diff_elems++;
        if (r->listed < limit && r->listed < SN_DIFF_MAX)
            r->elem[r->listed++] = (sn_diff_elem){index, g, w};
        if (size == 2 && !fp16_nan((uint16_t)g) && !fp16_nan((uint16_t)w)) {
            double err = fabs(sn_fp16_value((uint16_t)g) - sn_fp16_value((uint16_t)w));
            uint64_t ulp = (uint64_t)llabs((long long)fp16_ordinal((uint16_t)g) - fp16_ordinal((uint16_t)w));
            if (err > r->max_abs) {
                r->max_abs = err;
                r->max_abs_index = index;
            }
            if (ulp > r->max_ulp) {
                r->max_ulp = ulp;
                r->max_ulp_index = index;
            }
        }
    }
}

/* A JSON number, or null where JSON has none (an infinity, NaN, no value). */
static void number(FILE *f, double v)
{
    if (isfinite(v) && v >= 0)
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

static void value(FILE *f, uint32_t bits)
{
    double v = sn_fp16_value((uint16_t)bits);
    if (isnan(v))
        fprintf(f, "NaN (0x%04x)", bits);
    else
        fprintf(f, "%.6g (0x%04x)", v, bits);
}

void sn_mismatch_print(FILE *f, const sn_mismatch *mm)
{
    for (uint32_t i = 0; i < mm->region_count && i < SN_DIFF_REGIONS; i++) {
        const sn_region_diff *r = &mm->regions[i];
        char where[48] = "";
        if (r->after_round >= 0)
            sn_text_fit(where, sizeof where, " (after round %d)", r->after_round);
        for (uint32_t k = 0; k < r->listed; k++) {
            const sn_diff_elem *d = &r->elem[k];
            uint64_t off = d->index * (r->fp16 ? 2 : 1);
            if (!r->fp16) {
                fprintf(f, "  %s%s byte %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x\n", r->file, where,
                        (unsigned long long)off, (unsigned long long)(r->addr + off), d->got, d->want);
                continue;
            }
            fprintf(f, "  %s%s element %llu", r->file, where, (unsigned long long)d->index);
            if (r->cols)
                fprintf(f, " (row %llu, col %llu)", (unsigned long long)(d->index / r->cols),
                        (unsigned long long)(d->index % r->cols));
            fprintf(f, " at offset %llu (DRAM 0x%llx): got ", (unsigned long long)off,
                    (unsigned long long)(r->addr + off));
            value(f, d->got);
            fputs(", expected ", f);
            value(f, d->want);
            if (fp16_nan((uint16_t)d->got) || fp16_nan((uint16_t)d->want))
                fputs("\n", f);
            else
                fprintf(f, ", %llu ULP\n", (unsigned long long)llabs((long long)fp16_ordinal((uint16_t)d->got) -
                                                                     fp16_ordinal((uint16_t)d->want)));
        }
        if (r->listed < r->diff_elems && r->listed > 0)
            fprintf(f, "  %s%s: %llu more differing element%s (--diff N lists up to %d)\n", r->file, where,
                    (unsigned long long)(r->diff_elems - r->listed), r->diff_elems - r->listed == 1 ? "" : "s",
                    SN_DIFF_MAX);
        if (r->fp16 && r->listed > 0 && r->max_abs >= 0)
            fprintf(f, "  %s%s: largest error %.6g (at element %llu), largest ULP error %llu (at element %llu)\n",
                    r->file, where, r->max_abs, (unsigned long long)r->max_abs_index, (unsigned long long)r->max_ulp,
                    (unsigned long long)r->max_ulp_index);
    }
    if (mm->region_count > SN_DIFF_REGIONS)
        fprintf(f, "  %u more regions differ\n", mm->region_count - SN_DIFF_REGIONS);
}

void sn_mismatch_write_json(FILE *f, const sn_mismatch *mm)
{
    fprintf(f, "{\"differing_bytes\": %llu, \"differing_elements\": %llu, \"elements\": %llu, \"regions\": [",
            (unsigned long long)mm->diff_bytes, (unsigned long long)mm->diff_elems, (unsigned long long)mm->elems);
    for (uint32_t i = 0; i < mm->region_count && i < SN_DIFF_REGIONS; i++) {
        const sn_region_diff *r = &mm->regions[i];
        fputs(i ? ",\n    {\"file\": " : "\n    {\"file\": ", f);
        sn_json_write_string(f, r->file);
        fprintf(f, ", \"after_round\": %d, \"addr\": %llu, \"nbytes\": %llu, \"dtype\": \"%s\", "
                   "\"differing_bytes\": %llu, \"differing_elements\": %llu, ",
                r->after_round, (unsigned long long)r->addr, (unsigned long long)r->nbytes, r->fp16 ? "fp16" : "bytes",
                (unsigned long long)r->diff_bytes, (unsigned long long)r->diff_elems);
        if (r->fp16 && r->max_abs >= 0) {
            fputs("\"max_abs_error\": ", f);
            number(f, r->max_abs);
            fprintf(f, ", \"max_abs_error_element\": %llu, \"max_ulp_error\": %llu, \"max_ulp_error_element\": %llu, ",
                    (unsigned long long)r->max_abs_index, (unsigned long long)r->max_ulp,
                    (unsigned long long)r->max_ulp_index);
        }
        else
            fputs("\"max_abs_error\": null, \"max_abs_error_element\": null, \"max_ulp_error\": null, "
                  "\"max_ulp_error_element\": null, ", f);
        fputs("\"first\": [", f);
        for (uint32_t k = 0; k < r->listed; k++) {
            const sn_diff_elem *d = &r->elem[k];
            fprintf(f, "%s{\"element\": %llu, \"offset\": %llu, \"got_bits\": %u, \"expected_bits\": %u", k ? ", " : "",
                    (unsigned long long)d->index, (unsigned long long)(d->index * (r->fp16 ? 2 : 1)), d->got, d->want);
            if (r->cols)
                fprintf(f, ", \"row\": %llu, \"col\": %llu", (unsigned long long)(d->index / r->cols),
                        (unsigned long long)(d->index % r->cols));
            if (r->fp16) { /* signed values: written whole, null for NaN and infinities */
                double g = sn_fp16_value((uint16_t)d->got), w = sn_fp16_value((uint16_t)d->want);
                fputs(", \"got\": ", f);
                isfinite(g) ? (void)fprintf(f, "%.17g", g) : (void)fputs("null", f);
                fputs(", \"expected\": ", f);
                isfinite(w) ? (void)fprintf(f, "%.17g", w) : (void)fputs("null", f);
            }
            fputs("}", f);
        }
        fputs("]}", f);
    }
    fputs("]}", f);
}
