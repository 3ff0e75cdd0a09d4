/* libsysnode over the host library's device session and replay (see
 * sysnode.h): one implementation for the CLI and the library. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "sysnode.h"

#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "file_read.h"
#include "device.h"
#include "device_open.h"
#include "err_text.h"
#include "options.h"
#include "payload_op.h"
#include "sysnode/mesh.h"
#include "sysnode/regs.h"
#include "image_path.h"
#include "replay.h"
#include "transport_sim.h"
#include "transport.h"


struct sysnode_device {
    sn_transport t;
    sn_device dev;
    sn_error err;
    sysnode_result last;
    char **warnings; /* of the last execute or run_case */
    uint32_t warning_count;
    uint32_t warnings_lost; /* ... that could not be kept for want of memory */
    char lost[96];          /* says how many */
};

static void forget_warnings(sysnode_device *d)
{
    for (uint32_t i = 0; i < d->warning_count; i++)
        free(d->warnings[i]);
    free(d->warnings);
    d->warnings = NULL;
    d->warning_count = d->warnings_lost = 0;
}

/* sn_device_warn_fn: kept for sysnode_warning; one that cannot be kept
 * for want of memory is counted. */
static void keep_warning(void *ctx, const char *msg)
{
    sysnode_device *d = ctx;
    char **grown = realloc(d->warnings, (d->warning_count + 1) * sizeof *grown);
    if (grown)
        d->warnings = grown;
    char *copy = grown ? strdup(msg) : NULL;
    if (copy)
        d->warnings[d->warning_count++] = copy;
    else
        sn_text_fit(d->lost, sizeof d->lost, "%u more warnings were lost: out of memory", ++d->warnings_lost);
}

int32_t sysnode_api_version(void)
{
    return SYSNODE_API_VERSION;
}

const char *sysnode_version(void)
{
    return SYSNODE_VERSION;
}

/* The image opts names, else $SYSNODE_IMAGE, else runner.elf beside this
 * library (image_path.h) into buf; NULL with e set when there is none. */
static const char *image_path(const sysnode_options *o, char *buf, size_t n, sn_error *e)
{
    if (o && o->image)
        return o->image;
    const char *env = getenv("SYSNODE_IMAGE");
    if (env && *env)
        return env;
    return sn_image_beside_library("runner.elf", buf, n, e) == SN_OK ? buf : NULL;
}

/* Zeroes t's DRAM a MiB at a time (sysnode_open on a device). */
static sn_status zero_dram(sn_transport *t, sn_error *e)
{
    enum { CHUNK = 1 << 20 };
    uint8_t *zeros = calloc(1, CHUNK);
    if (!zeros)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    uint64_t size = t->ops->dram_size(t->ctx);
    sn_status st = SN_OK;
    for (uint64_t at = 0; st == SN_OK && at < size; at += CHUNK)
        st = t->ops->dram_write(t->ctx, at, zeros, size - at < CHUNK ? size - at : CHUNK, e);
    free(zeros);
    return st;
}

int32_t sysnode_open(const sysnode_options *opts, sysnode_device **out, char *err, size_t errlen)
{
    sn_error e = {0};
    sn_status st = SN_OK;
    *out = NULL;
    unsigned cu = opts ? opts->cu_version : 0;
    if (opts && opts->mesh && strcmp(opts->mesh, "rv64_mesh_2p2") != 0)
        st = sn_error_set(&e, SN_ERR_INPUT, "mesh \"%s\": this SysNode simulates rv64_mesh_2p2 only", opts->mesh);
    else if (cu != 0 && cu != 4 && cu != 5)
        st = sn_error_set(&e, SN_ERR_INPUT, "cu_version %u: a unit generation is 4 or 5", cu);
    sysnode_device *d = st == SN_OK ? calloc(1, sizeof *d) : NULL;
    if (st == SN_OK && !d)
        st = sn_error_set(&e, SN_ERR_INTERNAL, "out of memory");
    sn_sim_transport_opts sim_opts = {cu, 0, NULL, NULL, 0};
    const char *device = opts ? opts->device : NULL;
    if (st == SN_OK && device && !sn_device_spec_valid(device))
        st = sn_error_set(&e, SN_ERR_INPUT, "device \"%s\": not a device (want sim or xdma:/dev/xdmaN)", device);
    if (st == SN_OK)
        st = device ? sn_transport_open_device(&d->t, device, cu, &e) : sn_transport_sim_open(&d->t, &sim_opts, &e);
    uint64_t cap = opts && opts->max_cycles ? opts->max_cycles : sn_options[SN_OPT_MAX_CYCLES].def; /* as `sysnode run` */
    char image[PATH_MAX];
    const char *path = st == SN_OK ? image_path(opts, image, sizeof image, &e) : NULL;
    if (st == SN_OK && !path)
        st = e.code ? e.code : SN_ERR_IO;
    if (st == SN_OK)
        st = sn_device_init(&d->dev, &d->t, path, cap, &e);
    if (st == SN_OK && device) /* the first write to a card, once every input is known good */
        st = zero_dram(&d->t, &e);
    if (st != SN_OK) {
        sysnode_close(d);
        if (err && errlen)
            sn_text_fit(err, errlen, "%s", e.msg);
        return st;
    }
    d->dev.strict = opts && opts->strict;
    d->dev.warn = keep_warning;
    d->dev.warn_ctx = d;
    *out = d;
    return SN_OK;
}

void sysnode_close(sysnode_device *d)
{
    if (!d)
        return;
    sn_device_free(&d->dev);
    sn_transport_close(&d->t);
    forget_warnings(d);
    free(d);
}

/* Records st (and its message, or none on success) as the call's outcome. */
static int32_t done(sysnode_device *d, sn_status st)
{
    if (st == SN_OK)
        d->err = (sn_error){0};
    return st;
}

int32_t sysnode_write(sysnode_device *d, uint64_t addr, const void *src, uint64_t n)
{
    return done(d, sn_device_write(&d->dev, addr, src, n, &d->err));
}

int32_t sysnode_read(sysnode_device *d, uint64_t addr, void *dst, uint64_t n)
{
    return done(d, sn_device_read(&d->dev, addr, dst, n, &d->err));
}

_Static_assert(sizeof(((sysnode_unit *)0)->payloads) == sizeof(((sn_device *)0)->ops[0]),
               "a unit's payload counts are the session's, one per operation");

void sysnode_mesh_get(const sysnode_device *d, sysnode_mesh *out)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    memset(out, 0, sizeof *out);
    out->agent_x = SN_SYSNODE_X;
    out->agent_y = SN_SYSNODE_Y;
    for (unsigned i = 0; i < mesh.unit_count && i < sizeof out->units / sizeof out->units[0]; i++) {
        sysnode_unit *u = &out->units[out->unit_count++];
        u->x = mesh.units[i].x;
        u->y = mesh.units[i].y;
        u->cu_type = mesh.units[i].cu_type;
        u->inst_depth = SN_INST_DEPTH_DEFAULT;
        if (d)
            memcpy(u->payloads, d->dev.ops[SN_NODE_ID(u->x, u->y)], sizeof u->payloads);
        if (d)
            u->saturated = sn_transport_sim_saturated(&d->t, u->x, u->y);
    }
}

const char *sysnode_payload_op_name(uint16_t cu_type, uint32_t op)
{
    return sn_payload_op_name(cu_type, op);
}

uint64_t sysnode_dram_size(const sysnode_device *d)
{
    return d->dev.dram_bytes;
}

int32_t sysnode_discard(sysnode_device *d, uint64_t addr, uint64_t n)
{
    return done(d, sn_device_discard(&d->dev, addr, n, &d->err));
}

uint32_t sysnode_warning_count(const sysnode_device *d)
{
    return d->warning_count + (d->warnings_lost != 0);
}

const char *sysnode_warning(const sysnode_device *d, uint32_t i)
{
    if (i < d->warning_count)
        return d->warnings[i];
    return i == d->warning_count && d->warnings_lost ? d->lost : NULL;
}

int32_t sysnode_file_read(const char *path, uint8_t **data, uint64_t *len, char *err, size_t errlen)
{
    sn_error e = {0};
    size_t n = 0;
    *data = NULL;
    *len = 0;
    sn_status st = sn_file_read(path, data, &n, &e);
    *len = n;
    if (st != SN_OK && err && errlen)
        sn_text_fit(err, errlen, "%s", e.msg);
    return st;
}

void sysnode_free(void *p)
{
    free(p);
}

static void keep_result(sysnode_device *d, sn_status st, const sn_replay_result *r)
{
    sysnode_result *o = &d->last;
    memset(o, 0, sizeof *o);
    o->status = st;
    o->match = r->match;
    o->rounds = r->rounds;
    o->flits = r->flits;
    o->completions = r->completions;
    o->diff_round = r->diff_round;
    o->cycles = r->cycles;
    o->output_bytes = r->output_bytes;
    o->diff_offset = r->diff_offset;
    o->diff_addr = r->diff_addr;
    o->got = r->got;
    o->want = r->want;
    sn_text_fit(o->diff_file, sizeof o->diff_file, "%s", r->diff_file);
}

/* Loads texts[0..count) as rounds 0..count-1 of *p, labelled name or name[i]. */
static sn_status load_texts(const char *const *texts, const size_t *lens, size_t count, const char *name,
                            sn_program *p, sn_error *e)
{
    memset(p, 0, sizeof *p);
    if (count == 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s: no artifact to execute", name);
    char **labels = calloc(count, sizeof *labels);
    sn_status st = labels ? SN_OK : sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; st == SN_OK && i < count; i++) {
        size_t n = strlen(name) + 24;
        labels[i] = malloc(n);
        if (!labels[i])
            st = sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
        else if (count == 1)
            sn_text_fit(labels[i], n, "%s", name);
        else
            sn_text_fit(labels[i], n, "%s[%zu]", name, i);
    }
    if (st == SN_OK)
        st = sn_program_load_texts(p, (const char *const *)labels, texts, lens, count, e);
    for (size_t i = 0; labels && i < count; i++)
        free(labels[i]);
    free(labels);
    return st;
}

int32_t sysnode_execute(sysnode_device *d, const char *const *texts, const size_t *lens, size_t count,
                        const char *name)
{
    sn_program p;
    sn_replay_result r;
    memset(&r, 0, sizeof r);
    r.diff_round = -1;
    d->err = (sn_error){0};
    forget_warnings(d);
    sn_status st = load_texts(texts, lens, count, name ? name : "artifact", &p, &d->err);
    if (st == SN_OK)
        st = sn_device_run(&d->dev, &p, &r, &d->err);
    r.match = st == SN_OK;
    r.rounds = (uint32_t)count;
    keep_result(d, st, &r);
    sn_program_free(&p);
    return done(d, st);
}

int32_t sysnode_run_case(sysnode_device *d, const char *case_dir, int32_t digest)
{
    sn_replay_opts opts = {case_dir, d->dev.image_path, d->dev.max_cycles, digest != 0, NULL,
                           d->dev.strict,      keep_warning,        d, 0};
    sn_replay_result r;
    d->err = (sn_error){0};
    forget_warnings(d);
    sn_status st = sn_replay_case(&opts, &d->t, &r, &d->err);
    sn_device_forget(&d->dev); /* the case booted its own runner and wrote DRAM over the session's bytes */
    keep_result(d, st, &r);
    return done(d, st);
}

const char *sysnode_last_error(const sysnode_device *d)
{
    return d->err.msg;
}

void sysnode_last_result(const sysnode_device *d, sysnode_result *out)
{
    *out = d->last;
}

const char *sysnode_status_name(int32_t status)
{
    switch (status) {
#define NAME(s) \
    case s:     \
        return #s;
        NAME(SN_OK)
        NAME(SN_ERR_INPUT)
        NAME(SN_ERR_TABLE_STEP)
        NAME(SN_ERR_TABLE_SLOT)
        NAME(SN_ERR_TABLE_NODE)
        NAME(SN_ERR_IO)
        NAME(SN_ERR_TABLE_IMAGE)
        NAME(SN_ERR_BOOT_ARGS)
        NAME(SN_ERR_TABLE_CHANGED)
        NAME(SN_ERR_PROTOCOL)
        NAME(SN_ERR_EXTRA_COMPLETION)
        NAME(SN_ERR_UNKNOWN_SOURCE)
        NAME(SN_ERR_LOST_COMPLETION)
        NAME(SN_ERR_MISMATCH)
        NAME(SN_ERR_UNIT_CAPS)
        NAME(SN_ERR_RX_FLIT)
        NAME(SN_ERR_UNIT_FAULT)
        NAME(SN_ERR_HANG)
        NAME(SN_ERR_INTERNAL)
        NAME(SN_ERR_TRAP)
#undef NAME
    default:
        return "SN_ERR_UNKNOWN";
    }
}
