/* The subcommands' edges (see cli_io.h). */
#include "cli_io.h"

#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "file_out.h"

int sn_cli_error(const char *cmd, const char *msg)
{
    fflush(stdout); /* what was printed before the error comes first */
    fprintf(stderr, "sysnode %s: ", cmd);
    sn_fput_escaped(stderr, msg, true);
    fputc('\n', stderr);
    return 1;
}

int sn_cli_exit(const char *cmd, int rc)
{
    sn_error e = {0};
    if (sn_stdout_check(&e) != SN_OK) {
        fprintf(stderr, "sysnode %s: %s\n", cmd, e.msg);
        return rc == 0 ? 1 : rc;
    }
    return rc;
}
