/* CRC-32 as IEEE 802.3 defines it (reflected, polynomial 0xEDB88320, initial
 * value and final XOR 0xFFFFFFFF; the zlib/PNG/Ethernet CRC): the packed
 * table's checksums and schema hash (artifacts/FORMAT.md §1, §5). The
 * firmware's implementation is crc32.c (freestanding: no libc); the host
 * links common/crc32_zlib.c, zlib's, instead (test_crc32 checks the two
 * agree). */
#ifndef SN_CRC32_H
#define SN_CRC32_H

#include <stdint.h>

/* The CRC-32 of bytes[0..len). crc32("123456789") = 0xCBF43926. */
uint32_t sn_crc32(const void *bytes, uint64_t len);

/* Extends a CRC-32 over more bytes: sn_crc32_update(sn_crc32(a, n), b, m)
 * is the CRC of a followed by b. Start from 0 for an empty prefix. */
uint32_t sn_crc32_update(uint32_t crc, const void *bytes, uint64_t len);

#endif
