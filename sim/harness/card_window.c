/* The simulated card's host window (see card_window.h). */
#include "card_window.h"
#include "err_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysnode/host_window.h"

#define GRANULE SN_HW_DMA_ALIGN

struct sn_card_window {
    sn_sim *sim;
    /* the load pointer (rv64_load_win: ld_region, ld_off[15:0]) */
    unsigned load_region;
    uint16_t load_offset;
    /* the console FIFO: 8-bit read and write pointers, no full check */
    uint8_t fifo[SN_HW_CONSOLE_FIFO_BYTES];
    uint8_t fifo_wr, fifo_rd;
    size_t console_seen; /* bytes of sn_sim_console already pushed into the FIFO */
    /* the core */
    int booted;
    sn_run_status last; /* the state after the last poll */
    /* DMA: granules written at least once; a refused read wedges the channel */
    uint8_t *written;
    char wedged[256];
};

sn_card_window *sn_card_window_create(const sn_sim_config *cfg, char *err, size_t errlen)
{
    sn_card_window *w = calloc(1, sizeof *w);
    if (!w) {
        sn_err_text(err, errlen, "out of memory");
        return NULL;
    }
    w->sim = sn_sim_create(cfg, err, errlen);
    if (!w->sim) {
        free(w);
        return NULL;
    }
    w->written = calloc(sn_sim_dram_size(w->sim) / GRANULE, 1);
    if (!w->written) {
        sn_sim_destroy(w->sim);
        free(w);
        sn_err_text(err, errlen, "out of memory for the DMA granule map");
        return NULL;
    }
    sn_sim_clear_memories(w->sim);
    return w;
}

void sn_card_window_destroy(sn_card_window *w)
{
    if (!w)
        return;
    sn_sim_destroy(w->sim);
    free(w->written);
    free(w);
}

/* Console bytes the core stored since the last poll go into the FIFO in
 * order; with no full check the write pointer may pass the read pointer. */
static void feed_console(sn_card_window *w)
{
    const char *c = sn_sim_console(w->sim);
    size_t n = sn_sim_console_length(w->sim);
    for (; w->console_seen < n; w->console_seen++)
        w->fifo[w->fifo_wr++] = (uint8_t)c[w->console_seen];
}

static int stopped(const sn_card_window *w)
{
    return w->booted && w->last.stop != SN_RUN_CYCLE_LIMIT;
}

/* A STATUS read: the card runs SN_HW_POLL_CYCLES more cycles first. */
static uint64_t poll_status(sn_card_window *w)
{
    if (!w->booted)
        return 0;
    if (!stopped(w))
        w->last = sn_sim_run(w->sim, w->last.cycles + SN_HW_POLL_CYCLES);
    feed_console(w);
    switch (w->last.stop) {
    case SN_RUN_EXITED:
        return SN_HW_STATUS_EXITED;
    case SN_RUN_HALTED:
        return SN_HW_STATUS_HALTED | (w->last.halt_cause & SN_HW_STATUS_CAUSE_MASK);
    case SN_RUN_SIM_ERROR:
        return SN_HW_STATUS_SIM_ERROR;
    default:
        return 0;
    }
}

/* The register a control-port offset names, as an offset into the load
 * window; -1 with err set when the offset lies outside it. */
static int window_reg(uint64_t offset, uint64_t *reg, char *err, size_t errlen)
{
    *reg = offset - SN_HW_WINDOW_BASE;
    if (offset < SN_HW_WINDOW_BASE || *reg >= SN_HW_WINDOW_SIZE)
        return sn_err_text(err, errlen, "control port offset 0x%llx is outside the load window [0x%llx, 0x%llx)",
                    (unsigned long long)offset, SN_HW_WINDOW_BASE, SN_HW_WINDOW_BASE + SN_HW_WINDOW_SIZE);
    return 0;
}

int sn_card_window_read(sn_card_window *w, uint64_t offset, uint64_t *value, char *err, size_t errlen)
{
    uint64_t reg;
    if (window_reg(offset, &reg, err, errlen) != 0)
        return -1;
    switch (reg) {
    case SN_HW_STATUS:
        *value = poll_status(w);
        return 0;
    case SN_HW_EXIT:
        *value = w->booted && w->last.stop == SN_RUN_EXITED ? w->last.exit_code : 0;
        return 0;
    case SN_HW_HALTPC:
        *value = stopped(w) ? w->last.pc : 0;
        return 0;
    case SN_HW_CYCLES:
        *value = w->last.cycles;
        return 0;
    case SN_HW_RETIRED:
        *value = w->last.instret;
        return 0;
    case SN_HW_CONSOLE:
        *value = w->fifo_wr != w->fifo_rd ? SN_HW_CONSOLE_VALID | w->fifo[w->fifo_rd] : 0;
        return 0;
    default:
        return sn_err_text(err, errlen, "load window: read of offset 0x%llx, which this model does not implement",
                    (unsigned long long)reg);
    }
}

static int load_word(sn_card_window *w, uint64_t value, char *err, size_t errlen)
{
    uint16_t at = w->load_offset;
    int rc = w->load_region == SN_HW_LOAD_REGION_SPAD ? sn_sim_spad_write(w->sim, at, value, 0xFF)
                                                      : sn_sim_imem_write(w->sim, at, (uint32_t)value);
    w->load_offset = (uint16_t)(at + (w->load_region == SN_HW_LOAD_REGION_SPAD ? 8 : 4));
    if (rc != 0)
        return sn_err_text(err, errlen, "LOAD_DATA at %s offset 0x%x is past the end of the 32 KB %s",
                    w->load_region ? "SPAD" : "IMEM", at, w->load_region ? "scratchpad" : "IMEM");
    return 0;
}

static int boot(sn_card_window *w, char *err, size_t errlen)
{
    char why[256];
    if (sn_sim_boot(w->sim, why, sizeof why) != 0)
        return sn_err_text(err, errlen, "BOOT: %s", why);
    w->booted = 1;
    memset(&w->last, 0, sizeof w->last);
    w->last.stop = SN_RUN_CYCLE_LIMIT; /* running */
    w->console_seen = 0;
    return 0;
}

int sn_card_window_write(sn_card_window *w, uint64_t offset, uint64_t value, char *err, size_t errlen)
{
    uint64_t reg;
    if (window_reg(offset, &reg, err, errlen) != 0)
        return -1;
    switch (reg) {
    case SN_HW_BOOT:
        return value & 1 ? boot(w, err, errlen) : 0;
    case SN_HW_PC: /* stored, never read */
        return 0;
    case SN_HW_LOAD_CTL:
        w->load_region = value & 1;
        w->load_offset = (uint16_t)(value >> SN_HW_LOAD_OFFSET_SHIFT);
        return 0;
    case SN_HW_LOAD_DATA:
        return load_word(w, value, err, errlen);
    case SN_HW_CONSOLE:
        if (w->fifo_wr != w->fifo_rd)
            w->fifo_rd++;
        return 0;
    default:
        return sn_err_text(err, errlen, "load window: write of 0x%llx to offset 0x%llx, which this model does not implement",
                    (unsigned long long)value, (unsigned long long)reg);
    }
}

static int check_dma(sn_card_window *w, const char *dir, uint64_t addr, uint64_t n, char *err, size_t errlen)
{
    if (w->wedged[0])
        return sn_err_text(err, errlen, "%s of %llu bytes at 0x%llx: the channel is wedged since %s", dir,
                    (unsigned long long)n, (unsigned long long)addr, w->wedged);
    if (n < SN_HW_DMA_MIN_BYTES || n > SN_HW_DMA_MAX_BYTES || addr % SN_HW_DMA_ALIGN || n % SN_HW_DMA_ALIGN)
        return sn_err_text(err, errlen, "%s of %llu bytes at 0x%llx: a transfer is %llu..%llu bytes in whole %llu-byte beats",
                    dir, (unsigned long long)n, (unsigned long long)addr, SN_HW_DMA_MIN_BYTES, SN_HW_DMA_MAX_BYTES,
                    SN_HW_DMA_ALIGN);
    uint64_t size = sn_sim_dram_size(w->sim);
    if (addr > size || n > size - addr)
        return sn_err_text(err, errlen, "%s of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)", dir,
                    (unsigned long long)n, (unsigned long long)addr, (unsigned long long)size);
    return 0;
}

int sn_card_window_dma_write(sn_card_window *w, uint64_t addr, const void *src, uint64_t n, char *err, size_t errlen)
{
    if (check_dma(w, "H2C write", addr, n, err, errlen) != 0)
        return -1;
    sn_sim_dram_write(w->sim, addr, src, n);
    memset(w->written + addr / GRANULE, 1, n / GRANULE);
    return 0;
}

int sn_card_window_dma_read(sn_card_window *w, uint64_t addr, void *dst, uint64_t n, char *err, size_t errlen)
{
    if (check_dma(w, "C2H read", addr, n, err, errlen) != 0)
        return -1;
    for (uint64_t g = addr / GRANULE; g < (addr + n) / GRANULE; g++) {
        if (!w->written[g]) {
            sn_text_fit(w->wedged, sizeof w->wedged, "a C2H read of unwritten DRAM at 0x%llx (SLVERR)",
                     (unsigned long long)(g * GRANULE));
            return sn_err_text(err, errlen, "C2H read of %llu bytes at 0x%llx: DRAM at 0x%llx was never written: SLVERR, "
                        "the channel is wedged", (unsigned long long)n, (unsigned long long)addr,
                        (unsigned long long)(g * GRANULE));
        }
    }
    sn_sim_dram_read(w->sim, addr, dst, n);
    return 0;
}

uint64_t sn_card_window_dram_size(const sn_card_window *w)
{
    return sn_sim_dram_size(w->sim);
}

const char *sn_card_window_stop_message(const sn_card_window *w)
{
    return w->last.message;
}

sn_sim *sn_card_window_sim(sn_card_window *w)
{
    return w->sim;
}
