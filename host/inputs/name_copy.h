/* A name (a case's, a file's) into a fixed buffer of the results
 * (sn_replay_result, sysnode_result, the bench's rows): carried whole when it
 * fits, else cut with a visible mark, never silently (issue 20 item 7). */
#ifndef SN_HOST_NAME_COPY_H
#define SN_HOST_NAME_COPY_H

#include <stddef.h>

/* The mark a cut name ends with. */
#define SN_NAME_CUT_MARK "..."

/* Copies src into dst[0..size) (size >= 4), NUL-terminated. A src of
 * size bytes or more is cut at a UTF-8 character boundary (never inside a
 * multi-byte sequence) and ends in SN_NAME_CUT_MARK. No error. */
void sn_name_copy(char *dst, size_t size, const char *src);

#endif
