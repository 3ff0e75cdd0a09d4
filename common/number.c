/* Numbers on the command line and the version string (see number.h). */
#include "number.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sn_number_parse(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char *digits = hex ? text + 2 : text;
    /* Every character a digit of the base: strtoull's own grammar takes a
     * sign, leading spaces and, in base 16, a second "0x" ("0x0x10"). */
    size_t n = strlen(digits);
    if (n == 0 || strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789") != n)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(digits, &end, hex ? 16 : 10);
    if (errno == ERANGE || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int sn_number_parse_until(const char *text, char sep, uint64_t min, uint64_t max, uint64_t *out, const char **rest)
{
    const char *at = strchr(text, sep);
    char head[32]; /* 0x and 16 digits, or 20 decimal digits, with room to spare */
    if (at == NULL || (size_t)(at - text) >= sizeof head)
        return -1;
    memcpy(head, text, (size_t)(at - text));
    head[at - text] = '\0';
    if (sn_number_parse(head, min, max, out) != 0)
        return -1;
    *rest = at + 1;
    return 0;
}

const char *sn_version(void)
{
    return SN_VERSION;
}
