/* sysnode: the host CLI. Each subcommand lives in its own cmd_*.c. */
#include <stdio.h>
#include <string.h>

#include "cli_io.h"
#include "commands.h"

/* The usage on `out`: stdout for -h/--help (exit 0), stderr after a usage error (exit 2). */
static void usage(FILE *out)
{
    fprintf(out,
            "usage: sysnode <command> [args]\n"
            "  header ARTIFACT.json... | CASE_DIR -o FILE.h   emit the embedded C table\n"
            "  run CASE_DIR [--image ELF] [--max-cycles N] [--cu-version 4|5] [--trace FILE] [--digest]\n"
            "               [--table TABLE.bin] [--device sim|xdma:PREFIX] [--report FILE.json] [--gdb PORT]\n"
            "               [--timeline FILE.json] [--fst FILE.fst [--fst-window FROM:TO]]\n"
            "               [--inject KIND[@ROUND:STEP|@CYCLE]]\n"
            "                                                  replay a case on the simulated SysNode or a card\n"
            "  flash IMAGE.elf --device sim|xdma:PREFIX [--load ADDR=FILE]... [--table ADDR=TABLE.bin]\n"
            "               [--digest ADDR:BYTES] [--max-cycles N] [--cu-version 4|5]   load, boot, stream the console\n"
            "  pack ARTIFACT.json... | CASE_DIR -o TABLE.bin   pack the DRAM-resident table\n"
            "  dump TABLE.bin | CASE_DIR | ARTIFACT.json... [--json]   list rounds, steps, decoded payloads\n"
            "  COMMAND -h | --help                            that command's usage\n");
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
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
    usage(stderr);
    return 2;
}
