/* ASCII digits for the host's parsers: runs of decimal digits many bytes
 * at a time, for long numbers (json.c, u256.c: a flit is 78 digits), and
 * the value of one hex digit (JSON's \u escapes, a manifest's SHA-256). */
#ifndef SN_HOST_ASCII_DIGITS_H
#define SN_HOST_ASCII_DIGITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The value of hex digit c (either case), or -1. */
static inline int sn_ascii_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The bytes of v that are not ASCII digits, as nonzero bytes: a high
 * nibble other than 3, or a low nibble that carries when 6 is added (above
 * '9'). With the first byte in the low bits (a little-endian load), a carry
 * can only disturb bytes after the first non-digit, so that one is exact. */
static inline uint64_t sn_ascii_not_digits8(uint64_t v)
{
    return ((v & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
           (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull);
}

/* The offset of the first byte at or after i (below n) that is not an
 * ASCII digit, or n. Sixteen bytes a step where SSE2 is there (every
 * x86-64), else eight; the first non-digit of a step found by its bit. */
static inline size_t sn_ascii_digits_end(const char *s, size_t n, size_t i)
{
#if defined(__SSE2__)
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), zero);
        /* a digit is at most 9 after the subtraction, unsigned */
        unsigned bad = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, nine), v)) ^ 0xFFFFu;
        if (bad != 0)
            return i + (size_t)__builtin_ctz(bad);
    }
#endif
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, s + i, sizeof v);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v); /* the first byte low, where carries start */
#endif
        uint64_t bad = sn_ascii_not_digits8(v);
        if (bad != 0)
            return i + (size_t)__builtin_ctzll(bad) / 8;
    }
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

#endif
