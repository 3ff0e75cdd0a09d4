/* libFuzzer target: `sysnode dump` of a packed table, text and --json: the
 * table image check (common/table_image.c), the table rules
 * (sn_table_check) and the decode of every payload. The input is the table
 * file. Any crash or sanitizer report is a bug; so is JSON output that is
 * not valid UTF-8. Seeds: make_seeds.c packs the real cases. Run through
 * scripts/fuzz. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "commands.h"

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fd = memfd_create("sn_fuzz_table", 0);
    if (fd < 0 || freopen("/dev/null", "w", stdout) == NULL)
        abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return 0;
}

/* 1 when s[0..n) is well-formed UTF-8 (RFC 3629), checked here on its own
 * rather than with the code under test. */
static int utf8_valid(const unsigned char *s, size_t n)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
