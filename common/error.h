/* Error reporting of the host and of the simulator's windows: a status code
 * plus one formatted message. Every host or window function that can fail
 * takes an sn_error * and fills it through sn_error_set, so the CLI can
 * print exactly one line that names the file, byte offset, round, step or
 * slot at fault (STYLE 5: one status type). */
#ifndef SN_COMMON_ERROR_H
#define SN_COMMON_ERROR_H

#include "sysnode/status.h"

typedef struct sn_error {
    sn_status code; /* SN_OK until a failure is recorded */
    char msg[512];  /* NUL-terminated; a longer message is cut with "..." */
} sn_error;

/* Records `code` and the printf-style message in *e (e may be NULL: the
 * message is then dropped) and returns `code`, so a caller can write
 * `return sn_error_set(e, SN_ERR_INPUT, "...", ...);`. */
sn_status sn_error_set(sn_error *e, sn_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
