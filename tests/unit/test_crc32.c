/* CRC-32 (common/crc32.c): the IEEE 802.3 check value, the empty
 * input, incremental use across unaligned splits, and random buffers at
 * every start alignment against zlib's crc32 (an independent implementation
 * of the same CRC). */
#include "cmocka_main.h"

#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "crc32.h"

/* xorshift64: a fixed, reproducible byte stream. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void check_value(void **state)
{
    (void)state;
    assert_int_equal(sn_crc32("123456789", 9), 0xCBF43926u);
    assert_int_equal(sn_crc32("", 0), 0);
    assert_int_equal(sn_crc32("a", 1), 0xE8B7BE43u);
}

static void incremental(void **state)
{
    (void)state;
    const char *text = "The quick brown fox jumps over the lazy dog";
    size_t n = strlen(text);
    assert_int_equal(sn_crc32(text, n), 0x414FA339u);
    for (size_t cut = 0; cut <= n; cut++)
        assert_int_equal(sn_crc32_update(sn_crc32(text, cut), text + cut, n - cut), 0x414FA339u);
}

static void against_zlib(void **state)
{
    (void)state;
    static uint8_t buf[4096 + 8];
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)next(&s);
    for (int round = 0; round < 2000; round++) {
        size_t start = next(&s) % 8; /* every alignment of the word loop */
        size_t len = next(&s) % 4096;
        uint32_t want = (uint32_t)crc32(0L, buf + start, (uInt)len);
        if (sn_crc32(buf + start, len) != want)
            fail_msg("start %zu len %zu: 0x%08x, zlib 0x%08x", start, len, sn_crc32(buf + start, len), want);
    }
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(check_value), cmocka_unit_test(incremental),
             cmocka_unit_test(against_zlib))
