/* make_seeds CASES_DIR OUT_DIR: the fuzz targets' seed corpora from the real
 * cases (artifacts/compiler), small so that each input runs in well under a
 * millisecond: OUT_DIR/case/NAME is the case's manifest cut to what the host
 * reads, NUL, its first artifact, NUL, the head of its first upload
 * (fuzz_case.c's input layout, case_seed below); OUT_DIR/table/NAME is the
 * case packed as `sysnode pack` packs it and NAME.twice its first artifact
 * packed twice, two rounds (fuzz_table.c's input, table_seed below), for
 * tables up to 4 KiB; OUT_DIR/host_steps/NAME, for a case with an upload
 * and a compare, the case seed with a host step after round 0
 * (fuzz_host_steps.c's input);
 * OUT_DIR/gdb/session, the packets GDB sends to open a session, step, set a
 * breakpoint, continue and detach (fuzz_gdb.c's input). */
#define _DEFAULT_SOURCE /* d_type */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file_read.h"
#include "manifest.h"
#include "pack.h"
#include "pack_inputs.h"

#define SEED_ROUNDS 3        /* artifacts a seed keeps: a longer program adds parse time, not paths */
#define SEED_CASE_BYTES 4096 /* scripts/fuzz's -max_len for the case targets: a larger seed is left out */
#define SEED_REGION_BYTES 64 /* of the first upload: fuzz_dir.c repeats them to each region's nbytes */
#define SEED_TABLE_BYTES 4096 /* scripts/fuzz's -max_len for fuzz_table: a larger table is left out */

/* Up to max bytes of dir/name. */
static void append_file(FILE *out, const char *dir, const char *name, size_t max)
{
    char path[4096];
    unsigned char *data = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (sn_file_read(path, &data, &len, NULL) == SN_OK)
        fwrite(data, 1, len < max ? len : max, out);
    free(data);
}

/* A JSON list of regions r[0..n) ({"file", "addr", "nbytes"}, and an
 * expected output's "dtype" and "shape"); no "sha256": every region of a
 * seed holds the same bytes, so a digest would stop the load there. */
static void put_regions(FILE *f, const sn_region *r, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"file\":\"%s\",\"addr\":%llu,\"nbytes\":%llu", i ? "," : "", r[i].file,
                (unsigned long long)r[i].addr, (unsigned long long)r[i].nbytes);
        if (r[i].fp16)
            fputs(",\"dtype\":\"fp16\"", f);
        if (r[i].rows > 0)
            fprintf(f, ",\"shape\":[%llu,%llu]", (unsigned long long)r[i].rows, (unsigned long long)r[i].cols);
        fputc('}', f);
    }
    fputc(']', f);
}

static void put_coords(FILE *f, const sn_coord *c, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s[%u,%u]", i ? "," : "", c[i].x, c[i].y);
    fputc(']', f);
}

/* Case m as a seed (fuzz_dir.h's layout) at out_dir/kind/name: its manifest
 * with only what the host reads, at most SEED_ROUNDS artifacts (the declared
 * totals only for one: every artifact of a seed holds the first one's text), with a host step after round 0 that
 * compares the first expected output and uploads the first upload again
 * when host_step; NUL; its first artifact; NUL; the head of its first
 * upload. Returns 0, or -1 when the file cannot be written. */
static int case_seed(const sn_manifest *m, const char *dir, const char *kind, const char *name,
                     const char *out_dir, int host_step)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", out_dir, kind, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    size_t rounds = m->artifact_count < SEED_ROUNDS ? m->artifact_count : SEED_ROUNDS;
    if (host_step && rounds < 2)
        rounds = 2;
    fprintf(f, "{\"name\":\"%s\",\"artifacts_in_order\":[", m->name);
    for (size_t i = 0; i < rounds; i++)
        fprintf(f, "%s\"%s\"", i ? "," : "", m->artifacts[i < m->artifact_count ? i : 0]);
    fputc(']', f);
    const char *const totals[] = {"rounds", "total_flits", "flits_wider_than_256_bits"};
    const int64_t values[] = {m->declared_rounds, m->declared_flits, m->declared_wide_flits};
    for (int k = 0; k < 3 && m->artifact_count == 1 && rounds == 1; k++)
        if (values[k] >= 0)
            fprintf(f, ",\"%s\":%lld", totals[k], (long long)values[k]);
    if (m->has_mesh) {
        fputs(",\"mesh\":{\"MG\":", f);
        put_coords(f, m->mg, m->mg_count);
        fputs(",\"VC\":", f);
        put_coords(f, m->vc, m->vc_count);
        fputc('}', f);
    }
    fputs(",\"uploads_before_round0\":", f);
    put_regions(f, m->uploads, m->upload_count);
    if (host_step) {
        fputs(",\"host_steps\":[{\"after_round\":0,\"expected_outputs\":", f);
        put_regions(f, m->expected, 1);
        fputs(",\"uploads\":", f);
        put_regions(f, m->uploads, 1);
        fputs("}]", f);
    }
    fputs(",\"expected_outputs_after_last_round\":", f);
    put_regions(f, m->expected, m->expected_count);
    fputs("}\n", f);
    fputc(0, f);
    append_file(f, dir, m->artifacts[0], SIZE_MAX);
    fputc(0, f);
    if (m->upload_count > 0)
        append_file(f, dir, m->uploads[0].file, SEED_REGION_BYTES);
    long bytes = ftell(f);
    if (fclose(f) != 0)
        return -1;
    if (bytes > SEED_CASE_BYTES)
        remove(path);
    return 0;
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

/* Packs inputs[0..n) as `sysnode pack` does into out_dir/table/name, and the
 * same with one byte more into name.repair (fuzz_table repairs the
 * checksums of odd-length inputs, so mutations of that form reach the
 * rules); a table over SEED_TABLE_BYTES is left out. 0, or -1 after a
 * message. */
static int table_seed(const char *const *inputs, size_t n, const char *out_dir, const char *name)
{
    char path[4096];
    sn_program p;
    sn_mesh mesh;
    sn_error e = {0};
    uint8_t *image = NULL;
    uint64_t bytes = 0;
    int rc = sn_pack_load_inputs(inputs, n, &p, &mesh, &e) == SN_OK && sn_pack_program(&p, &mesh, &image, &bytes, &e) == SN_OK
                 ? 0
                 : -1;
    sn_program_free(&p);
    if (rc == 0 && bytes <= SEED_TABLE_BYTES) {
        snprintf(path, sizeof path, "%s/table/%s", out_dir, name);
        rc = sn_pack_write_file(path, image, bytes, &e) == SN_OK ? 0 : -1;
        snprintf(path, sizeof path, "%s/table/%s.repair", out_dir, name);
        FILE *r = rc == 0 ? fopen(path, "wb") : NULL;
        if (rc == 0 && (r == NULL || fwrite(image, 1, bytes, r) != bytes || fputc(0, r) == EOF || fclose(r) != 0))
            rc = -1, snprintf(e.msg, sizeof e.msg, "cannot write %s", path);
    }
    if (rc < 0)
        fprintf(stderr, "make_seeds: %s: %s\n", name, e.msg);
    free(image);
    return rc;
}

static int seed(const char *cases, const char *name, const char *out_dir)
{
    char dir[4096], first[4096], twice_name[4096];
    snprintf(dir, sizeof dir, "%s/%s", cases, name);
    sn_manifest m;
    sn_error e = {0};
    if (sn_manifest_load(&m, dir, &e) != SN_OK) {
        sn_manifest_free(&m);
        return 0; /* not a case directory */
    }
    /* A host step here uploads and compares. */
    int rc = case_seed(&m, dir, "case", name, out_dir, 0);
    if (rc == 0 && m.upload_count > 0 && m.expected_count > 0)
        rc = case_seed(&m, dir, "host_steps", name, out_dir, 1);
    /* The case as packed, and its first artifact twice: a table of two rounds. */
    snprintf(first, sizeof first, "%s/%s", dir, m.artifacts[0]);
    snprintf(twice_name, sizeof twice_name, "%s.twice", name);
    const char *whole[] = {dir}, *twice[] = {first, first};
    if (rc == 0)
        rc = table_seed(whole, 1, out_dir, name);
    if (rc == 0)
        rc = table_seed(twice, 2, out_dir, twice_name);
    sn_manifest_free(&m);
    return rc < 0 ? -1 : 1;
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
