/* libFuzzer target: `sysnode dump` of a packed table, text and --json: the
 * table image check (common/table_image.c), the table rules
 * (sn_table_check) and the decode of every payload. An input of even length
 * is the table file as it is, so mutations meet the header CRC and the body
 * hash; one of odd length is its first size-1 bytes with both repaired
 * first, so mutations reach the layout checks, the rules and the decode.
 * Any crash or sanitizer report is a bug; so is JSON output that is not
 * valid UTF-8. Seeds: make_seeds.c packs the real cases (both forms). Run
 * through scripts/fuzz. */
#define _GNU_SOURCE /* memfd_create */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>

#include "commands.h"
#include "not_under_test.h"
#include "sysnode/table_image.h"
#include "word_hash.h"

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fd = memfd_create("sn_fuzz_table", 0);
    /* A large buffer: write(2) per 4 KiB of discarded text was half the time. */
    if (fd < 0 || freopen("/dev/null", "w", stdout) == NULL || setvbuf(stdout, NULL, _IOFBF, 1u << 20) != 0)
        abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return 0;
}

/* 1 when s[0..n) is well-formed UTF-8 (RFC 3629), checked here on its own
 * rather than with the code under test. */
NOT_UNDER_TEST static int utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t c = s[i];
        int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0 || (size_t)extra >= n - i)
            return 0;
        c &= extra == 0 ? 0x7F : 0x3F >> extra;
        for (int k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            c = c << 6 | (s[i + k] & 0x3F);
        }
        static const uint32_t least[] = {0, 0x80, 0x800, 0x10000};
        if (c < least[extra] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return 0;
        i += (size_t)extra + 1;
    }
    return 1;
}

/* Sets each round's payload hash, the structure hash and the header CRC of
 * the table in b[0..n) as the packer would (artifacts/FORMAT.md §1-§3),
 * over what of each the file holds. */
static void repair(uint8_t *b, size_t n)
{
    if (n < SN_TABLE_IMAGE_HEADER_BYTES)
        return;
    sn_table_image_header h;
    memcpy(&h, b, sizeof h);
    for (uint64_t i = 0; i < h.round_count; i++) {
        uint64_t at = h.rounds_offset + i * sizeof(sn_table_round);
        if (at < h.rounds_offset || at + sizeof(sn_table_round) > n)
            break;
        sn_table_round r;
        memcpy(&r, b + at, sizeof r);
        uint64_t rows = (uint64_t)h.payloads_offset + (uint64_t)r.payload_first * sizeof(sn_table_row);
        if (h.payloads_offset % 8 != 0 || rows + (uint64_t)r.payload_count * sizeof(sn_table_row) > n)
            continue;
        r.payload_hash = sn_word_hash((const uint64_t *)(const void *)(b + rows), (uint64_t)r.payload_count * 4);
        memcpy(b + at, &r, sizeof r);
    }
    uint32_t end = h.payloads_offset;
    size_t body = (end < n ? end : n) - SN_TABLE_IMAGE_HEADER_BYTES;
    uint64_t hash = end >= SN_TABLE_IMAGE_HEADER_BYTES ? sn_word_hash((const uint64_t *)(b + SN_TABLE_IMAGE_HEADER_BYTES), body / 8) : 0;
    memcpy(b + offsetof(sn_table_image_header, structure_hash), &hash, sizeof hash);
    uint32_t crc = (uint32_t)crc32(0, b, offsetof(sn_table_image_header, header_crc32));
    memcpy(b + offsetof(sn_table_image_header, header_crc32), &crc, sizeof crc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint64_t copy[(1u << 20) / 8]; /* 8-byte aligned for the hash */
    if (size % 2 == 1 && size - 1 <= sizeof copy) {
        memcpy(copy, data, --size);
        repair((uint8_t *)copy, size);
        data = (const uint8_t *)copy;
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    char *text[] = {"dump", path, NULL};
    char *json[] = {"dump", path, "--json", NULL};
    int a = sn_cmd_dump(2, text);
    char *out = NULL;
    size_t len = 0;
    FILE *devnull = stdout;
    stdout = open_memstream(&out, &len);
    if (stdout == NULL)
        abort();
    int b = sn_cmd_dump(3, json);
    fclose(stdout);
    stdout = devnull;
    if (a != b || (a != 0 && a != 1) || !utf8_valid((const unsigned char *)out, len))
        abort(); /* both views judge the table alike; JSON is always UTF-8 */
    free(out);
    return 0;
}
