/* The table packer (see pack.h): table rules first, then the FORMAT.md
 * image, written little-endian byte by byte so it does not depend on the
 * host's struct layout. */
#include "pack.h"
#include "file_out.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32.h"
#include "settle.h"
#include "word_hash.h"
#include "sysnode/regs.h"
#include "sysnode/table_image.h"
#include "table_layout.h"

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    /* the value in little-endian byte order, then its low `bytes` bytes: one
     * store (a byte loop was most of the pack's time) */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, bytes);
}

#define PUT_HDR(b, field, v) \
    put_le((b) + offsetof(sn_table_image_header, field), (v), sizeof(((sn_table_image_header *)0)->field))

sn_status sn_pack_program(const sn_program *p, const sn_mesh *mesh, uint8_t **image, uint64_t *bytes, sn_error *e)
{
    *image = NULL;
    *bytes = 0;
    sn_status st = sn_program_check(p, mesh, e);
    if (st != SN_OK)
        return st;

    sn_table_layout l = sn_table_layout_of(p->round_count, p->step_count, p->payload_count);
    uint64_t rounds_off = l.rounds_off, steps_off = l.steps_off, payloads_off = l.payloads_off, total = l.total;
    if (total > UINT32_MAX)
        return sn_error_set(e, SN_ERR_INPUT, "the table would be %" PRIu64 " bytes; the format's "
                            "total_bytes is 32 bits (FORMAT.md §2)", total);
    /* Written once: every record byte below, and only the header and the
     * padding zeroed first (FORMAT.md §3), not the whole fresh table. */
    uint8_t *b = malloc(total);
    if (b == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for a %" PRIu64 "-byte table", total);
    uint64_t rounds_end = rounds_off + p->round_count * sizeof(sn_table_round);
    uint64_t steps_end = steps_off + p->step_count * sizeof(sn_table_step);
    memset(b, 0, SN_TABLE_IMAGE_HEADER_BYTES);
    memset(b + rounds_end, 0, steps_off - rounds_end);
    memset(b + steps_end, 0, payloads_off - steps_end);

    for (size_t i = 0; i < p->step_count; i++) {
        uint8_t *s = b + steps_off + i * sizeof(sn_table_step);
        s[0] = p->steps[i].op;
        s[1] = p->steps[i].x;
        s[2] = p->steps[i].y;
        s[3] = p->steps[i].reserved;
        put_le(s + 4, p->steps[i].a, 4);
        put_le(s + 8, p->steps[i].b, 4);
    }
    for (size_t i = 0; i < p->payload_count; i++) {
        uint8_t *row = b + payloads_off + i * sizeof(sn_table_row);
        put_le(row + offsetof(sn_table_row, arg3), p->payloads[i].arg3, 8);
        put_le(row + offsetof(sn_table_row, arg2), p->payloads[i].arg2, 8);
        put_le(row + offsetof(sn_table_row, arg1), p->payloads[i].arg1, 8);
        put_le(row + offsetof(sn_table_row, arg0), p->payloads[i].arg0, 8);
    }

    for (size_t i = 0; i < p->round_count; i++) {
        uint8_t *r = b + rounds_off + i * sizeof(sn_table_round);
        put_le(r + offsetof(sn_table_round, step_first), p->rounds[i].step_first, 4);
        put_le(r + offsetof(sn_table_round, step_count), p->rounds[i].step_count, 4);
        put_le(r + offsetof(sn_table_round, payload_first), p->rounds[i].payload_first, 4);
        put_le(r + offsetof(sn_table_round, payload_count), p->rounds[i].payload_count, 4);
        put_le(r + offsetof(sn_table_round, flags), p->rounds[i].flags, 4);
        put_le(r + offsetof(sn_table_round, reserved), 0, 4);
        /* over the rows as packed above (the checked window lies inside them) */
        const uint8_t *rows = b + payloads_off + p->rounds[i].payload_first * sizeof(sn_table_row);
        put_le(r + offsetof(sn_table_round, payload_hash),
               sn_word_hash((const uint64_t *)(const void *)rows,
                            (uint64_t)p->rounds[i].payload_count * (sizeof(sn_table_row) / 8)), 8);
    }

    PUT_HDR(b, magic, SN_TABLE_IMAGE_MAGIC);
    PUT_HDR(b, version, SN_TABLE_IMAGE_VERSION);
    PUT_HDR(b, header_bytes, SN_TABLE_IMAGE_HEADER_BYTES);
    PUT_HDR(b, schema_hash, SN_TABLE_IMAGE_SCHEMA_HASH);
    PUT_HDR(b, round_count, p->round_count);
    PUT_HDR(b, step_count, p->step_count);
    PUT_HDR(b, payload_count, p->payload_count);
    PUT_HDR(b, rounds_offset, rounds_off);
    PUT_HDR(b, steps_offset, steps_off);
    PUT_HDR(b, payloads_offset, payloads_off);
    PUT_HDR(b, total_bytes, total);
    PUT_HDR(b, structure_hash, sn_word_hash((const uint64_t *)(const void *)(b + SN_TABLE_IMAGE_HEADER_BYTES),
                                            (payloads_off - SN_TABLE_IMAGE_HEADER_BYTES) / 8));
    /* Last: the header CRC covers every header field before it. */
    PUT_HDR(b, header_crc32, sn_crc32(b, offsetof(sn_table_image_header, header_crc32)));
    *image = b;
    *bytes = total;
    return SN_OK;
}

sn_status sn_pack_write_file(const char *path, const uint8_t *bytes, uint64_t n, sn_error *e)
{
    return sn_file_write_atomic(path, bytes, n, e);
}
