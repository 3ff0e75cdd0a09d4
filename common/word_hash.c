/* The table body hash (see word_hash.h). Four words per loop pass keep the
 * loop overhead off the boot (matmul_512x256x512: 13 888 words). */
#include "word_hash.h"

static inline uint64_t step(uint64_t h, uint64_t w)
{
    h = (h ^ w) * SN_WORD_HASH_MUL;
    return h ^ (h >> 32);
}

uint64_t sn_word_hash(const uint64_t *p, uint64_t words)
{
    uint64_t h = SN_WORD_HASH_SEED;
    const uint64_t *end4 = p + (words & ~3ull);
    for (; p != end4; p += 4)
        h = step(step(step(step(h, p[0]), p[1]), p[2]), p[3]);
    for (uint64_t i = 0; i < (words & 3); i++)
        h = step(h, p[i]);
    return h;
}
