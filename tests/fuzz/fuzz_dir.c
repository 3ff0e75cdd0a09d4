/* The fuzz targets' case directory (see fuzz_dir.h). */
#define _GNU_SOURCE /* mkdtemp */
#include "fuzz_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FILES 40            /* more names than a seed lists are left unwritten */
#define MAX_REGION (256u << 10) /* larger regions stay unwritten: refused by their size */

static char dir[64];

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

static void remove_dir(void)
{
    clear();
    rmdir(dir);
}

/* libFuzzer's hook, called once before the first input: the folder is made
 * here for every target that links this file; aborts if it cannot. */
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

const char *sn_fuzz_dir(void)
{
    return dir;
}

/* Writes name: want bytes of data[0..n) repeated (nothing when n is 0), in
 * one write: a region of 64-byte pieces was 4 096 stdio calls. */
static void put(const char *name, const uint8_t *data, size_t n, size_t want)
{
    static uint8_t fill[MAX_REGION];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return; /* a name the file system refuses: the load names it */
    if (n == 0)
        want = 0;
    if (want > n) {
        memcpy(fill, data, n);
        for (size_t have = n; have < want; have *= 2)
            memcpy(fill + have, fill, have < want - have ? have : want - have);
        data = fill;
    }
    if (want > 0 && write(fd, data, want) != (ssize_t)want)
        abort();
    close(fd);
}

static void put_regions(const sn_region *r, size_t n, const uint8_t *data, size_t len, size_t *files)
{
    for (size_t i = 0; r != NULL && i < n && *files < MAX_FILES; i++, ++*files)
        if (r[i].file != NULL && r[i].nbytes <= MAX_REGION)
            put(r[i].file, data, len, r[i].nbytes);
}

sn_status sn_fuzz_write_case(const uint8_t *data, size_t size, sn_manifest *m, sn_error *e)
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
    sn_status st = sn_manifest_load(m, dir, e);
    size_t files = 0;
    for (size_t i = 0; i < m->artifact_count && files < MAX_FILES; i++, files++)
        put(m->artifacts[i], part[1], len[1], len[1]);
    put_regions(m->uploads, m->upload_count, part[2], len[2], &files);
    put_regions(m->expected, m->expected_count, part[2], len[2], &files);
    for (size_t k = 0; m->host_steps != NULL && k < m->host_step_count; k++) {
        put_regions(m->host_steps[k].expected, m->host_steps[k].expected_count, part[2], len[2], &files);
        put_regions(m->host_steps[k].uploads, m->host_steps[k].upload_count, part[2], len[2], &files);
    }
    return st;
}
