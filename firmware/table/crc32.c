/* CRC-32 (IEEE 802.3, reflected), see crc32.h. A 16-entry table, a nibble
 * at a time: 64 bytes of constants (the image's data lives in a 32 KB
 * scratchpad) for two table steps per byte instead of eight shifts. */
#include "crc32.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the word loop below assumes a little-endian target (RV64 and x86-64 are)"
#endif

/* T[i] = CRC register after shifting nibble i through 0xEDB88320 four times. */
static const uint32_t T[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

/* A 64-bit load that may alias bytes: the firmware reads the table through
 * the uncached DRAM alias, where one 8-byte load costs what a byte load does. */
typedef uint64_t __attribute__((may_alias)) u64_alias;

static uint32_t byte_step(uint32_t c, uint8_t b)
{
    c ^= b;
    c = (c >> 4) ^ T[c & 0xF];
    return (c >> 4) ^ T[c & 0xF];
}

uint32_t sn_crc32_update(uint32_t crc, const void *bytes, uint64_t len)
{
    const uint8_t *p = bytes;
    uint32_t c = ~crc;
    for (; len > 0 && ((uintptr_t)p & 7) != 0; len--)
        c = byte_step(c, *p++);
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t w = *(const u64_alias *)(const void *)p;
        for (int i = 0; i < 8; i++) /* little-endian: byte i is bits 8i+7..8i */
            c = byte_step(c, (uint8_t)(w >> (8 * i)));
    }
    for (; len > 0; len--)
        c = byte_step(c, *p++);
    return ~c;
}

uint32_t sn_crc32(const void *bytes, uint64_t len)
{
    return sn_crc32_update(0, bytes, len);
}
