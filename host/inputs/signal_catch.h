/* Who handles SIGINT and SIGTERM in a host command: the output rule
 * (file_out.c: remove the temporaries and die of the signal) or a command
 * that stops on the signal itself (`sysnode run` with --report or --fst: the
 * simulation stops and the run ends through its own exit path, which commits
 * or removes every output). A signal the process was started with ignored
 * stays ignored (POSIX: a shell's background job is immune to the
 * terminal's interrupt; docs/user-guide.md "Output files"). */
#ifndef SN_HOST_SIGNAL_CATCH_H
#define SN_HOST_SIGNAL_CATCH_H

#include <stdbool.h>

/* Installs handler for SIGINT and SIGTERM (both held while it runs; no
 * SA_RESTART, so a blocking wait ends on the signal), each unless the
 * signal is ignored, or, without take_over, unless a handler is already
 * installed (the command's own stop keeps the signal). Thread-safe as
 * sigaction(2) is; no errors. */
void sn_signal_catch(void (*handler)(int), bool take_over);

#endif
