/* Unit tests of the card transport (host/session/transport_card.c) over a
 * recording bus: the load-window register sequence (LOAD_CTL only where a
 * word does not follow the last, strobed SPAD bytes merged into whole
 * words), DMA widened to whole 64-byte beats without reading a beat the host
 * never wrote, the console FIFO drained at every STATUS poll, and the stop
 * registers (sysnode-facts §1.3; sysnode/host_window.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cmocka_main.h"

#include "card_bus.h"
#include "transport.h"
#include "transport_card.h"
#include "sysnode/boot_args.h"
#include "sysnode/host_sync.h"
#include "sysnode/host_window.h"
#include "sysnode/status_block.h"

#define DRAM_BYTES 0x10000u

typedef struct {
    char op; /* 'w' register write, 'W' DMA write, 'R' DMA read */
    uint64_t at, value;
} access;

typedef struct {
    access log[64];
    int n;
    uint8_t dram[DRAM_BYTES];
    const char *console; /* bytes the FIFO offers once polled */
    size_t console_at;
    unsigned polls, exit_poll; /* STATUS reads; the one that shows the stop */
    uint64_t stop_status, exit_word;
} fake_bus;

static void note(fake_bus *f, char op, uint64_t at, uint64_t value)
{
    assert_true(f->n < 64);
    f->log[f->n++] = (access){op, at, value};
}

static sn_status fake_read64(void *ctx, uint64_t offset, uint64_t *value, sn_error *e)
{
    (void)e;
    fake_bus *f = ctx;
    switch (offset - SN_HW_WINDOW_BASE) {
    case SN_HW_STATUS:
        *value = ++f->polls >= f->exit_poll ? f->stop_status : 0;
        return SN_OK;
    case SN_HW_CONSOLE:
        *value = f->polls && f->console[f->console_at] ? SN_HW_CONSOLE_VALID | (uint8_t)f->console[f->console_at] : 0;
        return SN_OK;
    case SN_HW_CYCLES:
        *value = 1000ull * f->polls;
        return SN_OK;
    case SN_HW_EXIT:
        *value = f->exit_word;
        return SN_OK;
    case SN_HW_RETIRED:
        *value = 777;
        return SN_OK;
    case SN_HW_HALTPC:
        *value = 0x124;
        return SN_OK;
    default:
        fail_msg("read of an unexpected offset 0x%llx", (unsigned long long)offset);
        return SN_ERR_INTERNAL;
    }
}

static sn_status fake_write64(void *ctx, uint64_t offset, uint64_t value, sn_error *e)
{
    (void)e;
    fake_bus *f = ctx;
    if (offset == SN_HW_WINDOW_BASE + SN_HW_CONSOLE)
        f->console_at++;
    else
        note(f, 'w', offset, value);
    return SN_OK;
}

static sn_status fake_dma_write(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    (void)e;
    fake_bus *f = ctx;
    assert_true(addr % 64 == 0 && n % 64 == 0 && n >= 64 && addr + n <= DRAM_BYTES);
    memcpy(f->dram + addr, src, n);
    note(f, 'W', addr, n);
    return SN_OK;
}

static sn_status fake_dma_read(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    (void)e;
    fake_bus *f = ctx;
    assert_true(addr % 64 == 0 && n % 64 == 0 && n >= 64 && addr + n <= DRAM_BYTES);
    memcpy(dst, f->dram + addr, n);
    note(f, 'R', addr, n);
    return SN_OK;
}

static uint64_t fake_dram_size(void *ctx)
{
    (void)ctx;
    return DRAM_BYTES;
}

static const char *fake_name(void *ctx)
{
    (void)ctx;
    return "fake";
}

static void fake_close(void *ctx)
{
    (void)ctx;
}

static const sn_card_bus_ops fake_ops = {
    fake_read64, fake_write64, fake_dma_write, fake_dma_read, fake_dram_size, fake_name, fake_close, NULL, NULL, NULL,
};

static fake_bus bus;

static sn_transport open_card(void)
{
    sn_transport t = {0};
    sn_error e = {0};
    memset(&bus, 0, sizeof bus);
    bus.console = "";
    bus.exit_poll = 1;
    assert_int_equal(sn_transport_card_open(&t, (sn_card_bus){&fake_ops, &bus}, &e), SN_OK);
    return t;
}

static void expect(int i, char op, uint64_t at, uint64_t value)
{
    assert_true(i < bus.n);
    assert_int_equal(bus.log[i].op, op);
    assert_int_equal(bus.log[i].at, at);
    assert_int_equal(bus.log[i].value, value);
}

static void load_window_streams_words(void **state)
{
    (void)state;
    sn_transport t = open_card();
    sn_error e = {0};
    const uint64_t CTL = 0x8080, DATA = 0x8088;
    assert_int_equal(t.ops->imem_write(t.ctx, 0x100, 0xAAAA0001, &e), SN_OK);
    assert_int_equal(t.ops->imem_write(t.ctx, 0x104, 0xAAAA0002, &e), SN_OK);
    assert_int_equal(t.ops->imem_write(t.ctx, 0x200, 0xAAAA0003, &e), SN_OK);
    assert_int_equal(t.ops->spad_write(t.ctx, 0x40, 0x11223344, 0x0F, &e), SN_OK);
    assert_int_equal(t.ops->spad_write(t.ctx, 0x40, 0xAABBCCDD00000000ull, 0xF0, &e), SN_OK);
    assert_int_equal(t.ops->spad_write(t.ctx, 0x48, 0x5555, 0x03, &e), SN_OK);
    assert_int_equal(bus.n, 10);
    expect(0, 'w', CTL, 0x100 << 8 | 0);
    expect(1, 'w', DATA, 0xAAAA0001);
    expect(2, 'w', DATA, 0xAAAA0002);
    expect(3, 'w', CTL, 0x200 << 8 | 0);
    expect(4, 'w', DATA, 0xAAAA0003);
    expect(5, 'w', CTL, 0x40 << 8 | 1);
    expect(6, 'w', DATA, 0x11223344);
    expect(7, 'w', CTL, 0x40 << 8 | 1); /* the same word again: the pointer moved past it */
    expect(8, 'w', DATA, 0xAABBCCDD11223344ull);
    expect(9, 'w', DATA, 0x5555); /* follows on: no LOAD_CTL */
    assert_int_equal(t.ops->imem_write(t.ctx, 0x8000, 0, &e), SN_ERR_INPUT);
    assert_string_equal(e.msg, "fake: IMEM write at 0x8000: outside the 32 KB window or not 4-aligned");
    sn_transport_close(&t);
}

static void dram_write_widens_to_beats(void **state)
{
    (void)state;
    sn_transport t = open_card();
    sn_error e = {0};
    uint8_t ten[10], five[5] = {0xF1, 0xF2, 0xF3, 0xF4, 0xF5}, want[64] = {0}, got[64];
    memset(ten, 0x77, sizeof ten);
    memset(bus.dram, 0xEE, sizeof bus.dram); /* what a card holds before anyone wrote */
    assert_int_equal(t.ops->dram_write(t.ctx, 0x1003, ten, sizeof ten, &e), SN_OK);
    assert_int_equal(bus.n, 1); /* never written: no read, the rest of the beat is 0 */
    expect(0, 'W', 0x1000, 64);
    assert_int_equal(t.ops->dram_write(t.ctx, 0x1020, five, sizeof five, &e), SN_OK);
    assert_int_equal(bus.n, 3); /* written before: read back, merged */
    expect(1, 'R', 0x1000, 64);
    expect(2, 'W', 0x1000, 64);
    memset(want + 3, 0x77, 10);
    memcpy(want + 0x20, five, 5);
    assert_memory_equal(bus.dram + 0x1000, want, 64);
    assert_int_equal(t.ops->dram_read(t.ctx, 0x1003, got, 34, &e), SN_OK);
    assert_memory_equal(got, want + 3, 34);
    /* aligned: straight through, in one piece */
    uint8_t block[192];
    memset(block, 0x5A, sizeof block);
    assert_int_equal(t.ops->dram_write(t.ctx, 0x2000, block, sizeof block, &e), SN_OK);
    expect(bus.n - 1, 'W', 0x2000, 192);
    sn_transport_close(&t);
}

static void unwritten_dram_is_never_read(void **state)
{
    (void)state;
    sn_transport t = open_card();
    sn_error e = {0};
    uint8_t buf[128];
    memset(buf, 1, sizeof buf);
    assert_int_equal(t.ops->dram_read(t.ctx, 0x5000, buf, 4, &e), SN_ERR_INPUT);
    assert_string_equal(e.msg, "fake: DRAM read of 4 bytes at 0x5000: the beat at 0x5000 was never written; on a card "
                               "unwritten ECC answers SLVERR and wedges the channel, so it is not read");
    assert_int_equal(t.ops->dram_write(t.ctx, 0x3000, buf, 64, &e), SN_OK);
    assert_int_equal(t.ops->dram_read(t.ctx, 0x3000, buf, 128, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "the beat at 0x3040 was never written"));
    /* a write that ends mid-beat next to an unwritten one: that beat is padded, not read */
    assert_int_equal(t.ops->dram_write(t.ctx, 0x3040, buf, 8, &e), SN_OK);
    for (int i = 0; i < bus.n; i++)
        assert_int_not_equal(bus.log[i].op, 'R');
    assert_int_equal(t.ops->dram_read(t.ctx, 0x3000, buf, 128, &e), SN_OK);
    assert_int_equal(t.ops->dram_read(t.ctx, 0xFFC0, buf, 128, &e), SN_ERR_INPUT);
    assert_string_equal(e.msg, "fake: DRAM read of 128 bytes at 0xffc0 passes the end of DRAM (65536 bytes)");
    sn_transport_close(&t);
}

static void wait_polls_drains_and_reads_the_stop(void **state)
{
    (void)state;
    sn_transport t = open_card();
    sn_error e = {0};
    sn_run_status r;
    assert_int_equal(t.ops->boot(t.ctx, &e), SN_OK);
    expect(0, 'w', 0x8000, 1);
    bus.console = "runner: ok\n";
    bus.exit_poll = 3;
    bus.stop_status = SN_HW_STATUS_EXITED;
    bus.exit_word = 0x15;
    assert_int_equal(t.ops->wait(t.ctx, 1000000, &r, &e), SN_OK);
    assert_int_equal(r.stop, SN_RUN_EXITED);
    assert_int_equal(r.exit_code, 0x15);
    assert_int_equal(r.cycles, 3000);
    assert_int_equal(r.instret, 777);
    assert_string_equal(t.ops->console(t.ctx), "runner: ok\n");
    /* a halt: the cause from STATUS[1:0], the PC from HALTPC */
    bus.polls = 0;
    bus.stop_status = SN_HW_STATUS_HALTED | 2;
    assert_int_equal(t.ops->wait(t.ctx, 1000000, &r, &e), SN_OK);
    assert_int_equal(r.stop, SN_RUN_HALTED);
    assert_int_equal(r.halt_cause, 2);
    assert_string_equal(r.message, "at PC 0x124");
    /* no stop before the cap: the host stops waiting once CYCLES reaches it */
    bus.polls = 0;
    bus.exit_poll = 100;
    assert_int_equal(t.ops->wait(t.ctx, 4500, &r, &e), SN_OK);
    assert_int_equal(r.stop, SN_RUN_CYCLE_LIMIT);
    assert_int_equal(r.cycles, 5000);
    sn_run_stats s;
    assert_int_equal(t.ops->stats(t.ctx, &s, &e), SN_ERR_INPUT);
    assert_string_equal(e.msg, "fake: a card counts no MMIO or GOs");
    sn_transport_close(&t);
}

/* The card cannot read the scratchpad: the runner's status block and held
 * word come from the DRAM status copy the boot arguments name (host_sync.h),
 * read as a C2H DMA of whole beats; any other scratchpad read is refused. */
static void status_and_held_word_read_from_the_dram_copy(void **state)
{
    (void)state;
    sn_transport t = open_card();
    sn_error e = {0};
    uint64_t word = 0;
    const uint32_t held = SN_HOST_HELD_ADDR - SN_SPAD_BASE, block = SN_STATUS_BLOCK_ADDR - SN_SPAD_BASE;
    assert_int_equal(t.ops->spad_read(t.ctx, held, &word, 8, &e), SN_ERR_INPUT);
    assert_string_equal(e.msg, "fake: SPAD read of 8 bytes at offset 0x1f8: the card's load window does not read the "
                               "scratchpad, and the boot arguments name no DRAM status copy to read instead");
    /* boot arguments naming a copy at 0x4000 (zeroed by the host, then written by the runner) */
    uint8_t copy[SN_STATUS_COPY_BYTES] = {0};
    sn_boot_args args = {SN_BOOT_ARGS_MAGIC, SN_BOOT_ARGS_VERSION, 0x3000, 0x100, 0, 0, DRAM_BYTES, 0x4000};
    uint64_t words[sizeof args / 8];
    memcpy(words, &args, sizeof args);
    for (unsigned i = 0; i < sizeof args / 8; i++)
        assert_int_equal(t.ops->spad_write(t.ctx, SN_BOOT_ARGS_ADDR - SN_SPAD_BASE + 8 * i, words[i], 0xFF, &e), SN_OK);
    assert_int_equal(t.ops->dram_write(t.ctx, 0x4000, copy, sizeof copy, &e), SN_OK);
    for (unsigned i = 0; i < sizeof copy; i++)
        bus.dram[0x4000 + i] = (uint8_t)(i + 1); /* as the runner leaves it at a hold */
    int before = bus.n;
    assert_int_equal(t.ops->spad_read(t.ctx, held, &word, 8, &e), SN_OK);
    assert_int_equal(word, 0x00FFFEFDFCFBFAF9ull); /* copy bytes 248..255 (values 249..256, mod 256) */
    expect(before, 'R', 0x4000 + SN_HOST_HELD_COPY / 64 * 64, 64);
    sn_status_block sb;
    assert_int_equal(t.ops->spad_read(t.ctx, block, &sb, sizeof sb, &e), SN_OK);
    assert_memory_equal(&sb, bus.dram + 0x4000, sizeof sb);
    uint8_t tail[8];
    assert_int_equal(t.ops->spad_read(t.ctx, block + 0x50, tail, 8, &e), SN_OK); /* flits_sent.. */
    assert_memory_equal(tail, bus.dram + 0x4050, 8);
    assert_int_equal(t.ops->spad_read(t.ctx, block + 0xE0, tail, 16, &e), SN_ERR_INPUT); /* past the block */
    assert_int_equal(t.ops->spad_read(t.ctx, 0x0, tail, 8, &e), SN_ERR_INPUT);
    assert_string_equal(e.msg, "fake: SPAD read of 8 bytes at offset 0x0: the card's load window does not read the "
                               "scratchpad, and only the runner's status block and held word have a DRAM copy");
    assert_int_equal(t.ops->spad_read(t.ctx, held - 4, tail, 8, &e), SN_ERR_INPUT);
    sn_transport_close(&t);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(load_window_streams_words),
             cmocka_unit_test(dram_write_widens_to_beats), cmocka_unit_test(unwritten_dram_is_never_read),
             cmocka_unit_test(wait_polls_drains_and_reads_the_stop),
             cmocka_unit_test(status_and_held_word_read_from_the_dram_copy))
