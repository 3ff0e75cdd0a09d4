/* libFuzzer target: the GDB stub's packet parser and dispatch
 * (sim/gdb/gdb_stub.c) on whatever bytes a client sends. The input is the
 * whole byte stream of one connection, handed to the stub through its io
 * (sn_gdb_serve_io) in pieces of varying length, as TCP may cut it; it is
 * served against a stand-in target whose registers, memory, breakpoints
 * and runs are fixed functions of their arguments. A crash, a sanitizer
 * report, a hang, a call into the target with arguments the protocol
 * cannot give (a register past pc, a read of more than the stub's
 * 1024-byte answer), or an answer that is neither an ack nor a packet
 * $body#checksum with its checksum is a bug. The client hangs up after
 * 64 KB of answers. Seeds: make_seeds.c, a
 * session as GDB opens one. Run through scripts/fuzz. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gdb_stub.h"
#include "not_under_test.h"

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
    /* IMEM and a window of DRAM; elsewhere unreadable, so that most of a
     * mutated stream's reads answer E01 rather than 2 KB of hex each. */
    if (!(addr < 0x8000 || (addr >= 0x80000000ull && addr < 0x80100000ull)))
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

#define ANSWER_MAX (64u << 10) /* bytes of answers a client reads before it hangs up */

/* The client's side of the connection: the input, the count of recv calls
 * and the bytes of answers so far. */
typedef struct {
    const uint8_t *data;
    size_t size, pos;
    unsigned calls;
    size_t answered;
} stream;

static ssize_t stream_recv(void *ctx, void *buf, size_t n)
{
    stream *c = ctx;
    size_t piece = 1 + (c->calls++ * 37u) % 509u; /* 1 .. 509 bytes: packets cut anywhere */
    if (piece > n)
        piece = n;
    if (piece > c->size - c->pos)
        piece = c->size - c->pos;
    memcpy(buf, c->data + c->pos, piece);
    c->pos += piece;
    return (ssize_t)piece;
}

NOT_UNDER_TEST static int hex_value(char h)
{
    return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
}

/* Each send is one answer: an ack, or $body#checksum (two lowercase hex
 * digits of the body's byte sum), checked here rather than by the stub.
 * Past ANSWER_MAX bytes the client is gone (the stub's send fails): a
 * stream of a thousand 4 KB answers costs time and reaches nothing new. */
NOT_UNDER_TEST static int stream_send(void *ctx, const void *p, size_t n)
{
    stream *c = ctx;
    const char *b = p;
    c->answered += n;
    if (n == 1 && (b[0] == '+' || b[0] == '-'))
        return c->answered > ANSWER_MAX ? -1 : 0;
    if (n < 4 || b[0] != '$' || b[n - 3] != '#' || hex_value(b[n - 2]) < 0 || hex_value(b[n - 1]) < 0)
        abort();
    unsigned sum = 0;
    for (size_t i = 1; i < n - 3; i++) {
        if (b[i] == '#' || b[i] == '$')
            abort();
        sum += (unsigned char)b[i];
    }
    if ((sum & 0xFF) != (unsigned)(hex_value(b[n - 2]) << 4 | hex_value(b[n - 1])))
        abort();
    return c->answered > ANSWER_MAX ? -1 : 0;
}

/* Every byte is sent already: recv never waits. */
static int stream_ready(void *ctx)
{
    (void)ctx;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    stream c = {data, size, 0, 0, 0};
    sn_gdb_io io = {&c, stream_recv, stream_send, stream_ready};
    target t = {0};
    sn_gdb_target gt = {&t, reg, read_mem, breakpoint, resume, NULL};
    sn_gdb_end end;
    if (sn_gdb_serve_io(&gt, &io, &end) != 0)
        abort();
    return 0;
}
