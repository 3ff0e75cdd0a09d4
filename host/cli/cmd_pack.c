/* `sysnode pack`: artifacts (or a case directory) -> the DRAM-resident
 * table image the DRAM runner walks (artifacts/FORMAT.md, host/lib/pack.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pack.h"

#define USAGE                                                                   \
    "usage: sysnode pack ARTIFACT.json [ARTIFACT.json ...] -o TABLE.bin\n"      \
    "       sysnode pack CASE_DIR -o TABLE.bin\n"                               \
    "Checks the rounds against the table rules and writes them as a packed\n"   \
    "table (artifacts/FORMAT.md). Artifacts are rounds in the order given; a\n" \
    "case directory's manifest.json gives its order and its mesh.\n"

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "sysnode pack: %s%s\n%s", msg, arg, USAGE);
    return 2;
}

/* Parses the arguments, then packs and writes; inputs has room for argc. */
static int run(int argc, char **argv, const char **inputs)
{
    const char *out = NULL;
    int ninputs = 0, options_done = 0;
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
        return usage_error("no output file (-o TABLE.bin)", "");
    if (ninputs == 0)
        return usage_error("no artifacts or case directory given", "");

    sn_program prog;
    sn_mesh mesh;
    sn_error err = {0};
    uint8_t *image = NULL;
    uint64_t bytes = 0;
    sn_status st = sn_pack_load_inputs(inputs, (size_t)ninputs, &prog, &mesh, &err);
    if (st == SN_OK)
        st = sn_pack_program(&prog, &mesh, &image, &bytes, &err);
    if (st == SN_OK)
        st = sn_pack_write_file(out, image, bytes, &err);
    if (st == SN_OK)
        printf("%s: %zu rounds, %zu steps, %zu payloads, %" PRIu64 " bytes\n", out, prog.round_count,
               prog.step_count, prog.payload_count, bytes);
    free(image);
    sn_program_free(&prog);
    if (st != SN_OK) {
        fprintf(stderr, "sysnode pack: %s\n", err.msg);
        return 1;
    }
    return 0;
}

int sn_cmd_pack(int argc, char **argv)
{
    const char **inputs = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *inputs);
    if (inputs == NULL) {
        fprintf(stderr, "sysnode pack: out of memory\n");
        return 1;
    }
    int rc = run(argc, argv, inputs);
    free(inputs);
    return rc;
}
