/* Printing text the host did not write (paths, names from a case, the
 * runner's console) so that it cannot drive the terminal: an ESC sequence,
 * a carriage return or a line of its own that passes for a verdict. */
#ifndef SN_HOST_ESCAPE_H
#define SN_HOST_ESCAPE_H

#include <stdbool.h>
#include <stdio.h>

/* Writes s to f with every control character (0x00-0x1f, 0x7f) as \xHH,
 * except that with multiline a newline is kept and followed by a two-space
 * indent, so every line after the first is visibly part of the message.
 * Returns what fputs returns for the last write (EOF on error). */
int sn_fput_escaped(FILE *f, const char *s, bool multiline);

#endif
