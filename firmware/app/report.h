/* How a runner image ends: one console line, then the exit status. */
#ifndef SN_APP_REPORT_H
#define SN_APP_REPORT_H

#include "runner.h"

/* Prints "runner: ok rounds=R flits=F completions=C mmio_reads=M mmio_writes=W"
 * when st is SN_OK, else "runner: error 0xNN: <description>" (the host's
 * replay parses the first form). Returns st, the image's exit code. */
sn_status sn_app_report(const sn_runner *r, sn_status st, uint32_t rounds);

/* Prints "runner: error 0xNN: <text>" and returns st. */
sn_status sn_app_fail(sn_status st, const char *text);

#endif
