/* Replaying a case with host steps between rounds (see replay.h,
 * artifacts/FORMAT.md §9): each stretch of rounds between two host steps is
 * one boot of the runner on a device session (device.h), so DRAM, and the
 * host's FP16 for the clusters' FILLs, carry over from stretch to stretch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "crc32.h"
#include "pack.h"
#include "replay.h"

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

/* No expected output may reach the top of DRAM, where each stretch's table
 * goes (the whole program's table is the largest of them). Uploads are
 * checked by the device, against every byte the host wrote. */
static sn_status check_table_room(const sn_manifest *m, const sn_program *p, uint64_t dram_bytes, sn_error *e)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    uint8_t *table = NULL;
    uint64_t bytes = 0;
    sn_status st = sn_pack_program(p, &mesh, &table, &bytes, e);
    free(table);
    if (st != SN_OK)
        return st;
    uint64_t need = (bytes + SN_REPLAY_TABLE_ALIGN - 1) / SN_REPLAY_TABLE_ALIGN * SN_REPLAY_TABLE_ALIGN;
    uint64_t table_addr = need > dram_bytes ? 0 : dram_bytes - need;
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

/* Runs rounds first..last of p as one boot and adds its counts to res. */
static sn_status run_stretch(sn_device *d, const sn_program *p, uint32_t first, uint32_t last,
                             const sn_region *result, sn_replay_result *res, sn_error *e)
{
    sn_program stretch;
    sn_replay_result r;
    sn_status st = sn_program_slice(p, first, last - first + 1, &stretch, e);
    if (st == SN_OK)
        st = sn_device_run(d, &stretch, first, result, &r, e);
    sn_program_free(&stretch);
    if (st == SN_OK || st == SN_ERR_MISMATCH) {
        res->flits += r.flits;
        res->completions += r.completions;
        res->cycles += r.cycles;
        res->instret += r.instret;
        res->table_addr = r.table_addr;
        res->table_bytes = r.table_bytes > res->table_bytes ? r.table_bytes : res->table_bytes;
    } else if (e) {
        char inner[sizeof e->msg];
        snprintf(inner, sizeof inner, "%s", e->msg);
        sn_error_set(e, st, "rounds %u..%u (%s .. %s): %s", first, last, p->files[first], p->files[last], inner);
    }
    return st;
}

/* The runner's digest line against the first expected output after the last round. */
static sn_status check_digest(sn_transport *t, const sn_region *x, sn_replay_result *res, sn_error *e)
{
    static const char key[] = "runner: result crc32 ";
    const char *line = strstr(t->ops->console(t->ctx), key);
    unsigned crc;
    if (!line || sscanf(line + sizeof key - 1, "0x%x", &crc) != 1)
        return sn_error_set(e, SN_ERR_PROTOCOL, "the runner printed no result digest (an image without it?)");
    res->digest_checked = 1;
    res->digest_got = crc;
    res->digest_want = sn_crc32(x->data, x->nbytes);
    if (crc == res->digest_want)
        return SN_OK;
    res->match = 0;
    return sn_error_set(e, SN_ERR_MISMATCH, "%s: the runner read back CRC-32 0x%08x after its last round, expected 0x%08x",
                        x->file, crc, res->digest_want);
}

sn_status sn_replay_host_steps(const sn_replay_opts *opts, sn_transport *t, const sn_manifest *m,
                               const sn_program *p, sn_replay_result *res, sn_error *e)
{
    if (opts->table)
        return sn_error_set(e, SN_ERR_INPUT, "%s: --table runs one packed table, but the case has host steps "
                            "between rounds", m->path);
    snprintf(res->name, sizeof res->name, "%s", m->name);
    res->rounds = (uint32_t)p->round_count;
    sn_device d;
    memset(&d, 0, sizeof d);
    sn_status st = check_table_room(m, p, t->ops->dram_size(t->ctx), e);
    if (st == SN_OK)
        st = sn_device_init(&d, t, opts->image, opts->max_cycles, e);
    if (st == SN_OK)
        st = poison_all(t, m, e);
    if (st == SN_OK)
        st = upload(&d, m->uploads, m->upload_count, e);
    uint32_t first = 0;
    for (size_t k = 0; st == SN_OK && k <= m->host_step_count; k++) {
        int at_end = k == m->host_step_count;
        const sn_host_step *h = at_end ? NULL : &m->host_steps[k];
        uint32_t last = at_end ? (uint32_t)p->round_count - 1 : h->after_round;
        const sn_region *digest = at_end && opts->digest && m->expected_count ? &m->expected[0] : NULL;
        st = run_stretch(&d, p, first, last, digest, res, e);
        if (st == SN_OK)
            st = at_end ? sn_replay_compare(t, m->expected, m->expected_count, -1, res, e)
                        : sn_replay_compare(t, h->expected, h->expected_count, (int32_t)last, res, e);
        if (st == SN_OK && !at_end)
            st = upload(&d, h->uploads, h->upload_count, e);
        if (st == SN_OK && digest)
            st = check_digest(t, digest, res, e);
        first = last + 1;
    }
    sn_device_free(&d);
    return st;
}
