/* The replay of a loaded case (sn_replay_program, see replay.h): one boot of
 * the runner on a device session (device.h); the table ends each round a
 * host step follows with a host sync step (artifacts/FORMAT.md §9), where
 * the runner holds while the host compares and uploads, then releases it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device.h"
#include "crc32.h"
#include "file_read.h"
#include "err_text.h"
#include "pack.h"
#include "peer_check.h"
#include "replay.h"
#include "window_load.h"

/* Poisons every expected output of every point; uploads written after it
 * win where they overlap, so only bytes no upload covers stay poisoned
 * (DESIGN.md §3: stale bytes cannot pass). */
static sn_status poison_all(sn_transport *t, const sn_manifest *m, sn_error *e)
{
    static const unsigned char poison[4096] = {[0 ... 4095] = SN_REPLAY_POISON};
    sn_status st = SN_OK;
    for (size_t k = 0; k <= m->host_step_count; k++) {
        const sn_region *x = k < m->host_step_count ? m->host_steps[k].expected : m->expected;
        size_t n = k < m->host_step_count ? m->host_steps[k].expected_count : m->expected_count;
        for (size_t i = 0; st == SN_OK && i < n; i++)
            for (uint64_t off = 0; st == SN_OK && off < x[i].nbytes; off += sizeof poison) {
                uint64_t len = x[i].nbytes - off < sizeof poison ? x[i].nbytes - off : sizeof poison;
                st = t->ops->dram_write(t->ctx, x[i].addr + off, poison, len, e);
            }
    }
    return st;
}

/* No expected output may reach the top of DRAM, where the table goes
 * (table_addr); uploads are checked by the device, against every byte the
 * host wrote. */
static sn_status check_table_room(const sn_manifest *m, uint64_t table_addr, uint64_t bytes, sn_error *e)
{
    for (size_t k = 0; k <= m->host_step_count; k++) {
        const sn_region *x = k < m->host_step_count ? m->host_steps[k].expected : m->expected;
        size_t n = k < m->host_step_count ? m->host_steps[k].expected_count : m->expected_count;
        for (size_t i = 0; i < n; i++)
            if (x[i].addr + x[i].nbytes > table_addr)
                return sn_error_set(e, SN_ERR_INPUT, "%s: %s (0x%llx, %llu bytes) reaches the top of DRAM, where the "
                                    "packed table (%llu bytes) goes", m->path, x[i].file,
                                    (unsigned long long)x[i].addr, (unsigned long long)x[i].nbytes,
                                    (unsigned long long)bytes);
    }
    return SN_OK;
}

static sn_status upload(sn_device *d, const sn_region *u, size_t n, sn_error *e)
{
    sn_status st = SN_OK;
    for (size_t i = 0; st == SN_OK && i < n; i++)
        st = sn_device_write(d, u[i].addr, u[i].data, u[i].nbytes, e);
    return st;
}

/* The stretch of rounds from `first` to the next host step (or the end). */
static uint32_t stretch_end(const sn_manifest *m, const sn_program *p, size_t step)
{
    return step < m->host_step_count ? m->host_steps[step].after_round : (uint32_t)p->round_count - 1;
}

/* Before anything is written: no upload of any point reaches the table at
 * table_addr, and every stretch's FILLs read bytes uploaded before it (no
 * partial run on bad input). */
static sn_status check_uploads(sn_device *d, const sn_manifest *m, const sn_program *p, uint64_t table_addr,
                               uint64_t table_bytes, sn_error *e)
{
    sn_status st = SN_OK;
    uint32_t first = 0;
    for (size_t k = 0; st == SN_OK && k <= m->host_step_count; k++) {
        const sn_region *u = k == 0 ? m->uploads : m->host_steps[k - 1].uploads;
        size_t n = k == 0 ? m->upload_count : m->host_steps[k - 1].upload_count;
        for (size_t i = 0; st == SN_OK && i < n; i++) {
            if (u[i].addr + u[i].nbytes > table_addr)
                st = sn_error_set(e, SN_ERR_INPUT, "%s: upload %s (0x%llx, %llu bytes) reaches the top of DRAM, where "
                                  "the packed table (%llu bytes) goes", m->path, u[i].file,
                                  (unsigned long long)u[i].addr, (unsigned long long)u[i].nbytes,
                                  (unsigned long long)table_bytes);
            sn_device_mark(d, u[i].addr, u[i].nbytes, 0);
        }
        if (st != SN_OK)
            break;
        uint32_t last = stretch_end(m, p, k);
        st = sn_device_check_fills(d, p, first, last, e);
        first = last + 1;
    }
    sn_device_mark(d, 0, 0, 1);
    return st;
}

/* What the run did up to its last wait (rs): its cycles, instructions,
 * dropped GOs, injection and errata, for the verdict, the report, the
 * timeline and --save-output, whether it ended in the runner's exit or
 * stopped between host steps. */
static void keep_run_facts(const sn_device *d, const sn_run_status *rs, sn_replay_result *res)
{
    res->cycles = d->cycles;
    res->instret = rs->instret;
    res->dropped_gos = rs->dropped_gos;
    sn_text_fit(res->inject, sizeof res->inject, "%s", rs->inject);
    sn_text_fit(res->errata, sizeof res->errata, "%s", rs->errata);
}

sn_status sn_replay_program(const sn_replay_opts *opts, sn_transport *t, const sn_manifest *m, const sn_program *p,
                            sn_replay_result *res, sn_error *e)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    sn_text_fit(res->name, sizeof res->name, "%s", m->name);
    res->rounds = (uint32_t)p->round_count;
    res->diff_limit = opts->diff < SN_DIFF_MAX ? opts->diff : SN_DIFF_MAX;
    sn_device d;
    uint8_t *table = NULL;
    uint64_t table_addr = 0;
    memset(&d, 0, sizeof d);
    sn_status st = sn_program_check_peers(p, &mesh, e); /* before anything is written */
    if (st == SN_OK && opts->table) { /* the runner checks it, sync steps included */
        /* Its size first: a table larger than DRAM is refused unread. */
        struct stat sb;
        uint64_t dram = t->ops->dram_size(t->ctx);
        size_t n = 0;
        if (stat(opts->table, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > dram)
            st = sn_error_set(e, SN_ERR_INPUT, "%s: %llu bytes, more than DRAM (%llu bytes)", opts->table,
                              (unsigned long long)sb.st_size, (unsigned long long)dram);
        else
            st = sn_file_read(opts->table, &table, &n, e);
        res->table_bytes = n;
        if (st == SN_OK)
            st = sn_replay_check_table_file(opts->table, table, n, p, e);
    } else if (st == SN_OK) {
        st = sn_pack_program(p, &mesh, &table, &res->table_bytes, e);
    }
    if (st == SN_OK)
        st = sn_device_init(&d, t, opts->image, opts->max_cycles, e);
    d.strict = opts->strict;
    d.warn = opts->warn;
    d.warn_ctx = opts->warn_ctx;
    d.tracked = p; /* every wait checks the unit accesses at its polls */
    if (st == SN_OK)
        st = sn_device_table_addr(&d, res->table_bytes, &table_addr, e);
    if (st == SN_OK)
        st = check_table_room(m, table_addr, res->table_bytes, e);
    if (st == SN_OK)
        st = check_uploads(&d, m, p, table_addr, res->table_bytes, e);
    if (st == SN_OK)
        st = poison_all(t, m, e);
    if (st == SN_OK)
        st = upload(&d, m->uploads, m->upload_count, e);
    if (st == SN_OK)
        st = sn_device_write_fills(&d, p, 0, stretch_end(m, p, 0), e);
    const sn_region *digest = opts->digest && m->expected_count ? &m->expected[0] : NULL;
    if (st == SN_OK)
        st = sn_device_boot(&d, table, res->table_bytes, table_addr, digest, e);
    res->table_addr = table_addr;
    sn_run_status rs;
    sn_status_block sb;
    int held = 0, valid = 0;
    memset(&rs, 0, sizeof rs);
    for (size_t k = 0; st == SN_OK && k < m->host_step_count; k++) {
        const sn_host_step *h = &m->host_steps[k];
        st = sn_device_wait(&d, 1, &held, &rs, e);
        if (st == SN_OK && !held) {
            st = sn_device_stopped(&d, &rs, e);
            if (st == SN_OK)
                st = sn_error_set(e, SN_ERR_PROTOCOL, "%s exited before the host step after round %u: %s",
                                  opts->image, h->after_round, t->ops->console(t->ctx));
        }
        if (st == SN_OK && (st = sn_device_status(&d, &sb, e)) == SN_OK) {
            res->flits = sb.flits_sent; /* so far: a mismatch here reports them */
            res->completions = sb.completions;
            res->cycles = rs.cycles;
        }
        if (st == SN_OK)
            st = sn_replay_compare(t, m, d.boot_fills, d.boot_fill_count, h->expected, h->expected_count, (int32_t)h->after_round, res, e);
        if (st == SN_OK)
            st = upload(&d, h->uploads, h->upload_count, e);
        if (st == SN_OK)
            st = sn_device_write_fills(&d, p, h->after_round + 1, stretch_end(m, p, k + 1), e);
        if (st == SN_OK)
            st = sn_device_release(&d, NULL, 0, 0, e);
    }
    if (st == SN_OK)
        st = sn_device_wait(&d, 0, &held, &rs, e); /* no sync point after the last host step */
    if (d.booted) /* the last wait's, however it stopped (a cap, a signal, a fault between host steps) */
        keep_run_facts(&d, &rs, res);
    if (st == SN_OK || (d.booted && rs.stop == SN_RUN_EXITED)) { /* the runner's report, of an error too */
        sn_error quiet = {0};
        sn_status read = sn_window_read_status(t, sn_replay_status_addr(table_addr, res->table_bytes), &sb, &valid,
                                               st == SN_OK ? e : &quiet);
        st = st == SN_OK ? read : st;
    }
    if (valid) { /* its own counts, where it stopped */
        res->flits = sb.flits_sent;
        res->completions = sb.completions;
    }
    if (st == SN_OK)
        st = sn_replay_run_status(&rs, &sb, valid, t->ops->console(t->ctx), opts->image, e);
    if (st == SN_OK) /* the accesses after the last poll, once the runner's own verdict is in */
        st = sn_device_check_accesses(&d, p, e);
    if (st == SN_ERR_UNIT_FAULT && valid)
        sn_replay_name_fault(&sb, p, e);
    if (st == SN_OK)
        st = sn_replay_check_summary(&sb, valid, p, opts->image, res, e);
    if (st == SN_OK)
        st = sn_replay_compare(t, m, d.boot_fills, d.boot_fill_count, m->expected, m->expected_count, -1, res, e);
    if (st == SN_OK && digest)
        st = sn_replay_check_digest(&sb, digest, res, e);
    sn_device_free(&d);
    free(table);
    return st;
}
