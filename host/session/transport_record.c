/* The recording transport (see transport.h): forwards each host-window access
 * and writes it as one text line, data in hex, so traces compare byte for
 * byte:
 *   imem ADDR WORD | spad OFFSET VALUE STROBES | spad_read OFFSET N HEX |
 *   dram_write ADDR N HEX |
 *   dram_read ADDR N HEX | boot | wait LIMIT STOP EXIT CYCLES */
#include <stdio.h>
#include <stdlib.h>

#include "file_out.h"
#include "transport.h"

typedef struct {
    sn_transport inner;
    sn_out out;   /* the trace, written through its temporary (file_out.h) */
    FILE *trace;  /* out.f */
    int waited;   /* the run reached its wait: the trace is worth keeping */
} recorder;

/* n bytes at p as lowercase hex, two digits a byte ("%02x" each), formatted
 * a block at a time: a call per byte was a fifth of a traced replay's time. */
static void hex(FILE *f, const void *p, uint64_t n)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = p;
    char text[2 * 4096];
    while (n > 0) {
        size_t k = n < sizeof text / 2 ? (size_t)n : sizeof text / 2;
        for (size_t i = 0; i < k; i++) {
            text[2 * i] = digits[b[i] >> 4];
            text[2 * i + 1] = digits[b[i] & 15];
        }
        fwrite(text, 1, 2 * k, f);
        b += k;
        n -= k;
    }
}

/* Ends a read's line: the n bytes read in hex, or "error" when st failed. */
static void read_tail(FILE *f, sn_status st, const void *p, uint64_t n)
{
    if (st == SN_OK)
        hex(f, p, n);
    else
        fputs("error", f);
    fputc('\n', f);
}

static sn_status rec_imem_write(void *ctx, uint32_t addr, uint32_t word, sn_error *e)
{
    recorder *r = ctx;
    fprintf(r->trace, "imem 0x%05x 0x%08x\n", addr, word);
    return r->inner.ops->imem_write(r->inner.ctx, addr, word, e);
}

static sn_status rec_spad_write(void *ctx, uint32_t offset, uint64_t value, uint8_t strobes, sn_error *e)
{
    recorder *r = ctx;
    fprintf(r->trace, "spad 0x%05x 0x%016llx 0x%02x\n", offset, (unsigned long long)value, strobes);
    return r->inner.ops->spad_write(r->inner.ctx, offset, value, strobes, e);
}

static sn_status rec_spad_read(void *ctx, uint32_t offset, void *dst, uint32_t n, sn_error *e)
{
    recorder *r = ctx;
    sn_status st = r->inner.ops->spad_read(r->inner.ctx, offset, dst, n, e);
    fprintf(r->trace, "spad_read 0x%05x %u ", offset, n);
    read_tail(r->trace, st, dst, n);
    return st;
}

static sn_status rec_dram_write(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    recorder *r = ctx;
    fprintf(r->trace, "dram_write 0x%010llx %llu ", (unsigned long long)addr, (unsigned long long)n);
    hex(r->trace, src, n);
    fputc('\n', r->trace);
    return r->inner.ops->dram_write(r->inner.ctx, addr, src, n, e);
}

static sn_status rec_dram_read(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    recorder *r = ctx;
    sn_status st = r->inner.ops->dram_read(r->inner.ctx, addr, dst, n, e);
    fprintf(r->trace, "dram_read 0x%010llx %llu ", (unsigned long long)addr, (unsigned long long)n);
    read_tail(r->trace, st, dst, n);
    return st;
}

static sn_status rec_boot(void *ctx, sn_error *e)
{
    recorder *r = ctx;
    fputs("boot\n", r->trace);
    return r->inner.ops->boot(r->inner.ctx, e);
}

static sn_status rec_wait(void *ctx, uint64_t cycle_limit, sn_run_status *out, sn_error *e)
{
    recorder *r = ctx;
    sn_status st = r->inner.ops->wait(r->inner.ctx, cycle_limit, out, e);
    fprintf(r->trace, "wait %llu %d %llu %llu\n", (unsigned long long)cycle_limit, st == SN_OK ? (int)out->stop : -1,
            (unsigned long long)out->exit_code, (unsigned long long)out->cycles);
    r->waited = 1;
    return st;
}

static const char *rec_console(void *ctx)
{
    recorder *r = ctx;
    return r->inner.ops->console(r->inner.ctx);
}

static uint64_t rec_dram_size(void *ctx)
{
    recorder *r = ctx;
    return r->inner.ops->dram_size(r->inner.ctx);
}

static void rec_close(void *ctx)
{
    recorder *r = ctx;
    sn_out_abort(&r->out); /* a no-op after sn_transport_record_commit */
    sn_transport_close(&r->inner);
    free(r);
}

static sn_status rec_stats(void *ctx, sn_run_stats *out, sn_error *e)
{
    recorder *r = ctx;
    if (!r->inner.ops->stats)
        return sn_error_set(e, SN_ERR_INPUT, "this host window counts no MMIO or GOs");
    return r->inner.ops->stats(r->inner.ctx, out, e);
}

static int rec_track_accesses(void *ctx, int on)
{
    recorder *r = ctx;
    return r->inner.ops->track_accesses ? r->inner.ops->track_accesses(r->inner.ctx, on) : 0;
}

static sn_status rec_take_accesses(void *ctx, const sn_unit_access **out, size_t *n, sn_error *e)
{
    recorder *r = ctx;
    *out = NULL;
    *n = 0;
    return r->inner.ops->take_accesses ? r->inner.ops->take_accesses(r->inner.ctx, out, n, e) : SN_OK;
}

static const char *rec_host_steps_refused(void *ctx)
{
    recorder *r = ctx;
    return r->inner.ops->host_steps_refused ? r->inner.ops->host_steps_refused(r->inner.ctx) : NULL;
}

static const sn_transport_ops record_ops = {
    rec_imem_write, rec_spad_write, rec_spad_read, rec_dram_write,     rec_dram_read,
    rec_boot,       rec_wait,       rec_console,   rec_dram_size,      rec_close,
    rec_stats,      rec_track_accesses, rec_take_accesses, rec_host_steps_refused,
    NULL, /* sim: a recorder is no simulator's window */
};

sn_status sn_transport_record_open(sn_transport *t, sn_transport inner, const char *trace_path, sn_error *e)
{
    recorder *r = calloc(1, sizeof *r);
    if (!r)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    sn_status st = sn_out_open(&r->out, trace_path, e);
    if (st != SN_OK) {
        free(r);
        return st;
    }
    r->trace = r->out.f;
    r->inner = inner;
    t->ops = &record_ops;
    t->ctx = r;
    return SN_OK;
}

sn_status sn_transport_record_commit(sn_transport *t, sn_error *e)
{
    recorder *r = t->ctx;
    if (t->ops != &record_ops || r->out.f == NULL)
        return SN_OK;
    if (!r->waited) {
        sn_out_abort(&r->out);
        return SN_OK;
    }
    return sn_out_commit(&r->out, e);
}
