/* Reference number conversions for the model tests, written independently of
 * sim/models/fp_formats.c: FP16 values from their defining formula, rounding
 * to FP16 by searching for the nearest value, and E8M15 rounding through
 * frexp the way compiler/kohakutpu/model.py@7703ee8 `to_e8m15` states it.
 * Slow and obvious on purpose; test-only. */
#ifndef SN_TEST_FP16_REF_H
#define SN_TEST_FP16_REF_H

#include <math.h>
#include <stdint.h>

/* The value of an FP16 pattern: (-1)^s * 2^(e-15) * 1.m, or m * 2^-24. */
static inline double ref_fp16_value(uint16_t u)
{
    unsigned e = (u >> 10) & 0x1F, m = u & 0x3FF;
    double mag = e == 0x1F ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
    return (u & 0x8000) ? -mag : mag;
}

/* x to the nearest FP16, ties to the even pattern; |x| >= 65520 is infinity.
 * Finds the largest finite magnitude not above |x| by bisection (the finite
 * patterns are ordered like their values), then compares both distances;
 * both subtractions are exact (the operands are within a factor of two). */
static inline uint16_t ref_fp16_round(double x)
{
    if (isnan(x))
        return 0x7E00;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a >= 65520.0)
        return sign | 0x7C00;
    unsigned lo = 0, hi = 0x7BFF;
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (ref_fp16_value((uint16_t)mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (lo == 0x7BFF)
        return sign | 0x7BFF;
    double below = a - ref_fp16_value((uint16_t)lo), above = ref_fp16_value((uint16_t)(lo + 1)) - a;
    unsigned pick = below < above ? lo : above < below ? lo + 1 : (lo & 1 ? lo + 1 : lo);
    return (uint16_t)(sign | pick);
}

/* As a vector store converts: a finite overflow clamps to +-65504. */
static inline uint16_t ref_fp16_store(double x)
{
    uint16_t u = ref_fp16_round(x);
    if ((u & 0x7FFF) == 0x7C00 && isfinite(x))
        u = (uint16_t)((u & 0x8000) | 0x7BFF);
    return u;
}

/* Round to E8M15: the 16-bit significand half to even, >= 2^128 to infinity,
 * below 2^-126 to a signed zero. */
static inline double ref_e8m15(double x)
{
    if (x == 0.0 || isnan(x) || isinf(x))
        return x;
    int e;
    double m = frexp(x, &e);
    double out = ldexp(nearbyint(m * 65536.0) / 65536.0, e);
    if (fabs(out) >= 0x1p128)
        return copysign(INFINITY, out);
    if (fabs(out) < 0x1p-126)
        return copysign(0.0, out);
    return out;
}

#endif
