/* Artifact parsing and validation (artifacts-facts §1.1-§1.2) and the
 * flattened program the table emitters read. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "artifact.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err_text.h"
#include "json.h"
#include "manifest.h"
#include "manifest_mesh.h"
#include "messages.h"
#include "table_check.h"
#include "table_layout.h"
#include "sysnode/regs.h"
#include "u256.h"

/* Coordinates are 4-bit fields of the flit header (sysnode-facts §3.1): the
 * width of the field, not a table rule. */
#define COORD_MAX ((1u << SN_COORD_BITS) - 1)

/* ---- flat arrays being filled ---- */

/* The steps and payloads of one round or of a whole program, appended to
 * in place: a program's rounds are parsed straight into its table-layout
 * arrays, grown by doubling, with no per-round arrays to copy. */
typedef struct {
    sn_table_row *payloads;
    size_t payload_count, payload_cap, masked_count;
    sn_table_step *steps;
    size_t step_count, step_cap;
} flat;

/* Makes room for at least `need` elements of `size` bytes in *arr (*cap
 * elements now): doubles from 64, or takes `need` exactly when it is
 * larger. False when memory runs out. */
static bool reserve(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t grown = *cap < 32 ? 64 : *cap * 2;
    if (grown < need)
        grown = need;
    if (grown > SIZE_MAX / size)
        return false;
    void *a = realloc(*arr, grown * size);
    if (a == NULL)
        return false;
    *arr = a;
    *cap = grown;
    return true;
}

/* ---- flits ---- */

static sn_status parse_flits(flat *f, const sn_json *d, int arr, sn_error *e)
{
    size_t i = 0;
    /* From the count, before a payload is allocated: 32 bytes each in memory, as many as in the table */
    if ((uint64_t)sn_json_count(d, arr) > SN_DRAM_DEFAULT_SIZE / sizeof(sn_table_row))
        return sn_json_fail(d, arr, SN_ERR_INPUT, e, "\"flits\" holds %zu payloads: as table rows (32 bytes each) "
                            "more than DRAM (%llu bytes)", (size_t)sn_json_count(d, arr),
                            (unsigned long long)SN_DRAM_DEFAULT_SIZE);
    for (int v = sn_json_first(d, arr); v >= 0; v = sn_json_next(d, v), i++) {
        if (sn_json_kind_of(d, v) != SN_JSON_NUMBER) { /* the label is made only for a message */
            char what[32];
            sn_text_fit(what, sizeof what, "flit %zu", i);
            return sn_json_expect(d, v, SN_JSON_NUMBER, what, e);
        }
        size_t len;
        const char *text = sn_json_raw(d, v, &len);
        sn_payload p;
        bool masked;
        sn_error why;
        if (sn_u256_parse(text, len, &p, &masked, &why) != SN_OK)
            return sn_json_fail(d, v, SN_ERR_INPUT, e, "flit %zu: %s", i, why.msg);
        if (f->payload_count == f->payload_cap &&
            !reserve((void **)&f->payloads, &f->payload_cap, f->payload_count + 1, sizeof *f->payloads))
            return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", sn_json_name(d));
        f->payloads[f->payload_count++] = sn_table_payload_row(&p);
        f->masked_count += masked;
    }
    return SN_OK;
}

/* ---- steps ---- */

/* One step's tag, arity and field names (artifacts-facts §1.1). */
typedef struct {
    const char *tag;
    uint8_t op;
    size_t nfields;
    const char *fields[4];
} step_shape;

static const step_shape SHAPES[] = {
    {"seed", SN_STEP_SEED, 1, {"n"}},
    {"kick", SN_STEP_KICK, 4, {"x", "y", "base", "n"}},
    {"await", SN_STEP_AWAIT, 3, {"x", "y", "count"}},
    {"barrier", SN_STEP_BARRIER, 0, {0}},
};

/* Parses step `idx` (JSON value v) into *s. */
static sn_status parse_step(const sn_json *d, int v, size_t idx,
                            sn_table_step *s, sn_error *e)
{
    size_t count = sn_json_kind_of(d, v) == SN_JSON_ARRAY ? sn_json_count(d, v) : 0;
    if (count == 0 || sn_json_kind_of(d, sn_json_first(d, v)) != SN_JSON_STRING)
        return sn_json_fail(d, v, SN_ERR_TABLE_STEP, e,
                            "step %zu must be an array starting with a tag string", idx);
    int tag = sn_json_first(d, v);
    const step_shape *shape = NULL;
    for (size_t k = 0; k < sizeof SHAPES / sizeof SHAPES[0] && shape == NULL; k++)
        if (sn_json_string_is(d, tag, SHAPES[k].tag))
            shape = &SHAPES[k];
    if (shape == NULL) {
        size_t len;
        const char *t = sn_json_raw(d, tag, &len);
        return sn_json_fail(d, tag, SN_ERR_TABLE_STEP, e,
                            "step %zu: unknown tag \"%.*s\" (seed, kick, await, barrier)", idx,
                            (int)(len > 40 ? 40 : len), t);
    }
    if (count != shape->nfields + 1)
        return sn_json_fail(d, v, SN_ERR_TABLE_STEP, e, "step %zu: %s takes %zu fields, found %zu",
                            idx, shape->tag, shape->nfields, count - 1);
    /* Only what the step record can hold is checked here: the table rules
     * are sn_table_check's alone (pack.h), so host and firmware judge alike. */
    uint64_t val[4] = {0};
    int f = sn_json_next(d, tag);
    bool has_node = shape->op == SN_STEP_KICK || shape->op == SN_STEP_AWAIT;
    for (size_t k = 0; k < shape->nfields; k++, f = sn_json_next(d, f)) {
        bool coord = has_node && k < 2;
        if (sn_json_u64(d, f, 0, UINT32_MAX, "", &val[k], NULL) != SN_OK || (coord && val[k] > COORD_MAX)) {
            /* again with the field's label, made only for the message */
            char what[64];
            sn_text_fit(what, sizeof what, "step %zu (%s) field %s", idx, shape->tag, shape->fields[k]);
            if (coord && sn_json_u64(d, f, 0, UINT32_MAX, what, &val[k], NULL) == SN_OK)
                return sn_json_fail(d, f, SN_ERR_TABLE_NODE, e, "%s: coordinate %llu outside 0..%u (4-bit x and y)",
                                    what, (unsigned long long)val[k], COORD_MAX);
            sn_json_u64(d, f, 0, UINT32_MAX, what, &val[k], e);
            if (e != NULL)
                e->code = SN_ERR_TABLE_STEP; /* a bad step field (status.h) */
            return SN_ERR_TABLE_STEP;
        }
    }
    /* Checked above: coordinates fit 4 bits and counts 32 bits. */
    *s = (sn_table_step){.op = shape->op};
    if (has_node) {
        s->x = (uint8_t)val[0];
        s->y = (uint8_t)val[1];
    }
    if (shape->op == SN_STEP_SEED)
        s->seed.n = (uint32_t)val[0];
    else if (shape->op == SN_STEP_KICK) {
        s->kick.first_slot = (uint32_t)val[2];
        s->kick.flits = (uint32_t)val[3];
    } else if (shape->op == SN_STEP_AWAIT)
        s->await.completions = (uint32_t)val[2];
    return SN_OK;
}

static sn_status parse_steps(flat *f, const sn_json *d, int arr, sn_error *e)
{
    size_t i = 0;
    if ((uint64_t)sn_json_count(d, arr) > SN_DRAM_DEFAULT_SIZE / sizeof(sn_table_step)) /* as parse_flits */
        return sn_json_fail(d, arr, SN_ERR_INPUT, e, "\"steps\" holds %zu steps: as table records (12 bytes "
                            "each) more than DRAM (%llu bytes)", (size_t)sn_json_count(d, arr),
                            (unsigned long long)SN_DRAM_DEFAULT_SIZE);
    for (int v = sn_json_first(d, arr); v >= 0; v = sn_json_next(d, v), i++) {
        if (f->step_count == f->step_cap &&
            !reserve((void **)&f->steps, &f->step_cap, f->step_count + 1, sizeof *f->steps))
            return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", sn_json_name(d));
        sn_status st = parse_step(d, v, i, &f->steps[f->step_count], e);
        if (st != SN_OK)
            return st;
        f->step_count++;
    }
    return SN_OK;
}

/* ---- one round ---- */

/* Parses artifact d, appending its steps and payloads to f. */
static sn_status parse_round(flat *f, const sn_json *d, sn_error *e)
{
    int root = sn_json_root(d);
    sn_status st = sn_json_expect(d, root, SN_JSON_OBJECT, "an artifact", e);
    for (int k = st == SN_OK ? sn_json_first(d, root) : -1; k >= 0; k = sn_json_next(d, k)) {
        if (!sn_json_string_is(d, k, "machine") && !sn_json_string_is(d, k, "flits") &&
            !sn_json_string_is(d, k, "steps") && !sn_json_string_is(d, k, "meta")) {
            size_t len;
            const char *t = sn_json_raw(d, k, &len);
            return sn_json_fail(d, k, SN_ERR_INPUT, e,
                                "unknown member \"%.*s\" (an artifact has machine, flits, steps, meta)",
                                (int)(len > 40 ? 40 : len), t);
        }
    }
    int flits = -1, steps = -1, machine = -1, meta = -1;
    if (st == SN_OK)
        st = sn_json_member(d, root, "flits", true, &flits, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "steps", true, &steps, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "machine", false, &machine, e);
    if (st == SN_OK)
        st = sn_json_member(d, root, "meta", false, &meta, e);
    if (st == SN_OK && machine >= 0)
        st = sn_json_expect(d, machine, SN_JSON_STRING, "\"machine\"", e);
    if (st == SN_OK && meta >= 0)
        st = sn_json_expect(d, meta, SN_JSON_OBJECT, "\"meta\"", e);
    if (st == SN_OK)
        st = sn_json_expect(d, flits, SN_JSON_ARRAY, "\"flits\"", e);
    if (st == SN_OK)
        st = sn_json_expect(d, steps, SN_JSON_ARRAY, "\"steps\"", e);
    if (st == SN_OK)
        st = parse_flits(f, d, flits, e);
    if (st == SN_OK)
        st = parse_steps(f, d, steps, e);
    return st;
}

sn_status sn_round_load(sn_round *r, const char *path, sn_error *e)
{
    memset(r, 0, sizeof *r);
    sn_json *d;
    flat f = {0};
    sn_status st = sn_json_load(path, &d, e);
    if (st == SN_OK)
        st = parse_round(&f, d, e);
    sn_json_free(d);
    /* never NULL, also for a round without flits or steps */
    if (st == SN_OK && (!reserve((void **)&f.payloads, &f.payload_cap, 1, sizeof *f.payloads) ||
                        !reserve((void **)&f.steps, &f.step_cap, 1, sizeof *f.steps)))
        st = sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
    *r = (sn_round){f.payloads, f.payload_count, f.masked_count, f.steps, f.step_count};
    return st;
}

void sn_round_free(sn_round *r)
{
    free(r->payloads);
    free(r->steps);
    memset(r, 0, sizeof *r);
}

/* ---- program ---- */

/* Appends round r (loaded from `file`) as round p->round_count; the
 * per-round arrays were sized by sn_program_load, the flat ones grow here. */
static sn_status append_round(sn_program *p, const sn_round *r, const char *file, sn_error *e)
{
    if (p->step_count + r->step_count > UINT32_MAX ||
        p->payload_count + r->payload_count > UINT32_MAX)
        return sn_error_set(e, SN_ERR_INPUT, "%s: the program passes 2^32 steps or payloads", file);
    /* +1: never realloc to 0 bytes. */
    sn_table_step *steps = realloc(p->steps, (p->step_count + r->step_count + 1) * sizeof *steps);
    if (steps == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", file);
    p->steps = steps;
    sn_table_row *pay =
        realloc(p->payloads, (p->payload_count + r->payload_count + 1) * sizeof *pay);
    if (pay == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", file);
    p->payloads = pay;
    size_t i = p->round_count;
    p->files[i] = strdup(file);
    if (p->files[i] == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", file);
    p->rounds[i] = (sn_table_round){
        .step_first = (uint32_t)p->step_count,
        .step_count = (uint32_t)r->step_count,
        .payload_first = (uint32_t)p->payload_count,
        .payload_count = (uint32_t)r->payload_count,
    };
    memcpy(p->steps + p->step_count, r->steps, r->step_count * sizeof *r->steps);
    memcpy(p->payloads + p->payload_count, r->payloads, r->payload_count * sizeof *r->payloads);
    p->step_count += r->step_count;
    p->payload_count += r->payload_count;
    p->masked[i] = r->masked_count;
    p->masked_total += r->masked_count;
    p->round_count++;
    return SN_OK;
}

/* Sizes p's per-round arrays for n rounds. */
static sn_status program_alloc(sn_program *p, size_t n, sn_error *e)
{
    memset(p, 0, sizeof *p);
    if (n == 0)
        return sn_error_set(e, SN_ERR_INPUT, "a program needs at least one artifact");
    if (n > UINT32_MAX)
        return sn_error_set(e, SN_ERR_INPUT, "%zu artifacts: more rounds than a table holds", n);
    p->files = calloc(n, sizeof *p->files);
    p->masked = calloc(n, sizeof *p->masked);
    p->rounds = calloc(n, sizeof *p->rounds);
    if (p->files == NULL || p->masked == NULL || p->rounds == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %zu rounds", n);
    return SN_OK;
}

/* Parses document d (st: the status that gave it) as round p->round_count,
 * its steps and payloads appended to f, which holds p's flat arrays (p owns
 * them from here on, also after a failure). Takes `file` (heap) as the
 * round's file. */
static sn_status parse_into(sn_program *p, flat *f, sn_status st, const sn_json *d, char *file, sn_error *e)
{
    size_t steps = f->step_count, payloads = f->payload_count, masked = f->masked_count;
    if (st == SN_OK)
        st = parse_round(f, d, e);
    p->steps = f->steps;
    p->payloads = f->payloads;
    if (st == SN_OK && (f->step_count > UINT32_MAX || f->payload_count > UINT32_MAX))
        st = sn_error_set(e, SN_ERR_INPUT, "%s: the program passes 2^32 steps or payloads", file);
    if (st != SN_OK) {
        free(file);
        return st;
    }
    size_t i = p->round_count++;
    p->files[i] = file;
    p->rounds[i] = (sn_table_round){
        .step_first = (uint32_t)steps,
        .step_count = (uint32_t)(f->step_count - steps),
        .payload_first = (uint32_t)payloads,
        .payload_count = (uint32_t)(f->payload_count - payloads),
    };
    p->step_count = f->step_count;
    p->payload_count = f->payload_count;
    p->masked[i] = f->masked_count - masked;
    p->masked_total = f->masked_count;
    return SN_OK;
}

/* Gives back what doubling left unused in p's flat arrays (f's capacity
 * past the counts); an array already full is left where it is. False when
 * memory runs out for an empty one (never NULL, as the copies expect). */
static bool program_fit(sn_program *p, flat *f)
{
    if ((p->steps == NULL && !reserve((void **)&f->steps, &f->step_cap, 1, sizeof *f->steps)) ||
        (p->payloads == NULL && !reserve((void **)&f->payloads, &f->payload_cap, 1, sizeof *f->payloads)))
        return false;
    p->steps = f->steps;
    p->payloads = f->payloads;
    if (f->step_cap > p->step_count && p->step_count > 0) {
        sn_table_step *steps = realloc(p->steps, p->step_count * sizeof *steps);
        if (steps != NULL)
            p->steps = steps;
    }
    if (f->payload_cap > p->payload_count && p->payload_count > 0) {
        sn_table_row *payloads = realloc(p->payloads, p->payload_count * sizeof *payloads);
        if (payloads != NULL)
            p->payloads = payloads;
    }
    return true;
}

sn_status sn_program_check(const sn_program *p, const sn_mesh *mesh, sn_error *e)
{
    uint32_t kicked[SN_NODE_COUNT] = {0}, awaited[SN_NODE_COUNT] = {0};
    sn_table t = sn_program_table(p);
    sn_table_fault fault;
    sn_mesh_map map = {0};
    sn_mesh_map_init(&map, mesh);
    sn_status st = sn_table_check(&t, &map, kicked, awaited, &fault);
    if (st != SN_OK) {
        char words[256];
        sn_table_fault_describe(&fault, words, sizeof words);
        return sn_error_set(e, st, "%s: %s", p->files[fault.round], words);
    }
    return SN_OK;
}

/* The table rules (sn_program_check) on a program just loaded, against m's
 * mesh (rv64_mesh_2p2 without m or without a "mesh"): no program leaves a
 * loader unjudged, so nothing that reads a kick's rows (the settle proof,
 * the peer check, the FILL conversion, --table's replay) meets a kick
 * outside its round. */
static sn_status judge(const sn_program *p, const sn_manifest *m, sn_error *e)
{
    static const sn_mesh default_mesh = SN_MESH_2P2_INIT;
    sn_status st = m ? sn_mesh_check_manifest(m, e) : SN_OK;
    sn_mesh mesh = m ? sn_mesh_from_manifest(m) : default_mesh;
    return st == SN_OK ? sn_program_check(p, &mesh, e) : st;
}

/* The rounds of n artifacts named names[i], document i parsed by
 * doc(ctx, i, &d, e): from memory or from a file. */
typedef sn_status (*doc_fn)(const void *ctx, size_t i, sn_json **d, sn_error *e);

static sn_status load_rounds(sn_program *p, const char *const *names, size_t n, doc_fn doc, const void *ctx,
                             sn_error *e)
{
    sn_status st = program_alloc(p, n, e);
    flat f = {0};
    for (size_t i = 0; st == SN_OK && i < n; i++) {
        sn_json *d = NULL;
        char *file = strdup(names[i]);
        if (file == NULL)
            return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", names[i]);
        st = doc(ctx, i, &d, e);
        st = parse_into(p, &f, st, d, file, e);
        sn_json_free(d);
    }
    if (st == SN_OK && !program_fit(p, &f))
        st = sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    if (st == SN_OK)
        st = judge(p, NULL, e);
    return st;
}

typedef struct {
    const char *const *names, *const *texts;
    const size_t *lens;
} texts_ctx;

static sn_status text_doc(const void *ctx, size_t i, sn_json **d, sn_error *e)
{
    const texts_ctx *t = ctx;
    return sn_json_parse(t->names[i], t->texts[i], t->lens[i], d, e);
}

static sn_status file_doc(const void *ctx, size_t i, sn_json **d, sn_error *e)
{
    return sn_json_load(((const char *const *)ctx)[i], d, e);
}

sn_status sn_program_load_texts(sn_program *p, const char *const *names, const char *const *texts,
                                const size_t *lens, size_t n, sn_error *e)
{
    const texts_ctx t = {names, texts, lens};
    return load_rounds(p, names, n, text_doc, &t, e);
}

sn_status sn_program_slice(const sn_program *p, size_t first, size_t count, sn_program *out, sn_error *e)
{
    if (first > p->round_count || count > p->round_count - first)
        return sn_error_set(e, SN_ERR_INTERNAL, "rounds %zu..+%zu of a %zu-round program", first, count,
                            p->round_count);
    sn_status st = program_alloc(out, count, e);
    for (size_t i = first; st == SN_OK && i < first + count; i++) {
        const sn_table_round *tr = &p->rounds[i];
        sn_round view = {p->payloads + tr->payload_first, tr->payload_count, p->masked[i], p->steps + tr->step_first,
                         tr->step_count};
        st = append_round(out, &view, p->files[i], e);
    }
    return st;
}

sn_status sn_program_load(sn_program *p, const char *const *files, size_t nfiles, sn_error *e)
{
    return load_rounds(p, files, nfiles, file_doc, files, e);
}

sn_status sn_program_with_host_syncs(const sn_program *p, const uint8_t *sync_after, sn_program *out, sn_error *e)
{
    sn_status st = program_alloc(out, p->round_count, e);
    for (size_t i = 0; st == SN_OK && i < p->round_count; i++) {
        const sn_table_round *tr = &p->rounds[i];
        sn_table_step *steps = malloc((tr->step_count + 1) * sizeof *steps);
        if (!steps)
            return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
        memcpy(steps, p->steps + tr->step_first, tr->step_count * sizeof *steps);
        steps[tr->step_count] = (sn_table_step){.op = SN_STEP_HOST_SYNC};
        sn_round view = {p->payloads + tr->payload_first, tr->payload_count, p->masked[i], steps,
                         tr->step_count + (sync_after[i] ? 1 : 0)};
        st = append_round(out, &view, p->files[i], e);
        free(steps);
    }
    return st;
}

/* Ends every round a host step of m follows with a host sync step (FORMAT.md §9). */
static sn_status add_host_syncs(sn_program *p, const sn_manifest *m, sn_error *e)
{
    uint8_t *flags = calloc(p->round_count, 1);
    if (!flags)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", m->path);
    for (size_t k = 0; k < m->host_step_count; k++)
        flags[m->host_steps[k].after_round] = 1;
    sn_program synced;
    sn_status st = sn_program_with_host_syncs(p, flags, &synced, e);
    free(flags);
    sn_program_free(p);
    *p = synced;
    return st;
}

/* Compares one of the manifest's declared totals with the loaded program. */
static sn_status check_declared(const sn_manifest *m, const char *key, int64_t declared,
                                size_t loaded, sn_error *e)
{
    if (declared < 0 || (uint64_t)declared == loaded)
        return SN_OK;
    return sn_error_set(e, SN_ERR_INPUT, "%s: \"%s\" is %lld but the artifacts hold %zu",
                        m->path, key, (long long)declared, loaded);
}

/* The artifacts of m, opened relative to its directory dir_fd (held open:
 * no path walked or resolved per file, sn_manifest_open_file), and the
 * manifest's declared totals checked. */
static sn_status load_artifacts(sn_program *p, const sn_manifest *m, int dir_fd, sn_error *e)
{
    sn_status st = program_alloc(p, m->artifact_count, e);
    flat f = {0};
    /* The declared total sizes the payloads once (at most a full staging
     * window per round: past that the table check refuses anyway); what is
     * loaded is still counted and compared with it below. */
    if (st == SN_OK && m->declared_flits > 0) {
        size_t want = m->declared_flits < (int64_t)(SN_STAGE_SLOTS * m->artifact_count)
                          ? (size_t)m->declared_flits
                          : SN_STAGE_SLOTS * m->artifact_count;
        if (!reserve((void **)&f.payloads, &f.payload_cap, want, sizeof *f.payloads))
            st = sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory for %zu flits", m->path, want);
        p->payloads = f.payloads;
    }
    /* One document for every artifact: its text and token buffers are
     * read into again, grown to the largest file. */
    sn_json *d = NULL;
    for (size_t i = 0; st == SN_OK && i < m->artifact_count; i++) {
        char *path;
        int fd;
        st = sn_manifest_open_file(m, dir_fd, m->artifacts[i], &path, &fd, e);
        if (st == SN_OK) {
            st = sn_json_reload_fd(fd, path, &d, e);
            st = parse_into(p, &f, st, d, path, e);
        }
        /* The rounds still to come add at least a record and a step each: stop once the table cannot fit. */
        uint64_t least =
            sn_table_layout_of(m->artifact_count, p->step_count + (m->artifact_count - i - 1), p->payload_count).total;
        if (st == SN_OK && least > SN_DRAM_DEFAULT_SIZE)
            st = sn_error_set(e, SN_ERR_INPUT, "%s: the table of its %zu rounds takes at least %llu bytes (rounds 0..%zu "
                              "as loaded, a record and a step for each later one), more than DRAM (%llu bytes)",
                              m->path, m->artifact_count, (unsigned long long)least, i,
                              (unsigned long long)SN_DRAM_DEFAULT_SIZE);
    }
    sn_json_free(d);
    if (st == SN_OK && !program_fit(p, &f))
        st = sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    if (st == SN_OK)
        st = check_declared(m, "rounds", m->declared_rounds, p->round_count, e);
    if (st == SN_OK)
        st = check_declared(m, "total_flits", m->declared_flits, p->payload_count, e);
    if (st == SN_OK)
        st = check_declared(m, "flits_wider_than_256_bits", m->declared_wide_flits,
                            p->masked_total, e);
    if (st == SN_OK && m->host_step_count > 0)
        st = add_host_syncs(p, m, e);
    if (st == SN_OK)
        st = judge(p, m, e);
    return st;
}

sn_status sn_program_load_case(sn_program *p, const char *case_dir, sn_error *e)
{
    memset(p, 0, sizeof *p);
    sn_manifest m;
    memset(&m, 0, sizeof m);
    /* the directory opened once for the manifest and every artifact */
    int dir_fd = sn_manifest_open_dir(case_dir, e);
    sn_status st = dir_fd < 0 ? SN_ERR_IO : sn_manifest_load_at(&m, case_dir, dir_fd, e);
    if (st == SN_OK)
        st = load_artifacts(p, &m, dir_fd, e);
    if (dir_fd >= 0)
        close(dir_fd);
    sn_manifest_free(&m);
    return st;
}

sn_status sn_program_load_manifest(sn_program *p, const sn_manifest *m, sn_error *e)
{
    memset(p, 0, sizeof *p);
    int dir_fd = open(m->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0)
        return sn_error_set(e, SN_ERR_IO, "%s: cannot open the case directory: %s", m->dir, strerror(errno));
    sn_status st = load_artifacts(p, m, dir_fd, e);
    close(dir_fd);
    return st;
}

void sn_program_free(sn_program *p)
{
    for (size_t i = 0; p->files != NULL && i < p->round_count; i++)
        free(p->files[i]); /* files past round_count were never set */
    free(p->files);
    free(p->masked);
    free(p->rounds);
    free(p->steps);
    free(p->payloads);
    memset(p, 0, sizeof *p);
}

sn_table sn_program_table(const sn_program *p)
{
    return (sn_table){
        .rounds = p->rounds,
        .steps = p->steps,
        .payloads = p->payloads,
        .round_count = (uint32_t)p->round_count,
        .step_count = (uint32_t)p->step_count,
        .payload_count = (uint32_t)p->payload_count,
    };
}
