/* The escape rule (see escape.h). */
#include "escape.h"

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

int sn_fput_escaped(FILE *f, const char *s, bool multiline)
{
    for (const unsigned char *c = (const unsigned char *)s; *c != '\0'; c++) {
        char text[4] = {'\\', 'x', '0', 'a'}; /* a newline in a one-line message */
        if (*c == '\n' && multiline) {
            if (fputs("\n  ", f) == EOF)
                return EOF;
            continue;
        }
        unsigned n = *c == '\n' ? 4 : sn_console_escape(*c, text);
        if (fwrite(text, 1, n, f) != n)
            return EOF;
    }
    return 0;
}
