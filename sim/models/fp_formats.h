/* Number formats of the vector core: FP16 and FP32 in memory, E8M15 in the
 * lanes. The lane model carries every value as a double, exactly as the
 * compiler's model does (compiler/kohakutpu/model.py@7703ee8 `to_e8m15`,
 * `to_fp16`, `from_bits`, `to_bits`), so these functions convert between the
 * bit formats and doubles and round doubles to each format.
 * Facts: artifacts-facts §3.1 and §6, sysnode-facts §9, tool-pitfalls 15. */
#ifndef SN_FP_FORMATS_H
#define SN_FP_FORMATS_H

#include <stdint.h>
#include <string.h>

/* Largest finite FP16, what a saturating store clamps to. */
#define SN_FP16_MAX 65504.0

/* E8M15 constants as 24-bit words (model.py@7703ee8 KREG_SEED). */
#define SN_E8M15_ONE 0x3F8000u
#define SN_E8M15_MINUS_ONE 0xBF8000u

/* FP16 bits -> double. Exact for every input, subnormals, infinities and
 * NaNs included. */
double sn_fp16_to_double(uint16_t h);

/* double -> FP16 bits, round half to even straight from the double (no
 * detour through float, tool-pitfalls 15). Finite values at or above 65520 in
 * magnitude become infinities; a NaN keeps its sign and the top 10 payload
 * bits, forced non-zero (numpy's rule, which model.py@7703ee8 inherits). */
uint16_t sn_double_to_fp16(double x);

/* As sn_double_to_fp16, but a finite value that would overflow becomes
 * +-65504 (0x7BFF / 0xFBFF), as a vector store does (model.py@7703ee8
 * `to_fp16`). Infinities and NaNs pass through. *saturated (may be NULL) is
 * set to 1 when the clamp applied, else 0. */
uint16_t sn_double_to_fp16_sat(double x, int *saturated);

/* Rounds x to the lane format E8M15 and returns it as a double: the
 * significand to 16 bits (15 stored), round half to even; a result of
 * magnitude >= 2^128 becomes a signed infinity and one below 2^-126 a signed
 * zero. Infinities and NaNs pass through. (model.py@7703ee8 `to_e8m15`;
 * artifacts-facts §3.1.) */
double sn_e8m15_round(double x);

/* Keeps the top `sig` significant bits of a finite double's magnitude bits
 * (sign clear), round half to even on the bits dropped. A carry out of the
 * fraction bumps the exponent (up to infinity), which is what rounding
 * wants; a subnormal has fewer significant bits, so fewer (or none) are
 * dropped. Inline: the GEMM rounds after every block. */
static inline uint64_t sn_round_magnitude(uint64_t mag, unsigned sig)
{
    unsigned width = mag >> 52 ? 53 : 64 - (unsigned)__builtin_clzll(mag | 1);
    if (width <= sig)
        return mag;
    unsigned drop = width - sig;
    uint64_t lsb = (mag >> drop) & 1;
    mag += (1ull << (drop - 1)) - 1 + lsb;
    return mag & ~((1ull << drop) - 1);
}

/* Rounds x to ACC24, the matmul accumulator (S1E7M16): the significand to
 * 17 bits (16 stored), round half to even, exponent unbounded; doubles
 * below 2^-1022 round the same way on their own bits, infinities and NaNs
 * pass through. Done on the bit pattern; equals model.py@cd56929 `to_acc24`
 * (frexp, round(m * 2^17), ldexp; artifacts-facts §3.3). */
static inline double sn_acc24_round(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    uint64_t exp = (u >> 52) & 0x7FF;
    if (exp != 0 && exp != 0x7FF) /* normal: sn_round_magnitude's steps with its 36 dropped bits as a constant */
        u = (u + (1ull << 35) - 1 + ((u >> 36) & 1)) & ~((1ull << 36) - 1);
    else if (exp == 0)
        u = (u & (1ull << 63)) | sn_round_magnitude(u & ~(1ull << 63), 17);
    memcpy(&x, &u, sizeof x);
    return x;
}

/* A 24-bit E8M15 word (FP32's top 24 bits) -> double, exactly, the way the
 * model reads a scalar or constant register: the word is widened to FP32 bits
 * (<< 8) and taken as it is, so an exponent field of 0 reads as an FP32
 * subnormal, not zero (model.py@7703ee8 `from_bits`). */
double sn_e8m15_to_double(uint32_t bits24);

/* x rounded to E8M15 and returned as its 24-bit word (model.py@7703ee8
 * `to_bits`: FP32 bits of the rounded value >> 8). */
uint32_t sn_double_to_e8m15(double x);

/* FP16 bits -> E8M15 word. Exact: the exponent is rebiased by +112 and FP16
 * subnormals normalise (sysnode-facts §9). */
uint32_t sn_fp16_to_e8m15(uint16_t h);

/* E8M15 word -> FP16 bits as a vector store converts: round half to even,
 * finite overflow saturating to +-65504. */
uint16_t sn_e8m15_to_fp16(uint32_t bits24);

/* FP32 bits -> double, exact (a VLD of dtype 2 keeps full FP32 precision in
 * the register, model.py@7703ee8 `_load`). */
double sn_fp32_to_double(uint32_t bits);

/* double -> FP32 bits, round half to even, overflow to infinity (a VST of
 * dtype 2, model.py@7703ee8 `_store`). */
uint32_t sn_double_to_fp32(double x);

#endif
