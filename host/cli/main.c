/* sysnode: the host CLI. Each subcommand lives in its own cmd_*.c. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli_io.h"
#include "commands.h"
#include "number.h"

/* The usage on `out`: stdout for -h/--help (exit 0), stderr after a usage error (exit 2). */
static void usage(FILE *out)
{
    fprintf(out,
            "usage: sysnode <command> [args]   (sysnode COMMAND -h: that command's options; --version)\n"
            "  run CASE_DIR...                  replay cases on the simulated SysNode or a card\n"
            "  flash IMAGE.elf --device ...     load an image, boot it, stream its console\n"
            "  pack CASE_DIR | ARTIFACT.json... -o TABLE.bin   pack the DRAM-resident table\n"
            "  header CASE_DIR | ARTIFACT.json... -o FILE.h    the table as C, for an embedded image\n"
            "  dump TABLE.bin | CASE_DIR | ARTIFACT.json...    rounds, steps and decoded payloads\n");
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    /* One version for every tool (number.h): sysnode --version, sysnode COMMAND --version. */
    if ((argc == 2 || argc == 3) && !strcmp(argv[argc - 1], "--version")) {
        printf("sysnode %s\n", sn_version());
        return sn_cli_exit("--version", 0);
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    /* A closed pipe on stdout is a failed write (EPIPE), exit 1 as for any other, not death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    /* Every command's output reaches stdout or the command fails (sn_cli_exit). */
    if (!strcmp(argv[1], "header"))
        return sn_cli_exit("header", sn_cmd_header(argc - 1, argv + 1));
    if (!strcmp(argv[1], "run"))
        return sn_cli_exit("run", sn_cmd_run(argc - 1, argv + 1));
    if (!strcmp(argv[1], "flash"))
        return sn_cli_exit("flash", sn_cmd_flash(argc - 1, argv + 1));
    if (!strcmp(argv[1], "pack"))
        return sn_cli_exit("pack", sn_cmd_pack(argc - 1, argv + 1));
    if (!strcmp(argv[1], "dump"))
        return sn_cli_exit("dump", sn_cmd_dump(argc - 1, argv + 1));
    fprintf(stderr, "sysnode: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
