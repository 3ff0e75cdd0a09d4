/* Escaped printing (see escape.h). */
#include "escape.h"

int sn_fput_escaped(FILE *f, const char *s, bool multiline)
{
    int rc = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c != '\0' && rc != EOF; c++) {
        if (*c == '\n' && multiline)
            rc = fputs("\n  ", f);
        else if (*c < 0x20 || *c == 0x7f)
            rc = fprintf(f, "\\x%02x", *c) < 0 ? EOF : 0;
        else
            rc = fputc(*c, f) == EOF ? EOF : 0;
    }
    return rc;
}
