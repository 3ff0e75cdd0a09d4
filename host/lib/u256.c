/* Exact decimal -> 256-bit conversion for flit integers (artifacts-facts
 * §1.1). The value is accumulated in 320 bits (portable 32-bit limbs) so
 * bits 287:256 can be seen and values of 2^288 and more rejected before
 * anything can overflow. */
#include "u256.h"

#include <stdint.h>

#define ACC_LIMBS 10 /* 32-bit limbs, 320 bits: room for 2^288 * 10 + 9 */
#define FLIT_LIMBS 9 /* 288 bits */

/* Shows at most this much of a bad text in a message. */
#define QUOTE_MAX 100

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
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '.' || c == 'e' || c == 'E')
            return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is not an integer (fraction or exponent)",
                                shown, text, more);
        if (c < '0' || c > '9')
            return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" is not a decimal integer (byte %zu is '%c')",
                                shown, text, more, i, c >= 0x20 && c < 0x7f ? c : '?');
    }
    if (len > 1 && text[0] == '0')
        return sn_error_set(e, SN_ERR_INPUT, "\"%.*s%s\" has a leading zero", shown, text, more);

    uint32_t acc[ACC_LIMBS] = {0}; /* acc[0] = bits 31:0 */
    for (size_t i = 0; i < len; i++) {
        /* acc < 2^288 here, so acc * 10 + 9 < 2^292 fits in 320 bits. */
        uint64_t carry = (uint64_t)(text[i] - '0');
        for (int l = 0; l < ACC_LIMBS; l++) {
            uint64_t t = (uint64_t)acc[l] * 10u + carry;
            acc[l] = (uint32_t)t;
            carry = t >> 32;
        }
        if (acc[FLIT_LIMBS] != 0)
            return sn_error_set(e, SN_ERR_INPUT,
                                "\"%.*s%s\" is 2^288 or more: wider than a 288-bit flit",
                                shown, text, more);
    }
    for (int w = 0; w < SN_PAYLOAD_WORDS; w++)
        out->w[w] = (uint64_t)acc[2 * w + 1] << 32 | acc[2 * w];
    *masked = acc[8] != 0; /* bits 287:256 */
    return SN_OK;
}
