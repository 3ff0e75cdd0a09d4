/* The one reading of a number on every command line (sysnode and its
 * subcommands, sysnode-sim, sysnode-bench): decimal, or hex after 0x or 0X,
 * nothing else ("010" is ten, never octal; no sign, no spaces), and the
 * one version string every tool prints for --version. */
#ifndef SN_COMMON_NUMBER_H
#define SN_COMMON_NUMBER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads all of text as a number into *out. Returns 0, or -1 (*out untouched)
 * for an empty text, a character that is not a digit of its base, a value
 * past 64 bits, or one outside min..max. */
int sn_number_parse(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* The same for the part of text before the first sep (ADDR=FILE,
 * ADDR:BYTES, FROM:TO): *rest is set to the text after sep. -1 also when
 * text has no sep. */
int sn_number_parse_until(const char *text, char sep, uint64_t min, uint64_t max, uint64_t *out, const char **rest);

/* The project's version (CMakeLists.txt `project(... VERSION ...)`), e.g. "1.0.0". */
const char *sn_version(void);

#ifdef __cplusplus
}
#endif

#endif
