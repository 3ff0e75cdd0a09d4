/* The subcommands' edges (see cli_io.h). */
#include "cli_io.h"

#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "file_out.h"
#include "manifest.h"
#include "pack.h"

int sn_cli_error(const char *cmd, const char *msg)
{
    fflush(stdout); /* what was printed before the error comes first */
    fprintf(stderr, "sysnode %s: ", cmd);
    sn_fput_escaped(stderr, msg, true);
    fputc('\n', stderr);
    return 1;
}

sn_status sn_cli_refuse_output_over_inputs(const char *out, const char *const *inputs, size_t n, sn_error *e)
{
    sn_status st = SN_OK;
    for (size_t i = 0; st == SN_OK && i < n; i++) {
        if (inputs[i] == NULL)
            continue;
        if (!sn_path_is_dir(inputs[i])) {
            st = sn_out_refuse_input(out, &inputs[i], 1, e);
            continue;
        }
        sn_manifest m;
        char **paths = NULL;
        size_t count = 0;
        sn_manifest_load(&m, inputs[i], NULL); /* a bad manifest is refused by the command itself */
        if (sn_manifest_input_paths(&m, &paths, &count, e) == SN_OK)
            st = sn_out_refuse_input(out, (const char *const *)paths, count, e);
        for (size_t k = 0; paths != NULL && k < count; k++)
            free(paths[k]);
        free(paths);
        sn_manifest_free(&m);
    }
    return st;
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
