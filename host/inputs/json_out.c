/* JSON text output; see json_out.h. */
#include "json_out.h"

#include <stddef.h>

/* The length of the valid UTF-8 sequence at p (RFC 3629: no overlong forms,
 * no surrogates, at most U+10FFFF), or 0. */
static size_t utf8_length(const unsigned char *p)
{
    size_t n = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : 2;
    if (p[0] < 0xC2 || p[0] > 0xF4)
        return 0;
    for (size_t k = 1; k < n; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F) || (p[0] == 0xF0 && p[1] < 0x90) ||
        (p[0] == 0xF4 && p[1] > 0x8F))
        return 0;
    return n;
}

void sn_json_write_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        size_t n;
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p++);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p++);
        else if (*p < 0x80)
            fputc(*p++, f);
        else if ((n = utf8_length(p)) != 0) {
            fwrite(p, 1, n, f);
            p += n;
        } else
            fprintf(f, "\\\\x%02x", *p++);
    }
    fputc('"', f);
}
