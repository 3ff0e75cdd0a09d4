/* make_seeds CASES_DIR OUT_DIR: the fuzz targets' seed corpora from the real
 * cases (artifacts/compiler): OUT_DIR/case/NAME is the case's manifest, NUL,
 * its first artifact, NUL, its first upload (fuzz_case.c's input layout);
 * OUT_DIR/table/NAME is the case packed as `sysnode pack` packs it
 * (fuzz_table.c's input). */
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
    sn_manifest_free(&m);

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
    for (int k = 0; k < 2; k++) {
        snprintf(sub, sizeof sub, "%s/%s", argv[2], k ? "table" : "case");
        mkdir(argv[2], 0755);
        mkdir(sub, 0755);
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
    printf("make_seeds: %d cases -> %s/case, %s/table\n", n, argv[2], argv[2]);
    return n > 0 ? 0 : 1;
}
