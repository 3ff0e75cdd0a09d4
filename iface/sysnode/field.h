/* The one in-memory payload type, sn_payload, and the one helper the host
 * packer, the dump, the simulator models and the firmware use to insert and
 * extract its bit fields. Its word order is the project's only one: w[i]
 * holds payload bits 64i+63:64i, which is what mailbox register ARGi carries
 * (sysnode-facts §2.1). The packed table stores its rows highest word first;
 * sysnode/table.h converts between a row and an sn_payload.
 * Freestanding: no libc. */
#ifndef SYSNODE_FIELD_H
#define SYSNODE_FIELD_H

#include <stdint.h>

#define SN_PAYLOAD_WORDS 4

/* A payload of 256 bits: w[i] = bits 64i+63:64i = mailbox ARGi. */
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
