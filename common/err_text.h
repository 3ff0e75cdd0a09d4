/* The error convention of the runner-ELF loader and the simulator's C
 * parts (hart, card window): a failing call words its reason into the
 * caller's buffer and returns -1, so the caller names the thing (file,
 * address, register) in one line. Every message or name put into a fixed
 * buffer goes through sn_text_vfit: whole, or cut with a visible mark,
 * never silently (issue 20 item 7). */
#ifndef SN_ERR_TEXT_H
#define SN_ERR_TEXT_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The mark a cut text ends with. */
#define SN_TEXT_CUT_MARK "..."

/* Formats fmt into dst (size bytes), NUL-terminated. A text of size bytes
 * or more is cut at a UTF-8 character boundary (never inside a multi-byte
 * sequence) and ends in SN_TEXT_CUT_MARK (a size under 4 has no room for
 * it; 0 writes nothing); a format error leaves "(unformattable message)". */
void sn_text_vfit(char *dst, size_t size, const char *fmt, va_list ap);
void sn_text_fit(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Ends dst (size bytes, holding a text vsnprintf cut at size - 1) in
 * SN_TEXT_CUT_MARK at a UTF-8 boundary, for a caller formatting piece by
 * piece; nothing for a size under 4. */
void sn_text_mark_cut(char *dst, size_t size);

/* Formats fmt into a new heap string, whole, for a message printed at once
 * (a usage error quoting what the user typed). NULL when memory runs out.
 * Free with free(). */
char *sn_text_vdup(const char *fmt, va_list ap);

/* Formats fmt into err (errlen bytes) as sn_text_fit does. Returns -1, the
 * failing result of every function that reports this way. */
int sn_err_text(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
