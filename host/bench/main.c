/* sysnode-bench [OPTION]... [CASE_DIR...] (the options: common/options.c)
 * Replays each case (default: every case under the source tree's
 * artifacts/compiler/, its path fixed at build time) with the
 * runner image, the floor image and the send-and-wait image, and prints what
 * the simulator measured (docs/DESIGN.md §12; issue 7). Exit 0 when every
 * replay matched its expected bytes, 1 otherwise, 2 on bad usage. With
 * --host-load, it instead times the host's load, validate and pack of each
 * case N times in process and prints the median (docs/DESIGN.md §14). */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_image.h"
#include "err_text.h"
#include "host_load.h"
#include "image_path.h"
#include "measure.h"
#include "options.h"
#include "file_out.h"
#include "output_check.h"
#include "report.h"

/* The image NAME beside this program (image_path.h), or NULL after saying
 * where it looked. */
static char *built_image(const char *name)
{
    sn_error e = {0};
    char *path = malloc(PATH_MAX);
    if (path && sn_image_default(name, path, PATH_MAX, &e) != SN_OK) {
        fprintf(stderr, "sysnode-bench: %s\n", e.msg);
        free(path);
        return NULL;
    }
    return path;
}

static int is_case(const struct dirent *d)
{
    char path[PATH_MAX];
    struct stat st;
    if (d->d_name[0] == '.')
        return 0;
    sn_text_fit(path, sizeof path, "%s/%s/manifest.json", SN_BENCH_CASES_DIR, d->d_name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Every case directory under SN_BENCH_CASES_DIR, in name order. */
static char **default_cases(size_t *n)
{
    struct dirent **list;
    int count = scandir(SN_BENCH_CASES_DIR, &list, is_case, alphasort);
    if (count <= 0)
        return NULL;
    char **dirs = calloc((size_t)count, sizeof *dirs);
    for (int i = 0; i < count; i++) {
        if (dirs && asprintf(&dirs[i], "%s/%s", SN_BENCH_CASES_DIR, list[i]->d_name) < 0)
            dirs[i] = NULL;
        free(list[i]);
    }
    free(list);
    for (int i = 0; dirs && i < count; i++)
        if (!dirs[i])
            return NULL;
    *n = (size_t)count;
    return dirs;
}

/* --host-load: one line per case, the median of `reps` in-process loads. */
static int host_load_all(char **dirs, size_t ndirs, unsigned reps)
{
    int failed = 0;
    for (size_t i = 0; i < ndirs; i++) {
        sn_error e = {0};
        double median;
        if (sn_bench_host_load(dirs[i], reps, &median, &e) != SN_OK) {
            printf("%s: %s\n", dirs[i], e.msg);
            failed = 1;
        } else {
            printf("%s: load, validate and pack: median %.3f ms over %u runs\n", dirs[i], median * 1e3, reps);
        }
    }
    return failed;
}

/* Measures one case with the three images; a failure is kept in the row. */
static void bench_case(sn_bench_row *row, const sn_bench_images *images, unsigned cu_version, unsigned dram_latency,
                       uint64_t max_cycles)
{
    sn_error e = {0};
    struct {
        const char *image;
        sn_bench_figures *f;
    } runs[] = {{images->runner, &row->runner}, {images->floor, &row->floor}, {images->sendwait, &row->sendwait}};
    row->status = sn_bench_case_load(&row->c, row->dir, &e);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0] && row->status == SN_OK; i++)
        row->status =
            sn_bench_measure(&row->c, row->dir, runs[i].image, cu_version, dram_latency, max_cycles, runs[i].f, &e);
    if (row->status != SN_OK)
        sn_text_fit(row->error, sizeof row->error, "%s", e.msg);
}

/* The benchmark once its options are read: the exit code. */
static int bench(const sn_opts *o)
{
    sn_bench_images images = {o->text[SN_OPT_IMAGE], o->text[SN_OPT_FLOOR_IMAGE], o->text[SN_OPT_SENDWAIT_IMAGE]};
    const char *json = o->text[SN_OPT_JSON_FILE];
    uint64_t cu_version = o->num[SN_OPT_CU_VERSION], max_cycles = o->num[SN_OPT_MAX_CYCLES];
    uint64_t host_reps = o->given[SN_OPT_HOST_LOAD] ? o->num[SN_OPT_HOST_LOAD] : 0;
    uint64_t dram_latency = o->num[SN_OPT_DRAM_LATENCY];
    char **dirs = (char **)o->operands;
    size_t ndirs = o->noperands;
    int own_dirs = 0; /* dirs came from default_cases: free them */
    if (ndirs == 0) {
        if (!(dirs = default_cases(&ndirs))) {
            fprintf(stderr, "sysnode-bench: no case directories under %s\n", SN_BENCH_CASES_DIR);
            return 1;
        }
        own_dirs = 1;
    }
    if (host_reps) {
        sn_error out_err = {0};
        int failed = host_load_all(dirs, ndirs, (unsigned)host_reps);
        if (sn_stdout_check(&out_err) != SN_OK) {
            fprintf(stderr, "sysnode-bench: %s\n", out_err.msg);
            failed = 1;
        }
        for (size_t i = 0; own_dirs && i < ndirs; i++)
            free(dirs[i]);
        if (own_dirs)
            free(dirs);
        return failed;
    }
    char *runner = images.runner ? NULL : built_image("runner.elf");
    char *floor_img = images.floor ? NULL : built_image("runner-floor.elf");
    char *sendwait = images.sendwait ? NULL : built_image("runner-sendwait.elf");
    images.runner = images.runner ? images.runner : runner;
    images.floor = images.floor ? images.floor : floor_img;
    images.sendwait = images.sendwait ? images.sendwait : sendwait;
    if (!images.runner || !images.floor || !images.sendwait) {
        fprintf(stderr, "sysnode-bench: cannot locate the built images; pass --image, --floor-image, "
                        "--sendwait-image\n");
        return 1;
    }

    /* Every image loads before any case runs: a wrong path is an error,
     * not a table of failed rows. */
    const char *image_options[] = {"--image", "--floor-image", "--sendwait-image"};
    const char *inputs[] = {images.runner, images.floor, images.sendwait};
    for (size_t i = 0; i < 3; i++) {
        sn_elf_image img = {0};
        char why[512];
        if (sn_elf_image_load(inputs[i], &img, why, sizeof why) != 0) {
            fprintf(stderr, "sysnode-bench: %s %s: %s\n", image_options[i], inputs[i], why);
            free(runner), free(floor_img), free(sendwait);
            return 1;
        }
        sn_elf_image_free(&img);
    }
    /* The images and each case (its manifest and every file it names, by inode) are the inputs. */
    const sn_output_path out = {"--json", json};
    sn_error out_err = {0};
    const char **all_inputs = calloc(3 + ndirs, sizeof *all_inputs);
    if (!all_inputs)
        return 1;
    memcpy(all_inputs, inputs, sizeof inputs);
    memcpy(all_inputs + 3, dirs, ndirs * sizeof *dirs);
    sn_status checked = sn_output_paths_check(&out, 1, all_inputs, 3 + ndirs, (const char *const *)dirs, ndirs,
                                              &out_err);
    free(all_inputs);
    if (checked != SN_OK) {
        fprintf(stderr, "sysnode-bench: %s\n", out_err.msg);
        return 1;
    }
    sn_bench_row *rows = calloc(ndirs, sizeof *rows);
    if (!rows)
        return 1;
    int failed = 0;
    for (size_t i = 0; i < ndirs; i++) {
        rows[i].dir = dirs[i];
        bench_case(&rows[i], &images, (unsigned)cu_version, (unsigned)dram_latency, max_cycles);
        failed |= rows[i].status != SN_OK;
    }
    sn_bench_print_table(stdout, rows, ndirs, (unsigned)cu_version, &images);
    sn_error table_err = {0};
    if (sn_stdout_check(&table_err) != SN_OK) { /* a lost table is no success */
        fprintf(stderr, "sysnode-bench: %s\n", table_err.msg);
        failed = 1;
    }
    if (json) {
        sn_error e = {0};
        if (sn_bench_write_json(json, rows, ndirs, (unsigned)cu_version, &images, &e) != SN_OK) {
            fprintf(stderr, "sysnode-bench: %s\n", e.msg);
            failed = 1;
        }
    }
    for (size_t i = 0; i < ndirs; i++) {
        sn_bench_case_free(&rows[i].c);
        if (own_dirs)
            free(dirs[i]);
    }
    if (own_dirs)
        free(dirs);
    free(rows);
    free(runner);
    free(floor_img);
    free(sendwait);
    return failed;
}

int main(int argc, char **argv)
{
    sn_opts o;
    signal(SIGPIPE, SIG_IGN); /* a closed pipe on stdout is a failed write: exit 1 */
    int rc = sn_opts_parse(SN_TOOL_BENCH, argc, argv, &o);
    if (rc < 0)
        rc = bench(&o);
    sn_opts_free(&o);
    return rc;
}
