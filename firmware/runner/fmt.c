/* Bounded text building for freestanding code (see fmt.h). */
#include "fmt.h"

void sn_fmt_init(sn_fmt *f, char *buf, uint32_t size)
{
    f->buf = buf;
    f->size = size;
    f->len = 0;
    buf[0] = '\0';
}

static void put(sn_fmt *f, char c)
{
    if (f->len + 1 < f->size) {
        f->buf[f->len++] = c;
        f->buf[f->len] = '\0';
    }
}

void sn_fmt_str(sn_fmt *f, const char *s)
{
    while (*s)
        put(f, *s++);
}

void sn_fmt_dec(sn_fmt *f, uint64_t v)
{
    char digits[20];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        put(f, digits[--n]);
}

void sn_fmt_hex(sn_fmt *f, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    int shift = 60;
    sn_fmt_str(f, "0x");
    while (shift > 0 && ((v >> shift) & 0xF) == 0)
        shift -= 4;
    for (; shift >= 0; shift -= 4)
        put(f, hex[(v >> shift) & 0xF]);
}
