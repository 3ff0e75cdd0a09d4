/* The one escape rule for showing bytes the host did not write (paths,
 * names from a case, the runner's console) as text, so they cannot drive
 * the terminal or be lost (docs/user-guide.md "sysnode-sim"): printable ASCII,
 * newline and tab as they are, `\` as `\\`, every other byte (a NUL, ESC,
 * a carriage return, DEL, a byte past 0x7f) as `\xHH`; messages keep
 * printable UTF-8 (sn_fput_escaped). The console itself keeps every byte
 * (sysnode-facts §1.7). */
#ifndef SN_HOST_ESCAPE_H
#define SN_HOST_ESCAPE_H

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes byte's text (1, 2 or 4 characters, no NUL) to out; returns its length. */
unsigned sn_console_escape(unsigned char byte, char out[4]);

/* Writes a message s to f by sn_console_escape, except that well-formed
 * UTF-8 of a printable character (the project's own §, a name's é; not a C1
 * or bidirectional control) is kept as it is, and a newline is escaped too
 * unless multiline, where it is kept and followed by a two-space indent, so
 * every line after the first is visibly part of the message (no line of its
 * own can pass for a verdict). Returns EOF when a write failed, else 0. */
int sn_fput_escaped(FILE *f, const char *s, bool multiline);

#ifdef __cplusplus
}
#endif

#endif
