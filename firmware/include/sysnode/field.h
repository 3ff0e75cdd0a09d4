/* Bit fields of a 256-bit payload held as four 64-bit words, word 0 = bits
 * 63:0 (= mailbox ARG0) .. word 3 = bits 255:192 (= ARG3). The one helper the
 * host packer, the dump, the simulator models and the firmware use to insert
 * and extract payload fields (STYLE "bit fields by one tested helper").
 * Freestanding: no libc. */
#ifndef SYSNODE_FIELD_H
#define SYSNODE_FIELD_H

#include <stdint.h>

#define SN_PAYLOAD_WORDS 4

/* A payload of 256 bits; w[0] holds bits 63:0. */
typedef struct {
    uint64_t w[SN_PAYLOAD_WORDS];
} sn_payload;

/* Extracts bits [hi:lo] of p (hi - lo < 64, hi <= 255) as an unsigned value.
 * A field may straddle two words. */
static inline uint64_t sn_field_get(const sn_payload *p, unsigned hi, unsigned lo)
{
    unsigned width = hi - lo + 1;
    unsigned word = lo / 64, shift = lo % 64;
    uint64_t v = p->w[word] >> shift;
    if (shift != 0 && word + 1 < SN_PAYLOAD_WORDS && shift + width > 64)
        v |= p->w[word + 1] << (64 - shift);
    return width == 64 ? v : v & ((1ull << width) - 1);
}

/* Writes value's low (hi - lo + 1) bits into bits [hi:lo] of p (hi - lo < 64,
 * hi <= 255). Bits of value above the field are ignored. */
static inline void sn_field_set(sn_payload *p, unsigned hi, unsigned lo, uint64_t value)
{
    unsigned width = hi - lo + 1;
    unsigned word = lo / 64, shift = lo % 64;
    uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
    value &= mask;
    p->w[word] = (p->w[word] & ~(mask << shift)) | (value << shift);
    if (shift != 0 && shift + width > 64) {
        unsigned spill = 64 - shift;
        p->w[word + 1] = (p->w[word + 1] & ~(mask >> spill)) | (value >> spill);
    }
}

/* Bits [hi:lo] of a 64-bit register word (hi - lo < 64). */
static inline uint64_t sn_bits64(uint64_t word, unsigned hi, unsigned lo)
{
    unsigned width = hi - lo + 1;
    uint64_t v = word >> lo;
    return width == 64 ? v : v & ((1ull << width) - 1);
}

#endif
