/* Exact decimal -> 256-bit conversion for flit integers (artifacts-facts
 * §1.1). Digits are taken 19 at a time (10^19 < 2^64): the value is
 * accumulated in 384 bits (six 64-bit limbs) as acc * 10^k + chunk, so after
 * every chunk bits 287:256 can be seen and values of 2^288 and more rejected
 * before anything can overflow (acc < 2^288 before a chunk, so
 * acc * 10^19 + chunk < 2^352). */
#include "u256.h"

#include "ascii_digits.h"

#include <stdint.h>
#include <string.h>

#define ACC_LIMBS 6  /* 64-bit limbs, 384 bits */
#define CHUNK_DIGITS 19

/* Shows at most this much of a bad text in a message. */
#define QUOTE_MAX 100

/* Eight checked ASCII digits at p -> their value, in three multiplies on
 * one little-endian 64-bit word (pairs, then quads, then the eight). */
static uint64_t eight_digits(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v); /* the first digit in the low byte */
#endif
    v -= 0x3030303030303030ull;
    v = v * 10 + (v >> 8);
    v = ((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32)) +
         ((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))) >> 32;
    return v;
}

/* k (1..19) checked digits at p -> their value. A whole chunk is its first
 * three digits and two runs of eight. */
static uint64_t chunk_value(const char *p, size_t k)
{
    if (k == CHUNK_DIGITS)
        return ((uint64_t)(p[0] - '0') * 100u + (uint64_t)(p[1] - '0') * 10u + (uint64_t)(p[2] - '0')) *
                   10000000000000000ull +
               eight_digits(p + 3) * 100000000u + eight_digits(p + 11);
    uint64_t v = 0;
    for (; k >= 8; k -= 8, p += 8)
        v = v * 100000000u + eight_digits(p);
    for (; k > 0; k--, p++)
        v = v * 10u + (uint64_t)(*p - '0');
    return v;
}

sn_status sn_u256_parse(const char *text, size_t len, sn_payload *out, bool *masked,
                        sn_error *e)
{
    int shown = len > QUOTE_MAX ? QUOTE_MAX : (int)len;
    const char *more = len > QUOTE_MAX ? "..." : "";
    if (len == 0)
        return sn_error_set(e, SN_ERR_INPUT, "empty integer");
    if (text[0] == '-' || text[0] == '+')
        return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is signed: a flit is a non-negative integer",
                            shown, text, more);
    for (size_t i = sn_ascii_digits_end(text, len, 0); i < len; i++) {
        char c = text[i];
        if (c == '.' || c == 'e' || c == 'E')
            return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is not an integer (fraction or exponent)",
                                shown, text, more);
        return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is not a decimal integer (byte %zu is '%c')",
                            shown, text, more, i, c >= 0x20 && c < 0x7f ? c : '?');
    }
    if (len > 1 && text[0] == '0')
        return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" has a leading zero", shown, text, more);

    static const uint64_t pow10[CHUNK_DIGITS + 1] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
        1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
        100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
        1000000000000000000ull, 10000000000000000000ull};
    /* Five limbs in registers (indexed by constants only: a count of limbs
     * in use, stored to, kept them on the stack); what carries out of the
     * fifth is the sixth limb and must stay 0. Before chunk n (0-based) at
     * most limbs 0..n-1 are set, so limbs past n are skipped: limb n takes
     * the carry. */
    uint64_t acc[ACC_LIMBS - 1] = {0}; /* acc[0] = bits 63:0 */
    int n = 0;
    for (size_t at = 0; at < len; n++) {
        /* the first chunk takes the remainder, so every later one is whole */
        size_t k = at == 0 && len % CHUNK_DIGITS ? len % CHUNK_DIGITS : CHUNK_DIGITS;
        uint64_t carry = chunk_value(text + at, k);
        at += k;
        for (int l = 0; l < ACC_LIMBS - 1; l++) {
            if (l > n)
                break;
            unsigned __int128 t = (unsigned __int128)acc[l] * pow10[k] + carry;
            acc[l] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        if (carry != 0 || (acc[4] >> 32) != 0)
            return sn_error_set(e, SN_ERR_INPUT,
                                "\"%.*s%s\" is 2^288 or more: wider than a 288-bit flit",
                                shown, text, more);
    }
    for (int w = 0; w < SN_PAYLOAD_WORDS; w++)
        out->w[w] = acc[w];
    *masked = acc[4] != 0; /* bits 287:256 */
    return SN_OK;
}
