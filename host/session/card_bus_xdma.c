/* The card bus over the Xilinx XDMA driver's character devices (see
 * card_bus.h). Register words are single 64-bit loads and stores through a
 * shared mapping of the load window's 4 KB of PREFIX_user (the driver's
 * read/write of that device moves 32 bits at a time, which would split a
 * LOAD_DATA word in two); DMA is pwrite on PREFIX_h2c_0 and pread on
 * PREFIX_c2h_0 at the card address, through a page-aligned staging buffer of
 * one transfer (the driver pins those pages; KohakuTPU
 * driver/kohakuaccel/transport/xdma.py@4c61f070). */
#define _POSIX_C_SOURCE 200809L /* pread, pwrite, posix_memalign */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "card_bus_xdma.h"
#include "err_text.h"
#include "sysnode/host_window.h"
#include "sysnode/regs.h"

#define STAGING_ALIGN 4096

typedef struct {
    char prefix[256];
    char path[3][300]; /* user, h2c_0, c2h_0 */
    int fd[3];
    uint8_t *staging; /* SN_HW_DMA_MAX_BYTES, page-aligned */
    volatile uint64_t *window; /* the load window, SN_HW_WINDOW_SIZE bytes of PREFIX_user at SN_HW_WINDOW_BASE */
    /* for move(): the caller's buffer of the transfer in progress */
    const uint8_t *src;
    uint8_t *dst;
} xdma;

enum { USER, H2C, C2H };
static const char *const SUFFIX[] = {"_user", "_h2c_0", "_c2h_0"};

static sn_status io_error(const xdma *x, int which, const char *what, uint64_t offset, uint64_t n, ssize_t got,
                          sn_error *e)
{
    if (got < 0)
        return sn_error_set(e, SN_ERR_IO, "%s: %s of %llu bytes at offset 0x%llx failed: %s (errno %d)",
                            x->path[which], what, (unsigned long long)n, (unsigned long long)offset,
                            strerror(errno), errno);
    return sn_error_set(e, SN_ERR_IO, "%s: short %s at offset 0x%llx: %lld of %llu bytes", x->path[which], what,
                        (unsigned long long)offset, (long long)got, (unsigned long long)n);
}

/* Every access of the mapped window can fault with SIGBUS: a mapping with
 * no page behind it (a file that is no XDMA user device, such as
 * /dev/zero) on the first, a file that shrinks (or a device that goes away)
 * on any later one. Each access is guarded: while any bus is open, a
 * SIGBUS handler jumps back to the access in progress on its thread, which
 * fails naming the file; a SIGBUS anywhere else goes to the handler that
 * was there before. SA_NODEFER: the jump leaves SIGBUS unblocked, so a
 * guarded access costs a sigsetjmp without a signal-mask call. */
static _Thread_local sigjmp_buf *access_jump;
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned guard_users; /* open buses */
static struct sigaction guard_before;

static void on_window_fault(int sig)
{
    if (access_jump)
        siglongjmp(*access_jump, sig);
    sigaction(SIGBUS, &guard_before, NULL); /* not ours: to the handler before, from now on */
    raise(sig);
}

static void guard_take(void)
{
    pthread_mutex_lock(&guard_lock);
    if (guard_users++ == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_window_fault;
        sa.sa_flags = SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &guard_before);
    }
    pthread_mutex_unlock(&guard_lock);
}

static void guard_drop(void)
{
    pthread_mutex_lock(&guard_lock);
    if (--guard_users == 0)
        sigaction(SIGBUS, &guard_before, NULL);
    pthread_mutex_unlock(&guard_lock);
}

/* *w into *value (write 0) or value into *w (write 1); -1 after a SIGBUS. */
static int guarded(volatile uint64_t *w, uint64_t *value, int write)
{
    sigjmp_buf env;
    sigjmp_buf *outer = access_jump;
    access_jump = &env;
    int ok = sigsetjmp(env, 0) == 0;
    if (ok) {
        if (write)
            *w = *value;
        else
            *value = *w;
    }
    access_jump = outer;
    return ok ? 0 : -1;
}

/* The word at control-port offset, or NULL outside the mapped window. */
static volatile uint64_t *word_at(xdma *x, uint64_t offset)
{
    if (offset < SN_HW_WINDOW_BASE || offset - SN_HW_WINDOW_BASE >= SN_HW_WINDOW_SIZE || offset % 8)
        return NULL;
    return x->window + (offset - SN_HW_WINDOW_BASE) / 8;
}

static sn_status outside_window(const xdma *x, uint64_t offset, sn_error *e)
{
    return sn_error_set(e, SN_ERR_INPUT, "%s: offset 0x%llx is not an 8-aligned word of the load window [0x%llx, 0x%llx)",
                        x->path[USER], (unsigned long long)offset, SN_HW_WINDOW_BASE,
                        SN_HW_WINDOW_BASE + SN_HW_WINDOW_SIZE);
}

static sn_status window_fault(const xdma *x, const char *what, uint64_t offset, sn_error *e)
{
    return sn_error_set(e, SN_ERR_IO, "%s: the %s of the load window word at 0x%llx faults with SIGBUS: no device "
                        "page behind it (not an XDMA user device, or the file shrank or went away)",
                        x->path[USER], what, (unsigned long long)offset);
}

static sn_status xdma_read64(void *ctx, uint64_t offset, uint64_t *value, sn_error *e)
{
    xdma *x = ctx;
    volatile uint64_t *w = word_at(x, offset);
    if (!w)
        return outside_window(x, offset, e);
    return guarded(w, value, 0) == 0 ? SN_OK : window_fault(x, "read", offset, e);
}

static sn_status xdma_write64(void *ctx, uint64_t offset, uint64_t value, sn_error *e)
{
    xdma *x = ctx;
    volatile uint64_t *w = word_at(x, offset);
    if (!w)
        return outside_window(x, offset, e);
    return guarded(w, &value, 1) == 0 ? SN_OK : window_fault(x, "write", offset, e);
}

static sn_status h2c_move(void *ctx, uint64_t card_addr, uint64_t offset, uint64_t len, sn_error *e)
{
    xdma *x = ctx;
    memcpy(x->staging, x->src + offset, len);
    ssize_t got = pwrite(x->fd[H2C], x->staging, len, (off_t)card_addr);
    return got == (ssize_t)len ? SN_OK : io_error(x, H2C, "DMA write", card_addr, len, got, e);
}

static sn_status c2h_move(void *ctx, uint64_t card_addr, uint64_t offset, uint64_t len, sn_error *e)
{
    xdma *x = ctx;
    ssize_t got = pread(x->fd[C2H], x->staging, len, (off_t)card_addr);
    if (got != (ssize_t)len)
        return io_error(x, C2H, "DMA read", card_addr, len, got, e);
    memcpy(x->dst + offset, x->staging, len);
    return SN_OK;
}

static sn_status xdma_dma_write(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    xdma *x = ctx;
    x->src = src;
    return sn_card_dma_split(x->path[H2C], "write", addr, n, h2c_move, x, e);
}

static sn_status xdma_dma_read(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    xdma *x = ctx;
    x->dst = dst;
    return sn_card_dma_split(x->path[C2H], "read", addr, n, c2h_move, x, e);
}

/* A card has 4 GB of DDR4 per mesh (sysnode-facts §6); the host lays out
 * the first 16 MiB, the DRAM-resident linker region and the simulator's
 * DRAM (DESIGN §6), so a case's table lands where it does in CI. */
static uint64_t xdma_dram_size(void *ctx)
{
    (void)ctx;
    return SN_DRAM_DEFAULT_SIZE;
}

static const char *xdma_name(void *ctx)
{
    return ((xdma *)ctx)->prefix;
}

static void xdma_close(void *ctx)
{
    xdma *x = ctx;
    if (x->window) {
        munmap((void *)x->window, SN_HW_WINDOW_SIZE);
        guard_drop();
    }
    for (int i = 0; i < 3; i++)
        if (x->fd[i] >= 0)
            close(x->fd[i]);
    free(x->staging);
    free(x);
}

static const sn_card_bus_ops xdma_ops = {
    xdma_read64, xdma_write64, xdma_dma_write, xdma_dma_read, xdma_dram_size, xdma_name, xdma_close, NULL, NULL, NULL,
};

sn_status sn_card_bus_xdma_open(sn_card_bus *b, const char *prefix, sn_error *e)
{
    xdma *x = calloc(1, sizeof *x);
    if (!x)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    if (snprintf(x->prefix, sizeof x->prefix, "%s", prefix) >= (int)sizeof x->prefix) {
        free(x);
        return sn_error_set(e, SN_ERR_INPUT, "XDMA device prefix is longer than %zu bytes: %.64s...",
                            sizeof x->prefix - 1, prefix);
    }
    x->fd[USER] = x->fd[H2C] = x->fd[C2H] = -1;
    for (int i = 0; i < 3; i++) {
        sn_text_fit(x->path[i], sizeof x->path[i], "%s%s", prefix, SUFFIX[i]);
        x->fd[i] = open(x->path[i], O_RDWR | O_CLOEXEC);
        if (x->fd[i] < 0) {
            sn_status st = sn_error_set(e, SN_ERR_IO, "%s: cannot open: %s (errno %d)", x->path[i], strerror(errno),
                                        errno);
            xdma_close(x);
            return st;
        }
    }
    /* a regular file standing in for the device must cover the window (a
     * mapped page past its end faults) */
    struct stat st;
    if (fstat(x->fd[USER], &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size < SN_HW_WINDOW_BASE + SN_HW_WINDOW_SIZE) {
        sn_status bad = sn_error_set(e, SN_ERR_IO, "%s: a regular file of %lld bytes does not cover the load window "
                                     "[0x%llx, 0x%llx)", x->path[USER], (long long)st.st_size, SN_HW_WINDOW_BASE,
                                     SN_HW_WINDOW_BASE + SN_HW_WINDOW_SIZE);
        xdma_close(x);
        return bad;
    }
    void *map = mmap(NULL, SN_HW_WINDOW_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, x->fd[USER], (off_t)SN_HW_WINDOW_BASE);
    if (map == MAP_FAILED) {
        sn_status bad = sn_error_set(e, SN_ERR_IO, "%s: cannot map the load window at 0x%llx: %s (errno %d)",
                                     x->path[USER], SN_HW_WINDOW_BASE, strerror(errno), errno);
        xdma_close(x);
        return bad;
    }
    x->window = map;
    guard_take();
    uint64_t status;
    if (guarded(word_at(x, SN_HW_WINDOW_BASE + SN_HW_STATUS), &status, 0) != 0) { /* caught here, not mid-run */
        sn_status bad = sn_error_set(e, SN_ERR_IO, "%s: the load window at 0x%llx has no device behind it (its "
                                     "first read, STATUS at 0x%llx, faults with SIGBUS): not an XDMA user device?",
                                     x->path[USER], SN_HW_WINDOW_BASE, SN_HW_WINDOW_BASE + SN_HW_STATUS);
        xdma_close(x);
        return bad;
    }
    if (posix_memalign((void **)&x->staging, STAGING_ALIGN, SN_HW_DMA_MAX_BYTES) != 0) {
        x->staging = NULL;
        xdma_close(x);
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the %llu-byte DMA staging buffer",
                            SN_HW_DMA_MAX_BYTES);
    }
    b->ops = &xdma_ops;
    b->ctx = x;
    return SN_OK;
}
