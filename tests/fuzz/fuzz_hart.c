/* libFuzzer target: the hart (sim/hart) running a hostile image. The input
 * is the image: its first byte sets the run's knobs (the DRAM latency, the
 * interrupt lines, a breakpoint and single steps), the rest fills IMEM
 * (up to 32 KB) and is copied to SPAD and to the start of DRAM, so that its
 * words also serve as data, pointers and Sv39 page tables. The bus answers
 * every control read with a word of the input, takes EXIT and DCACHE as the
 * SysNode does, and raises MEIP and MSIP in input-chosen cycle windows. Each
 * image runs to 20 000 cycles in slices (a run resumes after the cap, as
 * the simulator's polls resume it). Any sanitizer report, or a result that
 * breaks hart.h's contract (a stop without its message, instructions past
 * cycles, cycles going back, a bus call off its contract), is a bug. Seeds:
 * scripts/fuzz assembles tests/unit/hart_progs and
 * tests/calibration/programs into raw IMEM bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card_csr.h"
#include "hart.h"
#include "sysnode/regs.h"

#define DRAM_BYTES (64u << 10) /* small, so that its end is near */
#define CYCLES 20000u
#define SLICE 2500u

typedef struct bus {
    sn_hart *h;
    const uint8_t *in;
    size_t n;
    uint8_t knobs;
    uint64_t last_cycle;
} bus;

static void bug(const char *what, uint64_t value)
{
    fprintf(stderr, "fuzz_hart: %s (0x%llx)\n", what, (unsigned long long)value);
    abort();
}

static uint64_t ctrl_read(void *ctx, uint32_t offset)
{
    bus *b = ctx;
    if (offset % 8 != 0 || offset > 0x3F8)
        bug("a control read off the bus contract", offset);
    if (offset == SN_CTRL_DCACHE)
        return sn_hart_dcache_read(b->h);
    uint64_t v = 0;
    if (b->n >= 8)
        memcpy(&v, b->in + (offset % (b->n - 7)), 8);
    return v;
}

static void ctrl_write(void *ctx, uint32_t offset, uint64_t value)
{
    bus *b = ctx;
    if (offset % 8 != 0 || offset > 0x3F8)
        bug("a control write off the bus contract", offset);
    if (offset == SN_CTRL_EXIT)
        sn_hart_request_exit(b->h, value);
    else if (offset == SN_CTRL_DCACHE)
        sn_hart_dcache_write(b->h, value);
}

static void advance(void *ctx, uint64_t cycle)
{
    bus *b = ctx;
    if (cycle < b->last_cycle)
        bug("advance went back", cycle);
    b->last_cycle = cycle;
}

/* MEIP in the second half of every 2^(8+k) cycles, MSIP likewise, by knob bits. */
static uint64_t irq_lines(void *ctx)
{
    bus *b = ctx;
    uint64_t lines = 0;
    if (b->knobs & 0x10 && (b->last_cycle >> (8 + (b->knobs & 3))) & 1)
        lines |= 1ull << SN_IRQ_MEI;
    if (b->knobs & 0x20 && (b->last_cycle >> (9 + (b->knobs & 3))) & 1)
        lines |= 1ull << SN_IRQ_MSI;
    return lines;
}

static void check(const sn_hart_result *r, uint64_t before)
{
    if (r->cycles < before)
        bug("cycles went back", r->cycles);
    if (r->instret > r->cycles + 1)
        bug("more instructions than cycles", r->instret);
    if ((r->stop == SN_HART_SIM_ERROR || r->stop == SN_HART_HALTED) && r->message[0] == 0)
        bug("a stop without its message", r->stop);
    if (memchr(r->message, 0, sizeof r->message) == NULL)
        bug("a message without its end", 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static uint8_t *dram;
    if (dram == NULL && (dram = malloc(DRAM_BYTES)) == NULL)
        abort();
    bus b = {NULL, data + 1, size - 1, data[0], 0};
    memset(dram, 0, DRAM_BYTES);
    memcpy(dram, b.in, b.n < DRAM_BYTES ? b.n : DRAM_BYTES);
    char err[256];
    sn_hart_bus hb = {&b, ctrl_read, ctrl_write, advance, irq_lines};
    sn_hart *h = sn_hart_create(&hb, dram, DRAM_BYTES, err, sizeof err);
    if (h == NULL)
        bug("sn_hart_create refused a valid DRAM", 0);
    b.h = h;
    for (uint32_t a = 0; a + 4 <= SN_IMEM_SIZE && a + 4 <= b.n; a += 4) {
        uint32_t w;
        memcpy(&w, b.in + a, 4);
        sn_hart_imem_write(h, a, w);
    }
    for (uint32_t o = 0; o + 8 <= SN_SPAD_SIZE && o + 8 <= b.n; o += 8) {
        uint64_t v;
        memcpy(&v, b.in + o, 8);
        sn_hart_spad_write(h, o, v, 0xFF);
    }
    sn_hart_set_dram_latency(h, (b.knobs >> 6) * 10u);
    sn_hart_boot(h, err, sizeof err);
    if (b.knobs & 0x4)
        sn_hart_breakpoint(h, 4u * (data[0] % 16), 1);
    sn_hart_result r;
    uint64_t before = 0;
    for (uint64_t cap = SLICE;; cap += SLICE) {
        if (b.knobs & 0x8 && cap <= 4 * SLICE)
            sn_hart_single_step(h);
        r = sn_hart_run(h, cap > CYCLES ? CYCLES : cap);
        check(&r, before);
        before = r.cycles;
        if ((r.stop != SN_HART_CYCLE_LIMIT && r.stop != SN_HART_BREAK) || cap >= CYCLES)
            break;
        uint64_t x;
        for (unsigned i = 0; i <= 32; i++)
            x = sn_hart_register(h, i);
        uint8_t bytes[16];
        sn_hart_debug_read(h, x, bytes, sizeof bytes);
    }
    sn_hart_destroy(h);
    return 0;
}
