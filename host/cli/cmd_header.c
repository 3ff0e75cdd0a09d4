/* `sysnode header`: artifacts (or a case directory) -> the embedded-table C
 * header the firmware image compiles in (DESIGN.md §4, host/lib/ctable.h). */
#define _POSIX_C_SOURCE 200809L /* stat */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "artifact.h"
#include "commands.h"
#include "ctable.h"

#define USAGE                                                                  \
    "usage: sysnode header ARTIFACT.json [ARTIFACT.json ...] -o FILE.h\n"      \
    "       sysnode header CASE_DIR -o FILE.h\n"                               \
    "Writes the firmware's embedded artifact table as a C header. Artifacts\n" \
    "are rounds, in the order given; a case directory's manifest.json gives\n" \
    "its own order (artifacts_in_order).\n"

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "sysnode header: %s%s\n%s", msg, arg, USAGE);
    return 2;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Parses the arguments, then loads and writes; inputs has room for argc. */
static int run(int argc, char **argv, const char **inputs)
{
    const char *out = NULL;
    int ninputs = 0;
    int options_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = 1;
        } else if (!options_done && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (!options_done && (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)) {
            if (out != NULL)
                return usage_error("-o given twice", "");
            if (i + 1 >= argc)
                return usage_error("-o needs a file name", "");
            out = argv[++i];
        } else if (!options_done && a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option ", a);
        } else {
            inputs[ninputs++] = a;
        }
    }
    if (out == NULL)
        return usage_error("no output file (-o FILE.h)", "");
    if (ninputs == 0)
        return usage_error("no artifacts or case directory given", "");

    sn_program prog;
    sn_error err = {0};
    sn_status st;
    if (ninputs == 1 && is_dir(inputs[0])) {
        st = sn_program_load_case(&prog, inputs[0], &err);
    } else {
        for (int i = 0; i < ninputs; i++)
            if (is_dir(inputs[i]))
                return usage_error("a case directory must be the only input: ", inputs[i]);
        st = sn_program_load(&prog, inputs, (size_t)ninputs, &err);
    }
    if (st == SN_OK)
        st = sn_ctable_write_file(out, &prog, &err);
    sn_program_free(&prog);
    if (st != SN_OK) {
        fprintf(stderr, "sysnode header: %s\n", err.msg);
        return 1;
    }
    return 0;
}

int sn_cmd_header(int argc, char **argv)
{
    const char **inputs = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *inputs);
    if (inputs == NULL) {
        fprintf(stderr, "sysnode header: out of memory\n");
        return 1;
    }
    int rc = run(argc, argv, inputs);
    free(inputs);
    return rc;
}
