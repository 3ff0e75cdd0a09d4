/* libFuzzer target: the path a case takes from JSON to a packed table
 * (manifest -> regions -> artifacts -> program -> table rules -> pack ->
 * the table image check). The input is up to three parts separated by NUL
 * bytes: manifest.json, the text written to every artifact the manifest
 * names, and the bytes written to every upload and expected output it names
 * (repeated or cut to the region's nbytes). Any crash, sanitizer report or a
 * packed table that fails its own image check or rules is a bug. Seeds:
 * make_seeds.c, from the real cases. Run through scripts/fuzz. */
#define _GNU_SOURCE /* mkdtemp */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifact.h"
#include "manifest.h"
#include "manifest_mesh.h"
#include "pack.h"
#include "sysnode/table_image.h"
#include "table_check.h"

#define DRAM_BYTES (16u << 20)  /* the simulator's DRAM (DESIGN.md §6) */
#define MAX_FILES 40             /* more names than a seed lists are left unwritten */
#define MAX_REGION (256u << 10)  /* larger regions stay unwritten: refused by their size */

static char dir[64];

static void clear(void);

static void remove_dir(void)
{
    clear();
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "%s/sn_fuzz_case_XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (mkdtemp(dir) == NULL)
        abort();
    atexit(remove_dir);
    return 0;
}

static void put(const char *name, const uint8_t *data, size_t n, size_t want)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return; /* a name the file system refuses: the load names it */
    for (size_t done = 0; n > 0 && done < want; done += n < want - done ? n : want - done)
        fwrite(data, 1, n < want - done ? n : want - done, f);
    fclose(f);
}

static void clear(void)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        abort();
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        char path[512];
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path);
    }
    closedir(d);
}

static void pack_and_verify(void)
{
    sn_manifest m;
    sn_program p;
    sn_error e = {0};
    uint8_t *image = NULL;
    uint64_t bytes = 0;
    sn_status st = sn_manifest_load(&m, dir, &e);
    if (st == SN_OK)
        st = sn_manifest_check_dram(&m, DRAM_BYTES, &e);
    if (st == SN_OK)
        st = sn_manifest_read_data(&m, &e);
    if (st == SN_OK)
        st = sn_mesh_check_manifest(&m, &e);
    sn_mesh mesh = sn_mesh_from_manifest(&m);
    if (st == SN_OK && sn_program_load_case(&p, dir, &e) == SN_OK &&
        sn_pack_program(&p, &mesh, &image, &bytes, &e) == SN_OK) {
        /* What the packer writes must pass the firmware's own checks. */
        sn_table t;
        sn_table_image_fault fault;
        sn_table_fault rule;
        static uint32_t kicked[SN_NODE_COUNT], awaited[SN_NODE_COUNT];
        sn_mesh_map map = {0};
        sn_mesh_map_init(&map, &mesh);
        if (sn_table_image_open(image, bytes, &t, &fault) != SN_OK ||
            sn_table_check(&t, &map, kicked, awaited, &rule) != SN_OK)
            abort();
    }
    if (st == SN_OK)
        sn_program_free(&p);
    free(image);
    sn_manifest_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *part[3] = {data, NULL, NULL};
    size_t len[3] = {size, 0, 0};
    for (int k = 1; k < 3; k++) {
        const uint8_t *nul = memchr(part[k - 1], 0, len[k - 1]);
        if (nul == NULL)
            break;
        part[k] = nul + 1;
        len[k] = len[k - 1] - (size_t)(part[k] - part[k - 1]);
        len[k - 1] = (size_t)(nul - part[k - 1]);
    }
    clear();
    put("manifest.json", part[0], len[0], len[0]);
    sn_manifest m;
    if (sn_manifest_load(&m, dir, NULL) == SN_OK || m.path != NULL) {
        for (size_t i = 0; i < m.artifact_count && i < MAX_FILES; i++)
            put(m.artifacts[i], part[1], len[1], len[1]);
        for (size_t i = 0; i < m.upload_count + m.expected_count && i < MAX_FILES; i++) {
            const sn_region *r = i < m.upload_count ? &m.uploads[i] : &m.expected[i - m.upload_count];
            if (r->nbytes <= MAX_REGION)
                put(r->file, part[2], len[2], r->nbytes);
        }
    }
    sn_manifest_free(&m);
    pack_and_verify();
    return 0;
}
