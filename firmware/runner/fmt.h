/* Bounded text building for freestanding code: an image's one summary line
 * is composed with these instead of snprintf (the image links no libc);
 * messages are worded on the host (host/lib/messages.h). */
#ifndef SN_FMT_H
#define SN_FMT_H

#include <stdint.h>

typedef struct {
    char *buf;
    uint32_t size; /* bytes in buf, including room for the NUL */
    uint32_t len;  /* characters written so far */
} sn_fmt;

/* Starts an empty string in buf[size] (size >= 1). */
void sn_fmt_init(sn_fmt *f, char *buf, uint32_t size);
/* Appends s; text past the buffer's end is dropped, the string stays terminated. */
void sn_fmt_str(sn_fmt *f, const char *s);
/* Appends v in decimal. */
void sn_fmt_dec(sn_fmt *f, uint64_t v);
/* Appends v as 0x-prefixed lowercase hex without leading zeros. */
void sn_fmt_hex(sn_fmt *f, uint64_t v);

#endif
