/* make_seeds CASES_DIR OUT_DIR: the fuzz targets' seed corpora from the real
 * cases (artifacts/compiler): OUT_DIR/case/NAME is the case's manifest, NUL,
 * its first artifact, NUL, its first upload (fuzz_case.c's input layout);
 * OUT_DIR/table/NAME is the case packed as `sysnode pack` packs it
 * (fuzz_table.c's input); OUT_DIR/host_steps/NAME, for a case of two rounds
 * or more, the case's manifest with a host step after round 0 that compares
 * its first expected output and uploads its first upload again, NUL, its
 * first artifact, NUL, its first upload (fuzz_host_steps.c's input);
 * OUT_DIR/gdb/session, the packets GDB sends to open a session, step, set a
 * breakpoint, continue and detach (fuzz_gdb.c's input). */
#define _DEFAULT_SOURCE /* d_type */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file_read.h"
#include "manifest.h"
#include "pack.h"
#include "pack_inputs.h"

static void append_file(FILE *out, const char *dir, const char *name)
{
    char path[4096];
    unsigned char *data = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (sn_file_read(path, &data, &len, NULL) == SN_OK)
        fwrite(data, 1, len, out);
    free(data);
}

/* A JSON list of regions r[0..n) ({"file", "addr", "nbytes"}). */
static void put_regions(FILE *f, const sn_region *r, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s{\"file\": \"%s\", \"addr\": %llu, \"nbytes\": %llu}", i ? ", " : "", r[i].file,
                (unsigned long long)r[i].addr, (unsigned long long)r[i].nbytes);
    fputc(']', f);
}

/* The host-step seed of case m at dir (no file for a one-round case). */
static int host_step_seed(const sn_manifest *m, const char *dir, const char *name, const char *out_dir)
{
    char path[4096];
    if (m->artifact_count < 2 || m->upload_count == 0 || m->expected_count == 0)
        return 0;
    snprintf(path, sizeof path, "%s/host_steps/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    fprintf(f, "{\"name\": \"%s\", \"artifacts_in_order\": [", m->name);
    for (size_t i = 0; i < m->artifact_count; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", m->artifacts[i]);
    fputs("], \"uploads_before_round0\": ", f);
    put_regions(f, m->uploads, m->upload_count);
    fputs(", \"host_steps\": [{\"after_round\": 0, \"expected_outputs\": ", f);
    put_regions(f, m->expected, 1);
    fputs(", \"uploads\": ", f);
    put_regions(f, m->uploads, 1);
    fputs("}], \"expected_outputs_after_last_round\": ", f);
    put_regions(f, m->expected, m->expected_count);
    fputs("}\n", f);
    fputc(0, f);
    append_file(f, dir, m->artifacts[0]);
    fputc(0, f);
    append_file(f, dir, m->uploads[0].file);
    return fclose(f) == 0 ? 0 : -1;
}

/* A GDB session's packets (the remote protocol's framing: $body#checksum). */
static int gdb_seed(const char *out_dir)
{
    static const char *const packets[] = {"qSupported:multiprocess+;swbreak+", "QStartNoAckMode", "?",
                                          "qXfer:features:read:target.xml:0,ffb", "g", "p20", "m0,40", "s",
                                          "Z0,100,4", "c", "z0,100,4", "m80000000,400", "D"};
    char path[4096];
    snprintf(path, sizeof path, "%s/gdb/session", out_dir);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    for (size_t i = 0; i < sizeof packets / sizeof packets[0]; i++) {
        unsigned sum = 0;
        for (const char *c = packets[i]; *c; c++)
            sum += (unsigned char)*c;
        fprintf(f, "%s$%s#%02x", i == 1 ? "+" : "", packets[i], sum & 0xFF);
    }
    fputc(0x03, f); /* Ctrl-C */
    return fclose(f) == 0 ? 0 : -1;
}

static int seed(const char *cases, const char *name, const char *out_dir)
{
    char dir[4096], path[4096];
    snprintf(dir, sizeof dir, "%s/%s", cases, name);
    sn_manifest m;
    sn_error e = {0};
    if (sn_manifest_load(&m, dir, &e) != SN_OK) {
        sn_manifest_free(&m);
        return 0; /* not a case directory */
    }
    snprintf(path, sizeof path, "%s/case/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    append_file(f, dir, "manifest.json");
    fputc(0, f);
    append_file(f, dir, m.artifacts[0]);
    fputc(0, f);
    if (m.upload_count > 0)
        append_file(f, dir, m.uploads[0].file);
    fclose(f);
    int steps = host_step_seed(&m, dir, name, out_dir);
    sn_manifest_free(&m);
    if (steps < 0)
        return -1;

    const char *inputs[] = {dir};
    sn_program p;
    sn_mesh mesh;
    uint8_t *image = NULL;
    uint64_t bytes = 0;
    snprintf(path, sizeof path, "%s/table/%s", out_dir, name);
    int rc = sn_pack_load_inputs(inputs, 1, &p, &mesh, &e) == SN_OK &&
                     sn_pack_program(&p, &mesh, &image, &bytes, &e) == SN_OK &&
                     sn_pack_write_file(path, image, bytes, &e) == SN_OK
                 ? 1
                 : -1;
    /* The same table with one byte more: fuzz_table repairs the checksums
     * of odd-length inputs, so mutations of this form reach the rules. */
    snprintf(path, sizeof path, "%s/table/%s.repair", out_dir, name);
    FILE *r = rc > 0 ? fopen(path, "wb") : NULL;
    if (rc > 0 && (r == NULL || fwrite(image, 1, bytes, r) != bytes || fputc(0, r) == EOF || fclose(r) != 0))
        rc = -1, snprintf(e.msg, sizeof e.msg, "cannot write %s", path);
    if (rc < 0)
        fprintf(stderr, "make_seeds: %s: %s\n", name, e.msg);
    free(image);
    sn_program_free(&p);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: make_seeds CASES_DIR OUT_DIR\n");
        return 2;
    }
    char sub[4096];
    static const char *const kinds[] = {"case", "table", "host_steps", "gdb"};
    mkdir(argv[2], 0755);
    for (int k = 0; k < 4; k++) {
        snprintf(sub, sizeof sub, "%s/%s", argv[2], kinds[k]);
        mkdir(sub, 0755);
    }
    if (gdb_seed(argv[2]) != 0) {
        perror(argv[2]);
        return 1;
    }
    DIR *d = opendir(argv[1]);
    if (d == NULL) {
        perror(argv[1]);
        return 1;
    }
    int n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        int rc = seed(argv[1], de->d_name, argv[2]);
        if (rc < 0)
            return 1;
        n += rc;
    }
    closedir(d);
    printf("make_seeds: %d cases -> %s/case, %s/table, %s/host_steps; %s/gdb\n", n, argv[2], argv[2], argv[2],
           argv[2]);
    return n > 0 ? 0 : 1;
}
