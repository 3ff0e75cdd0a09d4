/* See err_text.h. */
#include "err_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sn_text_vfit(char *dst, size_t size, const char *fmt, va_list ap)
{
    int n = vsnprintf(dst, size, fmt, ap);
    if (n < 0) {
        snprintf(dst, size, "(unformattable message)");
        return;
    }
    if ((size_t)n >= size)
        sn_text_mark_cut(dst, size);
}

void sn_text_mark_cut(char *dst, size_t size)
{
    if (size < sizeof SN_TEXT_CUT_MARK)
        return; /* no room for a mark (size 0 holds nothing) */
    size_t keep = size - sizeof SN_TEXT_CUT_MARK; /* room for the mark and the NUL */
    while (keep > 0 && ((unsigned char)dst[keep] & 0xC0) == 0x80)
        keep--; /* dst[keep] continues a sequence: cut before the sequence's first byte */
    memcpy(dst + keep, SN_TEXT_CUT_MARK, sizeof SN_TEXT_CUT_MARK);
}

void sn_text_fit(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sn_text_vfit(dst, size, fmt, ap);
    va_end(ap);
}

char *sn_text_vdup(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

int sn_err_text(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sn_text_vfit(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
