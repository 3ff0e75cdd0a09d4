/* Reading a test's data files through the host's own reader: a file that
 * cannot be read fails the test with the reader's message. */
#ifndef SN_TEST_FILES_H
#define SN_TEST_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "file_read.h"

/* The whole file at path (heap; the caller frees it); *len gets its bytes. */
static inline uint8_t *slurp(const char *path, size_t *len)
{
    unsigned char *b = NULL;
    sn_error e = {0};
    if (sn_file_read(path, &b, len, &e) != SN_OK)
        fail_msg("%s", e.msg);
    return b;
}

#endif
