/* Unit tests of sim/models/fp_formats: FP16 vectors from tool-pitfalls 15,
 * E8M15 rounding vectors derived by hand (each says how), and sweeps against
 * the independent reference conversions of fp16_ref.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cmocka_main.h"

#include "fp16_ref.h"
#include "fp_formats.h"

/* tool-pitfalls 15: the traps of FP16 rounding, with its vectors. */
static void test_fp16_pitfall_vectors(void **state)
{
    (void)state;
    assert_int_equal(sn_double_to_fp16(1.0 + 0x1p-11 + 0x1p-40), 0x3C01);
    assert_int_equal(sn_double_to_fp16(1.0 + 0x1p-11), 0x3C00);
    assert_int_equal(sn_double_to_fp16(0x1p-25 + 0x1p-50), 0x0001);
    assert_int_equal(sn_double_to_fp16(3 * 0x1p-25), 0x0002);
    assert_int_equal(sn_double_to_fp16(65519.0), 0x7BFF);
    /* plain conversion overflows; the store saturates */
    assert_int_equal(sn_double_to_fp16(65520.0), 0x7C00);
    int sat = 0;
    assert_int_equal(sn_double_to_fp16_sat(65520.0, &sat), 0x7BFF);
    assert_int_equal(sat, 1);
    assert_int_equal(sn_double_to_fp16_sat(1e5, &sat), 0x7BFF);
    assert_int_equal(sn_double_to_fp16_sat(-1e5, &sat), 0xFBFF);
    assert_int_equal(sat, 1);
    assert_int_equal(sn_double_to_fp16_sat(65519.0, &sat), 0x7BFF);
    assert_int_equal(sat, 0);
    /* infinities are not finite overflow: they stay infinite */
    assert_int_equal(sn_double_to_fp16_sat(INFINITY, &sat), 0x7C00);
    assert_int_equal(sat, 0);
    assert_int_equal(sn_double_to_fp16_sat(-INFINITY, &sat), 0xFC00);
    uint16_t nan = sn_double_to_fp16_sat(NAN, &sat);
    assert_int_equal(nan & 0x7C00, 0x7C00);
    assert_true((nan & 0x3FF) != 0);
    assert_int_equal(sat, 0);
    /* signed zeros and the smallest subnormal */
    assert_int_equal(sn_double_to_fp16(-0.0), 0x8000);
    assert_int_equal(sn_double_to_fp16(0x1p-25), 0x0000); /* tie to even: 0 */
    assert_int_equal(sn_double_to_fp16(-0x1p-24), 0x8001);
}

static void test_fp16_to_double_values(void **state)
{
    (void)state;
    assert_true(sn_fp16_to_double(0x0001) == 0x1p-24);
    assert_true(sn_fp16_to_double(0x03FF) == 1023 * 0x1p-24);
    assert_true(sn_fp16_to_double(0x0400) == 0x1p-14);
    assert_true(sn_fp16_to_double(0x3C00) == 1.0);
    assert_true(sn_fp16_to_double(0x7BFF) == 65504.0);
    assert_true(sn_fp16_to_double(0xFC00) == -INFINITY);
    assert_true(sn_fp16_to_double(0x8000) == 0.0 && signbit(sn_fp16_to_double(0x8000)));
    assert_true(isnan(sn_fp16_to_double(0x7E00)));
}

/* Every FP16 pattern against the defining formula, and back. */
static void test_fp16_exhaustive_vs_reference(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 0x10000; h++) {
        double mine = sn_fp16_to_double((uint16_t)h);
        double ref = ref_fp16_value((uint16_t)h);
        if (isnan(ref)) {
            assert_true(isnan(mine));
            continue;
        }
        assert_memory_equal(&mine, &ref, sizeof mine);
        assert_int_equal(sn_double_to_fp16(mine), h);
    }
}

/* Random doubles around and inside FP16's range against the nearest-value
 * search of fp16_ref.h, plain and saturating. */
static void test_double_to_fp16_sweep_vs_reference(void **state)
{
    (void)state;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 500000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        /* exponent in [-30, 17], 52 random fraction bits, random sign */
        uint64_t exp = 1023 - 30 + (s >> 58) % 48;
        uint64_t frac = (s ^ (s << 13)) & ((1ull << 52) - 1);
        if (i & 1) /* half the cases sit exactly on or next to an FP16 tie */
            frac &= ~((1ull << 41) - 1);
        uint64_t bits = (s >> 63) << 63 | exp << 52 | frac;
        double x;
        memcpy(&x, &bits, sizeof x);
        assert_int_equal(sn_double_to_fp16(x), ref_fp16_round(x));
        assert_int_equal(sn_double_to_fp16_sat(x, NULL), ref_fp16_store(x));
    }
}

/* E8M15 keeps 16 significant bits; ulp at 1.0 is 2^-15. Each expected value
 * below is worked out from that rule by hand. */
static void test_e8m15_round_vectors(void **state)
{
    (void)state;
    /* 1 + 2^-16 is half an ulp above 1.0: tie, 1.0's last bit is even */
    assert_true(sn_e8m15_round(1.0 + 0x1p-16) == 1.0);
    /* 1 + 3*2^-16 is halfway between 1+2^-15 (odd) and 1+2^-14 (even) */
    assert_true(sn_e8m15_round(1.0 + 3 * 0x1p-16) == 1.0 + 0x1p-14);
    /* just above half an ulp rounds up */
    assert_true(sn_e8m15_round(1.0 + 0x1p-16 + 0x1p-40) == 1.0 + 0x1p-15);
    /* largest finite E8M15 is (2 - 2^-15) * 2^127 = 2^128 - 2^112 */
    assert_true(sn_e8m15_round(0x1p128 - 0x1p112) == 0x1p128 - 0x1p112);
    /* 2^128 - 2^111 is the tie above it; all-ones is odd, so it rounds to
     * 2^128, which overflows to infinity */
    assert_true(sn_e8m15_round(0x1p128 - 0x1p111) == INFINITY);
    assert_true(sn_e8m15_round(-0x1p130) == -INFINITY);
    /* 2^-126 is the smallest normal and stays */
    assert_true(sn_e8m15_round(0x1p-126) == 0x1p-126);
    /* 2^-126 - 2^-143 = 2^-127 * (2 - 2^-16): a tie between 2 - 2^-15 (odd)
     * and 2, so it rounds up to 2^-126 before the flush test and survives */
    assert_true(sn_e8m15_round(0x1p-126 - 0x1p-143) == 0x1p-126);
    /* 2^-127 is below 2^-126: flushed, sign kept */
    assert_true(sn_e8m15_round(0x1p-127) == 0.0);
    double z = sn_e8m15_round(-0x1p-127);
    assert_true(z == 0.0 && signbit(z));
    assert_true(sn_e8m15_round(INFINITY) == INFINITY);
    assert_true(isnan(sn_e8m15_round(NAN)));
    /* 1/3 = 0x1.5555...p-2: 16 bits 1.010101010101010|1010.. round up */
    assert_true(sn_e8m15_round(1.0 / 3.0) == 0x1.5556p-2);
}

/* ACC24 on bits equals the compiler's frexp/round/ldexp formula
 * (model.py@cd56929 `to_acc24`), computed here with libm as the reference:
 * random doubles over the whole exponent range, half of them on or next to
 * a 17-bit tie, subnormals, and hand-worked ties. */
static double ref_acc24(double x)
{
    int e;
    double m = frexp(x, &e);
    return ldexp(nearbyint(ldexp(m, 17)), e - 17);
}

static void test_acc24_vs_reference(void **state)
{
    (void)state;
    uint64_t s = 0xD1B54A32D192ED03ull;
    for (int i = 0; i < 500000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t bits = s ^ (s >> 29);
        if (i & 1) /* on or next to a tie: the low 35 fraction bits clear, bit 35 set */
            bits = (bits & ~((1ull << 36) - 1)) | 1ull << 35 | (s >> 61 == 0);
        double x;
        memcpy(&x, &bits, sizeof x);
        if (isnan(x))
            continue;
        double got = sn_acc24_round(x), want = ref_acc24(x);
        assert_memory_equal(&got, &want, sizeof got);
    }
    /* subnormals of every width, and 1 + 2^-17 (a tie to even: 1.0), 1 + 3*2^-17 (to 1 + 2^-15) */
    for (int w = 1; w <= 52; w++) {
        uint64_t bits = (1ull << (w - 1)) | ((0x5555555555555ull >> (52 - w)) & ((1ull << (w - 1)) - 1));
        double x, got, want;
        memcpy(&x, &bits, sizeof x);
        got = sn_acc24_round(x);
        want = ref_acc24(x);
        assert_memory_equal(&got, &want, sizeof got);
    }
    assert_true(sn_acc24_round(1.0 + 0x1p-17) == 1.0);
    assert_true(sn_acc24_round(1.0 + 3 * 0x1p-17) == 1.0 + 0x1p-15);
    assert_true(sn_acc24_round(-0x1.ffffcp1023) == -INFINITY);
    assert_true(sn_acc24_round(INFINITY) == INFINITY);
}

/* Word forms: E8M15 is FP32's top 24 bits (model.py `to_bits`, `from_bits`). */
static void test_e8m15_words(void **state)
{
    (void)state;
    assert_int_equal(sn_double_to_e8m15(1.0), SN_E8M15_ONE);
    assert_int_equal(sn_double_to_e8m15(-1.0), SN_E8M15_MINUS_ONE);
    assert_int_equal(SN_E8M15_ONE, 0x3F8000);
    /* 0x3FB8AA00 as FP32: exponent 127, fraction 0x38AA00/2^23 = 0x7154/2^16 */
    assert_true(sn_e8m15_to_double(0x3FB8AA) == 0x1.7154p+0);
    /* an exponent field of 0 reads as an FP32 subnormal: 1 << 8 = 2^-141 */
    assert_true(sn_e8m15_to_double(0x000001) == 0x1p-141);
    /* FP16 -> E8M15: exponent +112, fraction << 5 */
    assert_int_equal(sn_fp16_to_e8m15(0x3C00), 0x3F8000);
    assert_int_equal(sn_fp16_to_e8m15(0x0001), 0x338000); /* 2^-24: exp 103 */
    assert_int_equal(sn_fp16_to_e8m15(0x03FF), 0x387FC0); /* 1.111111111b*2^-15 */
    assert_int_equal(sn_fp16_to_e8m15(0x7BFF), 0x477FE0); /* exp 142, 0x3FF<<5 */
    assert_int_equal(sn_fp16_to_e8m15(0xFC00), 0xFF8000);
    assert_int_equal(sn_fp16_to_e8m15(0x8000), 0x800000);
    /* E8M15 -> FP16, as a store converts */
    assert_int_equal(sn_e8m15_to_fp16(0x477FE0), 0x7BFF);
    assert_int_equal(sn_e8m15_to_fp16(0x478000), 0x7BFF); /* 65536 saturates */
    assert_int_equal(sn_e8m15_to_fp16(0xC78000), 0xFBFF);
    assert_int_equal(sn_e8m15_to_fp16(0x7F8000), 0x7C00); /* inf stays inf */
    assert_int_equal(sn_e8m15_to_fp16(0x3F8010), 0x3C00); /* 1+2^-11: tie, even */
    assert_int_equal(sn_e8m15_to_fp16(0x3F8030), 0x3C02); /* 1+3*2^-11: tie, up */
    assert_int_equal(sn_e8m15_to_fp16(0x3F8011), 0x3C01); /* above the tie */
    /* every finite FP16 survives the trip through E8M15 */
    for (uint32_t h = 0; h < 0x10000; h++)
        if ((h & 0x7C00) != 0x7C00)
            assert_int_equal(sn_e8m15_to_fp16(sn_fp16_to_e8m15((uint16_t)h)), h);
}

/* Rounding twice differs from once (artifacts-facts §6): 1 + 2^-11 + 2^-17
 * is 16.25 E8M15 ulps above 1, so E8M15 gives 1 + 2^-11 exactly, an FP16
 * tie that goes to even (0x3C00); rounded once it is above the tie (0x3C01). */
static void test_double_rounding(void **state)
{
    (void)state;
    double x = 1.0 + 0x1p-11 + 0x1p-17;
    assert_int_equal(sn_double_to_fp16(x), 0x3C01);
    assert_int_equal(sn_double_to_fp16_sat(sn_e8m15_round(x), NULL), 0x3C00);
}

static void test_fp32(void **state)
{
    (void)state;
    assert_true(sn_fp32_to_double(0x3F800000) == 1.0);
    assert_true(sn_fp32_to_double(0x00000001) == 0x1p-149);
    assert_int_equal(sn_double_to_fp32(1.0 + 0x1p-24), 0x3F800000);     /* tie, even */
    assert_int_equal(sn_double_to_fp32(1.0 + 3 * 0x1p-24), 0x3F800002); /* tie, up */
    assert_int_equal(sn_double_to_fp32(0x1p128), 0x7F800000);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_fp16_pitfall_vectors),
             cmocka_unit_test(test_fp16_to_double_values),
             cmocka_unit_test(test_fp16_exhaustive_vs_reference),
             cmocka_unit_test(test_double_to_fp16_sweep_vs_reference),
             cmocka_unit_test(test_e8m15_round_vectors), cmocka_unit_test(test_acc24_vs_reference),
             cmocka_unit_test(test_e8m15_words), cmocka_unit_test(test_double_rounding),
             cmocka_unit_test(test_fp32))
