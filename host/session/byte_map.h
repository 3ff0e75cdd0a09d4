/* One bit per DRAM byte (bit a % 8 of map[a / 8] for byte a): the device
 * session's maps of what the host wrote and what is live (device.h). */
#ifndef SN_HOST_BYTE_MAP_H
#define SN_HOST_BYTE_MAP_H

#include <stdint.h>

/* Sets (on) or clears the bits of the bytes [addr, end). */
void sn_byte_map_set(uint8_t *map, uint64_t addr, uint64_t end, int on);

/* The first byte of [addr, addr+n) whose bit is clear, or addr+n. */
uint64_t sn_byte_map_first_clear(const uint8_t *map, uint64_t addr, uint64_t n);

/* How many bytes of [addr, addr+n) have their bit clear; *first gets the
 * first of them (untouched when there is none). */
uint64_t sn_byte_map_count_clear(const uint8_t *map, uint64_t addr, uint64_t n, uint64_t *first);

#endif
