/* The packed table image (artifacts/FORMAT.md, common/table_image.c):
 * the schema text and hash agree with FORMAT.md; vadd128's image holds the
 * known values at the offsets FORMAT.md states (hard-coded here from the
 * document, not from the header struct); sn_table_image_open gives a view
 * into the image; every flipped byte, a short or truncated image, a
 * misaligned one and each header field corrupted on its own are refused by
 * the named check. */
#include "cmocka_main.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "word_hash.h"
#include "messages.h"
#include "pack.h"
#include "pack_inputs.h"
#include "sysnode/table_image.h"

#define CASES SN_ARTIFACTS_DIR "/compiler/"

/* FORMAT.md §2 offsets, restated from the document. */
enum {
    O_MAGIC = 0x00, O_VERSION = 0x04, O_HEADER_BYTES = 0x06, O_SCHEMA = 0x08, O_FLAGS = 0x0C,
    O_ROUNDS = 0x10, O_STEPS = 0x14, O_PAYLOADS = 0x18, O_RESERVED0 = 0x1C, O_ROUNDS_OFF = 0x20,
    O_STEPS_OFF = 0x24, O_PAYLOADS_OFF = 0x28, O_TOTAL = 0x2C, O_STRUCTURE_HASH = 0x30, O_HEADER_CRC = 0x38,
    O_RESERVED1 = 0x3C, HEADER = 0x40,
};

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void wr(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* FORMAT.md §1's word hash, restated from the document over bytes. */
static uint64_t doc_word_hash(const uint8_t *p, uint64_t n)
{
    uint64_t h = 0xFFFFFFFFFFFFFFFFull;
    for (uint64_t i = 0; i + 8 <= n; i += 8) {
        uint64_t x = h ^ rd(p + i, 8);
        x += x << 13;
        h = x ^ (x >> 29);
    }
    return h;
}

/* Recomputes the header CRC, so a corrupted field reaches its own check. */
static void reseal(uint8_t *img)
{
    wr(img + O_HEADER_CRC, sn_crc32(img, O_HEADER_CRC), 4);
}

/* Packs a case directory; the image is heap, freed by the caller. */
static uint8_t *pack_case(const char *dir, uint64_t *bytes, sn_program *p)
{
    const char *inputs[] = {dir};
    sn_mesh mesh;
    sn_error e = {0};
    uint8_t *img = NULL;
    if (sn_pack_load_inputs(inputs, 1, p, &mesh, &e) != SN_OK || sn_pack_program(p, &mesh, &img, bytes, &e) != SN_OK)
        fail_msg("%s: %s", dir, e.msg);
    return img;
}

/* The words a check's message must name (FORMAT.md §4). */
static const char *check_words(sn_table_image_check c)
{
    switch (c) {
    case SN_TI_ALIGN: return "is not a multiple of 8";
    case SN_TI_SHORT: return "shorter than the 64-byte header";
    case SN_TI_MAGIC: return "table: magic ";
    case SN_TI_VERSION: return "table: format version ";
    case SN_TI_HEADER_BYTES: return "table: header size ";
    case SN_TI_SCHEMA: return "table: schema hash ";
    case SN_TI_HEADER_CRC: return "table: header CRC ";
    case SN_TI_RESERVED: return "expected 0";
    case SN_TI_ROUNDS_OFFSET: return "table: rounds offset ";
    case SN_TI_STEPS_OFFSET: return "table: steps offset ";
    case SN_TI_PAYLOADS_OFFSET: return "table: payloads offset ";
    case SN_TI_TOTAL_BYTES: return "table: total bytes ";
    case SN_TI_TRUNCATED: return "(truncated)";
    case SN_TI_STRUCTURE_HASH: return "table: structure hash ";
    case SN_TI_PAYLOAD_HASH: return "'s payload hash ";
    default: return "?";
    }
}

/* Opens img and checks its rounds' payload rows as the host does (checks
 * 1-15), and requires check `want` with a message naming it. */
static void expect_fault(const uint8_t *img, uint64_t n, sn_table_image_check want, const char *what)
{
    sn_table t;
    sn_table_image_fault f;
    char text[160];
    sn_status st = sn_table_image_open(img, n, &t, &f);
    if (st == SN_OK)
        st = sn_table_image_check_payloads(&t, &f);
    sn_table_image_describe(&f, text, sizeof text);
    if (st != SN_ERR_TABLE_IMAGE || f.check != want || strstr(text, check_words(want)) == NULL)
        fail_msg("%s: status 0x%x check %d (want %d): %s", what, st, f.check, want, text);
}

static void schema_matches_document(void **state)
{
    (void)state;
    static const char schema[] = SN_TABLE_IMAGE_SCHEMA;
    assert_int_equal(sn_crc32(schema, sizeof schema - 1), SN_TABLE_IMAGE_SCHEMA_HASH);
    FILE *f = fopen(SN_ARTIFACTS_DIR "/FORMAT.md", "rb");
    assert_non_null(f);
    static char doc[1 << 16];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    if (strstr(doc, schema) == NULL)
        fail_msg("FORMAT.md does not state the schema text verbatim:\n%s", schema);
    if (strstr(doc, "0xD94C761C") == NULL || SN_TABLE_IMAGE_SCHEMA_HASH != 0xD94C761Cu)
        fail_msg("FORMAT.md and table_image.h disagree on the schema hash");
}

/* FORMAT.md §1's check value (computed by hand from the definition), and
 * the firmware's unrolled loop against the document's one word at a time
 * for every length up to 9 words. */
static void word_hash_check_value(void **state)
{
    (void)state;
    static const uint64_t w[9] = {0, 1, 2, 3, 0x8000000000000000ull, 5, 6, 7, 0xFFull << 56};
    assert_true(sn_word_hash(w, 4) == 0xBFEE00FCF7FEC3FFull);
    for (uint64_t n = 0; n <= 9; n++)
        assert_true(sn_word_hash(w, n) == doc_word_hash((const uint8_t *)w, 8 * n));
}

static void vadd_at_documented_offsets(void **state)
{
    (void)state;
    sn_program p;
    uint64_t n;
    uint8_t *img = pack_case(CASES "vadd128", &n, &p);
    /* 1 round, 3 steps, 26 payloads: rounds at 64 (32 B), steps at 96 (36 B),
     * payloads at 160 (132 rounded up to 32), 26 x 32 B to 992. */
    assert_int_equal(n, 992);
    assert_memory_equal(img + O_MAGIC, "SNTB", 4);
    assert_int_equal(rd(img + O_MAGIC, 4), 0x42544E53u);
    assert_int_equal(rd(img + O_VERSION, 2), 4);
    assert_int_equal(rd(img + O_HEADER_BYTES, 2), 64);
    assert_int_equal(rd(img + O_SCHEMA, 4), 0xD94C761Cu);
    assert_int_equal(rd(img + O_FLAGS, 4), 0);
    assert_int_equal(rd(img + O_ROUNDS, 4), 1);
    assert_int_equal(rd(img + O_STEPS, 4), 3);
    assert_int_equal(rd(img + O_PAYLOADS, 4), 26);
    assert_int_equal(rd(img + O_RESERVED0, 4), 0);
    assert_int_equal(rd(img + O_ROUNDS_OFF, 4), 64);
    assert_int_equal(rd(img + O_STEPS_OFF, 4), 96);
    assert_int_equal(rd(img + O_PAYLOADS_OFF, 4), 160);
    assert_int_equal(rd(img + O_TOTAL, 4), 992);
    assert_true(rd(img + O_STRUCTURE_HASH, 8) == doc_word_hash(img + HEADER, 160 - HEADER));
    assert_int_equal(rd(img + O_HEADER_CRC, 4), sn_crc32(img, 0x38));
    assert_int_equal(rd(img + O_RESERVED1, 4), 0);
    /* round 0 = {step_first 0, step_count 3, payload_first 0, payload_count 26,
     * flags 0: the last round always settles, nothing is proven for it;
     * reserved 0; the word hash of its 26 rows} */
    assert_int_equal(rd(img + 64, 4), 0);
    assert_int_equal(rd(img + 68, 4), 3);
    assert_int_equal(rd(img + 72, 4), 0);
    assert_int_equal(rd(img + 76, 4), 26);
    assert_int_equal(rd(img + 80, 4), 0);
    assert_int_equal(rd(img + 84, 4), 0);
    assert_true(rd(img + 88, 8) == doc_word_hash(img + 160, 26 * 32));
    /* steps: seed 512; kick (1,0) base 0 n 26; await (1,0) 26 */
    static const uint8_t steps[36] = {1, 0, 0, 0, 0x00, 0x02, 0, 0, 0, 0, 0, 0,
                                      2, 1, 0, 0, 0, 0, 0, 0, 26, 0, 0, 0,
                                      3, 1, 0, 0, 26, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(img + 96, steps, sizeof steps);
    for (unsigned i = 132; i < 160; i++)
        assert_int_equal(img[i], 0); /* padding */
    /* payload 0 = IMEM 0 VSETI: {ARG3 = 1<<60, 0, 0, ARG0 = 0xd0000000} */
    assert_int_equal(rd(img + 160, 8), 1ull << 60);
    assert_int_equal(rd(img + 168, 8), 0);
    assert_int_equal(rd(img + 176, 8), 0);
    assert_int_equal(rd(img + 184, 8), 0xd0000000u);
    /* payload 1 = IMEM 1 word 0x80: ARG3 = 1<<60 | 1<<51 */
    assert_int_equal(rd(img + 192, 8), 1ull << 60 | 1ull << 51);
    assert_int_equal(rd(img + 216, 8), 0x80);
    /* payload 24 = DESC A5 base 0x3000; payload 25 = RUN pc 0 */
    assert_int_equal(rd(img + 160 + 24 * 32, 8), 2ull << 60 | 5ull << 57 | 0x3000ull << 20);
    assert_int_equal(rd(img + 160 + 25 * 32, 8), 3ull << 60);
    /* The same bytes through the named view (sysnode/table.h): each step word
     * by its op's name, each row word by its register, and the payload the
     * row holds in sysnode/field.h's order (w[i] = bits 64i+63:64i = ARGi). */
    sn_table t;
    sn_table_image_fault f;
    assert_int_equal(sn_table_image_open(img, n, &t, &f), SN_OK);
    assert_int_equal(t.steps[0].seed.n, 512);
    assert_int_equal(t.steps[1].kick.first_slot, 0);
    assert_int_equal(t.steps[1].kick.flits, 26);
    assert_int_equal(t.steps[2].await.completions, 26);
    assert_true(t.payloads[0].arg3 == 1ull << 60 && t.payloads[0].arg2 == 0 && t.payloads[0].arg1 == 0 &&
                t.payloads[0].arg0 == 0xd0000000u);
    sn_payload q = sn_table_row_payload(&t.payloads[1]);
    assert_true(q.w[3] == (1ull << 60 | 1ull << 51) && q.w[2] == 0 && q.w[1] == 0 && q.w[0] == 0x80);
    assert_int_equal(sn_field_get(&q, 255, 252), 1); /* ARG3[63:60] */
    assert_int_equal(sn_field_get(&q, 31, 0), 0x80); /* ARG0[31:0] */
    sn_table_row back = sn_table_payload_row(&q);
    assert_memory_equal(&back, img + 192, 32);
    free(img);
    sn_program_free(&p);
}

static void open_gives_a_view(void **state)
{
    (void)state;
    sn_program p;
    uint64_t n;
    uint8_t *img = pack_case(CASES "mm_silu_32x128x64", &n, &p);
    sn_table t;
    sn_table_image_fault f;
    assert_int_equal(sn_table_image_open(img, n, &t, &f), SN_OK);
    assert_int_equal(f.check, SN_TI_OK);
    assert_ptr_equal(t.rounds, (const void *)(img + rd(img + O_ROUNDS_OFF, 4)));
    assert_ptr_equal(t.steps, (const void *)(img + rd(img + O_STEPS_OFF, 4)));
    assert_ptr_equal(t.payloads, (const void *)(img + rd(img + O_PAYLOADS_OFF, 4)));
    assert_int_equal(t.round_count, p.round_count);
    assert_int_equal(t.step_count, p.step_count);
    assert_int_equal(t.payload_count, p.payload_count);
    for (uint32_t i = 0; i < p.round_count; i++) { /* the packer adds each round's payload hash */
        assert_memory_equal(&t.rounds[i], &p.rounds[i], offsetof(sn_table_round, payload_hash));
        assert_true(t.rounds[i].payload_hash == doc_word_hash((const uint8_t *)&t.payloads[p.rounds[i].payload_first],
                                                              32ull * p.rounds[i].payload_count));
    }
    assert_memory_equal(t.steps, p.steps, p.step_count * sizeof *p.steps);
    assert_memory_equal(t.payloads, p.payloads, p.payload_count * sizeof *p.payloads);
    /* Bytes past total_bytes are not the table's: an image with slack opens. */
    uint8_t *big = calloc(1, n + 64);
    memcpy(big, img, n);
    assert_int_equal(sn_table_image_open(big, n + 64, &t, &f), SN_OK);
    free(big);
    free(img);
    sn_program_free(&p);
}

/* The check a flip of byte i trips first (FORMAT.md §4 order) in an image
 * whose payloads start at payloads_offset. */
static sn_table_image_check flip_check(uint64_t i, uint64_t payloads_offset)
{
    if (i < 4) return SN_TI_MAGIC;
    if (i < 6) return SN_TI_VERSION;
    if (i < 8) return SN_TI_HEADER_BYTES;
    if (i < 12) return SN_TI_SCHEMA;
    if (i < 0x3C) return SN_TI_HEADER_CRC;
    if (i < HEADER) return SN_TI_RESERVED;
    return i < payloads_offset ? SN_TI_STRUCTURE_HASH : SN_TI_PAYLOAD_HASH;
}

/* Flips bytes 0..63 and every `stride`-th body byte (all of them for 1),
 * each alone, with two masks: one bit and all eight. */
static void flip_all(const char *dir, uint64_t stride)
{
    sn_program p;
    uint64_t n;
    uint8_t *img = pack_case(dir, &n, &p);
    for (uint64_t i = 0; i < n; i += i < HEADER ? 1 : stride) {
        for (unsigned m = 0; m < 2; m++) {
            uint8_t mask = m ? 0xFF : 0x01;
            char what[96];
            snprintf(what, sizeof what, "%s byte %llu ^ 0x%02x", dir, (unsigned long long)i, mask);
            img[i] ^= mask;
            expect_fault(img, n, flip_check(i, rd(img + O_PAYLOADS_OFF, 4)), what);
            img[i] ^= mask;
        }
    }
    free(img);
    sn_program_free(&p);
}

static void every_byte_flip(void **state)
{
    (void)state;
    flip_all(CASES "vadd128", 1);
    flip_all(CASES "mm_silu_32x128x64", 1);
    flip_all(CASES "matmul_512x256x512", 97); /* 106 KB: a sample */
}

static void short_truncated_misaligned(void **state)
{
    (void)state;
    sn_program p;
    uint64_t n;
    uint8_t *img = pack_case(CASES "vadd128", &n, &p);
    for (uint64_t k = 0; k < HEADER; k++)
        expect_fault(img, k, SN_TI_SHORT, "short image");
    for (uint64_t k = HEADER; k < n; k++)
        expect_fault(img, k, SN_TI_TRUNCATED, "truncated image");
    uint8_t *shifted = malloc(n + 8);
    memcpy(shifted + 4, img, n);
    expect_fault(shifted + 4, n, SN_TI_ALIGN, "misaligned image");
    free(shifted);
    free(img);
    sn_program_free(&p);
}

typedef struct {
    const char *what;
    unsigned offset, bytes;
    uint64_t value; /* written over the field */
    int add;        /* 1: value is added to the field instead */
    int reseal;     /* recompute the header CRC afterwards */
    sn_table_image_check check;
    const char *message; /* the exact describe text, or NULL */
} corruption;

static void header_fields(void **state)
{
    (void)state;
    static const corruption C[] = {
        {"magic", O_MAGIC, 4, 0x42544E54u, 0, 1, SN_TI_MAGIC,
         "table: magic 0x42544e54 at offset 0x0, expected 0x42544e53 (\"SNTB\")"},
        {"version", O_VERSION, 2, 1, 0, 1, SN_TI_VERSION,
         "table: format version 1 at offset 0x4, this build reads version 4"},
        {"header size", O_HEADER_BYTES, 2, 72, 0, 1, SN_TI_HEADER_BYTES,
         "table: header size 72 at offset 0x6, expected 64"},
        {"schema", O_SCHEMA, 4, 0x12345678u, 0, 1, SN_TI_SCHEMA,
         "table: schema hash 0x12345678 at offset 0x8, this build's schema hashes to 0xd94c761c"},
        {"header CRC", O_HEADER_CRC, 4, 1, 1, 0, SN_TI_HEADER_CRC, NULL},
        {"flags", O_FLAGS, 4, 4, 0, 1, SN_TI_RESERVED, "table: flags 0x4 at offset 0xc, expected 0"},
        {"reserved0", O_RESERVED0, 4, 1, 0, 1, SN_TI_RESERVED,
         "table: reserved field 0x1 at offset 0x1c, expected 0"},
        {"reserved1", O_RESERVED1 + 2, 1, 9, 0, 1, SN_TI_RESERVED,
         "table: reserved field 0x90000 at offset 0x3c, expected 0"},
        {"rounds offset", O_ROUNDS_OFF, 4, 72, 0, 1, SN_TI_ROUNDS_OFFSET,
         "table: rounds offset 0x48 at offset 0x20, expected 0x40 (the header's end)"},
        {"round count", O_ROUNDS, 4, 2, 0, 1, SN_TI_STEPS_OFFSET,
         "table: steps offset 0x60 at offset 0x24, expected 0x80 (after 2 rounds of 32 bytes, aligned to 8)"},
        {"round count 2^32-1", O_ROUNDS, 4, 0xFFFFFFFFu, 0, 1, SN_TI_STEPS_OFFSET, NULL},
        {"steps offset", O_STEPS_OFF, 4, 8, 1, 1, SN_TI_STEPS_OFFSET, NULL},
        {"step count", O_STEPS, 4, 6, 0, 1, SN_TI_PAYLOADS_OFFSET,
         "table: payloads offset 0xa0 at offset 0x28, expected 0xc0 (after 6 steps of 12 bytes, aligned to 32)"},
        {"step count 2^32-1", O_STEPS, 4, 0xFFFFFFFFu, 0, 1, SN_TI_PAYLOADS_OFFSET, NULL},
        {"payloads offset", O_PAYLOADS_OFF, 4, 32, 1, 1, SN_TI_PAYLOADS_OFFSET, NULL},
        {"payload count", O_PAYLOADS, 4, 27, 0, 1, SN_TI_TOTAL_BYTES,
         "table: total bytes 0x3e0 at offset 0x2c, expected 0x400 (after 27 payloads of 32 bytes)"},
        {"payload count 2^27", O_PAYLOADS, 4, 1u << 27, 0, 1, SN_TI_TOTAL_BYTES, NULL}, /* 160 + 2^32 wraps in 32 bits */
        {"total bytes", O_TOTAL, 4, 32, 1, 1, SN_TI_TOTAL_BYTES, NULL},
        {"structure hash", O_STRUCTURE_HASH, 8, 1, 1, 1, SN_TI_STRUCTURE_HASH, NULL},
        {"round 0's payload hash", 88, 8, 1, 1, 0, SN_TI_STRUCTURE_HASH, NULL}, /* the structure covers it */
    };
    sn_program p;
    uint64_t n;
    uint8_t *img = pack_case(CASES "vadd128", &n, &p);
    uint8_t *copy = malloc(n);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        memcpy(copy, img, n);
        uint64_t v = C[i].add ? rd(copy + C[i].offset, C[i].bytes) + C[i].value : C[i].value;
        wr(copy + C[i].offset, v, C[i].bytes);
        if (C[i].reseal)
            reseal(copy);
        expect_fault(copy, n, C[i].check, C[i].what);
        if (C[i].message != NULL) {
            sn_table t;
            sn_table_image_fault f;
            char text[160];
            sn_table_image_open(copy, n, &t, &f);
            assert_string_equal(sn_table_image_describe(&f, text, sizeof text), C[i].message);
        }
    }
    /* A consistent header that claims more than the image holds. */
    memcpy(copy, img, n);
    wr(copy + O_PAYLOADS, 27, 4);
    wr(copy + O_TOTAL, 1024, 4);
    reseal(copy);
    expect_fault(copy, n, SN_TI_TRUNCATED, "claims 1024 bytes");
    /* The hash messages name both values: the structure's (a step's byte)... */
    memcpy(copy, img, n);
    copy[100] ^= 0x40;
    sn_table t;
    sn_table_image_fault f;
    char text[160], want[160];
    assert_int_equal(sn_table_image_open(copy, n, &t, &f), SN_ERR_TABLE_IMAGE);
    snprintf(want, sizeof want, "table: structure hash 0x%llx at offset 0x30, computed 0x%llx",
             (unsigned long long)rd(copy + O_STRUCTURE_HASH, 8), (unsigned long long)doc_word_hash(copy + HEADER, 160 - HEADER));
    assert_string_equal(sn_table_image_describe(&f, text, sizeof text), want);
    /* A small buffer still gets a terminated message, marked as cut. */
    assert_string_equal(sn_table_image_describe(&f, text, 12), "table: s...");
    /* ... and a round's (its last row's byte), with the round and its field. */
    memcpy(copy, img, n);
    copy[n - 1] ^= 0x40;
    assert_int_equal(sn_table_image_open(copy, n, &t, &f), SN_OK);
    assert_int_equal(sn_table_image_check_payloads(&t, &f), SN_ERR_TABLE_IMAGE);
    snprintf(want, sizeof want, "table: round 0's payload hash 0x%llx at offset 0x58, computed 0x%llx",
             (unsigned long long)rd(copy + 88, 8), (unsigned long long)doc_word_hash(copy + 160, n - 160));
    assert_string_equal(sn_table_image_describe(&f, text, sizeof text), want);
    free(copy);
    free(img);
    sn_program_free(&p);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(schema_matches_document), cmocka_unit_test(word_hash_check_value),
             cmocka_unit_test(vadd_at_documented_offsets), cmocka_unit_test(open_gives_a_view),
             cmocka_unit_test(every_byte_flip), cmocka_unit_test(short_truncated_misaligned),
             cmocka_unit_test(header_fields))
