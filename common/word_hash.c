/* The table hash (see word_hash.h). Four words per loop pass, one 32-byte
 * L1 line, keep the loop overhead off the boot and the runner's waits. */
#include "word_hash.h"

/* Inlined even at -Os: a call per word would cost more than the step. */
static inline __attribute__((always_inline)) uint64_t step(uint64_t h, uint64_t w)
{
    uint64_t x = h ^ w, shifted = x << SN_WORD_HASH_SHL;
    /* opaque to GCC, which would fold x + (x << 13) into a multiply by 8193
     * under the runner's -mtune=size: 9 cycles on the core instead of 2 */
    __asm__("" : "+r"(shifted));
    x += shifted;
    return x ^ (x >> SN_WORD_HASH_SHR);
}

uint64_t sn_word_hash_lines(uint64_t h, const uint64_t *p, uint64_t lines)
{
    for (const uint64_t *end = p + 4 * lines; p != end; p += 4)
        h = step(step(step(step(h, p[0]), p[1]), p[2]), p[3]);
    return h;
}

uint64_t sn_word_hash(const uint64_t *p, uint64_t words)
{
    uint64_t h = sn_word_hash_lines(SN_WORD_HASH_SEED, p, words / 4);
    for (uint64_t i = words & ~3ull; i < words; i++)
        h = step(h, p[i]);
    return h;
}
