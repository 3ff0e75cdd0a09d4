/* A live session on a SysNode (see device.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "device.h"

#include <stdlib.h>
#include <string.h>

#include "mxfp7.h"
#include "pack.h"
#include "sysnode/mesh.h"

sn_status sn_device_init(sn_device *d, sn_transport *t, const char *image_path, uint64_t max_cycles, sn_error *e)
{
    char err[256];
    memset(d, 0, sizeof *d);
    d->t = t;
    d->max_cycles = max_cycles;
    d->dram_bytes = t->ops->dram_size(t->ctx);
    d->image_path = strdup(image_path);
    d->shadow = calloc(1, d->dram_bytes);
    d->written = calloc(1, d->dram_bytes / 8 + 1);
    if (!d->image_path || !d->shadow || !d->written)
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
    free(d->shadow);
    free(d->written);
    memset(d, 0, sizeof *d);
}

static sn_status check_range(const sn_device *d, uint64_t addr, uint64_t n, const char *what, sn_error *e)
{
    if (addr > d->dram_bytes || n > d->dram_bytes - addr)
        return sn_error_set(e, SN_ERR_INPUT, "%s of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)", what,
                            (unsigned long long)n, (unsigned long long)addr, (unsigned long long)d->dram_bytes);
    return SN_OK;
}

sn_status sn_device_write(sn_device *d, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    sn_status st = check_range(d, addr, n, "DRAM write", e);
    if (st == SN_OK)
        st = d->t->ops->dram_write(d->t->ctx, addr, src, n, e);
    if (st != SN_OK)
        return st;
    memcpy(d->shadow + addr, src, n);
    for (uint64_t a = addr; a < addr + n; a++)
        d->written[a / 8] |= (uint8_t)(1u << (a % 8));
    return SN_OK;
}

sn_status sn_device_read(sn_device *d, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    sn_status st = check_range(d, addr, n, "DRAM read", e);
    return st == SN_OK ? d->t->ops->dram_read(d->t->ctx, addr, dst, n, e) : st;
}

/* The first byte of [addr, addr+n) the host never wrote, or addr+n. */
static uint64_t first_unwritten(const sn_device *d, uint64_t addr, uint64_t n)
{
    for (uint64_t a = addr; a < addr + n; a++)
        if (!(d->written[a / 8] & (1u << (a % 8))))
            return a;
    return addr + n;
}

/* The last byte of [addr, addr+n) the host wrote, or UINT64_MAX for none. */
static uint64_t last_written(const sn_device *d, uint64_t addr, uint64_t n)
{
    for (uint64_t a = addr + n; a > addr; a--)
        if (d->written[(a - 1) / 8] & (1u << ((a - 1) % 8)))
            return a - 1;
    return UINT64_MAX;
}

/* The payloads p kicks to matmul clusters, in program order (the rows
 * sn_mx_convert_image takes), with [*lo, *hi) spanning every FILL's FP16
 * source; each FILL must read bytes the host wrote (sysnode-facts §3.3,
 * DESIGN.md §6). *rows is NULL on error. */
static sn_status cluster_fills(const sn_device *d, const sn_program *p, uint32_t first_round, const sn_mesh *mesh,
                               sn_payload **rows, size_t *n, uint64_t *lo, uint64_t *hi, sn_error *e)
{
    sn_table t = sn_program_table(p);
    *n = 0;
    *lo = UINT64_MAX;
    *hi = 0;
    *rows = malloc(sizeof **rows * (t.payload_count ? t.payload_count : 1));
    if (!*rows)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    for (uint32_t r = 0; r < t.round_count; r++) {
        const sn_table_round *round = &t.rounds[r];
        for (uint32_t i = 0; i < round->step_count; i++) {
            const sn_table_step *s = &t.steps[round->step_first + i];
            const sn_mesh_unit *u = sn_mesh_find(mesh, s->x, s->y);
            if (s->op != SN_STEP_KICK || !u || u->cu_type != SN_CU_TYPE_MG)
                continue;
            for (uint32_t k = 0; k < s->b; k++) {
                const sn_table_payload *row = &t.payloads[round->payload_first + s->a + k];
                sn_payload *q = &(*rows)[(*n)++];
                for (unsigned w = 0; w < 4; w++)
                    q->w[w] = row->arg[3 - w]; /* row is {ARG3, ARG2, ARG1, ARG0} */
                uint64_t addr, bytes;
                if (!sn_mx_fill_source(q, &addr, &bytes) || bytes == 0)
                    continue;
                uint64_t gap = addr <= d->dram_bytes && bytes <= d->dram_bytes - addr
                                   ? first_unwritten(d, addr, bytes)
                                   : addr;
                if (gap != addr + bytes) {
                    free(*rows);
                    *rows = NULL;
                    return sn_error_set(e, SN_ERR_INPUT,
                                        "%s: round %u slot %u: FILL of %llu bytes at 0x%llx reads 0x%llx, which the "
                                        "host never wrote (a cluster reads the FP16 the host wrote, as MXFP7)",
                                        p->files[r], first_round + r, s->a + k, (unsigned long long)bytes,
                                        (unsigned long long)addr, (unsigned long long)gap);
                }
                *lo = addr < *lo ? addr : *lo;
                *hi = addr + bytes > *hi ? addr + bytes : *hi;
            }
        }
    }
    return SN_OK;
}

/* Converts every region p FILLs from the host's FP16 and writes it (the
 * MXFP7 entries, then zeros where FP16 was), as sn_mx_convert_image does
 * for a case's uploads. */
static sn_status write_fills(sn_device *d, const sn_program *p, uint32_t first_round, const sn_mesh *mesh,
                             sn_error *e)
{
    sn_payload *rows;
    size_t nrows;
    uint64_t lo, hi;
    sn_status st = cluster_fills(d, p, first_round, mesh, &rows, &nrows, &lo, &hi, e);
    if (st != SN_OK || lo >= hi) {
        free(rows);
        return st;
    }
    uint8_t *image = malloc(hi - lo);
    if (!image) {
        free(rows);
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %llu FILL bytes", (unsigned long long)(hi - lo));
    }
    memcpy(image, d->shadow + lo, hi - lo);
    st = sn_mx_convert_image(image, lo, hi - lo, rows, nrows, NULL, e);
    for (size_t i = 0; st == SN_OK && i < nrows; i++) {
        uint64_t addr, bytes;
        if (sn_mx_fill_source(&rows[i], &addr, &bytes) && bytes > 0)
            st = d->t->ops->dram_write(d->t->ctx, addr, image + (addr - lo), bytes, e);
    }
    free(image);
    free(rows);
    return st;
}

sn_status sn_device_run(sn_device *d, const sn_program *p, uint32_t first_round, const sn_region *result,
                        sn_replay_result *res, sn_error *e)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    uint8_t *table = NULL;
    uint64_t table_bytes = 0;
    sn_status st = sn_pack_program(p, &mesh, &table, &table_bytes, e);
    if (st != SN_OK)
        return st;
    uint64_t need = (table_bytes + SN_REPLAY_TABLE_ALIGN - 1) / SN_REPLAY_TABLE_ALIGN * SN_REPLAY_TABLE_ALIGN;
    uint64_t table_addr = d->dram_bytes - need, clash;
    if (need > d->dram_bytes)
        st = sn_error_set(e, SN_ERR_INPUT, "the packed table (%llu bytes) does not fit DRAM (%llu bytes)",
                          (unsigned long long)table_bytes, (unsigned long long)d->dram_bytes);
    else if ((clash = last_written(d, table_addr, table_bytes)) != UINT64_MAX)
        st = sn_error_set(e, SN_ERR_INPUT,
                          "the packed table (%llu bytes at 0x%llx, the top of DRAM) would cover 0x%llx, which the "
                          "host wrote",
                          (unsigned long long)table_bytes, (unsigned long long)table_addr, (unsigned long long)clash);
    if (st == SN_OK)
        st = write_fills(d, p, first_round, &mesh, e);
    sn_replay_boot_plan plan = {d->image_path, p, table, table_bytes, table_addr, result, d->max_cycles};
    memset(res, 0, sizeof *res);
    res->rounds = (uint32_t)p->round_count;
    res->table_addr = table_addr;
    res->table_bytes = table_bytes;
    if (st == SN_OK)
        st = sn_replay_load_image(d->t, &d->image, d->image_path, e);
    if (st == SN_OK)
        st = sn_replay_boot(d->t, &plan, res, e);
    free(table);
    return st;
}
