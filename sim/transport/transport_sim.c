/* The host window onto the in-process simulator (see transport_sim.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "err_text.h"
#include "gdb_sim.h"
#include "gdb_stub.h"
#include "sim.h"
#include "transport_sim.h"

typedef struct {
    sn_sim *sim;
    double wait_seconds; /* wall time of every wait since BOOT */
    int gdb;             /* opened under GDB (sn_transport_sim_open_gdb) */
    int gdb_listener;    /* the socket GDB connects to until the first wait (gdb_stub.h); -1: none */
} sim_window;

static sn_sim *sim_of(void *ctx)
{
    return ((sim_window *)ctx)->sim;
}

static sn_status sim_imem_write(void *ctx, uint32_t addr, uint32_t word, sn_error *e)
{
    if (sn_sim_imem_write(sim_of(ctx), addr, word) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "IMEM write at 0x%x: outside the 32 KB window or not 4-aligned", addr);
    return SN_OK;
}

static sn_status sim_spad_write(void *ctx, uint32_t offset, uint64_t value, uint8_t strobes, sn_error *e)
{
    if (sn_sim_spad_write(sim_of(ctx), offset, value, strobes) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "SPAD write at offset 0x%x: outside the 32 KB window or not 8-aligned",
                            offset);
    return SN_OK;
}

static sn_status sim_spad_read(void *ctx, uint32_t offset, void *dst, uint32_t n, sn_error *e)
{
    if (sn_sim_spad_read(sim_of(ctx), offset, dst, n) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "SPAD read of %u bytes at offset 0x%x: outside the 32 KB window", n,
                            offset);
    return SN_OK;
}

static sn_status sim_dram_write(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    if (sn_sim_dram_write(sim_of(ctx), addr, src, n) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "DRAM write of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)",
                            (unsigned long long)n, (unsigned long long)addr,
                            (unsigned long long)sn_sim_dram_size(sim_of(ctx)));
    return SN_OK;
}

static sn_status sim_dram_read(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    if (sn_sim_dram_read(sim_of(ctx), addr, dst, n) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "DRAM read of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)",
                            (unsigned long long)n, (unsigned long long)addr,
                            (unsigned long long)sn_sim_dram_size(sim_of(ctx)));
    return SN_OK;
}

static sn_status sim_boot(void *ctx, sn_error *e)
{
    char err[256];
    ((sim_window *)ctx)->wait_seconds = 0;
    if (sn_sim_boot(sim_of(ctx), err, sizeof err) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "boot: %s", err);
    return SN_OK;
}

static sn_status sim_wait(void *ctx, uint64_t cycle_limit, sn_run_status *out, sn_error *e)
{
    (void)e;
    double start = sn_now_seconds();
    sim_window *w = ctx;
    int listener = w->gdb_listener;
    w->gdb_listener = -1; /* one run, from BOOT to exit, is served: host steps are refused under GDB */
    sn_run_status r = listener >= 0 ? sn_sim_run_gdb(w->sim, cycle_limit, listener) : sn_sim_run(w->sim, cycle_limit);
    ((sim_window *)ctx)->wait_seconds += sn_now_seconds() - start;
    *out = r;
    if (r.stop == SN_RUN_BREAK) { /* never past gdb_sim, which clears its breakpoints */
        out->stop = SN_RUN_SIM_ERROR;
        sn_text_fit(out->message, sizeof out->message, "stopped at a debugger's breakpoint at 0x%llx with no debugger",
                 (unsigned long long)sn_sim_debug_register(sim_of(ctx), 32));
    }
    out->dropped_gos = sn_sim_dropped_gos(sim_of(ctx));
    if (r.stop == SN_RUN_HALTED) /* as the card's transport words it (transport_card.c read_stop); the
                                    hart's exception text is under 100 bytes */
        sn_text_fit(out->message, sizeof out->message, "at PC 0x%llx: %.400s", (unsigned long long)r.pc, r.message);
    sn_text_fit(out->inject, sizeof out->inject, "%s", sn_sim_inject_report(sim_of(ctx)));
    sn_text_fit(out->errata, sizeof out->errata, "%s", sn_sim_errata(sim_of(ctx)));
    return SN_OK;
}

/* As text (sn_sim_console_text): the host shows it in messages, and a NUL
 * or a control byte in it must neither cut nor drive the terminal. */
static const char *sim_console(void *ctx)
{
    return sn_sim_console_text(sim_of(ctx));
}

static uint64_t sim_dram_size(void *ctx)
{
    return sn_sim_dram_size(sim_of(ctx));
}

static void sim_close(void *ctx)
{
    sim_window *w = ctx;
    if (w->gdb_listener >= 0)
        close(w->gdb_listener);
    sn_sim_destroy(w->sim);
    free(w);
}

static sn_status sim_stats(void *ctx, sn_run_stats *out, sn_error *e)
{
    (void)e;
    sim_window *w = ctx;
    sn_sim_get_stats(w->sim, out);
    out->wait_seconds = w->wait_seconds;
    return SN_OK;
}

static int sim_track_accesses(void *ctx, int on)
{
    int record = on && !((sim_window *)ctx)->gdb; /* a GDB wait serves the debugger: not split */
    sn_sim_track_accesses(sim_of(ctx), record);
    return record;
}

static sn_status sim_take_accesses(void *ctx, const sn_unit_access **out, size_t *n, sn_error *e)
{
    (void)e;
    *n = sn_sim_take_accesses(sim_of(ctx), out);
    return SN_OK;
}

/* GDB serves one wait, from BOOT to the end; a host step would end the wait at its sync point. */
static const char *sim_host_steps_refused(void *ctx)
{
    return ((sim_window *)ctx)->gdb ? "--gdb serves one run from BOOT to exit; a host step holds the "
                                                "runner between rounds, where the debugger's run would end"
                                              : NULL;
}

static struct sn_sim *sim_sim(void *ctx)
{
    return sim_of(ctx);
}

static const sn_transport_ops sim_ops = {
    sim_imem_write,     sim_spad_write,    sim_spad_read, sim_dram_write, sim_dram_read, sim_boot,
    sim_wait,           sim_console,       sim_dram_size, sim_close,      sim_stats,     sim_track_accesses,
    sim_take_accesses,  sim_host_steps_refused,           sim_sim,
};

sn_status sn_transport_sim_open(sn_transport *t, const sn_sim_transport_opts *o, sn_error *e)
{
    char err[256];
    sn_sim_config cfg = {0, o ? o->cu_version : 0, o ? o->lockstep : 0, o ? o->dram_latency : 0};
    sim_window *w = calloc(1, sizeof *w);
    if (!w)
        return sn_error_set(e, SN_ERR_INTERNAL, "simulator: out of memory");
    w->sim = sn_sim_create(&cfg, err, sizeof err);
    if (!w->sim) {
        free(w);
        return sn_error_set(e, SN_ERR_INTERNAL, "simulator: %s", err);
    }
    w->gdb_listener = -1;
    if (o && o->progress)
        sn_sim_set_progress(w->sim, o->progress, o->progress_ctx);
    t->ops = &sim_ops;
    t->ctx = w;
    return SN_OK;
}

static sn_status inject_parse(const char *spec, sn_inject_spec *j, sn_error *e)
{
    char err[256];
    if (sn_inject_parse(spec, j, err, sizeof err) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s", err);
    return SN_OK;
}

sn_status sn_transport_sim_inject_check(const char *spec, sn_error *e)
{
    sn_inject_spec j;
    return inject_parse(spec, &j, e);
}

sn_status sn_transport_sim_inject(sn_transport *t, const char *spec, sn_error *e)
{
    sn_inject_spec j;
    if (t->ops != &sim_ops)
        return sn_error_set(e, SN_ERR_INTERNAL, "--inject needs the simulator's own transport");
    sn_status st = inject_parse(spec, &j, e);
    if (st == SN_OK)
        sn_sim_set_inject(sim_of(t->ctx), &j);
    return st;
}

sn_status sn_transport_sim_open_gdb(sn_transport *t, const sn_sim_transport_opts *o, int gdb_port, sn_error *e)
{
    char err[256];
    int listener = sn_gdb_listen(gdb_port, err, sizeof err);
    if (listener < 0)
        return sn_error_set(e, SN_ERR_INPUT, "--gdb %d: %s", gdb_port, err);
    sn_status st = sn_transport_sim_open(t, o, e);
    if (st == SN_OK) {
        ((sim_window *)t->ctx)->gdb = 1;
        ((sim_window *)t->ctx)->gdb_listener = listener;
    } else
        close(listener);
    return st;
}

sn_sim *sn_transport_sim_of(const sn_transport *t)
{
    return t && t->ops && t->ops->sim ? t->ops->sim(t->ctx) : NULL;
}

uint64_t sn_transport_sim_saturated(const sn_transport *t, unsigned x, unsigned y)
{
    return t && t->ops == &sim_ops ? sn_sim_saturated(((sim_window *)t->ctx)->sim, x, y) : UINT64_MAX;
}

sn_status sn_transport_sim_fst_open(const sn_transport *t, const char *path, uint64_t from, uint64_t to,
                                    sn_error *e)
{
    char why[512];
    sn_sim *sim = sn_transport_sim_of(t);
    if (!sim)
        return sn_error_set(e, SN_ERR_INPUT, "--fst: a card has no simulated mesh to dump");
    if (sn_sim_fst_open(sim, path, from, to, why, sizeof why) != 0)
        return sn_error_set(e, SN_ERR_IO, "--fst: %s", why);
    return SN_OK;
}

sn_status sn_transport_sim_fst_close(const sn_transport *t, sn_error *e)
{
    char why[512];
    sn_sim *sim = sn_transport_sim_of(t);
    if (sim && sn_sim_fst_close(sim, why, sizeof why) != 0)
        return sn_error_set(e, SN_ERR_IO, "--fst: %s", why);
    return SN_OK;
}

void sn_transport_sim_interrupt(int sig)
{
    sn_sim_interrupt(sig);
}
