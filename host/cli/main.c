/* sysnode: the host CLI. Each subcommand lives in its own cmd_*.c; the
 * options of each are rows of the one table (common/options.h). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli_io.h"
#include "commands.h"
#include "options.h"

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} COMMANDS[] = {
    {"run", sn_cmd_run}, {"flash", sn_cmd_flash}, {"pack", sn_cmd_pack}, {"header", sn_cmd_header}, {"dump", sn_cmd_dump},
};

int main(int argc, char **argv)
{
    if (argc < 2)
        return sn_opts_usage_error(SN_TOOL_SYSNODE, "no command given");
    if (argv[1][0] == '-') { /* sysnode's own options: --help, --version */
        sn_opts o;
        int rc = sn_opts_parse(SN_TOOL_SYSNODE, argc, argv, &o);
        sn_opts_free(&o);
        return sn_cli_exit(argv[1], rc < 0 ? sn_opts_usage_error(SN_TOOL_SYSNODE, "no command given") : rc);
    }
    /* A closed pipe on stdout is a failed write (EPIPE), exit 1 as for any other, not death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    /* Every command's output reaches stdout or the command fails (sn_cli_exit). */
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(argv[1], COMMANDS[i].name))
            return sn_cli_exit(COMMANDS[i].name, COMMANDS[i].fn(argc - 1, argv + 1));
    return sn_opts_usage_error(SN_TOOL_SYSNODE, "unknown command '%s'", argv[1]);
}
