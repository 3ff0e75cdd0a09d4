/* The escape rule (see escape.h). */
#include "escape.h"

#include <stdint.h>

static const char HEX[] = "0123456789abcdef";

unsigned sn_console_escape(unsigned char byte, char out[4])
{
    if (byte == '\\') {
        out[0] = out[1] = '\\';
        return 2;
    }
    if (byte == '\n' || byte == '\t' || (byte >= 0x20 && byte < 0x7F)) {
        out[0] = (char)byte;
        return 1;
    }
    out[0] = '\\';
    out[1] = 'x';
    out[2] = HEX[byte >> 4];
    out[3] = HEX[byte & 15];
    return 4;
}

/* The length of the well-formed UTF-8 sequence at c (2 to 4 bytes: no
 * overlong form, surrogate or code point past U+10FFFF) when it encodes a
 * character that cannot steer a terminal or reorder a line (not a C1
 * control U+0080..U+009F, a bidirectional control, a line or paragraph
 * separator), else 0. */
static unsigned printable_utf8(const unsigned char *c)
{
    unsigned n = c[0] >= 0xF0 && c[0] <= 0xF4 ? 4 : c[0] >= 0xE0 ? 3 : c[0] >= 0xC2 && c[0] < 0xE0 ? 2 : 0;
    if (n == 0 || (n == 3 && c[0] >= 0xF0))
        return 0;
    uint32_t cp = c[0] & (0x7F >> n);
    for (unsigned i = 1; i < n; i++) {
        if ((c[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (c[i] & 0x3F);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp < 0xA0 || cp == 0x200E ||
        cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
        return 0;
    return n;
}

int sn_fput_escaped(FILE *f, const char *s, bool multiline)
{
    for (const unsigned char *c = (const unsigned char *)s; *c != '\0'; c++) {
        char text[4] = {'\\', 'x', '0', 'a'}; /* a newline in a one-line message */
        if (*c == '\n' && multiline) {
            if (fputs("\n  ", f) == EOF)
                return EOF;
            continue;
        }
        unsigned u = printable_utf8(c); /* the project's own §, a name's é: as they are */
        if (u) {
            if (fwrite(c, 1, u, f) != u)
                return EOF;
            c += u - 1;
            continue;
        }
        unsigned n = *c == '\n' ? 4 : sn_console_escape(*c, text);
        if (fwrite(text, 1, n, f) != n)
            return EOF;
    }
    return 0;
}
