/* Parsing a case manifest (artifacts-facts §5) and loading the operand and
 * expected-output files it names. */
#define _XOPEN_SOURCE 700 /* strdup, realpath */
#include "manifest.h"

#include <errno.h>
#include <limits.h>
#include <nettle/sha2.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ascii_digits.h"
#include "err_text.h"
#include "file_read.h"
#include "json.h"
#include "table_layout.h"
#include "sysnode/regs.h"

/* Unit DRAM addresses are 40 bits (sysnode-facts §6). */
#define UNIT_ADDR_LIMIT (1ull << 40)
#define COORD_MAX 15u /* 4-bit x and y (sysnode-facts §3.1) */

/* Reads string v as a name printed later: no control characters, which
 * would reach the terminal raw (an ESC sequence, a forged verdict line). */
static sn_status printable(const sn_json *d, int v, const char *what, char **out, sn_error *e)
{
    sn_status st = sn_json_string(d, v, what, out, e);
    if (st != SN_OK)
        return st;
    for (const unsigned char *c = (const unsigned char *)*out; *c != '\0'; c++) {
        if (*c < 0x20 || *c == 0x7f) {
            st = sn_json_fail(d, v, SN_ERR_INPUT, e, "%s holds control character 0x%02x at byte %td", what, *c,
                              (const char *)c - *out);
            free(*out);
            *out = NULL;
            return st;
        }
    }
    return SN_OK;
}

/* Reads string v as a plain file name of the case directory. */
static sn_status file_name(const sn_json *d, int v, const char *what, char **out, sn_error *e)
{
    sn_status st = printable(d, v, what, out, e);
    if (st != SN_OK)
        return st;
    if (**out == '\0' || strcmp(*out, ".") == 0 || strcmp(*out, "..") == 0 ||
        strchr(*out, '/') != NULL) {
        st = sn_json_fail(d, v, SN_ERR_INPUT, e,
                          "%s \"%s\" must be a plain file name in the case directory", what, *out);
        free(*out);
        *out = NULL;
    }
    return st;
}

static sn_status parse_artifacts(sn_manifest *m, const sn_json *d, int arr, sn_error *e)
{
    sn_status st = sn_json_expect(d, arr, SN_JSON_ARRAY, "\"artifacts_in_order\"", e);
    if (st == SN_OK && sn_json_count(d, arr) == 0)
        st = sn_json_fail(d, arr, SN_ERR_INPUT, e, "\"artifacts_in_order\" is empty");
    /* From the count, before a name is copied: each round takes a record and a step in the table at least */
    uint64_t least = sn_table_layout_of((uint64_t)sn_json_count(d, arr), (uint64_t)sn_json_count(d, arr), 0).total;
    if (st == SN_OK && least > SN_DRAM_DEFAULT_SIZE)
        st = sn_json_fail(d, arr, SN_ERR_INPUT, e, "\"artifacts_in_order\" names %zu rounds: their table takes at "
                          "least %llu bytes (a round record and a step each), more than DRAM (%llu bytes)",
                          (size_t)sn_json_count(d, arr), (unsigned long long)least,
                          (unsigned long long)SN_DRAM_DEFAULT_SIZE);
    if (st != SN_OK)
        return st;
    m->artifacts = calloc(sn_json_count(d, arr), sizeof *m->artifacts);
    if (m->artifacts == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
    for (int v = sn_json_first(d, arr); v >= 0 && st == SN_OK; v = sn_json_next(d, v)) {
        st = file_name(d, v, "", &m->artifacts[m->artifact_count], NULL);
        if (st != SN_OK) { /* again with the label, made only for the message */
            char what[64];
            sn_text_fit(what, sizeof what, "artifact %zu", m->artifact_count);
            st = file_name(d, v, what, &m->artifacts[m->artifact_count], e);
        }
        if (st == SN_OK)
            m->artifact_count++;
    }
    return st;
}

/* An optional "sha256": 64 hex digits. */
static sn_status parse_sha256(const sn_json *d, int obj, sn_region *r, sn_error *e)
{
    int v = -1;
    sn_status st = sn_json_member(d, obj, "sha256", false, &v, e);
    if (st != SN_OK || v < 0)
        return st;
    char *text = NULL;
    st = sn_json_string(d, v, "sha256", &text, e);
    if (st != SN_OK)
        return st;
    int ok = strlen(text) == 64;
    for (int i = 0; ok && i < 32; i++) {
        int hi = sn_ascii_hex_value(text[2 * i]), lo = sn_ascii_hex_value(text[2 * i + 1]);
        ok = hi >= 0 && lo >= 0;
        if (ok)
            r->sha256[i] = (uint8_t)(hi << 4 | lo);
    }
    free(text);
    if (!ok)
        return sn_json_fail(d, v, SN_ERR_INPUT, e, "\"sha256\" is not 64 hex digits");
    r->has_sha256 = true;
    return SN_OK;
}

/* Checks that arr is an array (named `what` in the error) and allocates
 * one zeroed element per entry plus one, of elem_size bytes each, in *out.
 * SN_ERR_INPUT for a non-array, SN_ERR_INTERNAL when out of memory. */
static sn_status array_alloc(const sn_json *d, int arr, const char *what, size_t elem_size, void **out,
                             sn_error *e)
{
    sn_status st = sn_json_expect(d, arr, SN_JSON_ARRAY, what, e);
    if (st != SN_OK)
        return st;
    *out = calloc(sn_json_count(d, arr) + 1, elem_size);
    if (*out == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", sn_json_name(d));
    return SN_OK;
}

/* An expected output's optional "dtype" and "shape" (docs/manifest.md): how
 * a mismatch report decodes it. A shape must count the region's elements. */
static sn_status parse_decoding(const sn_json *d, int obj, const char *what, sn_region *r, sn_error *e)
{
    int dtype = -1, shape = -1;
    sn_status st = sn_json_member(d, obj, "dtype", false, &dtype, e);
    if (st == SN_OK)
        st = sn_json_member(d, obj, "shape", false, &shape, e);
    if (st == SN_OK && dtype >= 0) {
        char *text = NULL;
        st = sn_json_string(d, dtype, "dtype", &text, e);
        r->fp16 = st == SN_OK && strncmp(text, "fp16", 4) == 0;
        free(text);
        if (st == SN_OK && r->fp16 && r->nbytes % 2 != 0)
            return sn_json_fail(d, dtype, SN_ERR_INPUT, e, "%s: \"dtype\" fp16 needs an even nbytes, not %llu", what,
                                (unsigned long long)r->nbytes);
    }
    if (st != SN_OK || shape < 0)
        return st;
    size_t dims = sn_json_kind_of(d, shape) == SN_JSON_ARRAY ? sn_json_count(d, shape) : 0;
    if (dims < 1 || dims > 2)
        return sn_json_fail(d, shape, SN_ERR_INPUT, e, "%s: \"shape\" must be [rows, cols] or [n]", what);
    uint64_t dim[2] = {1, 1};
    int v = sn_json_first(d, shape);
    for (size_t i = 0; i < dims && st == SN_OK; i++, v = sn_json_next(d, v))
        st = sn_json_u64(d, v, 1, r->nbytes, "shape entry", &dim[dims == 1 ? 1 : i], e);
    uint64_t elems = r->nbytes / (r->fp16 ? 2 : 1);
    if (st == SN_OK && (dim[0] > elems / dim[1] || dim[0] * dim[1] != elems))
        return sn_json_fail(d, shape, SN_ERR_INPUT, e, "%s: \"shape\" counts %llu elements; nbytes %llu holds %llu %s",
                            what, (unsigned long long)(dim[0] * dim[1]), (unsigned long long)r->nbytes,
                            (unsigned long long)elems, r->fp16 ? "fp16 elements" : "bytes");
    r->rows = dim[0];
    r->cols = dim[1];
    return st;
}

/* Parses an array of {file, addr, nbytes, ...} objects; expected outputs
 * (expected) may also say how they decode. */
static sn_status parse_regions(const sn_json *d, int arr, const char *key, bool expected, sn_region **out,
                               size_t *count, sn_error *e)
{
    char what[96];
    sn_text_fit(what, sizeof what, "\"%s\"", key);
    void *entries = NULL;
    sn_status st = array_alloc(d, arr, what, sizeof **out, &entries, e);
    if (st != SN_OK)
        return st;
    *out = entries;
    for (int v = sn_json_first(d, arr); v >= 0 && st == SN_OK; v = sn_json_next(d, v)) {
        sn_region *r = &(*out)[*count];
        int file = -1, addr = -1, nbytes = -1;
        sn_text_fit(what, sizeof what, "%s[%zu]", key, *count);
        st = sn_json_expect(d, v, SN_JSON_OBJECT, what, e);
        if (st == SN_OK)
            st = sn_json_member(d, v, "file", true, &file, e);
        if (st == SN_OK)
            st = sn_json_member(d, v, "addr", true, &addr, e);
        if (st == SN_OK)
            st = sn_json_member(d, v, "nbytes", true, &nbytes, e);
        if (st == SN_OK)
            st = file_name(d, file, "file", &r->file, e);
        if (st == SN_OK)
            st = sn_json_u64(d, addr, 0, UNIT_ADDR_LIMIT - 1, "addr", &r->addr, e);
        if (st == SN_OK)
            st = sn_json_u64(d, nbytes, 1, UNIT_ADDR_LIMIT - r->addr, "nbytes (up to the 40-bit limit)",
                             &r->nbytes, e);
        if (st == SN_OK)
            st = parse_sha256(d, v, r, e);
        if (st == SN_OK && expected)
            st = parse_decoding(d, v, what, r, e);
        if (r->file != NULL)
            (*count)++; /* counted once it owns memory, so free finds it */
    }
    return st;
}

/* Parses a list of [x, y] pairs. */
static sn_status parse_coords(const sn_json *d, int arr, const char *key, sn_coord **out,
                              size_t *count, sn_error *e)
{
    char what[64];
    sn_text_fit(what, sizeof what, "mesh \"%s\"", key);
    void *entries = NULL;
    sn_status st = array_alloc(d, arr, what, sizeof **out, &entries, e);
    if (st != SN_OK)
        return st;
    *out = entries;
    for (int v = sn_json_first(d, arr); v >= 0 && st == SN_OK; v = sn_json_next(d, v)) {
        if (sn_json_kind_of(d, v) != SN_JSON_ARRAY || sn_json_count(d, v) != 2)
            return sn_json_fail(d, v, SN_ERR_INPUT, e, "mesh \"%s\" entries must be [x, y]", key);
        uint64_t x = 0, y = 0;
        int vx = sn_json_first(d, v);
        st = sn_json_u64(d, vx, 0, COORD_MAX, "mesh x", &x, e);
        if (st == SN_OK)
            st = sn_json_u64(d, sn_json_next(d, vx), 0, COORD_MAX, "mesh y", &y, e);
        (*out)[(*count)++] = (sn_coord){(uint8_t)x, (uint8_t)y};
    }
    return st;
}

static sn_status parse_mesh(sn_manifest *m, const sn_json *d, int mesh, sn_error *e)
{
    int mg = -1, vc = -1;
    sn_status st = sn_json_expect(d, mesh, SN_JSON_OBJECT, "\"mesh\"", e);
    if (st == SN_OK)
        st = sn_json_member(d, mesh, "MG", true, &mg, e);
    if (st == SN_OK)
        st = sn_json_member(d, mesh, "VC", true, &vc, e);
    if (st == SN_OK)
        st = parse_coords(d, mg, "MG", &m->mg, &m->mg_count, e);
    if (st == SN_OK)
        st = parse_coords(d, vc, "VC", &m->vc, &m->vc_count, e);
    m->has_mesh = st == SN_OK;
    return st;
}

/* Reads optional integer member `key` into *out (-1 when absent). */
static sn_status declared(const sn_json *d, int root, const char *key, int64_t *out, sn_error *e)
{
    int v = -1;
    *out = -1;
    sn_status st = sn_json_member(d, root, key, false, &v, e);
    uint64_t x;
    if (st == SN_OK && v >= 0) {
        char what[64];
        sn_text_fit(what, sizeof what, "\"%s\"", key);
        st = sn_json_u64(d, v, 0, INT64_MAX, what, &x, e);
        if (st == SN_OK)
            *out = (int64_t)x;
    }
    return st;
}

/* One "host_steps" entry: {"after_round": r, "expected_outputs": [...],
 * "uploads": [...]} (artifacts/FORMAT.md §9). */
static sn_status parse_host_step(const sn_manifest *m, const sn_json *d, int v, size_t i, sn_host_step *h,
                                 sn_error *e)
{
    char what[128];
    int after = -1, exps = -1, ups = -1;
    uint64_t round = 0;
    sn_text_fit(what, sizeof what, "host_steps[%zu]", i);
    sn_status st = sn_json_expect(d, v, SN_JSON_OBJECT, what, e);
    if (st == SN_OK)
        st = sn_json_member(d, v, "after_round", true, &after, e);
    if (st == SN_OK)
        st = sn_json_member(d, v, "expected_outputs", false, &exps, e);
    if (st == SN_OK)
        st = sn_json_member(d, v, "uploads", false, &ups, e);
    if (st != SN_OK)
        return st;
    if (m->artifact_count < 2)
        return sn_json_fail(d, v, SN_ERR_INPUT, e, "%s: a host step needs two rounds around it, the case has one",
                            what);
    uint64_t first = i == 0 ? 0 : (uint64_t)h[-1].after_round + 1;
    sn_text_fit(what, sizeof what, "host_steps[%zu] \"after_round\" (after the previous step, before the last round)",
             i);
    st = sn_json_u64(d, after, first, m->artifact_count - 2, what, &round, e);
    h->after_round = (uint32_t)round;
    if (st == SN_OK && exps >= 0) {
        sn_text_fit(what, sizeof what, "host_steps[%zu].expected_outputs", i);
        st = parse_regions(d, exps, what, true, &h->expected, &h->expected_count, e);
    }
    if (st == SN_OK && ups >= 0) {
        sn_text_fit(what, sizeof what, "host_steps[%zu].uploads", i);
        st = parse_regions(d, ups, what, false, &h->uploads, &h->upload_count, e);
    }
    if (st == SN_OK && h->expected_count == 0 && h->upload_count == 0)
        st = sn_json_fail(d, v, SN_ERR_INPUT, e, "host_steps[%zu] neither compares nor uploads", i);
    return st;
}

static sn_status parse_host_steps(sn_manifest *m, const sn_json *d, int arr, sn_error *e)
{
    sn_status st = sn_json_expect(d, arr, SN_JSON_ARRAY, "\"host_steps\"", e);
    if (st != SN_OK)
        return st;
    m->host_steps = calloc(sn_json_count(d, arr) + 1, sizeof *m->host_steps);
    if (m->host_steps == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
    for (int v = sn_json_first(d, arr); v >= 0 && st == SN_OK; v = sn_json_next(d, v)) {
        st = parse_host_step(m, d, v, m->host_step_count, &m->host_steps[m->host_step_count], e);
        m->host_step_count++; /* counted whatever happened, so free finds its regions */
    }
    return st;
}

/* Expected-output regions over the whole case, host steps included. */
static size_t compare_count(const sn_manifest *m)
{
    size_t n = m->expected_count;
    for (size_t i = 0; i < m->host_step_count; i++)
        n += m->host_steps[i].expected_count;
    return n;
}

static sn_status parse_manifest(sn_manifest *m, const sn_json *d, sn_error *e)
{
    int root = sn_json_root(d);
    int name = -1, arts = -1, ups = -1, exps = -1, mesh = -1, steps = -1;
    sn_status st = sn_json_expect(d, root, SN_JSON_OBJECT, "a manifest", e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "name", true, &name, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "artifacts_in_order", true, &arts, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "uploads_before_round0", true, &ups, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "expected_outputs_after_last_round", true, &exps, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "mesh", false, &mesh, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "host_steps", false, &steps, e);
    if (st == SN_OK)
        st = printable(d, name, "\"name\"", &m->name, e);
    if (st == SN_OK)
        st = parse_artifacts(m, d, arts, e);
    if (st == SN_OK)
        st = parse_regions(d, ups, "uploads_before_round0", false, &m->uploads, &m->upload_count, e);
    if (st == SN_OK)
        st = parse_regions(d, exps, "expected_outputs_after_last_round", true, &m->expected,
                           &m->expected_count, e);
    if (st == SN_OK && steps >= 0)
        st = parse_host_steps(m, d, steps, e);
    /* No compare at all would make every replay pass. */
    if (st == SN_OK && compare_count(m) == 0)
        st = sn_json_fail(d, exps, SN_ERR_INPUT, e,
                          "\"expected_outputs_after_last_round\" is empty and no host step compares: nothing to "
                          "compare");
    if (st == SN_OK && mesh >= 0)
        st = parse_mesh(m, d, mesh, e);
    if (st == SN_OK)
        st = declared(d, root, "rounds", &m->declared_rounds, e);
    if (st == SN_OK)
        st = declared(d, root, "total_flits", &m->declared_flits, e);
    if (st == SN_OK)
        st = declared(d, root, "flits_wider_than_256_bits", &m->declared_wide_flits, e);
    return st;
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir);
    bool slash = n > 0 && dir[n - 1] == '/';
    char *out = malloc(n + 1 + strlen(file) + 1);
    if (out != NULL)
        sprintf(out, "%s%s%s", dir, slash ? "" : "/", file);
    return out;
}

int sn_manifest_open_dir(const char *case_dir, sn_error *e)
{
    if (case_dir[0] == '\0') { /* join() would name the root's /manifest.json */
        sn_error_set(e, SN_ERR_IO, "the case directory's name is empty");
        return -1;
    }
    int fd = open(case_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 && errno == ENOTDIR) {
        sn_error_set(e, SN_ERR_IO, "%s: not a case directory (a directory holding manifest.json)", case_dir);
    } else if (fd < 0) {
        int err = errno;
        char *path = join(case_dir, "manifest.json");
        sn_error_set(e, SN_ERR_IO, "%s: cannot open: %s", path ? path : case_dir, strerror(err));
        free(path);
    }
    return fd;
}

sn_status sn_manifest_open_file(const sn_manifest *m, int dir_fd, const char *file, char **path, int *fd,
                                sn_error *e)
{
    *fd = -1;
    *path = NULL;
    if (strchr(file, '/') == NULL) {
        char *p = join(m->dir, file);
        if (p == NULL)
            return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->dir);
        *fd = openat(dir_fd, file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
        if (*fd >= 0) {
            *path = p;
            return SN_OK;
        }
        int err = errno;
        if (err != ELOOP) { /* ELOOP: a symlink, checked below */
            sn_status st = sn_error_set(e, SN_ERR_IO, "%s: cannot open: %s", p, strerror(err));
            free(p);
            return st;
        }
        free(p);
    }
    char *p;
    sn_status st = sn_manifest_file_path(m, file, &p, e);
    if (st != SN_OK)
        return st;
    *fd = openat(dir_fd, file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0) {
        st = sn_error_set(e, SN_ERR_IO, "%s: cannot open: %s", p, strerror(errno));
        free(p);
        return st;
    }
    *path = p;
    return SN_OK;
}

sn_status sn_manifest_load(sn_manifest *m, const char *case_dir, sn_error *e)
{
    memset(m, 0, sizeof *m);
    m->declared_rounds = m->declared_flits = m->declared_wide_flits = -1;
    int dir_fd = sn_manifest_open_dir(case_dir, e);
    if (dir_fd < 0) {
        m->dir = strdup(case_dir); /* as a failed load leaves it: the manifest named */
        m->path = join(case_dir, "manifest.json");
        return SN_ERR_IO;
    }
    sn_status st = sn_manifest_load_at(m, case_dir, dir_fd, e);
    close(dir_fd);
    return st;
}

sn_status sn_manifest_load_at(sn_manifest *m, const char *case_dir, int dir_fd, sn_error *e)
{
    memset(m, 0, sizeof *m);
    m->declared_rounds = m->declared_flits = m->declared_wide_flits = -1;
    m->dir = strdup(case_dir);
    m->path = join(case_dir, "manifest.json");
    if (m->dir == NULL || m->path == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", case_dir);
    /* the manifest is a case file too: inside the directory */
    char *path;
    int fd = -1;
    sn_status st = sn_manifest_open_file(m, dir_fd, "manifest.json", &path, &fd, e);
    if (st != SN_OK)
        return st;
    free(path);
    sn_json *d;
    st = sn_json_load_fd(fd, m->path, &d, e);
    if (st != SN_OK)
        return st;
    st = parse_manifest(m, d, e);
    size_t len = e ? strlen(e->msg) : 0;
    if (st == SN_ERR_INPUT && e && len < sizeof e->msg) /* where the rule is written down: the schema's page */
        sn_text_fit(e->msg + len, sizeof e->msg - len, " (the manifest's members: docs/manifest.md)");
    sn_json_free(d);
    return st;
}

sn_status sn_manifest_file_path(const sn_manifest *m, const char *file, char **out, sn_error *e)
{
    *out = join(m->dir, file);
    if (*out == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->dir);
    /* A symlink may point elsewhere in the case, never out of it. */
    char dir[PATH_MAX], target[PATH_MAX];
    if (realpath(*out, target) == NULL)
        return SN_OK; /* missing: reading it names the path and the reason */
    if (realpath(m->dir, dir) == NULL)
        return sn_error_set(e, SN_ERR_IO, "%s: cannot resolve the case directory: %s", m->dir, strerror(errno));
    size_t n = strlen(dir);
    if (strncmp(target, dir, n) != 0 || (target[n] != '/' && strcmp(dir, "/") != 0)) {
        sn_status st = sn_error_set(e, SN_ERR_INPUT, "%s: resolves to %s, outside the case directory %s", *out,
                                    target, dir);
        free(*out);
        *out = NULL;
        return st;
    }
    return SN_OK;
}

/* Calls fn on every region of m with its kind, in the order a case reads
 * them: the uploads before round 0, the expected outputs after the last
 * round, then each host step's expected outputs and uploads. Stops at the
 * first status other than SN_OK and returns it. */
static sn_status each_region(const sn_manifest *m, sn_status (*fn)(const sn_manifest *, sn_region *,
                                                                  const char *kind, void *ctx, sn_error *e),
                             void *ctx, sn_error *e)
{
    sn_status st = SN_OK;
    for (size_t i = 0; st == SN_OK && i < m->upload_count; i++)
        st = fn(m, &m->uploads[i], "upload", ctx, e);
    for (size_t i = 0; st == SN_OK && i < m->expected_count; i++)
        st = fn(m, &m->expected[i], "expected output", ctx, e);
    for (size_t k = 0; st == SN_OK && m->host_steps != NULL && k < m->host_step_count; k++) {
        const sn_host_step *h = &m->host_steps[k];
        for (size_t i = 0; st == SN_OK && i < h->expected_count; i++)
            st = fn(m, &h->expected[i], "host step's expected output", ctx, e);
        for (size_t i = 0; st == SN_OK && i < h->upload_count; i++)
            st = fn(m, &h->uploads[i], "host step's upload", ctx, e);
    }
    return st;
}

static sn_status region_in_dram(const sn_manifest *m, sn_region *r, const char *kind, void *ctx, sn_error *e)
{
    uint64_t dram_bytes = *(const uint64_t *)ctx;
    if (r->addr >= dram_bytes || r->nbytes > dram_bytes - r->addr)
        return sn_error_set(e, SN_ERR_INPUT,
                            "%s: %s %s at 0x%llx (%llu bytes) passes the end of DRAM (%llu bytes, 0x%llx)", m->path,
                            kind, r->file, (unsigned long long)r->addr, (unsigned long long)r->nbytes,
                            (unsigned long long)dram_bytes, (unsigned long long)dram_bytes);
    return SN_OK;
}

sn_status sn_manifest_check_dram(const sn_manifest *m, uint64_t dram_bytes, sn_error *e)
{
    return each_region(m, region_in_dram, &dram_bytes, e);
}

typedef struct {
    char **paths;
    size_t n;
} path_list;

static sn_status add_region_path(const sn_manifest *m, sn_region *r, const char *kind, void *ctx, sn_error *e)
{
    (void)kind;
    path_list *l = ctx;
    if (r->file == NULL)
        return SN_OK; /* a region a failed load left half made */
    if ((l->paths[l->n] = join(m->dir, r->file)) == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
    l->n++;
    return SN_OK;
}

static sn_status count_region(const sn_manifest *m, sn_region *r, const char *kind, void *ctx, sn_error *e)
{
    (void)m, (void)r, (void)kind, (void)e;
    ++*(size_t *)ctx;
    return SN_OK;
}

sn_status sn_manifest_input_paths(const sn_manifest *m, char ***paths, size_t *n, sn_error *e)
{
    size_t total = 1 + m->artifact_count;
    *n = 0;
    *paths = NULL;
    if (m->path == NULL)
        return SN_OK; /* nothing loaded: no file named */
    each_region(m, count_region, &total, e);
    path_list l = {calloc(total, sizeof *l.paths), 0};
    if (l.paths == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
    *paths = l.paths;
    if ((l.paths[l.n] = strdup(m->path)) == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
    l.n++;
    sn_status st = SN_OK;
    for (size_t i = 0; st == SN_OK && m->artifacts != NULL && i < m->artifact_count; i++) {
        if (m->artifacts[i] == NULL)
            continue;
        if ((l.paths[l.n] = join(m->dir, m->artifacts[i])) == NULL)
            st = sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
        else
            l.n++;
    }
    if (st == SN_OK)
        st = each_region(m, add_region_path, &l, e);
    *n = l.n;
    return st;
}

/* SN_ERR_INPUT naming the file (as path, or m's dir and r's file) when r's
 * data does not have the manifest's "sha256" for it. */
static sn_status check_sha256(const sn_manifest *m, const sn_region *r, const char *path, sn_error *e)
{
    uint8_t got[SHA256_DIGEST_SIZE];
    struct sha256_ctx ctx;
    if (!r->has_sha256)
        return SN_OK;
    sha256_init(&ctx);
    sha256_update(&ctx, r->nbytes, r->data);
    sha256_digest(&ctx, sizeof got, got);
    if (memcmp(got, r->sha256, sizeof got) == 0)
        return SN_OK;
    char have[65], want[65];
    for (int i = 0; i < 32; i++) {
        sn_text_fit(have + 2 * i, 3, "%02x", got[i]);
        sn_text_fit(want + 2 * i, 3, "%02x", r->sha256[i]);
    }
    return sn_error_set(e, SN_ERR_INPUT, "%s%s%s: SHA-256 %s, but %s says %s", path ? path : m->dir, path ? "" : "/",
                        path ? "" : r->file, have, m->path, want);
}

static sn_status read_region(const sn_manifest *m, sn_region *r, sn_error *e)
{
    char *path;
    sn_status st = sn_manifest_file_path(m, r->file, &path, e);
    if (st != SN_OK)
        return st;
    /* The size first: a file of the wrong size is never read into memory. */
    struct stat sb;
    size_t len;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size != r->nbytes) {
        st = sn_error_set(e, SN_ERR_INPUT, "%s: %llu bytes, but %s says nbytes %llu", path,
                          (unsigned long long)sb.st_size, m->path, (unsigned long long)r->nbytes);
        free(path);
        return st;
    }
    st = sn_file_read(path, &r->data, &len, e);
    if (st == SN_OK && len != r->nbytes)
        st = sn_error_set(e, SN_ERR_INPUT, "%s: %zu bytes, but %s says nbytes %llu", path, len,
                          m->path, (unsigned long long)r->nbytes);
    if (st == SN_OK)
        st = check_sha256(m, r, path, e);
    if (st != SN_OK && r->data != NULL) {
        free(r->data);
        r->data = NULL;
    }
    free(path);
    return st;
}

/* The regions read so far, by file name (open addressing; size a power of two past twice the regions). */
typedef struct {
    sn_region **slot;
    size_t mask;
} region_index;

static size_t name_hash(const char *s)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

/* r's bytes: an earlier region's of the same file and size, else read (and remembered). */
static sn_status read_once(const sn_manifest *m, sn_region *r, const char *kind, void *ctx, sn_error *e)
{
    (void)kind;
    region_index *ix = ctx;
    size_t k = name_hash(r->file) & ix->mask;
    for (; ix->slot[k] != NULL; k = (k + 1) & ix->mask) {
        const sn_region *seen = ix->slot[k];
        if (strcmp(seen->file, r->file) == 0 && seen->nbytes == r->nbytes) {
            r->data = seen->data;
            r->shares_data = true;
            sn_status st = check_sha256(m, r, NULL, e);
            if (st != SN_OK) {
                r->data = NULL;
                r->shares_data = false;
            }
            return st;
        }
    }
    sn_status st = read_region(m, r, e);
    if (st == SN_OK)
        ix->slot[k] = r;
    return st;
}

sn_status sn_manifest_read_data(sn_manifest *m, sn_error *e)
{
    size_t n = 0, size = 1;
    each_region(m, count_region, &n, e);
    while (size < 2 * n + 2)
        size *= 2;
    region_index ix = {calloc(size, sizeof *ix.slot), size - 1};
    if (ix.slot == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
    sn_status st = each_region(m, read_once, &ix, e);
    free(ix.slot);
    return st;
}

static void free_regions(sn_region *r, size_t n)
{
    for (size_t i = 0; r != NULL && i < n; i++) {
        free(r[i].file);
        if (!r[i].shares_data)
            free(r[i].data);
    }
    free(r);
}

void sn_manifest_free(sn_manifest *m)
{
    free(m->dir);
    free(m->path);
    free(m->name);
    for (size_t i = 0; m->artifacts != NULL && i < m->artifact_count; i++)
        free(m->artifacts[i]);
    free(m->artifacts);
    free_regions(m->uploads, m->upload_count);
    free_regions(m->expected, m->expected_count);
    for (size_t i = 0; m->host_steps != NULL && i < m->host_step_count; i++) {
        free_regions(m->host_steps[i].expected, m->host_steps[i].expected_count);
        free_regions(m->host_steps[i].uploads, m->host_steps[i].upload_count);
    }
    free(m->host_steps);
    free(m->mg);
    free(m->vc);
    memset(m, 0, sizeof *m);
}
