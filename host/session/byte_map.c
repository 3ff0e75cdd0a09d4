/* Bit maps over DRAM bytes (see byte_map.h). */
#include "byte_map.h"

#include <string.h>

void sn_byte_map_set(uint8_t *map, uint64_t addr, uint64_t end, int on)
{
    for (uint64_t a = addr; a < end;) {
        if (a % 8 == 0 && end - a >= 8) { /* whole bytes of the map at once */
            memset(&map[a / 8], on ? 0xFF : 0, (end - a) / 8);
            a += (end - a) / 8 * 8;
        } else {
            if (on)
                map[a / 8] |= (uint8_t)(1u << (a % 8));
            else
                map[a / 8] &= (uint8_t)~(1u << (a % 8));
            a++;
        }
    }
}

uint64_t sn_byte_map_first_clear(const uint8_t *map, uint64_t addr, uint64_t n)
{
    static const uint8_t all[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    for (uint64_t a = addr; a < addr + n; a++) {
        while (a % 64 == 0 && addr + n - a >= 64 && memcmp(&map[a / 8], all, 8) == 0)
            a += 64; /* eight bytes of the map at once */
        while (a % 8 == 0 && addr + n - a >= 8 && map[a / 8] == 0xFF)
            a += 8; /* a whole byte of the map at once */
        if (a < addr + n && !(map[a / 8] & (1u << (a % 8))))
            return a;
    }
    return addr + n;
}

uint64_t sn_byte_map_count_clear(const uint8_t *map, uint64_t addr, uint64_t n, uint64_t *first)
{
    uint64_t k = 0;
    for (uint64_t a = sn_byte_map_first_clear(map, addr, n); a < addr + n;
         a = sn_byte_map_first_clear(map, a + 1, addr + n - a - 1)) {
        if (k++ == 0)
            *first = a;
    }
    return k;
}
