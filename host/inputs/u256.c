/* Exact decimal -> 256-bit conversion for flit integers (artifacts-facts
 * §1.1). Digits are taken 19 at a time (10^19 < 2^64), the first chunk
 * taking the remainder, and combined as acc * 10^19 + chunk over 64-bit
 * limbs: after j chunks acc < 10^(19j) needs j limbs, so chunk j multiplies
 * only j - 1 of them. A value below 2^288 has at most 87 digits, so five
 * chunks and five limbs (320 bits) hold every accepted value with no carry
 * out; bits 319:288 must then be 0. The digits are checked in the same pass
 * as they are converted; any refusal is worded by refuse(). */
#include "u256.h"

#include "ascii_digits.h"

#include <stdint.h>
#include <string.h>

#define CHUNK_DIGITS 19
#define CHUNK_SCALE 10000000000000000000ull /* 10^19 */
/* 2^288 - 1 has 87 digits: a longer digit run is 2^288 or more. */
#define MAX_DIGITS 87

/* Shows at most this much of a bad text in a message. */
#define QUOTE_MAX 100

/* Eight ASCII digits, one little-endian 64-bit word -> their value, in three
 * multiplies (pairs, then quads, then the eight). */
static inline uint64_t eight_digits(uint64_t v)
{
    v -= 0x3030303030303030ull;
    v = v * 10 + (v >> 8);
    v = ((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32)) +
         ((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))) >> 32;
    return v;
}

static inline uint64_t load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v); /* the first digit in the low byte */
#endif
    return v;
}

/* k (0..19) bytes at p -> their value if they are digits; *bad is made
 * nonzero if any is not. */
static inline uint64_t chunk_value(const char *p, size_t k, uint64_t *bad)
{
    uint64_t v = 0;
    for (; k >= 8; k -= 8, p += 8) {
        uint64_t w = load8(p);
        *bad |= sn_ascii_not_digits8(w);
        v = v * 100000000u + eight_digits(w);
    }
    for (; k > 0; k--, p++) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        *bad |= d > 9;
        v = v * 10u + d;
    }
    return v;
}

/* Sixteen bytes at p -> their value if they are digits; *bad is made
 * nonzero if any is not. */
static inline uint64_t sixteen_digits(const char *p, uint64_t *bad)
{
#if defined(__SSE2__) && defined(__x86_64__)
    /* pairs, quads, then eights, each a multiply-add of 16-bit lanes */
    __m128i v = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi8('0'));
    *bad |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(9)), v)) ^ 0xFFFFu;
    const __m128i zero = _mm_setzero_si128();
    __m128i x = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(v, zero), _mm_set_epi16(1, 10, 1, 10, 1, 10, 1, 10)),
                                _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), _mm_set_epi16(1, 10, 1, 10, 1, 10, 1, 10)));
    x = _mm_madd_epi16(x, _mm_set_epi16(1, 100, 1, 100, 1, 100, 1, 100));
    x = _mm_madd_epi16(_mm_packs_epi32(x, x), _mm_set_epi16(1, 10000, 1, 10000, 1, 10000, 1, 10000));
    uint64_t eights = (uint64_t)_mm_cvtsi128_si64(x); /* digits 0-7 in the low half, 8-15 above */
    return (eights & 0xFFFFFFFFu) * 100000000u + (eights >> 32);
#else
    uint64_t w0 = load8(p), w1 = load8(p + 8);
    *bad |= sn_ascii_not_digits8(w0) | sn_ascii_not_digits8(w1);
    return eight_digits(w0) * 100000000u + eight_digits(w1);
#endif
}

/* A whole chunk: three digits and sixteen. */
static inline uint64_t chunk19(const char *p, uint64_t *bad)
{
    unsigned d0 = (unsigned)(unsigned char)p[0] - '0', d1 = (unsigned)(unsigned char)p[1] - '0',
             d2 = (unsigned)(unsigned char)p[2] - '0';
    *bad |= (d0 > 9) | (d1 > 9) | (d2 > 9);
    return (d0 * 100u + d1 * 10u + d2) * 10000000000000000ull + sixteen_digits(p + 3, bad);
}

/* a = a * 10^19 + carry over limbs a[0..n), returning what carries out. */
static inline uint64_t mul_add(uint64_t *a, int n, uint64_t carry)
{
    for (int l = 0; l < n; l++) {
        unsigned __int128 t = (unsigned __int128)a[l] * CHUNK_SCALE + carry;
        a[l] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    return carry;
}

/* The message for a text the conversion did not take, checked in this
 * order: empty, signed, a non-digit (a fraction or exponent named as such),
 * a leading zero, too wide. */
static sn_status refuse(const char *text, size_t len, sn_error *e)
{
    int shown = len > QUOTE_MAX ? QUOTE_MAX : (int)len;
    const char *more = len > QUOTE_MAX ? "..." : "";
    if (len == 0)
        return sn_error_set(e, SN_ERR_INPUT, "empty integer");
    if (text[0] == '-' || text[0] == '+')
        return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is signed: a flit is a non-negative integer",
                            shown, text, more);
    size_t i = sn_ascii_digits_end(text, len, 0);
    if (i < len) {
        char c = text[i];
        if (c == '.' || c == 'e' || c == 'E')
            return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is not an integer (fraction or exponent)",
                                shown, text, more);
        return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is not a decimal integer (byte %zu is '%c')",
                            shown, text, more, i, c >= 0x20 && c < 0x7f ? c : '?');
    }
    if (len > 1 && text[0] == '0')
        return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" has a leading zero", shown, text, more);
    return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is 2^288 or more: wider than a 288-bit flit",
                        shown, text, more);
}

sn_status sn_u256_parse(const char *text, size_t len, sn_payload *out, bool *masked,
                        sn_error *e)
{
    if (len == 0 || len > MAX_DIGITS || (text[0] == '0' && len > 1))
        return refuse(text, len, e);
    size_t first = len % CHUNK_DIGITS ? len % CHUNK_DIGITS : CHUNK_DIGITS;
    size_t chunks = (len - first) / CHUNK_DIGITS; /* whole chunks after the first, 0..4 */
    const char *p = text + first;
    uint64_t bad = 0;
    uint64_t a[5] = {chunk_value(text, first, &bad), 0, 0, 0, 0}; /* a[0] = bits 63:0 */
    /* Constant limb counts, so the limbs stay in registers. */
    if (chunks >= 1)
        a[1] = mul_add(a, 1, chunk19(p, &bad)), p += CHUNK_DIGITS;
    if (chunks >= 2)
        a[2] = mul_add(a, 2, chunk19(p, &bad)), p += CHUNK_DIGITS;
    if (chunks >= 3)
        a[3] = mul_add(a, 3, chunk19(p, &bad)), p += CHUNK_DIGITS;
    if (chunks >= 4)
        a[4] = mul_add(a, 4, chunk19(p, &bad));
    if (bad != 0 || (a[4] >> 32) != 0) /* a non-digit, or 2^288 or more */
        return refuse(text, len, e);
    for (int w = 0; w < SN_PAYLOAD_WORDS; w++)
        out->w[w] = a[w];
    *masked = a[4] != 0; /* bits 287:256 */
    return SN_OK;
}
