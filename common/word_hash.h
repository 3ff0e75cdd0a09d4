/* The packed table's body check (artifacts/FORMAT.md §1): a 64-bit hash over
 * little-endian 64-bit words, about 5.5 instructions per 8 bytes on the
 * SysNode's core where the byte-wise CRC-32 took 11 per byte. Every step is
 * a bijection of the running value and of the word, so any change confined
 * to one word (every flipped byte, any burst inside 8 aligned bytes) always
 * changes the result; other changes go unseen with odds of about 2^-64. One
 * freestanding implementation serves host and firmware. */
#ifndef SN_WORD_HASH_H
#define SN_WORD_HASH_H

#include <stdint.h>

/* h = SN_WORD_HASH_SEED; per word w: h = (h ^ w) * SN_WORD_HASH_MUL; h ^= h >> 32. */
#define SN_WORD_HASH_SEED 0xFFFFFFFFFFFFFFFFull
#define SN_WORD_HASH_MUL 0x9E3779B97F4A7C15ull /* odd: the multiply is a bijection */

/* The hash of `words` 64-bit words at `p` (8-byte aligned), each read
 * little-endian. Pure; no error. */
uint64_t sn_word_hash(const uint64_t *p, uint64_t words);

#endif
