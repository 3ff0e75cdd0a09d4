/* sysnode run CASE_DIR [--image ELF] [--max-cycles N]: replays a case on the
 * simulated SysNode and prints one verdict line (host/lib/replay.h). */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "replay.h"

/* Cycle cap well above the runner's own hang detection (8 M cycles without a
 * completion), so the runner reports a hang itself with each node's debt. */
#define DEFAULT_MAX_CYCLES 400000000ull

/* The embedded-table image the build makes for a case:
 * <bin>/../firmware/runner-<case>.elf beside this executable. */
static int default_image(const char *case_name, char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len < 0)
        return -1;
    exe[len] = '\0';
    return snprintf(out, n, "%s/../firmware/runner-%s.elf", dirname(exe), case_name) < (int)n ? 0 : -1;
}

static const char *case_name_of(const char *dir, char *buf, size_t n)
{
    snprintf(buf, n, "%s", dir);
    size_t len = strlen(buf);
    while (len > 1 && buf[len - 1] == '/')
        buf[--len] = '\0';
    return basename(buf);
}

int sn_cmd_run(int argc, char **argv)
{
    sn_replay_opts opts = {0};
    char image[PATH_MAX], namebuf[PATH_MAX];
    opts.max_cycles = DEFAULT_MAX_CYCLES;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--image") && i + 1 < argc) {
            opts.image = argv[++i];
        } else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) {
            char *end;
            opts.max_cycles = strtoull(argv[++i], &end, 0);
            if (*end || opts.max_cycles == 0) {
                fprintf(stderr, "sysnode run: --max-cycles wants a positive number, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (argv[i][0] != '-' && !opts.case_dir) {
            opts.case_dir = argv[i];
        } else {
            fprintf(stderr, "usage: sysnode run CASE_DIR [--image ELF] [--max-cycles N]\n");
            return 2;
        }
    }
    if (!opts.case_dir) {
        fprintf(stderr, "usage: sysnode run CASE_DIR [--image ELF] [--max-cycles N]\n");
        return 2;
    }
    if (!opts.image) {
        if (default_image(case_name_of(opts.case_dir, namebuf, sizeof namebuf), image, sizeof image) != 0) {
            fprintf(stderr, "sysnode run: cannot locate the runner image; pass --image\n");
            return 1;
        }
        opts.image = image;
    }

    sn_replay_result res;
    sn_error err = {0};
    sn_status st = sn_replay_case(&opts, &res, &err);
    if (st != SN_OK && st != SN_ERR_MISMATCH) {
        fprintf(stderr, "sysnode run: %s\n", err.msg);
        return 1;
    }
    printf("%s: %u round%s, %u flits, %u completions, %llu cycles, %llu output bytes: ", res.name, res.rounds,
           res.rounds == 1 ? "" : "s", res.flits, res.completions, (unsigned long long)res.cycles,
           (unsigned long long)res.output_bytes);
    if (res.match)
        printf("match\n");
    else
        printf("MISMATCH at %s offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x\n", res.diff_file,
               (unsigned long long)res.diff_offset, (unsigned long long)res.diff_addr, res.got, res.want);
    return res.match ? 0 : 1;
}
