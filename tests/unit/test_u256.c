/* sn_u256_parse: decimal flit integers -> 256-bit payloads. Expected values
 * are powers of two and real flits whose decode is in sysnode-facts §3.2;
 * the decimal constants were computed with Python's integers. */
#include "cmocka_main.h"

#include <stdio.h>
#include <string.h>

#include "ascii_digits.h"
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

/* Values computed with Python's integers (int(text) % 2**256 split into
 * 64-bit words, masked = int(text) >= 2**256): the chunk boundaries (19,
 * 38, 57, 76 digits and one more), 2^64, 2^256 - 1, 2^256, 2^288 - 1, the
 * longest accepted length (87 digits) and random values of those lengths. */
static const struct {
    const char *text;
    uint64_t w[4]; /* w[0] = bits 63:0 */
    bool masked;
} VECTORS[] = {
    {"999999999999999999", {0x0de0b6b3a763ffffull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 18 nines */
    {"1000000000000000000", {0x0de0b6b3a7640000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 10^18, 19 digits */
    {"9999999999999999999", {0x8ac7230489e7ffffull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 19 nines */
    {"10000000000000000000", {0x8ac7230489e80000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 10^19, 20 digits */
    {"18446744073709551615", {0xffffffffffffffffull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 2^64 - 1 */
    {"18446744073709551616", {0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 2^64 */
    {"99999999999999999999999999999999999999", {0x098a223fffffffffull, 0x4b3b4ca85a86c47aull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 38 nines */
    {"100000000000000000000000000000000000000", {0x098a224000000000ull, 0x4b3b4ca85a86c47aull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* 10^38, 39 digits */
    {"999999999999999999999999999999999999999999999999999999999", {0x49ffffffffffffffull, 0xebfdcb54864ada83ull, 0x28c87cb5c89a2571ull, 0x0000000000000000ull}, false}, /* 57 nines */
    {"1000000000000000000000000000000000000000000000000000000000", {0x4a00000000000000ull, 0xebfdcb54864ada83ull, 0x28c87cb5c89a2571ull, 0x0000000000000000ull}, false}, /* 10^57, 58 digits */
    {"9999999999999999999999999999999999999999999999999999999999999999999999999999", {0xffffffffffffffffull, 0x7775a5f171950fffull, 0x0764b4abe8652979ull, 0x161bcca7119915b5ull}, false}, /* 76 nines */
    {"10000000000000000000000000000000000000000000000000000000000000000000000000000", {0x0000000000000000ull, 0x7775a5f171951000ull, 0x0764b4abe8652979ull, 0x161bcca7119915b5ull}, false}, /* 10^76, 77 digits */
    {"99999999999999999999999999999999999999999999999999999999999999999999999999999", {0xffffffffffffffffull, 0xaa987b6e6fd29fffull, 0x49ef0eb713f39ebeull, 0xdd15fe86affad912ull}, false}, /* 77 nines */
    {"100000000000000000000000000000000000000000000000000000000000000000000000000000", {0x0000000000000000ull, 0xaa987b6e6fd2a000ull, 0x49ef0eb713f39ebeull, 0xdd15fe86affad912ull}, false}, /* 10^77, 78 digits */
    {"115792089237316195423570985008687907853269984665640564039457584007913129639935", {0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull}, false}, /* 2^256 - 1 */
    {"115792089237316195423570985008687907853269984665640564039457584007913129639936", {0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, true}, /* 2^256 */
    {"115792089237316195423570985008687907853269984665640564039457584007913129639937", {0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, true}, /* 2^256 + 1 */
    {"6277101735386680763835789423207666416102355444464034512895", {0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000000ull}, false}, /* 2^192 - 1 */
    {"340282366920938463463374607431768211456", {0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000000ull}, false}, /* 2^128 */
    {"497323236409786642155382248146820840100456150797347717440463976893159497012533375533055", {0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull}, true}, /* 2^288 - 1 */
    {"100000000000000000000000000000000000000000000000000000000000000000000000000000000000000", {0x0000000000000000ull, 0x0599f3d072400000ull, 0xad579be1ab4636c9ull, 0x826af3c9bb530089ull}, true}, /* 10^86, 87 digits */
    {"9326534251324296906", {0x816e817ccbb2cecaull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* random, 19 digits */
    {"3298425398689169404", {0x2dc65c6c9efe7ffcull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* random, 19 digits */
    {"32756148692461138388", {0xc69537afb005b1d4ull, 0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* random, 20 digits */
    {"32681754069005128513", {0xc58cea2b9fba5341ull, 0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* random, 20 digits */
    {"16505330450462244435283576529258286596", {0xf59802d052800e04ull, 0x0c6acf9eb8d37fe2ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* random, 38 digits */
    {"39766984930021404936388316039663971444", {0x75349d03d3e1ec74ull, 0x1dead7bbad4a2049ull, 0x0000000000000000ull, 0x0000000000000000ull}, false}, /* random, 38 digits */
    {"986617003428169510756550779319275105165", {0xe5ca04c72a162b8dull, 0xe63f85e6e481dc80ull, 0x0000000000000002ull, 0x0000000000000000ull}, false}, /* random, 39 digits */
    {"983957159104905551724811639848023628120", {0xaf74ab37f5301958ull, 0xe43f4173aedcafb4ull, 0x0000000000000002ull, 0x0000000000000000ull}, false}, /* random, 39 digits */
    {"902134320692666553281089251957022664120210689580770417540", {0xbdfce8d077925b84ull, 0x940e1d57084b0c7bull, 0x24cab8c6af2b0fd9ull, 0x0000000000000000ull}, false}, /* random, 57 digits */
    {"379155839462216970657876911239102513172885242999427055467", {0x29d5a1756c903f6bull, 0x9d342755da3db623ull, 0x0f769258eb4620e6ull, 0x0000000000000000ull}, false}, /* random, 57 digits */
    {"7031957853651213235360146004038744267086353827718920125907", {0xc721932c4e63bdd3ull, 0x13e99b57a51a09e8ull, 0x1ec910cb49c904edull, 0x0000000000000001ull}, false}, /* random, 58 digits */
    {"9770483880881687754416043523758596568808942524611008585275", {0x39e29c02a1dade3bull, 0x990fe111d90a7e7full, 0x8e789c8470bc6a43ull, 0x0000000000000001ull}, false}, /* random, 58 digits */
    {"8868255469226763041218567909727299663720105961647367612017816539763357868044", {0xdd28e2196711600cull, 0x645a311428217e33ull, 0x95cf7389d2da29daull, 0x139b413552bf6171ull}, false}, /* random, 76 digits */
    {"7722123003719205956433088426799817879553222762478872405887912222205688537502", {0x20af07e994e5e19eull, 0x88547b9e484a5de4ull, 0xfcd52cb47f9d8322ull, 0x111291156ae7e6ddull}, false}, /* random, 76 digits */
    {"19088091471273016498912434423628601046706647264347876359484759170310009066645", {0x0bacb22cfb8d1495ull, 0xc7e78fceab6fe793ull, 0xa635eb3f06168d29ull, 0x2a337a16e6bb95ffull}, false}, /* random, 77 digits */
    {"21905215331599411029059498926414954809080424459667481862633317238364901378114", {0xb5dced55ef168842ull, 0xca5423a3019982c1ull, 0x39456eb5703d84beull, 0x306de99a66a88d05ull}, false}, /* random, 77 digits */
    {"592716521050134592555591882445950041509991045266697948601795136288737588093924", {0xb4d6c2b753ff23e4ull, 0x3d562e3ae8143c35ull, 0xbb6a339a3164ea00ull, 0x1e69a996ee9de8eaull}, true}, /* random, 78 digits */
    {"359153136168218531311242716341684923475173474687511480802919466390225967933717", {0x73ec00d892c46915ull, 0x9d2e30e0a5ed2ec3ull, 0xfa7f7f91c85d17f5ull, 0x1a0978a92369b2b3ull}, true}, /* random, 78 digits */
    {"2357540632834251013414851306456068769196309905289269607947614528111620440824667310", {0x6dc1fa443206dcaeull, 0xf78da953d2bbca94ull, 0xa1ec5db5093e5808ull, 0x1e47a3db32462f5full}, true}, /* random, 82 digits */
    {"9681841411807042393258460341434999043841230742599922565828919682125434186917568198", {0xf00a8a19deb15ec6ull, 0x9897e88165b9176full, 0xb2c39e24b29ebb7full, 0x03acd6b4b0e42590ull}, true}, /* random, 82 digits */
    {"322423999113170603591236100119966802024526938485601729498000224867220424928224002022040", {0x178003a4187d9a98ull, 0x1653d31cbb638180ull, 0x2ad7e1f83379dcddull, 0x8c88d7f3089f9c3full}, true}, /* random, 87 digits */
    {"359807288523661220378325647793786437390964734220674482606725295572018794356467056976076", {0xb2f07f87c57f20ccull, 0x8e41b61c62be2334ull, 0x3600128697edbeffull, 0x0ab5d8e82bc97991ull}, true}, /* random, 87 digits */
};

static void python_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof VECTORS / sizeof VECTORS[0]; i++) {
        sn_payload p = parse_ok(VECTORS[i].text, VECTORS[i].masked);
        for (int w = 0; w < 4; w++)
            assert_int_equal(p.w[w], VECTORS[i].w[w]);
    }
    /* 2^288, 87 nines and 10^87: the first values too wide. */
    expect_reject("497323236409786642155382248146820840100456150797347717440463976893159497012533375533056",
                  "2^288 or more");
    expect_reject("999999999999999999999999999999999999999999999999999999999999999999999999999999999999999",
                  "2^288 or more");
    expect_reject("1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
                  "2^288 or more");
}

/* A byte just outside '0'..'9' (or far from it) at every position of a
 * 78-digit and an 87-digit number: the digit check runs inside the
 * conversion, on single bytes and on eight-byte words alike. */
static void bad_byte_everywhere(void **state)
{
    (void)state;
    static const unsigned char bad[] = {'/', ':', 0x00, 0x80, 0xB5, 0xF9, ' ', 'x', '-'};
    char text[96];
    for (size_t len = 78; len <= 87; len += 9) {
        for (size_t at = 0; at < len; at++) {
            for (size_t b = 0; b < sizeof bad; b++) {
                memset(text, '8', len);
                text[at] = (char)bad[b];
                sn_payload p = {{7, 7, 7, 7}};
                bool masked = false;
                sn_error e = {0};
                assert_int_equal(sn_u256_parse(text, len, &p, &masked, &e), SN_ERR_INPUT);
                assert_int_equal(p.w[0], 7);
                char want[32];
                snprintf(want, sizeof want, "(byte %zu is '", at);
                if (at == 0 && bad[b] == '-')
                    assert_non_null(strstr(e.msg, "signed"));
                else
                    assert_non_null(strstr(e.msg, want));
            }
        }
    }
}

/* sn_ascii_digits_end (the digit scan of json.c and u256.c) against a byte
 * at a time: every start, run length and end of text, each stopping byte. */
static void digit_scan_vs_bytewise(void **state)
{
    (void)state;
    static const unsigned char stop[] = {'/', ':', 0x00, 0x80, 0xB9, 0xF9, ',', ']', 'e', '.'};
    char text[80];
    for (size_t b = 0; b < sizeof stop; b++) {
        for (size_t run = 0; run < 48; run++) {
            for (size_t from = 0; from < 20; from++) {
                memset(text, '5', sizeof text);
                for (size_t k = 0; k < from + run; k++)
                    text[k] = (char)('0' + (k * 7 + run) % 10);
                text[from + run] = (char)stop[b];
                text[from + run + 1 + b % 3] = (char)stop[b]; /* a second one after */
                for (size_t n = from; n <= sizeof text; n += 1 + (n > from + run + 4) * 13) {
                    size_t want = from;
                    while (want < n && text[want] >= '0' && text[want] <= '9')
                        want++;
                    assert_int_equal(sn_ascii_digits_end(text, n, from), want);
                }
            }
        }
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
             cmocka_unit_test(null_error_allowed), cmocka_unit_test(every_length_vs_digitwise),
             cmocka_unit_test(python_vectors), cmocka_unit_test(bad_byte_everywhere),
             cmocka_unit_test(digit_scan_vs_bytewise))
