/* FP16 / FP32 / E8M15 conversions for the vector-core model, done on the
 * IEEE bit patterns so every rounding is exact and host-independent. Rules:
 * compiler/kohakutpu/model.py@7703ee8 (`to_e8m15`, `to_fp16`, `from_bits`,
 * `to_bits`); see fp_formats.h. */
#include "fp_formats.h"

/* IEEE bit patterns and back, through unions (defined behaviour in C11). */
typedef union {
    double d;
    uint64_t u;
} double_bits;
typedef union {
    float f;
    uint32_t u;
} float_bits;

static uint64_t dbits(double x) { return ((double_bits){.d = x}).u; }
static double dval(uint64_t u) { return ((double_bits){.u = u}).d; }
static uint32_t fbits(float x) { return ((float_bits){.f = x}).u; }
static float fval(uint32_t u) { return ((float_bits){.u = u}).f; }

#define D_EXP_SHIFT 52
#define D_EXP_MASK 0x7FFull
#define D_MAN_MASK ((1ull << 52) - 1)
#define D_BIAS 1023

double sn_fp16_to_double(uint16_t h)
{
    uint64_t sign = (uint64_t)(h >> 15) << 63;
    unsigned exp = (h >> 10) & 0x1F;
    uint64_t man = h & 0x3FF;
    if (exp == 0x1F) /* inf or NaN: payload moves to the top of the double's */
        return dval(sign | D_EXP_MASK << D_EXP_SHIFT | man << 42);
    if (exp == 0) { /* zero or subnormal: man * 2^-24, normalised here */
        if (man == 0)
            return dval(sign);
        int e = -14;
        while (!(man & 0x400)) {
            man <<= 1;
            e--;
        }
        man &= 0x3FF;
        return dval(sign | (uint64_t)(e + D_BIAS) << D_EXP_SHIFT | man << 42);
    }
    return dval(sign | (uint64_t)((int)exp - 15 + D_BIAS) << D_EXP_SHIFT | man << 42);
}

uint16_t sn_double_to_fp16(double x)
{
    uint64_t u = dbits(x);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
    int exp = (int)((u >> D_EXP_SHIFT) & D_EXP_MASK);
    uint64_t man = u & D_MAN_MASK;

    if (exp == (int)D_EXP_MASK) {
        if (man == 0)
            return sign | 0x7C00;
        uint16_t nan = (uint16_t)(0x7C00 + (man >> 42));
        return sign | (nan == 0x7C00 ? 0x7C01 : nan);
    }
    if (exp == 0) /* double zero or subnormal: far below FP16's half-quantum */
        return sign;

    /* value = sig * 2^(exp-1075). The FP16 quantum is 2^(e-10) for a normal
     * (shift 42) and 2^-24 below 2^-14, so keep sig >> shift, rounded. */
    uint64_t sig = man | 1ull << 52;
    int shift = 1051 - exp > 42 ? 1051 - exp : 42;
    if (shift > 53) /* below half of 2^-24 */
        return sign;
    uint64_t q = sig >> shift;
    uint64_t rem = sig & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (shift > 42) /* subnormal range; q == 1024 is the smallest normal */
        return sign | (uint16_t)q;
    /* normal: q in [1024, 2048]; adding carries into the exponent field */
    uint64_t h = ((uint64_t)(exp - D_BIAS + 14) << 10) + q;
    return sign | (h >= 0x7C00 ? 0x7C00 : (uint16_t)h);
}

uint16_t sn_double_to_fp16_sat(double x, int *saturated)
{
    uint16_t h = sn_double_to_fp16(x);
    int over = (h & 0x7FFF) == 0x7C00 && ((dbits(x) >> D_EXP_SHIFT) & D_EXP_MASK) != D_EXP_MASK;
    if (saturated)
        *saturated = over;
    return over ? (uint16_t)((h & 0x8000) | 0x7BFF) : h;
}

double sn_e8m15_round(double x)
{
    uint64_t u = dbits(x);
    uint64_t sign = u & (1ull << 63);
    uint64_t exp = (u >> D_EXP_SHIFT) & D_EXP_MASK;
    if (exp == D_EXP_MASK)
        return x;
    /* 16 significant bits (15 stored); a subnormal double ends as zero below. */
    uint64_t mag = sn_round_magnitude(u & ~(1ull << 63), 16);
    uint64_t e = mag >> D_EXP_SHIFT;
    if (e >= D_BIAS + 128)
        return dval(sign | D_EXP_MASK << D_EXP_SHIFT);
    if (e < D_BIAS - 126)
        return dval(sign);
    return dval(sign | mag);
}

double sn_e8m15_to_double(uint32_t bits24)
{
    return (double)fval((bits24 & 0xFFFFFFu) << 8);
}

uint32_t sn_double_to_e8m15(double x)
{
    return fbits((float)sn_e8m15_round(x)) >> 8;
}

uint32_t sn_fp16_to_e8m15(uint16_t h)
{
    return sn_double_to_e8m15(sn_fp16_to_double(h));
}

uint16_t sn_e8m15_to_fp16(uint32_t bits24)
{
    return sn_double_to_fp16_sat(sn_e8m15_to_double(bits24), NULL);
}

double sn_fp32_to_double(uint32_t bits)
{
    return (double)fval(bits);
}

uint32_t sn_double_to_fp32(double x)
{
    return fbits((float)x);
}
