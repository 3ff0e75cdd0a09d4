/* Names into fixed buffers (see name_copy.h). */
#include "name_copy.h"

#include <string.h>

void sn_name_copy(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n < size) {
        memcpy(dst, src, n + 1);
        return;
    }
    size_t keep = size - sizeof SN_NAME_CUT_MARK; /* room for the mark and the NUL */
    while (keep > 0 && ((unsigned char)src[keep] & 0xC0) == 0x80)
        keep--; /* src[keep] continues a sequence: cut before the sequence's first byte */
    memcpy(dst, src, keep);
    memcpy(dst + keep, SN_NAME_CUT_MARK, sizeof SN_NAME_CUT_MARK);
}
