/* sn_crc32 on the host (crc32.h): zlib's crc32, the same CRC-32 (IEEE
 * 802.3, reflected, init and final XOR 0xFFFFFFFF) the firmware computes a
 * byte per table step in common/crc32.c. zlib's is several times
 * faster on the host, where packing and checking a large table is on the
 * replay's path; test_crc32 checks the firmware's against zlib. */
#include "crc32.h"

#include <limits.h>
#include <zlib.h>

uint32_t sn_crc32_update(uint32_t crc, const void *bytes, uint64_t len)
{
    const Bytef *p = bytes;
    uLong c = crc;
    while (len > 0) {
        uInt n = len > UINT_MAX ? UINT_MAX : (uInt)len;
        c = crc32(c, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)c;
}

uint32_t sn_crc32(const void *bytes, uint64_t len)
{
    return sn_crc32_update(0, bytes, len);
}
