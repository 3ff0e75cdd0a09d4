/* The host window on a card (see transport.h), spoken over a card bus
 * (card_bus.h) through the load window at +0x8000 of the control port
 * (sysnode-facts §1.3, sysnode/host_window.h):
 * - IMEM and SPAD words stream through LOAD_CTL (region, start offset) and
 *   LOAD_DATA (the offset steps by 4 or 8); LOAD_CTL is written only when a
 *   word does not follow the last one. The window writes whole SPAD words,
 *   so the transport keeps the bytes it wrote to the scratchpad and merges a
 *   strobed write into them (bytes never written go out as 0).
 * - DRAM moves by DMA in whole 64-byte beats: a range that does not start or
 *   end on a beat is widened, the partial beats read back first when the host
 *   wrote them before, else filled with 0. The transport records every beat
 *   it wrote and refuses to read any other (ECC answers SLVERR and wedges the
 *   channel: KohakuTPU driver/kohakuaccel/transport/xdma.py@4c61f070).
 * - The scratchpad is not read: the runner's status block and held word
 *   are read from the DRAM status copy it keeps (card_spad_read).
 * - BOOT, then STATUS polls; each poll drains the 256-byte console FIFO
 *   (it overwrites when full). EXIT, CYCLES, RETIRED, HALTPC at the stop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card_bus.h"
#include "clock.h"
#include "err_text.h"
#include "transport_card.h"
#include "escape.h"
#include "sysnode/boot_args.h"
#include "sysnode/host_sync.h"
#include "sysnode/host_window.h"
#include "sysnode/regs.h"
#include "transport.h"

#define BEAT SN_HW_DMA_ALIGN
/* Polls with CYCLES unchanged and no stop before the core counts as not
 * running (a card that did not take BOOT, or is not a SysNode). */
#define STALL_POLLS 100000u

typedef struct {
    uint64_t lo, hi; /* [lo, hi), whole beats */
} span;

typedef struct {
    sn_card_bus bus;
    uint64_t spad[SN_SPAD_SIZE / 8]; /* what the host wrote to the scratchpad */
    int cursor_valid;                /* the window's load pointer is known: */
    unsigned cursor_region;          /* ... its region ... */
    uint32_t cursor_offset;          /* ... and where the next LOAD_DATA goes */
    span *written;                   /* DRAM beats written, sorted, merged */
    size_t nwritten, capwritten;
    char *console;
    size_t console_len, console_cap;
    double wait_seconds;
} card;

static sn_status reg_write(card *c, uint64_t reg, uint64_t value, sn_error *e)
{
    return c->bus.ops->write64(c->bus.ctx, SN_HW_WINDOW_BASE + reg, value, e);
}

static sn_status reg_read(card *c, uint64_t reg, uint64_t *value, sn_error *e)
{
    return c->bus.ops->read64(c->bus.ctx, SN_HW_WINDOW_BASE + reg, value, e);
}

/* One word through LOAD_DATA at (region, offset). */
static sn_status load_word(card *c, unsigned region, uint32_t offset, uint64_t word, sn_error *e)
{
    sn_status st;
    if (!c->cursor_valid || c->cursor_region != region || c->cursor_offset != offset) {
        uint64_t ctl = (uint64_t)offset << SN_HW_LOAD_OFFSET_SHIFT | region;
        if ((st = reg_write(c, SN_HW_LOAD_CTL, ctl, e)) != SN_OK) {
            c->cursor_valid = 0;
            return st;
        }
    }
    if ((st = reg_write(c, SN_HW_LOAD_DATA, word, e)) != SN_OK) {
        c->cursor_valid = 0;
        return st;
    }
    c->cursor_valid = 1;
    c->cursor_region = region;
    c->cursor_offset = offset + (region == SN_HW_LOAD_REGION_SPAD ? 8 : 4);
    return SN_OK;
}

static sn_status card_imem_write(void *ctx, uint32_t addr, uint32_t word, sn_error *e)
{
    card *c = ctx;
    if (addr % 4 || addr >= SN_IMEM_SIZE)
        return sn_error_set(e, SN_ERR_INPUT, "%s: IMEM write at 0x%x: outside the 32 KB window or not 4-aligned",
                            c->bus.ops->name(c->bus.ctx), addr);
    return load_word(c, SN_HW_LOAD_REGION_IMEM, addr, word, e);
}

static sn_status card_spad_write(void *ctx, uint32_t offset, uint64_t value, uint8_t strobes, sn_error *e)
{
    card *c = ctx;
    if (offset % 8 || offset >= SN_SPAD_SIZE)
        return sn_error_set(e, SN_ERR_INPUT, "%s: SPAD write at offset 0x%x: outside the 32 KB window or not 8-aligned",
                            c->bus.ops->name(c->bus.ctx), offset);
    uint64_t *word = &c->spad[offset / 8];
    for (unsigned b = 0; b < 8; b++)
        if (strobes >> b & 1)
            *word = (*word & ~(0xFFull << 8 * b)) | (value & 0xFFull << 8 * b);
    return load_word(c, SN_HW_LOAD_REGION_SPAD, offset, *word, e);
}

/* ---- DRAM ------------------------------------------------------------------ */

/* The first beat of [lo, hi) the host never wrote, or hi when all were. */
static uint64_t first_unwritten(const card *c, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < c->nwritten && lo < hi; i++) {
        if (c->written[i].hi <= lo)
            continue;
        if (c->written[i].lo > lo)
            return lo;
        lo = c->written[i].hi;
    }
    return lo < hi ? lo : hi;
}

static sn_status mark_written(card *c, uint64_t lo, uint64_t hi, sn_error *e)
{
    if (c->nwritten == c->capwritten) {
        size_t cap = c->capwritten ? 2 * c->capwritten : 16;
        span *s = realloc(c->written, cap * sizeof *s);
        if (!s)
            return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the written-DRAM map");
        c->written = s;
        c->capwritten = cap;
    }
    size_t i = 0;
    while (i < c->nwritten && c->written[i].hi < lo)
        i++;
    memmove(&c->written[i + 1], &c->written[i], (c->nwritten - i) * sizeof *c->written);
    c->written[i] = (span){lo, hi};
    c->nwritten++;
    /* merge i with every span it touches after it */
    size_t j = i + 1;
    while (j < c->nwritten && c->written[j].lo <= c->written[i].hi) {
        if (c->written[j].hi > c->written[i].hi)
            c->written[i].hi = c->written[j].hi;
        if (c->written[j].lo < c->written[i].lo)
            c->written[i].lo = c->written[j].lo;
        j++;
    }
    memmove(&c->written[i + 1], &c->written[j], (c->nwritten - j) * sizeof *c->written);
    c->nwritten -= j - i - 1;
    return SN_OK;
}

static sn_status check_range(card *c, const char *what, uint64_t addr, uint64_t n, sn_error *e)
{
    uint64_t size = c->bus.ops->dram_size(c->bus.ctx);
    if (addr > size || n > size - addr)
        return sn_error_set(e, SN_ERR_INPUT, "%s: DRAM %s of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)",
                            c->bus.ops->name(c->bus.ctx), what, (unsigned long long)n, (unsigned long long)addr,
                            (unsigned long long)size);
    return SN_OK;
}

/* Checks [addr, addr + n) against the card's DRAM (check_range) and widens
 * it to whole beats [*lo, *hi); an empty range (n == 0) passes as is. */
static sn_status beat_range(card *c, const char *what, uint64_t addr, uint64_t n, uint64_t *lo, uint64_t *hi,
                            sn_error *e)
{
    *lo = *hi = addr;
    if (n == 0)
        return SN_OK;
    sn_status st = check_range(c, what, addr, n, e);
    *lo = addr / BEAT * BEAT;
    *hi = (addr + n + BEAT - 1) / BEAT * BEAT;
    return st;
}

static sn_status card_dram_write(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    card *c = ctx;
    uint64_t lo, hi;
    sn_status st = beat_range(c, "write", addr, n, &lo, &hi, e);
    if (st != SN_OK || n == 0)
        return st;
    if (lo == addr && hi == addr + n) {
        st = c->bus.ops->dma_write(c->bus.ctx, addr, src, n, e);
    } else {
        uint8_t *buf = calloc(1, hi - lo);
        if (!buf)
            return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for a %llu-byte DMA", (unsigned long long)(hi - lo));
        st = SN_OK;
        /* the partial beats at either end keep what the host wrote there before */
        uint64_t ends[2] = {lo, hi - BEAT};
        for (int k = 0; k < 2 && st == SN_OK; k++)
            if ((k == 0 || ends[1] != ends[0]) && first_unwritten(c, ends[k], ends[k] + BEAT) == ends[k] + BEAT)
                st = c->bus.ops->dma_read(c->bus.ctx, ends[k], buf + (ends[k] - lo), BEAT, e);
        if (st == SN_OK) {
            memcpy(buf + (addr - lo), src, n);
            st = c->bus.ops->dma_write(c->bus.ctx, lo, buf, hi - lo, e);
        }
        free(buf);
    }
    return st == SN_OK ? mark_written(c, lo, hi, e) : st;
}

static sn_status card_dram_read(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    card *c = ctx;
    uint64_t lo, hi;
    sn_status st = beat_range(c, "read", addr, n, &lo, &hi, e);
    if (st != SN_OK || n == 0)
        return st;
    uint64_t gap = first_unwritten(c, lo, hi);
    if (gap != hi)
        return sn_error_set(e, SN_ERR_INPUT,
                            "%s: DRAM read of %llu bytes at 0x%llx: the beat at 0x%llx was never written; on a card "
                            "unwritten ECC answers SLVERR and wedges the channel, so it is not read",
                            c->bus.ops->name(c->bus.ctx), (unsigned long long)n, (unsigned long long)addr,
                            (unsigned long long)gap);
    if (lo == addr && hi == addr + n)
        return c->bus.ops->dma_read(c->bus.ctx, addr, dst, n, e);
    uint8_t *buf = malloc(hi - lo);
    if (!buf)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for a %llu-byte DMA", (unsigned long long)(hi - lo));
    st = c->bus.ops->dma_read(c->bus.ctx, lo, buf, hi - lo, e);
    if (st == SN_OK)
        memcpy(dst, buf + (addr - lo), n);
    free(buf);
    return st;
}

/* The load window only writes (sysnode/host_window.h): the card has no
 * scratchpad read. What the host reads there, the runner's status block and
 * held word at a host sync point, the runner also copies to the DRAM status
 * copy the boot arguments name (sysnode/host_sync.h), so those reads are
 * served from that copy: it is the scratchpad's as of the last hold or exit.
 * Any other scratchpad read is refused. */
static sn_status card_spad_read(void *ctx, uint32_t offset, void *dst, uint32_t n, sn_error *e)
{
    card *c = ctx;
    const uint32_t block = SN_STATUS_BLOCK_ADDR - SN_SPAD_BASE, held = SN_HOST_HELD_ADDR - SN_SPAD_BASE;
    sn_boot_args args;
    memcpy(&args, (const uint8_t *)c->spad + (SN_BOOT_ARGS_ADDR - SN_SPAD_BASE), sizeof args);
    uint64_t at = UINT64_MAX; /* where in the copy */
    if (offset == held && n == 8)
        at = SN_HOST_HELD_COPY;
    else if (offset >= block && offset - block <= sizeof(sn_status_block) && n <= sizeof(sn_status_block) - (offset - block))
        at = offset - block;
    if (at == UINT64_MAX)
        return sn_error_set(e, SN_ERR_INPUT,
                            "%s: SPAD read of %u bytes at offset 0x%x: the card's load window does not read the "
                            "scratchpad, and only the runner's status block and held word have a DRAM copy",
                            c->bus.ops->name(c->bus.ctx), n, offset);
    if (args.magic != SN_BOOT_ARGS_MAGIC || args.status_addr == 0)
        return sn_error_set(e, SN_ERR_INPUT,
                            "%s: SPAD read of %u bytes at offset 0x%x: the card's load window does not read the "
                            "scratchpad, and the boot arguments name no DRAM status copy to read instead",
                            c->bus.ops->name(c->bus.ctx), n, offset);
    return card_dram_read(c, args.status_addr + at, dst, n, e);
}

/* ---- run ------------------------------------------------------------------- */

/* Appends byte as console text (escape.h: a NUL or a control byte
 * escaped, so every byte the core wrote is kept, as the in-process
 * simulator's console text keeps it). */
static sn_status console_append(card *c, uint8_t byte, sn_error *e)
{
    char text[4];
    unsigned n = sn_console_escape(byte, text);
    if (c->console_len + n + 1 > c->console_cap) {
        size_t cap = c->console_cap ? 2 * c->console_cap : 1024;
        char *s = realloc(c->console, cap);
        if (!s)
            return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the console");
        c->console = s;
        c->console_cap = cap;
    }
    memcpy(c->console + c->console_len, text, n);
    c->console_len += n;
    c->console[c->console_len] = '\0';
    return SN_OK;
}

/* Reads the console FIFO until it is empty; keep: append, else discard. */
static sn_status drain_console(card *c, int keep, sn_error *e)
{
    for (unsigned i = 0; i <= SN_HW_CONSOLE_FIFO_BYTES; i++) {
        uint64_t v;
        sn_status st = reg_read(c, SN_HW_CONSOLE, &v, e);
        if (st != SN_OK)
            return st;
        if (!(v & SN_HW_CONSOLE_VALID))
            return SN_OK;
        if ((keep && (st = console_append(c, (uint8_t)v, e)) != SN_OK) ||
            (st = reg_write(c, SN_HW_CONSOLE, 0, e)) != SN_OK)
            return st;
    }
    return sn_error_set(e, SN_ERR_IO, "%s: the console FIFO at 0x%llx stays non-empty after %u pops",
                        c->bus.ops->name(c->bus.ctx), SN_HW_WINDOW_BASE + SN_HW_CONSOLE, SN_HW_CONSOLE_FIFO_BYTES + 1);
}

static sn_status card_boot(void *ctx, sn_error *e)
{
    card *c = ctx;
    sn_status st = drain_console(c, 0, e); /* bytes from an earlier run */
    if (st != SN_OK)
        return st;
    c->console_len = 0;
    if (c->console)
        c->console[0] = '\0';
    c->wait_seconds = 0;
    return reg_write(c, SN_HW_BOOT, 1, e);
}

/* The registers read at a stop. */
static sn_status read_stop(card *c, uint64_t status, sn_run_status *out, sn_error *e)
{
    sn_status st;
    if ((st = reg_read(c, SN_HW_EXIT, &out->exit_code, e)) != SN_OK ||
        (st = reg_read(c, SN_HW_RETIRED, &out->instret, e)) != SN_OK ||
        (st = reg_read(c, SN_HW_HALTPC, &out->pc, e)) != SN_OK)
        return st;
    if (status & SN_HW_STATUS_SIM_ERROR) {
        out->stop = SN_RUN_SIM_ERROR;
    } else if (status & SN_HW_STATUS_EXITED) {
        out->stop = SN_RUN_EXITED;
    } else {
        out->stop = SN_RUN_HALTED;
        out->halt_cause = (unsigned)(status & SN_HW_STATUS_CAUSE_MASK);
    }
    if (out->stop != SN_RUN_EXITED)
        sn_text_fit(out->message, sizeof out->message, "at PC 0x%llx%s%s", (unsigned long long)out->pc,
                 c->bus.ops->stop_message ? ": " : "", c->bus.ops->stop_message ? c->bus.ops->stop_message(c->bus.ctx) : "");
    return SN_OK;
}

static sn_status card_wait(void *ctx, uint64_t cycle_limit, sn_run_status *out, sn_error *e)
{
    card *c = ctx;
    double start = sn_now_seconds();
    sn_status st;
    memset(out, 0, sizeof *out);
    uint64_t last_cycles = UINT64_MAX;
    unsigned same = 0;
    for (;;) {
        uint64_t status;
        if ((st = reg_read(c, SN_HW_STATUS, &status, e)) != SN_OK || (st = drain_console(c, 1, e)) != SN_OK ||
            (st = reg_read(c, SN_HW_CYCLES, &out->cycles, e)) != SN_OK)
            break;
        if (status & (SN_HW_STATUS_EXITED | SN_HW_STATUS_HALTED | SN_HW_STATUS_SIM_ERROR)) {
            st = read_stop(c, status, out, e);
            break;
        }
        same = out->cycles == last_cycles ? same + 1 : 0;
        last_cycles = out->cycles;
        if (same == STALL_POLLS) {
            st = sn_error_set(e, SN_ERR_IO,
                              "%s: CYCLES (0x%llx) stayed at %llu over %u polls of STATUS (0x%llx) with no exit or "
                              "halt: the core is not running",
                              c->bus.ops->name(c->bus.ctx), SN_HW_WINDOW_BASE + SN_HW_CYCLES,
                              (unsigned long long)out->cycles, STALL_POLLS, SN_HW_WINDOW_BASE + SN_HW_STATUS);
            break;
        }
        if (out->cycles >= cycle_limit) { /* the core runs on; the host stops waiting */
            out->stop = SN_RUN_CYCLE_LIMIT;
            st = reg_read(c, SN_HW_RETIRED, &out->instret, e);
            /* What a card's host can know, on the simulated card too: the scratchpad is not readable
             * (sysnode-facts §1.3), so the runner's counts are only those it copied out (DESIGN §11). */
            sn_text_fit(out->message, sizeof out->message,
                        "the core runs on; a card shows the runner's counts only as it copies them to DRAM, at a "
                        "host step's hold and at its exit");
            break;
        }
    }
    c->wait_seconds += sn_now_seconds() - start;
    return st;
}

static const char *card_console(void *ctx)
{
    card *c = ctx;
    return c->console ? c->console : "";
}

static uint64_t card_dram_size(void *ctx)
{
    card *c = ctx;
    return c->bus.ops->dram_size(c->bus.ctx);
}

static void card_close(void *ctx)
{
    card *c = ctx;
    sn_card_bus_close(&c->bus);
    free(c->written);
    free(c->console);
    free(c);
}

static sn_status card_stats(void *ctx, sn_run_stats *out, sn_error *e)
{
    card *c = ctx;
    if (!c->bus.ops->stats)
        return sn_error_set(e, SN_ERR_INPUT, "%s: a card counts no MMIO or GOs", c->bus.ops->name(c->bus.ctx));
    sn_status st = c->bus.ops->stats(c->bus.ctx, out, e);
    out->wait_seconds = c->wait_seconds;
    return st;
}

/* The simulator behind the bus, when it has one (the simulated card). */
static struct sn_sim *card_sim(void *ctx)
{
    card *c = ctx;
    return c->bus.ops->sim ? c->bus.ops->sim(c->bus.ctx) : NULL;
}

static const sn_transport_ops card_ops = {
    card_imem_write, card_spad_write, card_spad_read, card_dram_write, card_dram_read,
    card_boot,       card_wait,       card_console,    card_dram_size, card_close,
    card_stats,      NULL,            NULL, /* a card's unit DRAM port is not visible */
    NULL,            /* host steps: the held word's DRAM copy (card_spad_read) */
    card_sim,
};

sn_status sn_transport_card_open(sn_transport *t, sn_card_bus bus, sn_error *e)
{
    card *c = calloc(1, sizeof *c);
    if (!c) {
        sn_card_bus_close(&bus);
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    }
    c->bus = bus;
    t->ops = &card_ops;
    t->ctx = c;
    return SN_OK;
}
