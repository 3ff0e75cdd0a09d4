/* The DRAM-resident table image: a 64-byte versioned header, then the
 * rounds, steps and payloads of sysnode/table.h as little-endian records.
 * The host packs it (host/inputs/pack.c), the firmware opens it in place before
 * it runs anything (DESIGN.md §3 "the table format is versioned"). The byte
 * layout and the order of the checks are specified in artifacts/FORMAT.md;
 * this header is its C form. Freestanding. */
#ifndef SYSNODE_TABLE_IMAGE_H
#define SYSNODE_TABLE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "sysnode/static_assert.h"
#include "sysnode/status.h"
#include "sysnode/table.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the table image is read in place as little-endian records"
#endif

#define SN_TABLE_IMAGE_MAGIC 0x42544E53u /* "SNTB" as bytes 53 4E 54 42 */
#define SN_TABLE_IMAGE_VERSION 4u
#define SN_TABLE_IMAGE_HEADER_BYTES 64u
#define SN_TABLE_IMAGE_ALIGN 8u          /* the image's first byte (uint64_t rows) */
#define SN_TABLE_IMAGE_STEPS_ALIGN 8u    /* FORMAT.md §3 */
#define SN_TABLE_IMAGE_PAYLOADS_ALIGN 32u /* one payload row per 32-byte DRAM word */

/* FORMAT.md §2. All fields little-endian. */
typedef struct {
    uint32_t magic;           /* SN_TABLE_IMAGE_MAGIC */
    uint16_t version;         /* SN_TABLE_IMAGE_VERSION */
    uint16_t header_bytes;    /* SN_TABLE_IMAGE_HEADER_BYTES */
    uint32_t schema_hash;     /* SN_TABLE_IMAGE_SCHEMA_HASH */
    uint32_t flags;           /* 0 */
    uint32_t round_count;     /* records */
    uint32_t step_count;      /* records */
    uint32_t payload_count;   /* records */
    uint32_t reserved0;       /* 0 */
    uint32_t rounds_offset;   /* bytes from the image's start; = header_bytes */
    uint32_t steps_offset;    /* rounds' end rounded up to 8 */
    uint32_t payloads_offset; /* steps' end rounded up to 32 */
    uint32_t total_bytes;     /* payloads' end */
    uint64_t structure_hash;  /* sn_word_hash of bytes [header_bytes, payloads_offset): rounds and steps */
    uint32_t header_crc32;    /* CRC-32 of bytes [0x00, 0x38) */
    uint8_t reserved1[4];     /* 0 */
} sn_table_image_header;
SN_STATIC_ASSERT(sizeof(sn_table_image_header) == 64, "table image header is 64 bytes");

/* The schema: every record's size and every field's name, type and byte
 * offset. Each entry is checked against the C structs at compile time, and
 * its text (SN_TABLE_IMAGE_SCHEMA) is what the header's schema_hash is the
 * CRC-32 of, so a changed record layout cannot keep the old hash
 * (test_table_image recomputes SN_TABLE_IMAGE_SCHEMA_HASH from the text). */
#define SN_TI_RECORDS(R)                                                        \
    R(header, 64, SN_TI_HEADER_FIELDS) R(round, 32, SN_TI_ROUND_FIELDS)         \
    R(step, 12, SN_TI_STEP_FIELDS) R(payload, 32, SN_TI_PAYLOAD_FIELDS)
/* X(record, field, type, offset): field is the name in the schema text and
 * the struct member; a payload row's words are named by the mailbox register
 * each is written to, arg3 (bits 255:192) first (FORMAT.md §3). */
#define SN_TI_HEADER_FIELDS(X)                                                  \
    X(header, magic, u32, 0x00) X(header, version, u16, 0x04)                   \
    X(header, header_bytes, u16, 0x06) X(header, schema_hash, u32, 0x08)        \
    X(header, flags, u32, 0x0C) X(header, round_count, u32, 0x10)               \
    X(header, step_count, u32, 0x14) X(header, payload_count, u32, 0x18)        \
    X(header, reserved0, u32, 0x1C) X(header, rounds_offset, u32, 0x20)         \
    X(header, steps_offset, u32, 0x24) X(header, payloads_offset, u32, 0x28)    \
    X(header, total_bytes, u32, 0x2C) X(header, structure_hash, u64, 0x30)      \
    X(header, header_crc32, u32, 0x38) X(header, reserved1, u8x4, 0x3C)
#define SN_TI_ROUND_FIELDS(X)                                                   \
    X(round, step_first, u32, 0x00) X(round, step_count, u32, 0x04)             \
    X(round, payload_first, u32, 0x08) X(round, payload_count, u32, 0x0C)       \
    X(round, flags, u32, 0x10) X(round, reserved, u32, 0x14)                   \
    X(round, payload_hash, u64, 0x18)
/* a and b are the step's words as stored; sn_table_step names them per opcode. */
#define SN_TI_STEP_FIELDS(X)                                                    \
    X(step, op, u8, 0x00) X(step, x, u8, 0x01) X(step, y, u8, 0x02)             \
    X(step, reserved, u8, 0x03) X(step, a, u32, 0x04) X(step, b, u32, 0x08)
#define SN_TI_PAYLOAD_FIELDS(X)                                                 \
    X(payload, arg3, u64, 0x00) X(payload, arg2, u64, 0x08)                     \
    X(payload, arg1, u64, 0x10) X(payload, arg0, u64, 0x18)

#define SN_TI_STRUCT_header sn_table_image_header
#define SN_TI_STRUCT_round sn_table_round
#define SN_TI_STRUCT_step sn_table_step
#define SN_TI_STRUCT_payload sn_table_row
#define SN_TI_BYTES_u8 1
#define SN_TI_BYTES_u16 2
#define SN_TI_BYTES_u32 4
#define SN_TI_BYTES_u64 8
#define SN_TI_BYTES_u8x4 4

#define SN_TI_FIELD_TEXT(rec, field, type, off) #rec "." #field ":" #type "@" #off ";"
#define SN_TI_RECORD_TEXT(rec, bytes, FIELDS) #rec ":" #bytes ";" FIELDS(SN_TI_FIELD_TEXT)
#define SN_TI_FIELD_CHECK(rec, field, type, off)                                \
    SN_STATIC_ASSERT(offsetof(SN_TI_STRUCT_##rec, field) == (off) &&            \
                         sizeof(((SN_TI_STRUCT_##rec *)0)->field) == SN_TI_BYTES_##type, \
                     "schema entry " #rec "." #field " disagrees with the struct");
#define SN_TI_RECORD_CHECK(rec, bytes, FIELDS)                                  \
    SN_STATIC_ASSERT(sizeof(SN_TI_STRUCT_##rec) == (bytes),                     \
                     "schema record " #rec " is " #bytes " bytes");             \
    FIELDS(SN_TI_FIELD_CHECK)

SN_TI_RECORDS(SN_TI_RECORD_CHECK)

/* The schema text (FORMAT.md §5) and its CRC-32, the header's schema_hash.
 * The firmware compares against the constant and never carries the text. */
#define SN_TABLE_IMAGE_SCHEMA "SNTB;little-endian;" SN_TI_RECORDS(SN_TI_RECORD_TEXT)
#define SN_TABLE_IMAGE_SCHEMA_HASH 0xD94C761Cu

/* The checks of sn_table_image_open, in the order it makes them
 * (FORMAT.md §4); 0 is none. */
typedef enum {
    SN_TI_OK = 0,
    SN_TI_ALIGN,           /* the image does not start on an 8-byte boundary */
    SN_TI_SHORT,           /* fewer bytes than a header */
    SN_TI_MAGIC,           /* magic is not "SNTB" */
    SN_TI_VERSION,         /* a format version this build does not read */
    SN_TI_HEADER_BYTES,    /* header size is not 64 */
    SN_TI_SCHEMA,          /* schema hash differs from this build's */
    SN_TI_HEADER_CRC,      /* header CRC differs from the computed one */
    SN_TI_RESERVED,        /* flags or a reserved field is not 0 */
    SN_TI_ROUNDS_OFFSET,   /* rounds do not start right after the header */
    SN_TI_STEPS_OFFSET,    /* steps do not start at the rounds' end rounded up to 8 */
    SN_TI_PAYLOADS_OFFSET, /* payloads do not start at the steps' end rounded up to 32 */
    SN_TI_TOTAL_BYTES,     /* total_bytes is not the payloads' end */
    SN_TI_TRUNCATED,       /* total_bytes is more than the image holds */
    SN_TI_STRUCTURE_HASH,  /* structure hash differs from the computed one */
    SN_TI_PAYLOAD_HASH,    /* a round's payload hash differs from the computed one (the runner: before
                              the round's first GO; the host: with the image) */
} sn_table_image_check;

/* The first check an image failed, with the values its message names. */
typedef struct {
    sn_table_image_check check;
    uint32_t field;    /* byte offset in the image of the field at fault: a header field, or for
                          PAYLOAD_HASH the round record's payload_hash */
    uint64_t value;    /* what the image holds (the image size for SHORT and TRUNCATED) */
    uint64_t expected; /* what the check wanted (computed CRC, required value, limit) */
    uint64_t count;    /* records before the section for the *_OFFSET and TOTAL checks; the round for
                          PAYLOAD_HASH */
} sn_table_image_fault;

/* The byte offset of round `index`'s payload_hash field in an image
 * (rounds_offset is the header's size, check 9). */
#define SN_TABLE_IMAGE_ROUND_HASH_AT(index)                                                             \
    ((uint32_t)(SN_TABLE_IMAGE_HEADER_BYTES + (index) * sizeof(sn_table_round) +                        \
                offsetof(sn_table_round, payload_hash)))

/* Verifies the image at `image` (image_bytes bytes; 8-byte aligned) against
 * FORMAT.md §4, in this order: alignment, length >= 64, magic, version,
 * header size, schema hash, header CRC, flags and reserved fields, section
 * offsets (each exactly where the previous section ends, aligned; sizes =
 * count x record size; computed in 64 bits, so no count can wrap), total
 * bytes <= image_bytes, structure hash (rounds and steps; each round's
 * payload rows have their own hash, check 15, made by
 * sn_table_image_check_payloads or the runner). On success fills *out with a view INTO
 * the image (no copy; valid while the image is) and returns SN_OK. On
 * failure returns SN_ERR_TABLE_IMAGE with *fault naming the first failed
 * check, and leaves *out untouched. Whether the rounds obey the table rules
 * is sn_table_check's business (common/table_check.h). */
sn_status sn_table_image_open(const void *image, uint64_t image_bytes, sn_table *out,
                              sn_table_image_fault *fault);

/* The word hash of round's payload rows in t, as its payload_hash field
 * holds it (FORMAT.md §3): rows [payload_first, payload_first +
 * payload_count), 4 words each. The window must lie inside t's payloads
 * (table_check.h's PAYLOAD_WINDOW rule). Pure; no error. */
uint64_t sn_table_round_payload_hash(const sn_table *t, const sn_table_round *round);

/* Check 15 for round `index` of an image, whose payload_hash field holds
 * `stored` and whose payload rows hash to `hash`: SN_OK, or
 * SN_ERR_TABLE_IMAGE with *fault = {PAYLOAD_HASH, the field's offset,
 * stored, hash, index}. */
sn_status sn_table_image_check_round(uint32_t index, uint64_t stored, uint64_t hash, sn_table_image_fault *fault);

/* Check 15 for every round of t whose payload window lies inside the table
 * (a window outside is the table rules' to refuse), first round first:
 * SN_OK or the first fault, as sn_table_image_check_round. The host's check
 * of a whole image; the runner checks each round just before its first GO. */
sn_status sn_table_image_check_payloads(const sn_table *t, sn_table_image_fault *fault);

#endif
