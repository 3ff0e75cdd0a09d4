/* The error convention of the runner-ELF loader and the simulator's C
 * parts (hart, card window): a failing call words its reason into the
 * caller's buffer and returns -1, so the caller names the thing (file,
 * address, register) in one line. */
#ifndef SN_ERR_TEXT_H
#define SN_ERR_TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Formats fmt into err (errlen bytes, always NUL-terminated when errlen >
 * 0; a longer reason is cut to fit). Returns -1, the failing result of
 * every function that reports this way. */
int sn_err_text(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
