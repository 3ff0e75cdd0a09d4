/* Unit tests of the XDMA card bus (host/session/card_bus_xdma.c) against regular
 * files standing in for the device files PREFIX_user, PREFIX_h2c_0 and
 * PREFIX_c2h_0: register words land at their control-port offsets (through
 * the mapped load window), DMA at the card address; transfers split at 8 MB;
 * below 64 bytes or off a 64-byte beat nothing moves; every failure names
 * the file, the offset and the errno (limits: iface/sysnode/host_window.h, from KohakuTPU
 * driver/kohakuaccel/transport/xdma.py@4c61f070). */
#define _GNU_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmocka_main.h"

#include "card_bus.h"
#include "card_bus_xdma.h"
#include "sysnode/host_window.h"

typedef struct {
    char dir[64];
    char prefix[96];
    char path[3][128];
} fake_device;

static const char *const SUFFIX[] = {"_user", "_h2c_0", "_c2h_0"};

/* The control port's stand-in spans the load window (0x9000 bytes). */
#define USER_BYTES (SN_HW_WINDOW_BASE + SN_HW_WINDOW_SIZE)

/* Makes DIR/xdma0_{user,h2c_0,c2h_0} as regular files: user zero-filled to
 * cover the window, the DMA channels empty. */
static void make_device(fake_device *d)
{
    strcpy(d->dir, "/tmp/sn_xdma_XXXXXX");
    assert_non_null(mkdtemp(d->dir));
    snprintf(d->prefix, sizeof d->prefix, "%s/xdma0", d->dir);
    for (int i = 0; i < 3; i++) {
        snprintf(d->path[i], sizeof d->path[i], "%s%s", d->prefix, SUFFIX[i]);
        FILE *f = fopen(d->path[i], "w");
        assert_non_null(f);
        fclose(f);
    }
    assert_int_equal(truncate(d->path[0], (off_t)USER_BYTES), 0);
}

static void remove_device(fake_device *d)
{
    for (int i = 0; i < 3; i++)
        remove(d->path[i]);
    rmdir(d->dir);
}

static long file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

static void read_at(const char *path, long offset, void *dst, size_t n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    assert_int_equal(fread(dst, 1, n, f), n);
    fclose(f);
}

static void open_bus(fake_device *d, sn_card_bus *b)
{
    sn_error e = {0};
    make_device(d);
    assert_int_equal(sn_card_bus_xdma_open(b, d->prefix, &e), SN_OK);
}

static void register_words_at_their_offsets(void **state)
{
    (void)state;
    fake_device d;
    sn_card_bus b;
    sn_error e = {0};
    open_bus(&d, &b);
    uint64_t ctl = SN_HW_WINDOW_BASE + SN_HW_LOAD_CTL;
    assert_int_equal(b.ops->write64(b.ctx, ctl, 0x0102030405060708ull, &e), SN_OK);
    unsigned char bytes[8];
    assert_int_equal(b.ops->write64(b.ctx, SN_HW_WINDOW_BASE + 0xFF8, 0xA5, &e), SN_OK); /* the window's last word */
    read_at(d.path[0], 0x8080, bytes, 8);
    static const unsigned char little_endian[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    assert_memory_equal(bytes, little_endian, 8);
    read_at(d.path[0], 0x8FF8, bytes, 1);
    assert_int_equal(bytes[0], 0xA5);
    assert_int_equal(file_size(d.path[0]), (long)USER_BYTES);
    uint64_t v = 0;
    assert_int_equal(b.ops->read64(b.ctx, ctl, &v, &e), SN_OK);
    assert_int_equal(v, 0x0102030405060708ull);
    /* the file written behind the mapping is what a read returns */
    FILE *f = fopen(d.path[0], "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0x8018, SEEK_SET), 0);
    assert_int_equal(fwrite(little_endian, 1, 8, f), 8);
    fclose(f);
    assert_int_equal(b.ops->read64(b.ctx, SN_HW_WINDOW_BASE + SN_HW_STATUS, &v, &e), SN_OK);
    assert_int_equal(v, 0x0102030405060708ull);
    assert_int_equal(b.ops->dram_size(b.ctx), 16ull << 20); /* the layout the simulator has */
    sn_card_bus_close(&b);
    remove_device(&d);
}

/* Offsets outside the window, or off a word, are refused by name. */
static void register_offsets_outside_the_window_are_refused(void **state)
{
    (void)state;
    fake_device d;
    sn_card_bus b;
    sn_error e = {0};
    open_bus(&d, &b);
    uint64_t v;
    char want[256];
    assert_int_equal(b.ops->read64(b.ctx, 0x9000, &v, &e), SN_ERR_INPUT);
    snprintf(want, sizeof want, "%s: offset 0x9000 is not an 8-aligned word of the load window [0x8000, 0x9000)",
             d.path[0]);
    assert_string_equal(e.msg, want);
    assert_int_equal(b.ops->write64(b.ctx, 0x7FF8, 1, &e), SN_ERR_INPUT);
    assert_int_equal(b.ops->write64(b.ctx, 0x8084, 1, &e), SN_ERR_INPUT);
    sn_card_bus_close(&b);
    /* a stand-in too short to hold the window is refused at open */
    assert_int_equal(truncate(d.path[0], 0x8800), 0);
    assert_int_equal(sn_card_bus_xdma_open(&b, d.prefix, &e), SN_ERR_IO);
    snprintf(want, sizeof want, "%s: a regular file of 34816 bytes does not cover the load window [0x8000, 0x9000)",
             d.path[0]);
    assert_string_equal(e.msg, want);
    remove_device(&d);
}

typedef struct {
    uint64_t card_addr[4], offset[4], len[4];
    int n;
} chunk_log;

static sn_status record_chunk(void *ctx, uint64_t card_addr, uint64_t offset, uint64_t len, sn_error *e)
{
    (void)e;
    chunk_log *log = ctx;
    assert_true(log->n < 4);
    log->card_addr[log->n] = card_addr;
    log->offset[log->n] = offset;
    log->len[log->n] = len;
    log->n++;
    return SN_OK;
}

/* 20 MB + 64 bytes at 0x40: 8 MB, 8 MB, 4 MB + 64, in order. */
static void dma_splits_at_8_mb(void **state)
{
    (void)state;
    chunk_log log = {0};
    sn_error e = {0};
    uint64_t n = (20ull << 20) + 64, mb8 = 8ull << 20;
    assert_int_equal(sn_card_dma_split("dev", "write", 0x40, n, record_chunk, &log, &e), SN_OK);
    assert_int_equal(log.n, 3);
    assert_int_equal(log.card_addr[0], 0x40);
    assert_int_equal(log.len[0], mb8);
    assert_int_equal(log.card_addr[1], 0x40 + mb8);
    assert_int_equal(log.offset[1], mb8);
    assert_int_equal(log.len[1], mb8);
    assert_int_equal(log.card_addr[2], 0x40 + 2 * mb8);
    assert_int_equal(log.offset[2], 2 * mb8);
    assert_int_equal(log.len[2], (4ull << 20) + 64);
    /* exactly 8 MB is one transfer */
    log.n = 0;
    assert_int_equal(sn_card_dma_split("dev", "read", 0, mb8, record_chunk, &log, &e), SN_OK);
    assert_int_equal(log.n, 1);
}

/* The same 20 MB + 64 through the files: every byte at its card address.
 * c2h_0 is a link to h2c_0 here, so it reads back what h2c_0 received. */
static void dma_round_trip_through_files(void **state)
{
    (void)state;
    fake_device d;
    sn_card_bus b;
    sn_error e = {0};
    make_device(&d);
    remove(d.path[2]);
    assert_int_equal(symlink(d.path[1], d.path[2]), 0);
    assert_int_equal(sn_card_bus_xdma_open(&b, d.prefix, &e), SN_OK);
    uint64_t n = (20ull << 20) + 64;
    uint8_t *src = malloc(n), *back = malloc(n);
    assert_non_null(src);
    assert_non_null(back);
    for (uint64_t i = 0; i < n; i++)
        src[i] = (uint8_t)(i * 131 + (i >> 20));
    assert_int_equal(b.ops->dma_write(b.ctx, 0x40, src, n, &e), SN_OK);
    assert_int_equal(file_size(d.path[1]), (long)(0x40 + n));
    uint8_t probe[64];
    read_at(d.path[1], 0x40 + (8l << 20) - 32, probe, 64); /* across the first chunk boundary */
    assert_memory_equal(probe, src + (8l << 20) - 32, 64);
    assert_int_equal(b.ops->dma_read(b.ctx, 0x40, back, n, &e), SN_OK);
    assert_memory_equal(back, src, n);
    free(src);
    free(back);
    sn_card_bus_close(&b);
    remove_device(&d);
}

static void dma_below_64_bytes_or_off_a_beat_moves_nothing(void **state)
{
    (void)state;
    fake_device d;
    sn_card_bus b;
    sn_error e = {0};
    uint8_t buf[128] = {0};
    open_bus(&d, &b);
    char want[256];
    assert_int_equal(b.ops->dma_write(b.ctx, 0x1000, buf, 32, &e), SN_ERR_INPUT);
    snprintf(want, sizeof want, "%s: DMA write of 32 bytes at 0x1000: a transfer is at least 64 bytes, card address "
             "and length in whole 64-byte beats", d.path[1]);
    assert_string_equal(e.msg, want);
    assert_int_equal(b.ops->dma_write(b.ctx, 0x1020, buf, 64, &e), SN_ERR_INPUT); /* address off a beat */
    assert_int_equal(b.ops->dma_write(b.ctx, 0x1000, buf, 96, &e), SN_ERR_INPUT); /* length off a beat */
    assert_int_equal(b.ops->dma_read(b.ctx, 0x1008, buf, 64, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, d.path[2]));
    assert_int_equal(file_size(d.path[1]), 0);
    sn_card_bus_close(&b);
    remove_device(&d);
}

/* C2H past the end of its file: a short read naming file and card address. */
static void short_dma_read_names_file_and_address(void **state)
{
    (void)state;
    fake_device d;
    sn_card_bus b;
    sn_error e = {0};
    uint8_t buf[64];
    open_bus(&d, &b);
    assert_int_equal(b.ops->dma_read(b.ctx, 0x2000, buf, 64, &e), SN_ERR_IO);
    char want[256];
    snprintf(want, sizeof want, "%s: short DMA read at offset 0x2000: 0 of 64 bytes", d.path[2]);
    assert_string_equal(e.msg, want);
    sn_card_bus_close(&b);
    remove_device(&d);
}

/* A device file that refuses the access: the errno and its text. A FIFO
 * opens read-write but cannot be read at an offset (ESPIPE) nor mapped
 * (ENODEV). */
static void errno_is_reported(void **state)
{
    (void)state;
    fake_device d;
    sn_card_bus b;
    sn_error e = {0};
    char want[256];
    uint8_t buf[64];
    make_device(&d);
    remove(d.path[2]);
    assert_int_equal(mkfifo(d.path[2], 0600), 0);
    assert_int_equal(sn_card_bus_xdma_open(&b, d.prefix, &e), SN_OK);
    assert_int_equal(b.ops->dma_read(b.ctx, 0x40, buf, 64, &e), SN_ERR_IO);
    snprintf(want, sizeof want, "%s: DMA read of 64 bytes at offset 0x40 failed: Illegal seek (errno 29)", d.path[2]);
    assert_string_equal(e.msg, want);
    sn_card_bus_close(&b);
    remove(d.path[0]);
    assert_int_equal(mkfifo(d.path[0], 0600), 0);
    assert_int_equal(sn_card_bus_xdma_open(&b, d.prefix, &e), SN_ERR_IO);
    snprintf(want, sizeof want, "%s: cannot map the load window at 0x8000: No such device (errno 19)", d.path[0]);
    assert_string_equal(e.msg, want);
    assert_null(b.ops);
    /* a device file that is missing: open names it with ENOENT */
    remove(d.path[2]);
    assert_int_equal(sn_card_bus_xdma_open(&b, d.prefix, &e), SN_ERR_IO);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory (errno 2)", d.path[2]);
    assert_string_equal(e.msg, want);
    assert_null(b.ops);
    remove_device(&d);
}

/* The user file shrinks while the bus is open (a device that goes away):
 * each register access after it is an error naming the file and the word,
 * not a SIGBUS that kills the process; a SIGBUS outside the bus still
 * reaches the handler that was there before, and the bus leaves it
 * installed at close. */
static volatile sig_atomic_t own_bus_errors;
static void own_handler(int sig)
{
    (void)sig;
    own_bus_errors++;
}

static void window_that_shrinks_is_an_error(void **state)
{
    (void)state;
    fake_device d;
    sn_card_bus b;
    sn_error e = {0};
    char want[512];
    uint64_t v = 0;
    struct sigaction sa, before;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = own_handler;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGBUS, &sa, &before), 0);
    make_device(&d);
    open_bus(&d, &b);
    assert_int_equal(b.ops->write64(b.ctx, SN_HW_WINDOW_BASE + 0x38, 0x1122, &e), SN_OK);
    assert_int_equal(truncate(d.path[0], 0), 0);
    for (int k = 0; k < 3; k++) { /* again and again: the bus stays usable for its errors */
        assert_int_equal(b.ops->read64(b.ctx, SN_HW_WINDOW_BASE + 0x18, &v, &e), SN_ERR_IO);
        snprintf(want, sizeof want, "%s: the read of the load window word at 0x8018 faults with SIGBUS: no device "
                 "page behind it (not an XDMA user device, or the file shrank or went away)", d.path[0]);
        assert_string_equal(e.msg, want);
        assert_int_equal(b.ops->write64(b.ctx, SN_HW_WINDOW_BASE + 0x00, 1, &e), SN_ERR_IO);
        assert_non_null(strstr(e.msg, "the write of the load window word at 0x8000 faults with SIGBUS"));
    }
    raise(SIGBUS); /* not the bus's: the test's own handler takes it */
    assert_int_equal(own_bus_errors, 1);
    sn_card_bus_close(&b);
    struct sigaction now;
    assert_int_equal(sigaction(SIGBUS, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, own_handler);
    assert_int_equal(sigaction(SIGBUS, &before, NULL), 0);
    remove_device(&d);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(register_words_at_their_offsets),
             cmocka_unit_test(window_that_shrinks_is_an_error),
             cmocka_unit_test(register_offsets_outside_the_window_are_refused),
             cmocka_unit_test(dma_splits_at_8_mb), cmocka_unit_test(dma_round_trip_through_files),
             cmocka_unit_test(dma_below_64_bytes_or_off_a_beat_moves_nothing),
             cmocka_unit_test(short_dma_read_names_file_and_address), cmocka_unit_test(errno_is_reported))
