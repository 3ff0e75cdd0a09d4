/* Console output and exit through the control region (sysnode-facts §1.7). */
#ifndef SN_CONSOLE_H
#define SN_CONSOLE_H

#include <stdint.h>

/* Writes the NUL-terminated string s to R_CONSOLE, one byte per store. */
void sn_console_puts(const char *s);
/* Stores code to R_EXIT, which halts the core; never returns. */
__attribute__((noreturn)) void sn_exit(uint64_t code);

#endif
