/* libFuzzer target: the GDB stub's packet parser and dispatch
 * (sim/gdb/gdb_stub.c) on whatever bytes a client sends. The input is the
 * whole byte stream of one connection (a socketpair whose buffers hold the
 * stream and every reply), served against a stand-in target whose registers,
 * memory, breakpoints and runs are fixed functions of their arguments. A
 * crash, a sanitizer report, a hang or a call into the target with
 * arguments the protocol cannot give (a register past pc, a read of more
 * than the stub's 1024-byte answer) is a bug. Seeds: make_seeds.c, a
 * session as GDB opens one. Run through scripts/fuzz. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdb_stub.h"

#define READ_MAX 1024 /* the stub's largest m answer, gdb_stub.c */

typedef struct {
    unsigned resumes; /* runs so far: every fourth ends the image */
} target;

static uint64_t reg(void *ctx, unsigned i)
{
    (void)ctx;
    if (i > 32)
        abort();
    return 0x0101010101010101ull * i;
}

static int read_mem(void *ctx, uint64_t addr, void *dst, size_t n)
{
    (void)ctx;
    if (n > READ_MAX)
        abort();
    if (addr >= 0x90000000ull) /* off the memory map */
        return -1;
    memset(dst, (int)(addr & 0xFF), n);
    return 0;
}

static int breakpoint(void *ctx, uint64_t addr, int on)
{
    (void)ctx;
    (void)on;
    return addr % 4 == 0 && addr < 0x8000 ? 0 : -1;
}

static sn_gdb_stop resume(void *ctx, int step, int (*interrupted)(void *), void *ictx, uint64_t *code)
{
    target *t = ctx;
    if (!step && interrupted(ictx))
        return SN_GDB_INTERRUPTED;
    if (++t->resumes % 4 == 0) {
        *code = t->resumes;
        return SN_GDB_EXITED;
    }
    return SN_GDB_BREAK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char sink[1 << 16];
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        abort();
    /* The stream goes in whole before the stub reads, and its replies (at most about 2 KB per 5-byte
     * packet) wait in the buffer until it is done: 4 MB buffers hold those of 4 KB of input; without the
     * privilege to force them, the default ones those of 512 bytes. */
    int big = 4 << 20;
    int forced = setsockopt(sv[0], SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof big) == 0 &&
                 setsockopt(sv[1], SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof big) == 0;
    if (size > (forced ? 4096u : 512u)) {
        close(sv[0]);
        close(sv[1]);
        return 0;
    }
    if (size > 0 && send(sv[1], data, size, MSG_NOSIGNAL) != (ssize_t)size)
        abort();
    shutdown(sv[1], SHUT_WR); /* the stub sees the connection end after the input */
    target t = {0};
    sn_gdb_target gt = {&t, reg, read_mem, breakpoint, resume};
    sn_gdb_end end;
    if (sn_gdb_serve_fd(&gt, sv[0], &end) != 0)
        abort();
    close(sv[0]);
    while (read(sv[1], sink, sizeof sink) > 0) /* the replies, unread by anyone */
        ;
    close(sv[1]);
    return 0;
}
