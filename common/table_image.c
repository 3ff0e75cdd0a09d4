/* Opening a packed table in place: the checks of artifacts/FORMAT.md §4 in
 * their stated order, and their messages (see sysnode/table_image.h).
 * Freestanding: no libc; the firmware runs this on the table in DRAM before
 * any GO, the host on every table it packs or dumps. */
#include "sysnode/table_image.h"

#include "crc32.h"
#include "word_hash.h"
#include "sysnode/static_assert.h"

SN_STATIC_ASSERT(sizeof(sn_table_row) == 32 && SN_TABLE_IMAGE_PAYLOADS_ALIGN == 32 && SN_TABLE_IMAGE_HEADER_BYTES % 32 == 0,
                 "a payload row and the structure are whole 32-byte hash lines (word_hash.h)");

#define HDR_OFF(field) ((uint32_t)offsetof(sn_table_image_header, field))

/* The header is read in place: the image is 8-aligned (check 1), the build
 * little-endian (table_image.h refuses another) and every field's offset and
 * size is pinned to FORMAT.md §2 at compile time (the schema checks in
 * table_image.h). */
static uint32_t field(const uint8_t *b, uint32_t offset, uint32_t bytes)
{
    return bytes == 2 ? *(const uint16_t *)(const void *)(b + offset) : *(const uint32_t *)(const void *)(b + offset);
}

static sn_status fail(sn_table_image_fault *f, sn_table_image_check check, uint32_t field, uint64_t value,
                      uint64_t expected, uint64_t count)
{
    f->check = check;
    f->field = field;
    f->value = value;
    f->expected = expected;
    f->count = count;
    return SN_ERR_TABLE_IMAGE;
}

/* A header field that must hold one value: checks 3-6, then 8 (FORMAT.md §4). */
typedef struct {
    uint8_t check, offset, bytes;
    uint32_t want;
} fixed_field;

#define FIXED(check, name, want) {check, HDR_OFF(name), sizeof(((sn_table_image_header *)0)->name), want}
static const fixed_field identity[] = {
    FIXED(SN_TI_MAGIC, magic, SN_TABLE_IMAGE_MAGIC),
    FIXED(SN_TI_VERSION, version, SN_TABLE_IMAGE_VERSION),
    FIXED(SN_TI_HEADER_BYTES, header_bytes, SN_TABLE_IMAGE_HEADER_BYTES),
    FIXED(SN_TI_SCHEMA, schema_hash, SN_TABLE_IMAGE_SCHEMA_HASH),
};
static const fixed_field reserved[] = {
    FIXED(SN_TI_RESERVED, flags, 0),
    FIXED(SN_TI_RESERVED, reserved0, 0),
    FIXED(SN_TI_RESERVED, reserved1, 0),
};

static sn_status check_fixed(const uint8_t *b, const fixed_field *c, unsigned n, sn_table_image_fault *f)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = field(b, c[i].offset, c[i].bytes);
        if (v != c[i].want)
            return fail(f, (sn_table_image_check)c[i].check, c[i].offset, v, c[i].want, 0);
    }
    return SN_OK;
}

/* Section offsets (checks 9-12): each section starts exactly where the
 * previous one ends, rounded up to its alignment, so there is one valid
 * layout per set of counts and no byte outside the records and their zero
 * padding. Sums are 64-bit: a 32-bit count times a record size cannot wrap.
 * Section i's offset field is followed by section i+1's; the count before
 * it and the record size are FORMAT.md §3's. */
static sn_status check_layout(const uint8_t *b, uint64_t image_bytes, sn_table_image_fault *f)
{
    static const uint8_t record[4] = {0, sizeof(sn_table_round), sizeof(sn_table_step), sizeof(sn_table_row)};
    static const uint8_t align[4] = {1, SN_TABLE_IMAGE_STEPS_ALIGN, SN_TABLE_IMAGE_PAYLOADS_ALIGN, 1};
    uint64_t want = SN_TABLE_IMAGE_HEADER_BYTES;
    uint32_t offset = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t count = i == 0 ? 0 : field(b, HDR_OFF(round_count) + 4 * (i - 1), 4);
        offset = field(b, HDR_OFF(rounds_offset) + 4 * i, 4);
        want = (want + (uint64_t)count * record[i] + align[i] - 1) & ~(uint64_t)(align[i] - 1);
        if (offset != want)
            return fail(f, (sn_table_image_check)(SN_TI_ROUNDS_OFFSET + i), HDR_OFF(rounds_offset) + 4 * i, offset,
                        want, count);
    }
    if (offset > image_bytes) /* the last offset is total_bytes */
        return fail(f, SN_TI_TRUNCATED, HDR_OFF(total_bytes), offset, image_bytes, 0);
    return SN_OK;
}
SN_STATIC_ASSERT(SN_TI_STEPS_OFFSET == SN_TI_ROUNDS_OFFSET + 1 && SN_TI_TOTAL_BYTES == SN_TI_ROUNDS_OFFSET + 3 &&
                     offsetof(sn_table_image_header, total_bytes) == offsetof(sn_table_image_header, rounds_offset) + 12,
                 "check_layout walks the four offset checks and fields in order");
SN_STATIC_ASSERT(offsetof(sn_table_image_header, step_count) == offsetof(sn_table_image_header, round_count) + 4 &&
                     offsetof(sn_table_image_header, payload_count) == offsetof(sn_table_image_header, round_count) + 8,
                 "check_layout reads the three counts in order");

sn_status sn_table_image_open(const void *image, uint64_t image_bytes, sn_table *out, sn_table_image_fault *fault)
{
    const uint8_t *b = image;
    const sn_table_image_header *h = image;
    fault->check = SN_TI_OK;
    if ((uintptr_t)image % SN_TABLE_IMAGE_ALIGN != 0)
        return fail(fault, SN_TI_ALIGN, 0, (uintptr_t)image, SN_TABLE_IMAGE_ALIGN, 0);
    if (image_bytes < SN_TABLE_IMAGE_HEADER_BYTES)
        return fail(fault, SN_TI_SHORT, 0, image_bytes, SN_TABLE_IMAGE_HEADER_BYTES, 0);
    sn_status st = check_fixed(b, identity, sizeof identity / sizeof identity[0], fault);
    if (st != SN_OK)
        return st;
    uint32_t crc = sn_crc32(b, HDR_OFF(header_crc32));
    if (h->header_crc32 != crc)
        return fail(fault, SN_TI_HEADER_CRC, HDR_OFF(header_crc32), h->header_crc32, crc, 0);
    if ((st = check_fixed(b, reserved, sizeof reserved / sizeof reserved[0], fault)) != SN_OK ||
        (st = check_layout(b, image_bytes, fault)) != SN_OK)
        return st;
    /* whole lines: payloads_offset is 32-aligned (check 11), the header 64 bytes */
    uint64_t hash = sn_word_hash_lines(SN_WORD_HASH_SEED, (const uint64_t *)(const void *)(b + SN_TABLE_IMAGE_HEADER_BYTES),
                                       (h->payloads_offset - SN_TABLE_IMAGE_HEADER_BYTES) / 32);
    if (h->structure_hash != hash)
        return fail(fault, SN_TI_STRUCTURE_HASH, HDR_OFF(structure_hash), h->structure_hash, hash, 0);

    out->rounds = (const sn_table_round *)(const void *)(b + h->rounds_offset);
    out->steps = (const sn_table_step *)(const void *)(b + h->steps_offset);
    out->payloads = (const sn_table_row *)(const void *)(b + h->payloads_offset);
    out->round_count = h->round_count;
    out->step_count = h->step_count;
    out->payload_count = h->payload_count;
    return SN_OK;
}

uint64_t sn_table_round_payload_hash(const sn_table *t, const sn_table_round *round)
{
    return sn_word_hash_lines(SN_WORD_HASH_SEED, &t->payloads[round->payload_first].arg3, round->payload_count);
}

sn_status sn_table_image_check_round(uint32_t index, uint64_t stored, uint64_t hash, sn_table_image_fault *fault)
{
    if (stored == hash)
        return SN_OK;
    return fail(fault, SN_TI_PAYLOAD_HASH, SN_TABLE_IMAGE_ROUND_HASH_AT(index), stored, hash, index);
}

sn_status sn_table_image_check_payloads(const sn_table *t, sn_table_image_fault *fault)
{
    for (uint32_t i = 0; i < t->round_count; i++) {
        const sn_table_round *round = &t->rounds[i];
        if (round->payload_first > t->payload_count || round->payload_count > t->payload_count - round->payload_first)
            continue; /* the table rules refuse the window (table_check.h) */
        sn_status st = sn_table_image_check_round(i, round->payload_hash, sn_table_round_payload_hash(t, round), fault);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}
