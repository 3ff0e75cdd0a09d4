/* The packed table's body check (artifacts/FORMAT.md §1): a 64-bit hash over
 * little-endian 64-bit words with no multiply, 5 ALU operations per 8 bytes
 * (the card's core spends 9 cycles on a multiply and has no rotate,
 * core-timing §1). Every step is a bijection of the running value and of
 * the word, so any change confined to one word (every flipped byte, any
 * burst inside 8 aligned bytes) always changes the result. One freestanding
 * implementation serves host and firmware. */
#ifndef SN_WORD_HASH_H
#define SN_WORD_HASH_H

#include <stdint.h>

/* h = SN_WORD_HASH_SEED; per word w: x = h ^ w; x += x << SN_WORD_HASH_SHL;
 * h = x ^ (x >> SN_WORD_HASH_SHR). */
#define SN_WORD_HASH_SEED 0xFFFFFFFFFFFFFFFFull
#define SN_WORD_HASH_SHL 13 /* x * (1 + 2^13): odd, so a bijection; carries make it nonlinear */
#define SN_WORD_HASH_SHR 29 /* an xorshift: a bijection that carries high bits down */

/* The hash of `words` 64-bit words at `p` (8-byte aligned), each read
 * little-endian. Pure; no error. */
uint64_t sn_word_hash(const uint64_t *p, uint64_t words);

/* The running value h carried on over `lines` 32-byte lines (4 words each)
 * at `p`: sn_word_hash(p, 4 * (a + b)) ==
 * sn_word_hash_lines(sn_word_hash(p, 4 * a), p + 4 * a, b), so a hash of
 * whole lines (a payload row is one) can be taken a piece at a time (the
 * runner hashes the next round's rows between completion polls). The
 * firmware hashes whole lines only and carries no word tail. Pure; no
 * error. */
uint64_t sn_word_hash_lines(uint64_t h, const uint64_t *p, uint64_t lines);

#endif
