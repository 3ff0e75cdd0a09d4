/* Eight ASCII digits at a time, for the parsers of long decimal numbers
 * (json.c, u256.c): a flit is 78 digits. */
#ifndef SN_HOST_ASCII_DIGITS_H
#define SN_HOST_ASCII_DIGITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* True when the 8 bytes at p are all ASCII digits: every high nibble is 3,
 * and adding 6 to each low nibble carries into none (no byte above '9'). */
static inline bool sn_ascii_digits8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return (v & 0xF0F0F0F0F0F0F0F0ull) == 0x3030303030303030ull &&
           ((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) == 0x3030303030303030ull;
}

/* The offset of the first byte at or after i (below n) that is not an
 * ASCII digit, or n. */
static inline size_t sn_ascii_digits_end(const char *s, size_t n, size_t i)
{
    while (i + 8 <= n && sn_ascii_digits8(s + i))
        i += 8;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

#endif
