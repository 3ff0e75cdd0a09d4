/* The hart's API (hart.h) over the core model of core.h: memories, the
 * host window, BOOT, the L1's maintenance register, the debugger's view and
 * the run. */
#include "hart.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "err_text.h"

#define UNCACHED_ALIAS (1ull << SN_UNCACHED_BIT)
#define MAX_DRAM_LATENCY 1000u
#define L1_RESET_IDLE 195 /* core-timing §5.6: the reset scans end; cached lookups wait until then */

void sn_core_stop(sn_hart *h, sn_hart_stop why, uint64_t pc)
{
    if (h->stopping)
        return;
    h->stopping = true;
    h->result.stop = why;
    h->result.pc = pc;
}

void sn_core_error(sn_hart *h, uint64_t pc, const char *fmt, ...)
{
    if (h->stopping)
        return;
    va_list ap;
    va_start(ap, fmt);
    sn_text_vfit(h->result.message, sizeof h->result.message, fmt, ap);
    va_end(ap);
    sn_core_stop(h, SN_HART_SIM_ERROR, pc);
}

void sn_core_advance(sn_hart *h, uint64_t cycle)
{
    if (cycle < h->last_advance)
        return;
    h->last_advance = cycle;
    h->bus.advance(h->bus.ctx, cycle);
}

sn_hart *sn_hart_create(const sn_hart_bus *bus, uint8_t *dram, uint64_t dram_size, char *err, size_t errlen)
{
    if (bus == NULL || bus->ctrl_read == NULL || bus->ctrl_write == NULL || bus->advance == NULL) {
        sn_err_text(err, errlen, "sn_hart_create: the bus needs ctrl_read, ctrl_write and advance");
        return NULL;
    }
    if (dram == NULL || dram_size == 0 || dram_size % 4096 != 0 || dram_size > UNCACHED_ALIAS - SN_DRAM_CPU_BASE) {
        sn_err_text(err, errlen, "sn_hart_create: DRAM of 0x%" PRIx64 " bytes: need a buffer of a non-zero multiple of 4096",
                    dram_size);
        return NULL;
    }
    sn_hart *h = calloc(1, sizeof *h);
    sn_memories *mem = calloc(1, sizeof *mem);
    if (h == NULL || mem == NULL) {
        free(h);
        free(mem);
        sn_err_text(err, errlen, "sn_hart_create: out of memory");
        return NULL;
    }
    h->bus = *bus;
    h->dram = dram;
    h->dram_size = dram_size;
    h->mem = mem;
    sn_l1_init(&mem->l1, dram, dram_size);
    sn_pipeline_reset(h);
    return h;
}

void sn_hart_destroy(sn_hart *h)
{
    if (h == NULL)
        return;
    free(h->mem);
    free(h);
}

/* Where [addr, addr+n) of a region at base (size bytes) lives in mem, or NULL
 * if it is not all inside; the unsigned subtraction makes addr < base fail. */
static uint8_t *local(uint8_t *mem, uint64_t base, uint64_t size, uint64_t addr, uint64_t n)
{
    uint64_t off = addr - base;
    return off <= size && n <= size - off ? mem + off : NULL;
}

int sn_hart_imem_write(sn_hart *h, uint32_t addr, uint32_t word)
{
    if (addr % 4 != 0 || addr >= SN_IMEM_SIZE)
        return -1;
    uint8_t *p = &h->mem->imem[addr];
    for (unsigned k = 0; k < 4; k++)
        p[k] = (uint8_t)(word >> 8 * k);
    h->mem->decoded_ok[addr / 4] = false;
    return 0;
}

int sn_hart_spad_write(sn_hart *h, uint32_t offset, uint64_t value, uint8_t strobes)
{
    if (offset % 8 != 0 || offset >= SN_SPAD_SIZE)
        return -1;
    for (unsigned k = 0; k < 8; k++)
        if (strobes >> k & 1)
            h->mem->spad[offset + k] = (uint8_t)(value >> 8 * k);
    return 0;
}

void sn_hart_clear_memories(sn_hart *h)
{
    memset(h->mem->imem, 0, sizeof h->mem->imem);
    memset(h->mem->spad, 0, sizeof h->mem->spad);
    memset(h->mem->decoded_ok, 0, sizeof h->mem->decoded_ok);
}

int sn_hart_set_dram_latency(sn_hart *h, unsigned cycles)
{
    if (cycles > MAX_DRAM_LATENCY)
        return -1;
    h->latency = cycles;
    return 0;
}

int sn_hart_boot(sn_hart *h, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    sn_hart_bus bus = h->bus;
    uint8_t *dram = h->dram;
    uint64_t dram_size = h->dram_size;
    unsigned latency = h->latency;
    sn_memories *mem = h->mem;
    memset(h, 0, sizeof *h);
    h->bus = bus;
    h->dram = dram;
    h->dram_size = dram_size;
    h->latency = latency;
    h->mem = mem;
    memset(mem->breakpoint, 0, sizeof mem->breakpoint);
    sn_l1_init(&mem->l1, dram, dram_size);
    h->priv = SN_PRIV_M;
    sn_core_xlate(h);
    h->mtimecmp = h->mtimecmp_old = UINT64_MAX; /* all ones after reset (core-timing §11) */
    h->l1_idle = L1_RESET_IDLE;
    h->l1_end_index = SN_L1_LINES - 1; /* the reset ends with an invalidate scan */
    sn_pipeline_reset(h);
    h->booted = true;
    return 0;
}

/* The maintenance machine's scans (core-timing §5.6), from a request by the
 * store leaving E in cycle w: busy from w+3; a flush scan takes 2 cycles a
 * line, a dirty line 5 more to read it and a hand-off cycle that waits for
 * an idle node port (its write-back runs in the background), then 2 cycles
 * and the last write's completion, idle a cycle later; an invalidate scan
 * 1 cycle a line. A
 * request while the machine is busy is merged into its scan. */
void sn_hart_dcache_write(sn_hart *h, uint64_t value)
{
    uint64_t w = h->access_cycle;
    if (!(value & 3) || w + 2 < h->l1_idle)
        return;
    uint64_t t = w + 3;
    sn_l1 *l1 = &h->mem->l1;
    if (value & 1) {
        for (unsigned i = 0; i < SN_L1_LINES; i++) {
            t += 2;
            if (l1->valid[i] && l1->dirty[i])
                t = sn_nport_data(&h->port, t + 5) + 1;
        }
        t += 2;
        if (t < h->port.data_free)
            t = h->port.data_free;
        t++; /* idle the cycle after (measured: probe_l1_flush, l1_flush_hit) */
        sn_l1_flush(l1);
        h->l1_end_index = 0;
    }
    if (value & 2) {
        t += SN_L1_LINES;
        sn_l1_invalidate(l1);
        h->l1_end_index = SN_L1_LINES - 1;
    }
    h->l1_wait_from = w + 2;
    h->l1_busy_from = w + 3;
    h->l1_idle = t;
}

uint64_t sn_hart_dcache_read(sn_hart *h)
{
    uint64_t c = h->access_cycle;
    if (c >= h->l1_wait_from && c < h->l1_busy_from && h->l1_busy_from < h->l1_idle)
        h->errata |= 1u << SN_ERRATUM_L1_BUSY_POLL; /* a request is pending, and the read says idle */
    return c >= h->l1_busy_from && c < h->l1_idle;
}

unsigned sn_hart_errata(const sn_hart *h)
{
    return h->errata;
}

const char *sn_hart_erratum_text(unsigned bit)
{
    static const char *const text[SN_ERRATUM_COUNT] = {
        [SN_ERRATUM_WFI_NO_WAIT] = "wfi does not wait: it retires at once, interrupt or not",
        [SN_ERRATUM_L1_BUSY_POLL] = "a DCACHE busy read right after the store that starts a flush or invalidate reads 0",
        [SN_ERRATUM_SV39_STALE_XLATE] =
            "under Sv39 an access right after another to the same page reuses the previous translation",
        [SN_ERRATUM_CSR_TRAP_TWICE] = "a trap taken on a CSR instruction is entered twice: MIE is lost and MPP reads M",
    };
    return bit < SN_ERRATUM_COUNT ? text[bit] : NULL;
}

sn_l1_stats sn_hart_l1_stats(const sn_hart *h)
{
    return h->mem->l1.stats;
}

int sn_hart_spad_read(sn_hart *h, uint64_t addr, void *dst, size_t n)
{
    const uint8_t *src = local(h->mem->spad, SN_SPAD_BASE, SN_SPAD_SIZE, addr, n);
    if (src == NULL)
        return -1;
    memcpy(dst, src, n);
    return 0;
}

sn_hart_result sn_hart_run(sn_hart *h, uint64_t cycle_limit)
{
    if (h->done)
        return h->result;
    if (!h->stopping) /* else a stop was requested between runs */
        memset(&h->result, 0, sizeof h->result);
    h->cycle_limit = cycle_limit;
    if (!h->booted)
        sn_core_error(h, 0, "sn_hart_run: not booted (write IMEM and SPAD through the window, then sn_hart_boot)");
    h->resume_pc = sn_pipeline_next_pc(h);
    h->resume_armed = true;
    h->debugging = h->stepping || h->breakpoints > 0;
    h->running = true;
    sn_pipeline_run(h);
    h->running = false;
    h->stopping = false;
    h->stepping = false;
    h->result.cycles = h->cycle;
    h->result.instret = h->retired;
    h->done = h->result.stop != SN_HART_CYCLE_LIMIT && h->result.stop != SN_HART_BREAK;
    return h->result;
}

void sn_hart_request_exit(sn_hart *h, uint64_t code)
{
    h->exit_requested = true;
    h->exit_code = code;
}

void sn_hart_request_stop(sn_hart *h, const char *message)
{
    if (h->done)
        return;
    if (!h->stopping && !h->running)
        memset(&h->result, 0, sizeof h->result);
    uint64_t pc = h->running && h->e.valid ? h->e.s->pc : sn_pipeline_next_pc(h);
    sn_core_error(h, pc, "%s", message);
}

int sn_hart_breakpoint(sn_hart *h, uint64_t addr, int on)
{
    if (addr % 4 != 0 || addr >= SN_IMEM_SIZE)
        return -1;
    bool *b = &h->mem->breakpoint[addr / 4];
    h->breakpoints += (unsigned)(on != 0 && !*b) - (unsigned)(on == 0 && *b);
    *b = on != 0;
    return 0;
}

void sn_hart_single_step(sn_hart *h)
{
    h->stepping = true;
}

uint64_t sn_hart_register(sn_hart *h, unsigned i)
{
    return i < 32 ? h->x[i] : i == 32 ? sn_pipeline_next_pc(h) : 0;
}

int sn_hart_debug_read(sn_hart *h, uint64_t addr, void *dst, size_t n)
{
    const uint8_t *src = local(h->mem->imem, SN_IMEM_BASE, SN_IMEM_SIZE, addr, n);
    if (src == NULL)
        src = local(h->mem->spad, SN_SPAD_BASE, SN_SPAD_SIZE, addr, n);
    if (src == NULL)
        src = local(h->dram, SN_DRAM_CPU_BASE | UNCACHED_ALIAS, h->dram_size, addr, n);
    if (src != NULL) {
        memcpy(dst, src, n);
        return 0;
    }
    if (local(h->dram, SN_DRAM_CPU_BASE, h->dram_size, addr, n) == NULL)
        return -1;
    for (size_t k = 0; k < n; k++)
        ((uint8_t *)dst)[k] = sn_l1_peek(&h->mem->l1, addr - SN_DRAM_CPU_BASE + k);
    return 0;
}

uint64_t sn_hart_cycles(const sn_hart *h)
{
    return h->cycle;
}
