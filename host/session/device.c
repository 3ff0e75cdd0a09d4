/* A live session on a SysNode (see device.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_map.h"
#include "err_text.h"
#include "mxfp7.h"
#include "pack.h"
#include "peer_check.h"
#include "sysnode/host_sync.h"
#include "window_load.h"
#include "zeroed.h"
#include "sysnode/mesh.h"
#include "sysnode/status_block.h"

sn_status sn_device_init(sn_device *d, sn_transport *t, const char *image_path, uint64_t max_cycles, sn_error *e)
{
    char err[256];
    memset(d, 0, sizeof *d);
    d->t = t;
    d->max_cycles = max_cycles;
    d->dram_bytes = t->ops->dram_size(t->ctx);
    d->image_path = strdup(image_path);
    /* pages the host never writes cost nothing */
    d->shadow = sn_zeroed_alloc(d->dram_bytes);
    d->written = sn_zeroed_alloc(d->dram_bytes / 8 + 1);
    d->live = sn_zeroed_alloc(d->dram_bytes / 8 + 1);
    d->tracking = t->ops->track_accesses && t->ops->track_accesses(t->ctx, 1);
    if (!d->image_path || !d->shadow || !d->written || !d->live)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the host shadow of %llu DRAM bytes",
                            (unsigned long long)d->dram_bytes);
    if (sn_elf_image_load(image_path, &d->image, err, sizeof err) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s: %s", image_path, err);
    return SN_OK;
}

void sn_device_free(sn_device *d)
{
    sn_elf_image_free(&d->image);
    free(d->image_path);
    sn_zeroed_free(d->shadow, d->dram_bytes);
    sn_zeroed_free(d->written, d->dram_bytes / 8 + 1);
    sn_zeroed_free(d->live, d->dram_bytes / 8 + 1);
    for (size_t i = 0; i < d->boot_fill_count; i++)
        free(d->boot_fills[i].data);
    free(d->boot_fills);
    memset(d, 0, sizeof *d);
}

static sn_status check_range(const sn_device *d, uint64_t addr, uint64_t n, const char *what, sn_error *e)
{
    if (addr > d->dram_bytes || n > d->dram_bytes - addr)
        return sn_error_set(e, SN_ERR_INPUT, "%s of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)", what,
                            (unsigned long long)n, (unsigned long long)addr, (unsigned long long)d->dram_bytes);
    return SN_OK;
}

void sn_device_mark(sn_device *d, uint64_t addr, uint64_t n, int clear)
{
    if (clear) {
        memset(d->written + d->marked_lo, 0, d->marked_hi - d->marked_lo);
        d->marked_lo = d->marked_hi = 0;
    }
    uint64_t end = addr < d->dram_bytes && n < d->dram_bytes - addr ? addr + n : d->dram_bytes;
    if (addr < end) {
        if (d->marked_lo == d->marked_hi || addr / 8 < d->marked_lo)
            d->marked_lo = addr / 8;
        if ((end - 1) / 8 + 1 > d->marked_hi)
            d->marked_hi = (end - 1) / 8 + 1;
    }
    sn_byte_map_set(d->written, addr, end, 1);
}

sn_status sn_device_discard(sn_device *d, uint64_t addr, uint64_t n, sn_error *e)
{
    sn_status st = check_range(d, addr, n, "DRAM discard", e);
    if (st == SN_OK)
        sn_byte_map_set(d->live, addr, addr + n, 0);
    return st;
}

sn_status sn_device_write(sn_device *d, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    sn_status st = check_range(d, addr, n, "DRAM write", e);
    uint64_t table_end = d->table_bytes ? sn_replay_status_addr(d->table_addr, d->table_bytes) + SN_STATUS_COPY_BYTES : 0;
    if (st == SN_OK && d->table_bytes && addr < table_end && d->table_addr < addr + n)
        st = sn_error_set(e, SN_ERR_INPUT,
                          "DRAM write of %llu bytes at 0x%llx covers the runner's table (%llu bytes at 0x%llx, the "
                          "top of DRAM)",
                          (unsigned long long)n, (unsigned long long)addr, (unsigned long long)d->table_bytes,
                          (unsigned long long)d->table_addr);
    if (st == SN_OK)
        st = d->t->ops->dram_write(d->t->ctx, addr, src, n, e);
    if (st != SN_OK)
        return st;
    memcpy(d->shadow + addr, src, n);
    sn_device_mark(d, addr, n, 0);
    sn_byte_map_set(d->live, addr, addr + n, 1);
    return SN_OK;
}

sn_status sn_device_read(sn_device *d, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    sn_status st = check_range(d, addr, n, "DRAM read", e);
    return st == SN_OK ? d->t->ops->dram_read(d->t->ctx, addr, dst, n, e) : st;
}

/* The last byte of [addr, addr+n) that is live or that the host wrote, or
 * UINT64_MAX for none. */
static uint64_t last_taken(const sn_device *d, uint64_t addr, uint64_t n)
{
    for (uint64_t a = addr + n; a > addr; a--) {
        if (a % 8 == 0 && a - addr >= 8 && !d->written[(a - 1) / 8] && !d->live[(a - 1) / 8]) {
            a -= 7; /* a whole byte of both maps at once */
            continue;
        }
        if ((d->written[(a - 1) / 8] | d->live[(a - 1) / 8]) & (1u << ((a - 1) % 8)))
            return a - 1;
    }
    return UINT64_MAX;
}

/* The payloads p kicks to matmul clusters, in program order (the rows
 * sn_mx_convert_image takes), with [*lo, *hi) spanning every FILL's FP16
 * source, and each row's round of p and slot in (*where)[2i], [2i+1]; each
 * FILL must read bytes the host wrote (sysnode-facts §3.3, DESIGN.md §6).
 * *rows and *where are NULL on error. */
static sn_status cluster_fills(const sn_device *d, const sn_program *p, uint32_t first_round, const sn_mesh *mesh,
                               sn_payload **rows, uint32_t **where, size_t *n, uint64_t *lo, uint64_t *hi,
                               sn_error *e)
{
    sn_table t = sn_program_table(p);
    *n = 0;
    *lo = UINT64_MAX;
    *hi = 0;
    *rows = malloc(sizeof **rows * (t.payload_count ? t.payload_count : 1));
    *where = malloc(2 * sizeof **where * (t.payload_count ? t.payload_count : 1));
    if (!*rows || !*where) {
        free(*rows);
        free(*where);
        *rows = NULL;
        *where = NULL;
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    }
    for (uint32_t r = 0; r < t.round_count; r++) {
        const sn_table_round *round = &t.rounds[r];
        for (uint32_t i = 0; i < round->step_count; i++) {
            const sn_table_step *s = &t.steps[round->step_first + i];
            const sn_mesh_unit *u = sn_mesh_find(mesh, s->x, s->y);
            if (s->op != SN_STEP_KICK || !u || u->cu_type != SN_CU_TYPE_MG)
                continue;
            for (uint32_t k = 0; k < s->kick.flits; k++) {
                (*where)[2 * *n] = r;
                (*where)[2 * *n + 1] = s->kick.first_slot + k;
                sn_payload *q = &(*rows)[(*n)++];
                *q = sn_table_row_payload(&t.payloads[round->payload_first + s->kick.first_slot + k]);
                uint64_t addr, bytes;
                if (!sn_mx_fill_source(q, &addr, &bytes) || bytes == 0)
                    continue;
                uint64_t gap = addr <= d->dram_bytes && bytes <= d->dram_bytes - addr
                                   ? sn_byte_map_first_clear(d->written, addr, bytes)
                                   : addr;
                if (gap != addr + bytes) {
                    free(*rows);
                    free(*where);
                    *rows = NULL;
                    *where = NULL;
                    return sn_error_set(e, SN_ERR_INPUT,
                                        "%s: round %u slot %u: FILL of %llu bytes at 0x%llx reads 0x%llx, which the "
                                        "host never wrote (a cluster reads the FP16 the host wrote, as MXFP7)",
                                        p->files[r], first_round + r, s->kick.first_slot + k, (unsigned long long)bytes,
                                        (unsigned long long)addr, (unsigned long long)gap);
                }
                *lo = addr < *lo ? addr : *lo;
                *hi = addr + bytes > *hi ? addr + bytes : *hi;
            }
        }
    }
    return SN_OK;
}

/* Rounds first..last of p as their own program, and the cluster FILLs they
 * make (cluster_fills). The caller frees *rows, *where and *rounds whatever
 * it returns. */
static sn_status stretch_fills(const sn_device *d, const sn_program *p, uint32_t first, uint32_t last,
                               sn_program *rounds, sn_payload **rows, uint32_t **where, size_t *nrows, uint64_t *lo,
                               uint64_t *hi, sn_error *e)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    *rows = NULL;
    *where = NULL;
    sn_status st = sn_program_slice(p, first, last - first + 1, rounds, e);
    if (st == SN_OK)
        st = cluster_fills(d, rounds, first, &mesh, rows, where, nrows, lo, hi, e);
    return st;
}

sn_status sn_device_check_fills(const sn_device *d, const sn_program *p, uint32_t first, uint32_t last, sn_error *e)
{
    sn_program rounds = {0};
    sn_payload *rows;
    uint32_t *where;
    size_t nrows;
    uint64_t lo, hi;
    sn_status st = stretch_fills(d, p, first, last, &rounds, &rows, &where, &nrows, &lo, &hi, e);
    free(rows);
    free(where);
    sn_program_free(&rounds);
    return st;
}

/* "FILE: round R slot S" for each row, for sn_mx_convert_image's messages
 * (rounds counted from first); one allocation, NULL when out of memory. */
#define ROW_NAME_BYTES 192
static char **row_names(const sn_program *rounds, uint32_t first, const uint32_t *where, size_t nrows)
{
    char **names = malloc((nrows ? nrows : 1) * (sizeof *names + ROW_NAME_BYTES));
    char *text = (char *)(names + (nrows ? nrows : 1));
    for (size_t i = 0; names && i < nrows; i++) {
        names[i] = text + i * ROW_NAME_BYTES;
        sn_text_fit(names[i], ROW_NAME_BYTES, "%s: round %u slot %u", rounds->files[where[2 * i]],
                 first + where[2 * i], where[2 * i + 1]);
    }
    return names;
}

static int by_addr(const void *a, const void *b)
{
    const sn_region *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The FILL sources of rows as disjoint ranges in address order (*n of them;
 * NULL when out of memory). A stretch's rows refill the same sources round
 * after round (matmul_512x256x512), and one conversion gives a source one
 * content, so overlapping or touching sources merge. */
static sn_region *fill_ranges(const sn_payload *rows, size_t nrows, size_t *n)
{
    sn_region *r = malloc((nrows ? nrows : 1) * sizeof *r);
    size_t k = 0, m = 0;
    if (!r)
        return NULL;
    for (size_t i = 0; i < nrows; i++) {
        uint64_t addr, bytes;
        if (sn_mx_fill_source(&rows[i], &addr, &bytes) && bytes > 0)
            r[k++] = (sn_region){.addr = addr, .nbytes = bytes};
    }
    qsort(r, k, sizeof *r, by_addr);
    for (size_t i = 0; i < k; i++) {
        uint64_t end = r[i].addr + r[i].nbytes;
        if (m > 0 && r[i].addr <= r[m - 1].addr + r[m - 1].nbytes) {
            if (end > r[m - 1].addr + r[m - 1].nbytes)
                r[m - 1].nbytes = end - r[m - 1].addr;
        } else {
            r[m++] = r[i];
        }
    }
    *n = m;
    return r;
}

/* Keeps what the FILL conversion wrote before the boot: ranges[0..n) of
 * image, which starts at unit address lo. */
static sn_status keep_boot_fills(sn_device *d, const sn_region *ranges, size_t n, const uint8_t *image, uint64_t lo,
                                 sn_error *e)
{
    sn_region *grown = n ? realloc(d->boot_fills, (d->boot_fill_count + n) * sizeof *grown) : d->boot_fills;
    if (n && !grown)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %zu FILL ranges", n);
    d->boot_fills = grown;
    for (size_t i = 0; i < n; i++) {
        unsigned char *copy = malloc(ranges[i].nbytes);
        if (!copy)
            return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %llu FILL bytes",
                                (unsigned long long)ranges[i].nbytes);
        memcpy(copy, image + (ranges[i].addr - lo), ranges[i].nbytes);
        d->boot_fills[d->boot_fill_count++] = (sn_region){.addr = ranges[i].addr, .nbytes = ranges[i].nbytes, .data = copy};
    }
    return SN_OK;
}

sn_status sn_device_write_fills(sn_device *d, const sn_program *p, uint32_t first, uint32_t last, sn_error *e)
{
    sn_program rounds = {0};
    sn_payload *rows;
    uint32_t *where;
    char **names = NULL;
    size_t nrows, nranges = 0;
    sn_region *ranges = NULL;
    uint64_t lo, hi;
    sn_status st = stretch_fills(d, p, first, last, &rounds, &rows, &where, &nrows, &lo, &hi, e);
    uint8_t *image = st == SN_OK && lo < hi ? malloc(hi - lo) : NULL;
    if (image) {
        ranges = fill_ranges(rows, nrows, &nranges);
        names = row_names(&rounds, first, where, nrows);
    }
    if (st == SN_OK && lo < hi && (!image || !ranges || !names))
        st = sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %llu FILL bytes", (unsigned long long)(hi - lo));
    if (st == SN_OK && image) {
        memcpy(image, d->shadow + lo, hi - lo);
        st = sn_mx_convert_image(image, lo, hi - lo, rows, nrows, (const char *const *)names, NULL, e);
        for (size_t i = 0; st == SN_OK && i < nrows; i++) {
            uint64_t addr, bytes;
            if (sn_mx_fill_source(&rows[i], &addr, &bytes) && bytes > 0)
                st = d->t->ops->dram_write(d->t->ctx, addr, image + (addr - lo), bytes, e);
        }
        if (st == SN_OK && !d->booted)
            st = keep_boot_fills(d, ranges, nranges, image, lo, e);
    }
    free(ranges);
    free(image);
    free(rows);
    free(where);
    free(names);
    sn_program_free(&rounds);
    return st;
}

sn_status sn_device_table_addr(const sn_device *d, uint64_t bytes, uint64_t *addr, sn_error *e)
{
    uint64_t with_copy = sn_replay_status_addr(0, bytes) + SN_STATUS_COPY_BYTES; /* the status block's copy after it */
    uint64_t need = (with_copy + SN_REPLAY_TABLE_ALIGN - 1) / SN_REPLAY_TABLE_ALIGN * SN_REPLAY_TABLE_ALIGN;
    if (need > d->dram_bytes)
        return sn_error_set(e, SN_ERR_INPUT, "the packed table (%llu bytes) does not fit DRAM (%llu bytes)",
                            (unsigned long long)bytes, (unsigned long long)d->dram_bytes);
    uint64_t top = d->dram_bytes - need, first_clash = UINT64_MAX;
    for (uint64_t at = top;;) {
        uint64_t clash = last_taken(d, at, with_copy);
        if (clash == UINT64_MAX) {
            *addr = at;
            return SN_OK;
        }
        if (first_clash == UINT64_MAX)
            first_clash = clash;
        if (clash < with_copy) /* nothing below the clash can hold it */
            break;
        at = (clash - with_copy) / SN_REPLAY_TABLE_ALIGN * SN_REPLAY_TABLE_ALIGN; /* ends at or before it */
    }
    return sn_error_set(e, SN_ERR_INPUT,
                        "the packed table (%llu bytes, [0x%llx, 0x%llx) at the top of DRAM) would cover live bytes "
                        "(the host's or a round's, last at 0x%llx), and no %u-aligned place in DRAM is free of them",
                        (unsigned long long)bytes, (unsigned long long)top, (unsigned long long)(top + with_copy),
                        (unsigned long long)first_clash, SN_REPLAY_TABLE_ALIGN);
}

static sn_status write_release(sn_device *d, uint64_t word, sn_error *e)
{
    return d->t->ops->spad_write(d->t->ctx, SN_HOST_RELEASE_ADDR - SN_SPAD_BASE, word, 0xFF, e);
}

sn_status sn_device_boot(sn_device *d, const uint8_t *table, uint64_t table_bytes, uint64_t table_addr,
                         const sn_region *result, sn_error *e)
{
    sn_status st = sn_window_load_image(d->t, &d->image, d->image_path, e);
    if (st == SN_OK)
        st = d->t->ops->dram_write(d->t->ctx, table_addr, table, table_bytes, e);
    if (st == SN_OK)
        st = sn_window_write_boot_args(d->t, table_addr, table_bytes, result ? result->addr : 0,
                                       result ? result->nbytes : 0, sn_replay_status_addr(table_addr, table_bytes), e);
    if (st == SN_OK)
        st = write_release(d, 0, e);
    if (st == SN_OK)
        st = d->t->ops->boot(d->t->ctx, e);
    d->booted = 1;
    memset(d->sent, 0, sizeof d->sent);
    d->held = 0;
    d->syncs = 0;
    d->cycles = 0;
    d->cap = d->max_cycles;
    d->table_addr = table_addr;
    d->table_bytes = table_bytes;
    return st;
}

sn_status sn_device_release(sn_device *d, const uint8_t *table, uint64_t table_bytes, uint64_t table_addr,
                            sn_error *e)
{
    if (!d->held)
        return sn_error_set(e, SN_ERR_INTERNAL, "release: the runner holds at no sync point");
    sn_status st = SN_OK;
    if (table) {
        st = d->t->ops->dram_write(d->t->ctx, table_addr, table, table_bytes, e);
        if (st == SN_OK)
            st = sn_window_write_boot_args(d->t, table_addr, table_bytes, 0, 0,
                                           sn_replay_status_addr(table_addr, table_bytes), e);
    }
    if (st == SN_OK)
        st = write_release(d, SN_HOST_RELEASE(d->syncs, table ? SN_HOST_NEXT_TABLE : SN_HOST_CONTINUE), e);
    if (st == SN_OK) {
        d->held = 0;
        d->cap = d->max_cycles > UINT64_MAX - d->cycles ? UINT64_MAX : d->cycles + d->max_cycles;
    }
    if (st == SN_OK && table) {
        d->table_addr = table_addr;
        d->table_bytes = table_bytes;
    }
    return st;
}

void sn_device_forget(sn_device *d)
{
    d->held = 0;
    d->syncs = 0;
    d->table_addr = d->table_bytes = 0;
    sn_zeroed_clear(d->shadow, d->dram_bytes);
    sn_zeroed_clear(d->written, d->dram_bytes / 8 + 1);
    sn_zeroed_clear(d->live, d->dram_bytes / 8 + 1);
    d->marked_lo = d->marked_hi = 0;
}

sn_status sn_device_stopped(sn_device *d, const sn_run_status *rs, sn_error *e)
{
    sn_status_block sb;
    int valid = 0;
    sn_status st = sn_window_read_status(d->t, sn_replay_status_addr(d->table_addr, d->table_bytes), &sb, &valid, e);
    d->held = 0;
    return st == SN_OK ? sn_replay_run_status(rs, &sb, valid, d->t->ops->console(d->t->ctx), d->image_path, e) : st;
}

sn_status sn_device_status(sn_device *d, sn_status_block *out, sn_error *e)
{
    return d->t->ops->spad_read(d->t->ctx, SN_STATUS_BLOCK_ADDR - SN_SPAD_BASE, out, sizeof *out, e);
}

sn_status sn_device_wait(sn_device *d, int poll, int *held, sn_run_status *rs, sn_error *e)
{
    *held = 0;
    /* Accesses are taken at every poll, so their record holds one poll's worth. */
    int step = poll || (d->tracking && d->tracked);
    for (;;) {
        uint64_t limit = step && d->cycles + SN_DEVICE_POLL_CYCLES < d->cap ? d->cycles + SN_DEVICE_POLL_CYCLES : d->cap;
        sn_status st = d->t->ops->wait(d->t->ctx, limit, rs, e);
        if (st != SN_OK)
            return st;
        d->cycles = rs->cycles;
        if (rs->stop != SN_RUN_CYCLE_LIMIT) /* the caller words an exit, a halt */
            return SN_OK;
        if (d->tracked && (st = sn_device_check_accesses(d, d->tracked, e)) != SN_OK)
            return st;
        if (!poll) {
            if (d->cycles >= d->cap) /* the caller words the cap */
                return SN_OK;
            continue;
        }
        uint64_t word;
        st = d->t->ops->spad_read(d->t->ctx, SN_HOST_HELD_ADDR - SN_SPAD_BASE, &word, sizeof word, e);
        if (st != SN_OK)
            return st;
        if (SN_HOST_HELD_SEQ(word) == d->syncs + 1) {
            d->syncs++;
            /* the hold's own cycle: at most one poll before this stop, so its low 32 bits place it */
            d->held_cycle = d->cycles - (uint32_t)((uint32_t)d->cycles - SN_HOST_HELD_CYCLE32(word));
            d->held = *held = 1;
            return SN_OK;
        }
        if (d->cycles >= d->cap) { /* rs->message: where the runner was, the live counts (sn_sim_stop_where) */
            const char *console = d->t->ops->console(d->t->ctx);
            return sn_error_set(e, SN_ERR_HANG,
                                "stopped at the cycle cap (%llu) before the runner reached host sync point %u or "
                                "exited%s%s%s%s",
                                (unsigned long long)d->max_cycles, d->syncs + 1, rs->message[0] ? ": " : "",
                                rs->message, console[0] ? "; console: " : "", console);
        }
    }
}

sn_status sn_device_run(sn_device *d, const sn_program *p, sn_replay_result *res, sn_error *e)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    uint8_t *table = NULL, *sync_after = calloc(p->round_count ? p->round_count : 1, 1);
    uint64_t table_bytes = 0, table_addr = 0;
    sn_program held = {0};
    sn_status_block before, after;
    memset(res, 0, sizeof *res);
    memset(&before, 0, sizeof before);
    memset(&after, 0, sizeof after);
    res->diff_round = -1;
    res->rounds = (uint32_t)p->round_count;
    if (!sync_after)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    sync_after[p->round_count - 1] = 1;
    sn_status st = sn_program_check_peers(p, &mesh, e);
    if (st == SN_OK)
        st = sn_program_with_host_syncs(p, sync_after, &held, e);
    if (st == SN_OK)
        st = sn_pack_program(&held, &mesh, &table, &table_bytes, e);
    if (st == SN_OK)
        st = sn_device_table_addr(d, table_bytes, &table_addr, e);
    if (st == SN_OK)
        st = sn_device_write_fills(d, p, 0, (uint32_t)p->round_count - 1, e);
    if (st == SN_OK && d->held)
        st = sn_device_status(d, &before, e);
    uint64_t start = d->held ? d->cycles : 0;
    if (st == SN_OK)
        st = d->held ? sn_device_release(d, table, table_bytes, table_addr, e)
                     : sn_device_boot(d, table, table_bytes, table_addr, NULL, e);
    int stopped_here = 0, ran = st == SN_OK;
    sn_run_status rs;
    memset(&rs, 0, sizeof rs);
    d->tracked = p;
    if (st == SN_OK)
        st = sn_device_wait(d, 1, &stopped_here, &rs, e); /* checks the accesses up to the hold */
    d->tracked = NULL;
    if (st == SN_OK && !stopped_here) {
        st = sn_device_stopped(d, &rs, e);
        if (st == SN_OK)
            st = sn_error_set(e, SN_ERR_PROTOCOL, "%s exited instead of holding after the last round: %s",
                              d->image_path, d->t->ops->console(d->t->ctx));
    }
    sn_table t = sn_program_table(p);
    for (uint32_t r = 0; st == SN_OK && r < t.round_count; r++)
        for (uint32_t i = 0; i < t.rounds[r].step_count; i++) {
            const sn_table_step *s = &t.steps[t.rounds[r].step_first + i];
            const sn_mesh_unit *u = s->op == SN_STEP_KICK ? sn_mesh_find(&mesh, s->x, s->y) : NULL;
            unsigned node = SN_NODE_ID(s->x, s->y);
            for (uint32_t k = 0; u && k < s->kick.flits; k++) {
                sn_payload q = sn_table_row_payload(&t.payloads[t.rounds[r].payload_first + s->kick.first_slot + k]);
                d->ops[node][sn_payload_op(&q, u->cu_type)]++;
            }
            d->sent[node] += s->op == SN_STEP_KICK ? s->kick.flits : 0;
        }
    if (st == SN_OK)
        st = sn_device_status(d, &after, e);
    uint64_t want = sn_replay_kicked_flits(&t);
    if (st == SN_OK && after.flits_sent - before.flits_sent != want) { /* the summary check of `sysnode run` */
        st = sn_error_set(e, SN_ERR_PROTOCOL,
                          "%s held after the last round with %u flits sent, but the program kicks %llu: the image "
                          "carries another program, or keeps no runner's summary (its status block, FORMAT.md §7)",
                          d->image_path, after.flits_sent - before.flits_sent, (unsigned long long)want);
        d->held = 0; /* the next call boots afresh */
    }
    if (st == SN_OK) {
        res->flits = after.flits_sent - before.flits_sent;
        res->completions = after.completions - before.completions;
        res->cycles = d->held_cycle - start; /* from the boot or release to the hold, exactly */
        res->table_addr = table_addr;
        res->table_bytes = table_bytes;
        res->match = 1;
    } else if (ran) { /* what the run did up to where it stopped (the cap, a fault), for the error's result */
        sn_error quiet = {0};
        res->cycles = d->cycles - start;
        if (rs.stop == SN_RUN_EXITED && sn_device_status(d, &after, &quiet) == SN_OK) { /* the runner's own counts */
            res->flits = after.flits_sent - before.flits_sent;
            res->completions = after.completions - before.completions;
        }
    }
    sn_program_free(&held);
    free(sync_after);
    free(table);
    return st;
}
