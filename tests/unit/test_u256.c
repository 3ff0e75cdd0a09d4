/* sn_u256_parse: decimal flit integers -> 256-bit payloads. Expected values
 * are powers of two and real flits whose decode is in sysnode-facts §3.2;
 * the decimal constants were computed with Python's integers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cmocka_main.h"

#include <stdio.h>
#include <string.h>

#include "u256.h"

static sn_payload parse_ok(const char *text, bool expect_masked)
{
    sn_payload p;
    bool masked = !expect_masked;
    sn_error e = {0};
    assert_int_equal(sn_u256_parse(text, strlen(text), &p, &masked, &e), SN_OK);
    assert_int_equal(masked, expect_masked);
    return p;
}

static void expect_words(sn_payload p, uint64_t w3, uint64_t w2, uint64_t w1, uint64_t w0)
{
    assert_int_equal(p.w[3], w3);
    assert_int_equal(p.w[2], w2);
    assert_int_equal(p.w[1], w1);
    assert_int_equal(p.w[0], w0);
}

static void small_values(void **state)
{
    (void)state;
    expect_words(parse_ok("0", false), 0, 0, 0, 0);
    expect_words(parse_ok("1", false), 0, 0, 0, 1);
    expect_words(parse_ok("18446744073709551615", false), 0, 0, 0, UINT64_MAX);
    expect_words(parse_ok("18446744073709551616", false), 0, 0, 1, 0); /* 2^64 */
}

static void word_order(void **state)
{
    (void)state;
    /* 0xfedcba9876543210 << 192 | 0x0f1e2d3c4b5a6978 << 128 |
     * 0x8796a5b4c3d2e1f0 << 64 | 0x1122334455667788 */
    expect_words(parse_ok("115277457729594790111394397148953991061505449427034790345299454037891005970312",
                          false),
                 0xfedcba9876543210ull, 0x0f1e2d3c4b5a6978ull, 0x8796a5b4c3d2e1f0ull,
                 0x1122334455667788ull);
}

static void full_width(void **state)
{
    (void)state;
    /* 2^256 - 1: every payload bit set, nothing masked. */
    expect_words(parse_ok("115792089237316195423570985008687907853269984665640564039457584007913129639935",
                          false),
                 UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX);
    /* 2^256: only bit 256, masked away. */
    expect_words(parse_ok("115792089237316195423570985008687907853269984665640564039457584007913129639936",
                          true),
                 0, 0, 0, 0);
}

static void header_bits_masked(void **state)
{
    (void)state;
    /* 2^270 + 2^256 + 0x0123456789abcdef: header bits dropped, low bits kept. */
    expect_words(parse_ok("1897253382153425862015210589367351370175828698746520641786512514051642158366838255",
                          true),
                 0, 0, 0, 0x0123456789abcdefull);
    /* 2^288 - 1 is the widest flit: payload all ones, masked. */
    expect_words(parse_ok("497323236409786642155382248146820840100456150797347717440463976893159497012533375533055",
                          true),
                 UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX);
}

static void real_wide_flit(void **state)
{
    (void)state;
    /* vadd128_api slot 0: header 0x5400 over IMEM addr 0 word 0xd0000000,
     * i.e. ARG3 = 1 << 60, ARG0 = 0xd0000000 (sysnode-facts §3.2). */
    expect_words(parse_ok("2490000323964824798650684434813387813470958579623976291639748352605164437837447168",
                          true),
                 1ull << 60, 0, 0, 0xd0000000ull);
}

static void expect_reject(const char *text, const char *reason)
{
    sn_payload p = {{7, 7, 7, 7}};
    bool masked = false;
    sn_error e = {0};
    assert_int_equal(sn_u256_parse(text, strlen(text), &p, &masked, &e), SN_ERR_INPUT);
    assert_int_equal(e.code, SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, reason));
    assert_int_equal(p.w[0], 7); /* untouched on failure */
}

static void rejects(void **state)
{
    (void)state;
    expect_reject("", "empty");
    expect_reject("-1", "signed");
    expect_reject("+1", "signed");
    expect_reject("01", "leading zero");
    expect_reject("00", "leading zero");
    expect_reject("1.5", "fraction or exponent");
    expect_reject("1e3", "fraction or exponent");
    expect_reject("12a4", "not a decimal integer (byte 2 is 'a')");
    expect_reject(" 1", "not a decimal integer");
    /* 2^288: wider than a 288-bit flit. */
    expect_reject("497323236409786642155382248146820840100456150797347717440463976893159497012533375533056",
                  "2^288 or more");
    /* Far longer: rejected as soon as it passes 2^288, no overflow. */
    char big[400];
    memset(big, '9', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    expect_reject(big, "2^288 or more");
}

/* A digit at a time into 32-bit limbs: the reference for the 19-digit
 * chunks. Returns false once the value reaches 2^288. */
static bool digitwise(const char *text, size_t len, uint32_t acc[10])
{
    memset(acc, 0, 10 * sizeof *acc);
    for (size_t i = 0; i < len; i++) {
        uint64_t carry = (uint64_t)(text[i] - '0');
        for (int l = 0; l < 10; l++) {
            uint64_t t = (uint64_t)acc[l] * 10u + carry;
            acc[l] = (uint32_t)t;
            carry = t >> 32;
        }
        if (acc[9] != 0)
            return false;
    }
    return true;
}

/* Every length from 1 to 90 digits (chunk remainders 0..18, past 2^288),
 * pseudo-random digits, against the digit-at-a-time reference; and a
 * non-digit at every position of a 60-digit number is named by its byte. */
static void every_length_vs_digitwise(void **state)
{
    (void)state;
    uint64_t seed = 0x243F6A8885A308D3ull;
    char text[96];
    for (size_t len = 1; len <= 90; len++) {
        for (int trial = 0; trial < 20; trial++) {
            for (size_t i = 0; i < len; i++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                text[i] = (char)('0' + (seed >> 33) % 10);
            }
            if (len > 1 && text[0] == '0')
                text[0] = '1' + (char)(trial % 9);
            if (trial == 0)
                memset(text, '9', len); /* all nines: every carry */
            uint32_t ref[10];
            bool fits = digitwise(text, len, ref);
            sn_payload p;
            bool masked;
            sn_error e = {0};
            sn_status st = sn_u256_parse(text, len, &p, &masked, &e);
            if (!fits) {
                assert_int_equal(st, SN_ERR_INPUT);
                assert_non_null(strstr(e.msg, "2^288 or more"));
                continue;
            }
            assert_int_equal(st, SN_OK);
            for (int w = 0; w < 4; w++)
                assert_int_equal(p.w[w], (uint64_t)ref[2 * w + 1] << 32 | ref[2 * w]);
            assert_int_equal(masked, ref[8] != 0);
        }
    }
    for (size_t bad = 0; bad < 60; bad++) {
        memset(text, '7', 60);
        text[bad] = 'x';
        char want[32];
        snprintf(want, sizeof want, "(byte %zu is 'x')", bad);
        sn_payload p;
        bool masked;
        sn_error e = {0};
        assert_int_equal(sn_u256_parse(text, 60, &p, &masked, &e), SN_ERR_INPUT);
        assert_non_null(strstr(e.msg, want));
    }
}

static void null_error_allowed(void **state)
{
    (void)state;
    sn_payload p;
    bool masked;
    assert_int_equal(sn_u256_parse("x", 1, &p, &masked, NULL), SN_ERR_INPUT);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(small_values), cmocka_unit_test(word_order),
             cmocka_unit_test(full_width), cmocka_unit_test(header_bits_masked),
             cmocka_unit_test(real_wide_flit), cmocka_unit_test(rejects),
             cmocka_unit_test(null_error_allowed), cmocka_unit_test(every_length_vs_digitwise))
