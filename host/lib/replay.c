/* A replay session through the host window (see replay.h). */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "elf_image.h"
#include "manifest.h"
#include "json.h"
#include "mxfp7.h"
#include "crc32.h"
#include "pack.h"
#include "window_load.h"
#include "sysnode/words.h"

static const char RUNNER_OK[] = "runner: ok ";

/* The flits the program's kicks send, over all rounds. */
static uint64_t kicked_flits(const sn_program *p)
{
    sn_table t = sn_program_table(p);
    uint64_t n = 0;
    for (uint32_t i = 0; i < t.step_count; i++)
        if (t.steps[i].op == SN_STEP_KICK)
            n += t.steps[i].b;
    return n;
}

/* The runner's summary line "runner: ok rounds=R flits=F completions=C ...",
 * which must describe the case's own program: an image that ran another
 * table (an embedded image of another case) or printed nothing is refused. */
static sn_status check_summary(const char *console, const sn_program *p, const char *image, sn_replay_result *res,
                               sn_error *e)
{
    const char *line = strstr(console, RUNNER_OK);
    unsigned rounds, flits, completions;
    if (!line || sscanf(line + sizeof RUNNER_OK - 1, "rounds=%u flits=%u completions=%u", &rounds, &flits,
                        &completions) != 3)
        return sn_error_set(e, SN_ERR_PROTOCOL, "%s exited 0 without the runner's summary line; console: %s", image,
                            console);
    res->flits = flits;
    res->completions = completions;
    if (rounds != p->round_count || flits != kicked_flits(p))
        return sn_error_set(e, SN_ERR_PROTOCOL,
                            "%s ran %u round%s and %u flits, but the case's program has %zu round%s and %llu flits: "
                            "the image (or the --table file) carries another program",
                            image, rounds, rounds == 1 ? "" : "s", flits, p->round_count,
                            p->round_count == 1 ? "" : "s", (unsigned long long)kicked_flits(p));
    return SN_OK;
}

static sn_status run_status(const sn_run_status *r, const char *console, const char *image, sn_error *e)
{
    switch (r->stop) {
    case SN_RUN_EXITED:
        if (r->exit_code == SN_OK)
            return SN_OK;
        return sn_error_set(e, r->exit_code < 0x100 ? (sn_status)r->exit_code : SN_ERR_INTERNAL,
                            "%s exited with 0x%llx after %llu cycles: %s", image, (unsigned long long)r->exit_code,
                            (unsigned long long)r->cycles, console);
    case SN_RUN_HALTED:
        return sn_error_set(e, SN_ERR_TRAP, "%s: core halted, cause %u: %s", image, r->halt_cause, console);
    case SN_RUN_CYCLE_LIMIT:
        return sn_error_set(e, SN_ERR_HANG, "hang: no exit after %llu cycles (the --max-cycles cap)%s%s; console: %s",
                            (unsigned long long)r->cycles, r->message[0] ? ": " : "", r->message, console);
    default:
        return sn_error_set(e, SN_ERR_INTERNAL, "simulation stopped after %llu cycles: %s; console: %s",
                            (unsigned long long)r->cycles, r->message, console);
    }
}

/* ---- the mesh ---------------------------------------------------------------- */

/* The runner image and the simulator are built for rv64_mesh_2p2 (DESIGN §6):
 * a case compiled for another mesh cannot run here, and is refused by name
 * rather than by the runner's CU_CAPS check or a wrong result. */
static sn_status check_mesh(const sn_manifest *m, const sn_mesh *mesh, sn_error *e)
{
    static const sn_mesh sysnode_mesh = SN_MESH_2P2_INIT;
    int same = mesh->unit_count == sysnode_mesh.unit_count;
    for (unsigned i = 0; same && i < mesh->unit_count; i++) {
        const sn_mesh_unit *u = sn_mesh_find(&sysnode_mesh, mesh->units[i].x, mesh->units[i].y);
        same = u && u->cu_type == mesh->units[i].cu_type;
    }
    if (same)
        return SN_OK;
    return sn_error_set(e, SN_ERR_INPUT,
                        "%s: the case's mesh (%u units) is not this SysNode's rv64_mesh_2p2 (MG at (1,1) and "
                        "(2,1), VC at (1,0) and (1,2))",
                        m->path, mesh->unit_count);
}

/* ---- operands, table, boot arguments ------------------------------------- */

static int overlap(const sn_region *a, const sn_region *b)
{
    return a->addr < b->addr + b->nbytes && b->addr < a->addr + a->nbytes;
}

/* Uploads and expected outputs must not overlap one another: a later write
 * (or the 0xa5 poison) would silently replace an operand. */
static sn_status check_regions(const sn_manifest *m, sn_error *e)
{
    size_t n = m->upload_count + m->expected_count;
    for (size_t i = 0; i < n; i++) {
        const sn_region *a = i < m->upload_count ? &m->uploads[i] : &m->expected[i - m->upload_count];
        for (size_t j = i + 1; j < n; j++) {
            const sn_region *b = j < m->upload_count ? &m->uploads[j] : &m->expected[j - m->upload_count];
            if (overlap(a, b))
                return sn_error_set(e, SN_ERR_INPUT,
                                    "%s: %s (0x%llx, %llu bytes) overlaps %s (0x%llx, %llu bytes)", m->path, a->file,
                                    (unsigned long long)a->addr, (unsigned long long)a->nbytes, b->file,
                                    (unsigned long long)b->addr, (unsigned long long)b->nbytes);
        }
    }
    return SN_OK;
}

/* The table goes at the top of DRAM, 4 KB aligned: as far as it can be from
 * the compiler's arena, which grows up from low addresses, so a program's own
 * writes are least likely to reach it (a write that does is caught by the
 * runner's per-round re-check or the summary compare). It must not overlap an
 * operand or output. */
static sn_status place_table(const sn_manifest *m, uint64_t table_bytes, uint64_t dram_size, uint64_t *addr,
                             sn_error *e)
{
    uint64_t need = (table_bytes + SN_REPLAY_TABLE_ALIGN - 1) / SN_REPLAY_TABLE_ALIGN * SN_REPLAY_TABLE_ALIGN;
    if (need > dram_size)
        return sn_error_set(e, SN_ERR_INPUT, "%s: the packed table (%llu bytes) does not fit DRAM (%llu bytes)",
                            m->path, (unsigned long long)table_bytes, (unsigned long long)dram_size);
    sn_region table = {.file = "the packed table", .addr = dram_size - need, .nbytes = table_bytes};
    for (size_t i = 0; i < m->upload_count + m->expected_count; i++) {
        const sn_region *r = i < m->upload_count ? &m->uploads[i] : &m->expected[i - m->upload_count];
        if (overlap(r, &table))
            return sn_error_set(e, SN_ERR_INPUT, "%s: %s (0x%llx, %llu bytes) reaches the top of DRAM, where the "
                                "packed table (%llu bytes) goes", m->path, r->file, (unsigned long long)r->addr,
                                (unsigned long long)r->nbytes, (unsigned long long)table_bytes);
    }
    *addr = table.addr;
    return SN_OK;
}

/* Whether [addr, addr+n) lies inside one of the case's uploads. */
static int inside_upload(const sn_manifest *m, uint64_t addr, uint64_t n)
{
    for (size_t i = 0; i < m->upload_count; i++)
        if (addr >= m->uploads[i].addr && n <= m->uploads[i].nbytes && addr - m->uploads[i].addr <= m->uploads[i].nbytes - n)
            return 1;
    return 0;
}

/* The payloads kicked to matmul clusters, in program order, as 256-bit words
 * (*rows, *n; NULL rows on error). Every FILL must read FP16 entries the case
 * uploaded: what it reads is what the host converts to MXFP7, and bytes
 * nobody uploaded would be converted silently (cluster fields:
 * sysnode-facts §3.3; 256-byte FP16 entries: artifacts-facts §3.2). */
static sn_status cluster_rows(const sn_program *p, const sn_mesh *mesh, const sn_manifest *m, sn_payload **rows,
                              size_t *n, sn_error *e)
{
    sn_table t = sn_program_table(p);
    *n = 0;
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
                if (sn_mg_op(q) != SN_MG_OP_FILL)
                    continue;
                uint64_t addr = SN_MG_DRAM_ADDR(q);
                uint64_t bytes = sn_mg_n(q) * SN_MX_FP16_ENTRY_BYTES;
                if (!inside_upload(m, addr, bytes)) {
                    free(*rows);
                    *rows = NULL;
                    return sn_error_set(e, SN_ERR_INPUT,
                                        "%s: round %u slot %u: FILL of %llu bytes at 0x%llx reads outside every "
                                        "upload of %s",
                                        p->files[r], r, s->a + k, (unsigned long long)bytes,
                                        (unsigned long long)addr, m->path);
                }
            }
        }
    }
    return SN_OK;
}

/* The case's uploads as one DRAM image [lo, hi) (zero between uploads).
 * Users hand over FP16; every region a matmul cluster FILLs is converted to
 * the 128-byte MXFP7 entries the cluster reads (DESIGN.md §6,
 * artifacts-facts §3.3). *image is NULL when the case uploads nothing. */
typedef struct {
    uint8_t *image;
    uint64_t lo, hi;
} upload_image;

static sn_status prepare_uploads(const sn_manifest *m, const sn_program *p, const sn_mesh *mesh, upload_image *u,
                                 uint64_t *mx_regions, sn_error *e)
{
    size_t nrows;
    sn_payload *rows;
    u->image = NULL;
    u->lo = UINT64_MAX;
    u->hi = 0;
    sn_status st = cluster_rows(p, mesh, m, &rows, &nrows, e);
    if (st != SN_OK || m->upload_count == 0) {
        free(rows);
        return st;
    }
    for (size_t i = 0; i < m->upload_count; i++) {
        const sn_region *r = &m->uploads[i];
        u->lo = r->addr < u->lo ? r->addr : u->lo;
        u->hi = r->addr + r->nbytes > u->hi ? r->addr + r->nbytes : u->hi;
    }
    u->image = calloc(1, u->hi - u->lo);
    if (!u->image) {
        st = sn_error_set(e, SN_ERR_INTERNAL, "out of memory for a %llu-byte upload image",
                          (unsigned long long)(u->hi - u->lo));
    } else {
        for (size_t i = 0; i < m->upload_count; i++)
            memcpy(u->image + (m->uploads[i].addr - u->lo), m->uploads[i].data, m->uploads[i].nbytes);
        size_t regions = 0;
        if (nrows > 0)
            st = sn_mx_convert_image(u->image, u->lo, u->hi - u->lo, rows, nrows, &regions, e);
        *mx_regions = regions;
    }
    free(rows);
    return st;
}

/* Writes the uploads, the 0xa5 poison over every expected output, the table
 * and the boot arguments. */
static sn_status place(sn_transport *t, const sn_manifest *m, const upload_image *u, const uint8_t *table,
                       uint64_t table_bytes, int digest, const sn_replay_result *res, sn_error *e)
{
    static const unsigned char poison[4096] = {[0 ... 4095] = SN_REPLAY_POISON};
    sn_status st;
    if (u->image && (st = t->ops->dram_write(t->ctx, u->lo, u->image, u->hi - u->lo, e)) != SN_OK)
        return st;
    for (size_t i = 0; i < m->expected_count; i++) {
        const sn_region *x = &m->expected[i];
        for (uint64_t off = 0; off < x->nbytes; off += sizeof poison) {
            uint64_t n = x->nbytes - off < sizeof poison ? x->nbytes - off : sizeof poison;
            if ((st = t->ops->dram_write(t->ctx, x->addr + off, poison, n, e)) != SN_OK)
                return st;
        }
    }
    if ((st = t->ops->dram_write(t->ctx, res->table_addr, table, table_bytes, e)) != SN_OK)
        return st;
    return sn_window_write_boot_args(t, res->table_addr, table_bytes, digest ? m->expected[0].addr : 0,
                                     digest ? m->expected[0].nbytes : 0, e);
}

/* The runner's "runner: result crc32 0xC over N bytes at 0xA" line against
 * the CRC of the expected bytes. */
static sn_status check_digest(const char *console, const sn_region *x, sn_replay_result *res, sn_error *e)
{
    static const char key[] = "runner: result crc32 ";
    const char *line = strstr(console, key);
    unsigned crc;
    if (!line || sscanf(line + sizeof key - 1, "0x%x", &crc) != 1)
        return sn_error_set(e, SN_ERR_PROTOCOL, "the runner printed no result digest (an image without it?)");
    res->digest_checked = 1;
    res->digest_got = crc;
    res->digest_want = sn_crc32(x->data, x->nbytes);
    if (res->digest_got == res->digest_want)
        return SN_OK;
    res->match = 0;
    return sn_error_set(e, SN_ERR_MISMATCH,
                        "%s: the runner read back CRC-32 0x%08x over %llu bytes at 0x%llx after its last round, "
                        "expected 0x%08x: it read bytes that had not landed (a version-4 unit's writes land after "
                        "its completion; the runner must settle)",
                        x->file, res->digest_got, (unsigned long long)x->nbytes, (unsigned long long)x->addr,
                        res->digest_want);
}

static sn_status compare_outputs(sn_transport *t, const sn_manifest *m, sn_replay_result *res, sn_error *e)
{
    unsigned char buf[4096];
    res->match = 1;
    for (size_t i = 0; i < m->expected_count; i++)
        res->output_bytes += m->expected[i].nbytes;
    for (size_t i = 0; i < m->expected_count && res->match; i++) {
        const sn_region *x = &m->expected[i];
        for (uint64_t off = 0; off < x->nbytes && res->match; off += sizeof buf) {
            uint64_t n = x->nbytes - off < sizeof buf ? x->nbytes - off : sizeof buf;
            sn_status st = t->ops->dram_read(t->ctx, x->addr + off, buf, n, e);
            if (st != SN_OK)
                return st;
            for (uint64_t k = 0; k < n; k++) {
                if (buf[k] != x->data[off + k]) {
                    res->match = 0;
                    res->diff_offset = off + k;
                    res->diff_addr = x->addr + off + k;
                    snprintf(res->diff_file, sizeof res->diff_file, "%s", x->file);
                    res->got = buf[k];
                    res->want = x->data[off + k];
                    break;
                }
            }
        }
    }
    if (res->match)
        return SN_OK;
    return sn_error_set(e, SN_ERR_MISMATCH, "%s: offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x",
                        res->diff_file, (unsigned long long)res->diff_offset, (unsigned long long)res->diff_addr,
                        res->got, res->want);
}

sn_status sn_replay_case(const sn_replay_opts *opts, sn_transport *t, sn_replay_result *res, sn_error *e)
{
    sn_manifest m;
    sn_program prog;
    sn_elf_image img;
    upload_image uploads = {NULL, 0, 0};
    uint8_t *table = NULL;
    uint64_t table_bytes = 0;
    char err[256];
    sn_status st;
    memset(res, 0, sizeof *res);
    memset(&prog, 0, sizeof prog);
    memset(&img, 0, sizeof img);

    /* Read and check everything before anything reaches the SysNode. */
    if ((st = sn_manifest_load(&m, opts->case_dir, e)) != SN_OK || (st = sn_manifest_read_data(&m, e)) != SN_OK ||
        (st = sn_program_load_case(&prog, opts->case_dir, e)) != SN_OK)
        goto out;
    if ((st = sn_mesh_check_manifest(&m, e)) != SN_OK || (st = check_regions(&m, e)) != SN_OK)
        goto out;
    sn_mesh mesh = sn_mesh_from_manifest(&m);
    if ((st = check_mesh(&m, &mesh, e)) != SN_OK)
        goto out;
    if (opts->table) {
        size_t n = 0;
        st = sn_file_read(opts->table, &table, &n, e);
        table_bytes = n;
    } else {
        st = sn_pack_program(&prog, &mesh, &table, &table_bytes, e);
    }
    if (st != SN_OK)
        goto out;
    if (sn_elf_image_load(opts->image, &img, err, sizeof err) != 0) {
        st = sn_error_set(e, SN_ERR_INPUT, "%s: %s", opts->image, err);
        goto out;
    }
    snprintf(res->name, sizeof res->name, "%s", m.name);
    res->rounds = (uint32_t)prog.round_count;
    res->table_bytes = table_bytes;
    if ((st = place_table(&m, table_bytes, t->ops->dram_size(t->ctx), &res->table_addr, e)) != SN_OK ||
        (st = prepare_uploads(&m, &prog, &mesh, &uploads, &res->mxfp7_regions, e)) != SN_OK)
        goto out;

    /* Only now does anything reach the SysNode. */
    if ((st = sn_window_load_image(t, &img, opts->image, e)) != SN_OK ||
        (st = place(t, &m, &uploads, table, table_bytes, opts->digest, res, e)) != SN_OK ||
        (st = t->ops->boot(t->ctx, e)) != SN_OK)
        goto out;
    sn_run_status r;
    if ((st = t->ops->wait(t->ctx, opts->max_cycles, &r, e)) != SN_OK)
        goto out;
    res->cycles = r.cycles;
    res->instret = r.instret;
    st = run_status(&r, t->ops->console(t->ctx), opts->image, e);
    if (st == SN_OK)
        st = check_summary(t->ops->console(t->ctx), &prog, opts->image, res, e);
    if (st == SN_OK)
        st = compare_outputs(t, &m, res, e);
    if (st == SN_OK && opts->digest)
        st = check_digest(t->ops->console(t->ctx), &m.expected[0], res, e);
out:
    free(uploads.image);
    free(table);
    sn_elf_image_free(&img);
    sn_program_free(&prog);
    sn_manifest_free(&m);
    return st;
}
