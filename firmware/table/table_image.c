/* Opening a packed table in place: the checks of artifacts/FORMAT.md §4 in
 * their stated order, and their messages (see sysnode/table_image.h).
 * Freestanding: no libc; the firmware runs this on the table in DRAM before
 * any GO, the host on every table it packs or dumps. */
#include "sysnode/table_image.h"

#include "crc32.h"
#include "word_hash.h"
#include "fmt.h"

#define HDR_OFF(field) ((uint32_t)offsetof(sn_table_image_header, field))

/* Header fields are read as little-endian bytes, so the header check does
 * not depend on how the compiler lays out the struct. */
static uint64_t rd_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void read_header(const uint8_t *b, sn_table_image_header *h)
{
#define RD(field) h->field = (uint32_t)rd_le(b + HDR_OFF(field), sizeof h->field)
    h->version = (uint16_t)rd_le(b + HDR_OFF(version), sizeof h->version);
    h->header_bytes = (uint16_t)rd_le(b + HDR_OFF(header_bytes), sizeof h->header_bytes);
    RD(magic);
    RD(schema_hash);
    RD(flags);
    RD(round_count);
    RD(step_count);
    RD(payload_count);
    RD(reserved0);
    RD(rounds_offset);
    RD(steps_offset);
    RD(payloads_offset);
    RD(total_bytes);
    h->body_hash = rd_le(b + HDR_OFF(body_hash), sizeof h->body_hash);
    RD(header_crc32);
#undef RD
}

static uint64_t align_up(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
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

/* Section offsets: each section starts exactly where the previous one ends,
 * rounded up to its alignment, so there is one valid layout per set of
 * counts and no byte outside the records and their zero padding. Sums are
 * 64-bit: a 32-bit count times a record size cannot wrap. */
static sn_status check_layout(const sn_table_image_header *h, uint64_t image_bytes, sn_table_image_fault *f)
{
    uint64_t want = SN_TABLE_IMAGE_HEADER_BYTES;
    if (h->rounds_offset != want)
        return fail(f, SN_TI_ROUNDS_OFFSET, HDR_OFF(rounds_offset), h->rounds_offset, want, 0);
    want = align_up(want + (uint64_t)h->round_count * sizeof(sn_table_round), SN_TABLE_IMAGE_STEPS_ALIGN);
    if (h->steps_offset != want)
        return fail(f, SN_TI_STEPS_OFFSET, HDR_OFF(steps_offset), h->steps_offset, want, h->round_count);
    want = align_up(want + (uint64_t)h->step_count * sizeof(sn_table_step), SN_TABLE_IMAGE_PAYLOADS_ALIGN);
    if (h->payloads_offset != want)
        return fail(f, SN_TI_PAYLOADS_OFFSET, HDR_OFF(payloads_offset), h->payloads_offset, want, h->step_count);
    want += (uint64_t)h->payload_count * sizeof(sn_table_payload);
    if (h->total_bytes != want)
        return fail(f, SN_TI_TOTAL_BYTES, HDR_OFF(total_bytes), h->total_bytes, want, h->payload_count);
    if (h->total_bytes > image_bytes)
        return fail(f, SN_TI_TRUNCATED, HDR_OFF(total_bytes), h->total_bytes, image_bytes, 0);
    return SN_OK;
}

sn_status sn_table_image_open(const void *image, uint64_t image_bytes, sn_table *out, sn_table_image_fault *fault)
{
    const uint8_t *b = image;
    sn_table_image_header h;
    fault->check = SN_TI_OK;
    if ((uintptr_t)image % SN_TABLE_IMAGE_ALIGN != 0)
        return fail(fault, SN_TI_ALIGN, 0, (uintptr_t)image, SN_TABLE_IMAGE_ALIGN, 0);
    if (image_bytes < SN_TABLE_IMAGE_HEADER_BYTES)
        return fail(fault, SN_TI_SHORT, 0, image_bytes, SN_TABLE_IMAGE_HEADER_BYTES, 0);
    read_header(b, &h);
    if (h.magic != SN_TABLE_IMAGE_MAGIC)
        return fail(fault, SN_TI_MAGIC, HDR_OFF(magic), h.magic, SN_TABLE_IMAGE_MAGIC, 0);
    if (h.version != SN_TABLE_IMAGE_VERSION)
        return fail(fault, SN_TI_VERSION, HDR_OFF(version), h.version, SN_TABLE_IMAGE_VERSION, 0);
    if (h.header_bytes != SN_TABLE_IMAGE_HEADER_BYTES)
        return fail(fault, SN_TI_HEADER_BYTES, HDR_OFF(header_bytes), h.header_bytes, SN_TABLE_IMAGE_HEADER_BYTES, 0);
    if (h.schema_hash != SN_TABLE_IMAGE_SCHEMA_HASH)
        return fail(fault, SN_TI_SCHEMA, HDR_OFF(schema_hash), h.schema_hash, SN_TABLE_IMAGE_SCHEMA_HASH, 0);
    uint32_t crc = sn_crc32(b, HDR_OFF(header_crc32));
    if (h.header_crc32 != crc)
        return fail(fault, SN_TI_HEADER_CRC, HDR_OFF(header_crc32), h.header_crc32, crc, 0);
    if (h.flags != 0)
        return fail(fault, SN_TI_RESERVED, HDR_OFF(flags), h.flags, 0, 0);
    if (h.reserved0 != 0)
        return fail(fault, SN_TI_RESERVED, HDR_OFF(reserved0), h.reserved0, 0, 0);
    uint64_t tail = rd_le(b + HDR_OFF(reserved1), sizeof h.reserved1);
    if (tail != 0)
        return fail(fault, SN_TI_RESERVED, HDR_OFF(reserved1), tail, 0, 0);
    sn_status st = check_layout(&h, image_bytes, fault);
    if (st != SN_OK)
        return st;
    uint64_t hash = sn_word_hash((const uint64_t *)(const void *)(b + SN_TABLE_IMAGE_HEADER_BYTES),
                                 (h.total_bytes - SN_TABLE_IMAGE_HEADER_BYTES) / 8);
    if (h.body_hash != hash)
        return fail(fault, SN_TI_BODY_HASH, HDR_OFF(body_hash), h.body_hash, hash, 0);

    out->rounds = (const sn_table_round *)(const void *)(b + h.rounds_offset);
    out->steps = (const sn_table_step *)(const void *)(b + h.steps_offset);
    out->payloads = (const sn_table_payload *)(const void *)(b + h.payloads_offset);
    out->round_count = h.round_count;
    out->step_count = h.step_count;
    out->payload_count = h.payload_count;
    return SN_OK;
}

/* ---- messages ---- */

static void field_at(sn_fmt *o, const char *name, uint64_t value, uint32_t field, int hex)
{
    sn_fmt_str(o, name);
    sn_fmt_str(o, " ");
    if (hex)
        sn_fmt_hex(o, value);
    else
        sn_fmt_dec(o, value);
    sn_fmt_str(o, " at offset ");
    sn_fmt_hex(o, field);
}

/* "(N <records> of B bytes, aligned to A)" after an offset check. */
static void section_note(sn_fmt *o, uint64_t count, const char *records, unsigned bytes, unsigned align)
{
    sn_fmt_str(o, " (after ");
    sn_fmt_dec(o, count);
    sn_fmt_str(o, records);
    sn_fmt_dec(o, bytes);
    sn_fmt_str(o, " bytes");
    if (align != 0) {
        sn_fmt_str(o, ", aligned to ");
        sn_fmt_dec(o, align);
    }
    sn_fmt_str(o, ")");
}

char *sn_table_image_describe(const sn_table_image_fault *f, char *buf, uint32_t size)
{
    sn_fmt o;
    sn_fmt_init(&o, buf, size);
    sn_fmt_str(&o, "table: ");
    switch (f->check) {
    case SN_TI_OK:
        sn_fmt_str(&o, "no fault");
        break;
    case SN_TI_ALIGN:
        sn_fmt_str(&o, "image address ");
        sn_fmt_hex(&o, f->value);
        sn_fmt_str(&o, " is not a multiple of ");
        sn_fmt_dec(&o, f->expected);
        break;
    case SN_TI_SHORT:
        sn_fmt_str(&o, "image is ");
        sn_fmt_dec(&o, f->value);
        sn_fmt_str(&o, " bytes, shorter than the ");
        sn_fmt_dec(&o, f->expected);
        sn_fmt_str(&o, "-byte header");
        break;
    case SN_TI_MAGIC:
        field_at(&o, "magic", f->value, f->field, 1);
        sn_fmt_str(&o, ", expected ");
        sn_fmt_hex(&o, f->expected);
        sn_fmt_str(&o, " (\"SNTB\")");
        break;
    case SN_TI_VERSION:
        field_at(&o, "format version", f->value, f->field, 0);
        sn_fmt_str(&o, ", this build reads version ");
        sn_fmt_dec(&o, f->expected);
        break;
    case SN_TI_HEADER_BYTES:
        field_at(&o, "header size", f->value, f->field, 0);
        sn_fmt_str(&o, ", expected ");
        sn_fmt_dec(&o, f->expected);
        break;
    case SN_TI_SCHEMA:
        field_at(&o, "schema hash", f->value, f->field, 1);
        sn_fmt_str(&o, ", this build's schema hashes to ");
        sn_fmt_hex(&o, f->expected);
        break;
    case SN_TI_HEADER_CRC:
        field_at(&o, "header CRC", f->value, f->field, 1);
        sn_fmt_str(&o, ", computed ");
        sn_fmt_hex(&o, f->expected);
        break;
    case SN_TI_RESERVED:
        field_at(&o, f->field == HDR_OFF(flags) ? "flags" : "reserved field", f->value, f->field, 1);
        sn_fmt_str(&o, ", expected 0");
        break;
    case SN_TI_ROUNDS_OFFSET:
        field_at(&o, "rounds offset", f->value, f->field, 1);
        sn_fmt_str(&o, ", expected ");
        sn_fmt_hex(&o, f->expected);
        sn_fmt_str(&o, " (the header's end)");
        break;
    case SN_TI_STEPS_OFFSET:
        field_at(&o, "steps offset", f->value, f->field, 1);
        sn_fmt_str(&o, ", expected ");
        sn_fmt_hex(&o, f->expected);
        section_note(&o, f->count, " rounds of ", sizeof(sn_table_round), SN_TABLE_IMAGE_STEPS_ALIGN);
        break;
    case SN_TI_PAYLOADS_OFFSET:
        field_at(&o, "payloads offset", f->value, f->field, 1);
        sn_fmt_str(&o, ", expected ");
        sn_fmt_hex(&o, f->expected);
        section_note(&o, f->count, " steps of ", sizeof(sn_table_step), SN_TABLE_IMAGE_PAYLOADS_ALIGN);
        break;
    case SN_TI_TOTAL_BYTES:
        field_at(&o, "total bytes", f->value, f->field, 1);
        sn_fmt_str(&o, ", expected ");
        sn_fmt_hex(&o, f->expected);
        section_note(&o, f->count, " payloads of ", sizeof(sn_table_payload), 0);
        break;
    case SN_TI_TRUNCATED:
        field_at(&o, "total bytes", f->value, f->field, 0);
        sn_fmt_str(&o, ", but the image holds ");
        sn_fmt_dec(&o, f->expected);
        sn_fmt_str(&o, " (truncated)");
        break;
    case SN_TI_BODY_HASH:
        field_at(&o, "body hash", f->value, f->field, 1);
        sn_fmt_str(&o, ", computed ");
        sn_fmt_hex(&o, f->expected);
        break;
    default:
        sn_fmt_str(&o, "unknown check ");
        sn_fmt_dec(&o, (uint64_t)f->check);
        break;
    }
    return buf;
}
