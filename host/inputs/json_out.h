/* Writing JSON text: the one string writer of the host's JSON outputs (the
 * run report, the timeline, sysnode-bench --json), so every one of them is
 * valid JSON (RFC 8259: UTF-8, quotes, backslashes and control characters
 * escaped) whatever bytes a path, a case name or a message holds. */
#ifndef SN_HOST_JSON_OUT_H
#define SN_HOST_JSON_OUT_H

#include <stdio.h>

/* Writes s as a JSON string, quotes included: valid UTF-8 as it is, `"`, `\`
 * and control characters escaped, and a byte that is not part of valid
 * UTF-8 as the text \xHH (the console's escape, escape.h), so no
 * byte is lost and the file stays UTF-8. */
void sn_json_write_string(FILE *f, const char *s);

#endif
