/* Unit tests of the simulated card (sim/harness/card_window.h) against the
 * load window's RTL (KohakuTPU src/kohakuaccel/sysnode/cpu/rv64_load_win.v
 * @8aa3e0be, sysnode-facts §1.3): LOAD_CTL sets region and start offset and
 * LOAD_DATA streams words with the pointer stepping by 4; the console FIFO
 * has 8-bit pointers and no full check, so 300 bytes printed without a pop
 * leave 300 - 256 = 44 readable, the last 44 printed; DMA takes whole 64-byte
 * beats of 64 B..8 MB, and a read of DRAM no DMA wrote answers SLVERR and
 * wedges the channel (xdma.py@4c61f070). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cmocka_main.h"

#include "card_window.h"
#include "elf_image.h"
#include "sysnode/host_window.h"

#define W(reg) (SN_HW_WINDOW_BASE + (reg))

static char err[256];

static int push_imem(void *ctx, uint32_t addr, uint32_t word)
{
    sn_card_window *w = ctx;
    static uint32_t next = UINT32_MAX;
    if (addr != next)
        assert_int_equal(sn_card_window_write(w, W(SN_HW_LOAD_CTL), (uint64_t)addr << 8 | SN_HW_LOAD_REGION_IMEM,
                                              err, sizeof err), 0);
    next = addr + 4;
    return sn_card_window_write(w, W(SN_HW_LOAD_DATA), word, err, sizeof err);
}

static int push_spad(void *ctx, uint32_t offset, uint64_t value, uint8_t strobes)
{
    (void)ctx, (void)offset, (void)value, (void)strobes;
    fail_msg("console300 has no data");
    return -1;
}

static uint64_t rd(sn_card_window *w, uint64_t reg)
{
    uint64_t v = 0;
    assert_int_equal(sn_card_window_read(w, W(reg), &v, err, sizeof err), 0);
    return v;
}

static void console_fifo_overwrites_when_full(void **state)
{
    (void)state;
    sn_sim_config cfg = {0, 0, 0, 0};
    sn_card_window *w = sn_card_window_create(&cfg, err, sizeof err);
    assert_non_null(w);
    sn_elf_image img;
    assert_int_equal(sn_elf_image_load(SN_HART_PROGS "/console300.elf", &img, err, sizeof err), 0);
    assert_int_equal(sn_elf_image_push(&img, push_imem, push_spad, w, err, sizeof err), 0);
    sn_elf_image_free(&img);
    assert_int_equal(rd(w, SN_HW_STATUS), 0); /* not booted: nothing runs */
    assert_int_equal(sn_card_window_write(w, W(SN_HW_BOOT), 1, err, sizeof err), 0);
    int polls = 0;
    while (!(rd(w, SN_HW_STATUS) & SN_HW_STATUS_EXITED))
        assert_true(++polls < 100);
    assert_true(polls >= 2); /* 300 stores take more than one 256-cycle poll */
    assert_int_equal(rd(w, SN_HW_EXIT), 0);
    assert_true(rd(w, SN_HW_CYCLES) > 600);
    for (unsigned i = 0; i < 44; i++) {
        uint64_t v = rd(w, SN_HW_CONSOLE);
        assert_int_equal(v, SN_HW_CONSOLE_VALID | (256 + i) % 256);
        assert_int_equal(sn_card_window_write(w, W(SN_HW_CONSOLE), 0, err, sizeof err), 0);
    }
    assert_int_equal(rd(w, SN_HW_CONSOLE) & SN_HW_CONSOLE_VALID, 0);
    sn_card_window_destroy(w);
}

static void dma_limits_and_slverr(void **state)
{
    (void)state;
    sn_sim_config cfg = {0, 0, 0, 0};
    sn_card_window *w = sn_card_window_create(&cfg, err, sizeof err);
    assert_non_null(w);
    unsigned char buf[256];
    memset(buf, 0x3C, sizeof buf);
    assert_int_equal(sn_card_window_dma_write(w, 0x1000, buf, 32, err, sizeof err), -1);
    assert_string_equal(err, "H2C write of 32 bytes at 0x1000: a transfer is 64..8388608 bytes in whole 64-byte beats");
    assert_int_equal(sn_card_window_dma_write(w, 0x1020, buf, 64, err, sizeof err), -1);
    assert_int_equal(sn_card_window_dma_write(w, 0, buf, (8u << 20) + 64, err, sizeof err), -1);
    assert_int_equal(sn_card_window_dma_write(w, 0x1000, buf, 128, err, sizeof err), 0);
    unsigned char back[128];
    assert_int_equal(sn_card_window_dma_read(w, 0x1000, back, 128, err, sizeof err), 0);
    assert_memory_equal(back, buf, 128);
    assert_int_equal(sn_card_window_dma_read(w, 0x1040, back, 128, err, sizeof err), -1);
    assert_string_equal(err, "C2H read of 128 bytes at 0x1040: DRAM at 0x1080 was never written: SLVERR, the channel "
                             "is wedged");
    assert_int_equal(sn_card_window_dma_read(w, 0x1000, back, 64, err, sizeof err), -1);
    assert_string_equal(err, "C2H read of 64 bytes at 0x1000: the channel is wedged since a C2H read of unwritten "
                             "DRAM at 0x1080 (SLVERR)");
    sn_card_window_destroy(w);
}

static void registers_outside_the_window_are_refused(void **state)
{
    (void)state;
    sn_sim_config cfg = {0, 0, 0, 0};
    sn_card_window *w = sn_card_window_create(&cfg, err, sizeof err);
    uint64_t v;
    assert_int_equal(sn_card_window_read(w, 0x9000, &v, err, sizeof err), -1);
    assert_string_equal(err, "control port offset 0x9000 is outside the load window [0x8000, 0x9000)");
    assert_int_equal(sn_card_window_write(w, W(SN_HW_LOAD_CTL), 0x8000ull << 8, err, sizeof err), 0);
    assert_int_equal(sn_card_window_write(w, W(SN_HW_LOAD_DATA), 0, err, sizeof err), -1);
    assert_string_equal(err, "LOAD_DATA at IMEM offset 0x8000 is past the end of the 32 KB IMEM");
    sn_card_window_destroy(w);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(console_fifo_overwrites_when_full),
             cmocka_unit_test(dma_limits_and_slverr),
             cmocka_unit_test(registers_outside_the_window_are_refused))
