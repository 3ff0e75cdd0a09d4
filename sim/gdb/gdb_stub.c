/* The GDB stub; see gdb_stub.h. */
#include "gdb_stub.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err_text.h"

#define PACKET_MAX 4096
#define READ_MAX 1024 /* bytes per m packet answer (2 hex digits each) */

static const char *const reg_names[33] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
    "a7",   "s2", "s3", "s4", "s5",  "s6",  "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "pc",
};

typedef struct conn {
    const sn_gdb_io *io;
    bool ack; /* until QStartNoAckMode */
    const sn_gdb_target *t;
    char xml[4096];
    size_t xml_len;
    char over_reply[8]; /* once the run is over: W<status> or X05, for ? and resumes */
    unsigned char in[4096]; /* bytes received and not yet taken: in[in_pos..in_len) */
    size_t in_pos, in_len;
} conn;

/* Refills the empty buffer with what the client sent (one recv per buffer,
 * not per byte): 0, or -1 when the connection ends. */
static int fill(conn *c)
{
    ssize_t n = c->io->recv(c->io->ctx, c->in, sizeof c->in);
    if (n <= 0)
        return -1;
    c->in_pos = 0;
    c->in_len = (size_t)n;
    return 0;
}

/* The next byte from the client, or -1 when the connection ends. */
static int get_byte(conn *c)
{
    if (c->in_pos == c->in_len && fill(c) != 0)
        return -1;
    return c->in[c->in_pos++];
}

static int send_all(conn *c, const char *p, size_t n)
{
    return c->io->send(c->io->ctx, p, n);
}

static int hex_digit(int b)
{
    return b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10 : b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
}

/* Reads one packet's body into buf (NUL-terminated); 0x03 outside a packet
 * is returned as the body "\x03". A packet whose checksum does not match
 * or that does not fit buf is never executed: with acks it is refused with
 * '-' (GDB sends it again), without it is answered E00 (the remote protocol's
 * packet acknowledgment rules). Returns -1 when the connection ends. */
static int get_packet(conn *c, char *buf, size_t size)
{
    for (;;) {
        int b = get_byte(c);
        if (b < 0)
            return -1;
        if (b == 0x03) {
            strcpy(buf, "\x03");
            return 0;
        }
        if (b != '$')
            continue; /* acks and noise */
        size_t n = 0;
        unsigned sum = 0;
        bool fits = true;
        while ((b = get_byte(c)) >= 0 && b != '#') {
            sum += (unsigned)b;
            if (n + 1 < size)
                buf[n++] = (char)b;
            else
                fits = false;
        }
        buf[n] = 0;
        int hi = b < 0 ? -1 : get_byte(c), lo = hi < 0 ? -1 : get_byte(c);
        if (lo < 0)
            return -1;
        int want = hex_digit(hi) < 0 || hex_digit(lo) < 0 ? -1 : hex_digit(hi) << 4 | hex_digit(lo);
        bool intact = want == (int)(sum & 0xFF);
        if (c->ack && send_all(c, intact && fits ? "+" : "-", 1) != 0)
            return -1;
        if (intact && fits)
            return 0;
        if (!c->ack && send_all(c, "$E00#a5", 7) != 0)
            return -1;
    }
}

/* Byte b as two lowercase hex digits at out (no NUL). */
static void hex_byte(char *out, unsigned b)
{
    static const char digits[] = "0123456789abcdef";
    out[0] = digits[b >> 4 & 0xF];
    out[1] = digits[b & 0xF];
}

/* Sends $body#checksum. Every body is shorter than PACKET_MAX (the
 * longest, a qXfer piece, is capped below it). */
static int reply(conn *c, const char *body)
{
    char buf[PACKET_MAX + 4];
    unsigned sum = 0;
    size_t n = strlen(body);
    if (n >= PACKET_MAX)
        return -1;
    buf[0] = '$';
    for (size_t i = 0; i < n; i++) {
        sum += (unsigned char)body[i];
        buf[1 + i] = body[i];
    }
    buf[1 + n] = '#';
    hex_byte(buf + 2 + n, sum & 0xFF);
    return send_all(c, buf, n + 4);
}

static void hex_le(char *out, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        hex_byte(out + 2 * i, (unsigned)(v >> 8 * i) & 0xFF);
    out[16] = 0;
}

static void build_xml(conn *c)
{
    int n = snprintf(c->xml, sizeof c->xml,
                     "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\"><target version=\"1.0\">"
                     "<architecture>riscv:rv64</architecture><feature name=\"org.gnu.gdb.riscv.cpu\">");
    for (unsigned i = 0; i < 33; i++)
        n += snprintf(c->xml + n, sizeof c->xml - (size_t)n,
                      "<reg name=\"%s\" bitsize=\"64\" type=\"%s\" regnum=\"%u\"/>", reg_names[i],
                      i == 32 || i == 1 ? "code_ptr" : i == 2 ? "data_ptr" : "int", i);
    n += snprintf(c->xml + n, sizeof c->xml - (size_t)n, "</feature></target>");
    c->xml_len = (size_t)n;
}

/* qXfer:features:read:target.xml:OFF,LEN */
static int features(conn *c, const char *args)
{
    unsigned long off, len;
    if (strncmp(args, "target.xml:", 11) != 0 || sscanf(args + 11, "%lx,%lx", &off, &len) != 2)
        return reply(c, "E00");
    char out[PACKET_MAX];
    if (len > sizeof out - 2)
        len = sizeof out - 2;
    if (off >= c->xml_len)
        return reply(c, "l");
    size_t n = c->xml_len - off < len ? c->xml_len - off : len;
    out[0] = off + n < c->xml_len ? 'm' : 'l';
    memcpy(out + 1, c->xml + off, n);
    out[n + 1] = 0;
    return reply(c, out);
}

static int read_memory(conn *c, const char *args)
{
    unsigned long long addr, len;
    if (sscanf(args, "%llx,%llx", &addr, &len) != 2)
        return reply(c, "E00");
    if (len > READ_MAX)
        len = READ_MAX;
    uint8_t bytes[READ_MAX];
    if (c->t->read(c->t->ctx, addr, bytes, (size_t)len) != 0)
        return reply(c, "E01");
    char out[2 * READ_MAX + 1];
    for (size_t i = 0; i < len; i++)
        hex_byte(out + 2 * i, bytes[i]);
    out[2 * len] = 0;
    return reply(c, out);
}

/* Ctrl-C is the next byte the client sent, if it sent one yet (never waits). */
static int interrupted(void *ictx)
{
    conn *c = ictx;
    if (c->in_pos == c->in_len && (!c->io->ready(c->io->ctx) || fill(c) != 0))
        return 0;
    return c->in[c->in_pos] == 0x03 && get_byte(c) == 0x03;
}

/* s or c: runs and answers with the stop; *over when the run ended. */
static int resume(conn *c, int step, bool *over)
{
    uint64_t code = 0;
    sn_gdb_stop why = c->t->resume(c->t->ctx, step, interrupted, c, &code);
    switch (why) {
    case SN_GDB_BREAK:
        return reply(c, "S05");
    case SN_GDB_INTERRUPTED:
        return reply(c, "S02");
    case SN_GDB_EXITED:
        *over = true;
        sn_text_fit(c->over_reply, sizeof c->over_reply, "W%02x", (unsigned)(code & 0xFF));
        return reply(c, c->over_reply);
    case SN_GDB_ENDED:
    default:
        *over = true;
        strcpy(c->over_reply, "X05");
        return reply(c, c->over_reply);
    }
}

static int serve(conn *c, sn_gdb_end *end)
{
    char pkt[PACKET_MAX];
    bool over = false;
    *end = SN_GDB_DETACHED;
    while (get_packet(c, pkt, sizeof pkt) == 0) {
        int rc = 0;
        unsigned long long a, b;
        char regs[33 * 16 + 1];
        switch (pkt[0]) {
        case '?':
            rc = reply(c, over ? c->over_reply : "S05");
            break;
        case 'g':
            for (unsigned i = 0; i < 33; i++)
                hex_le(regs + 16 * i, c->t->reg(c->t->ctx, i));
            rc = reply(c, regs);
            break;
        case 'p':
            if (sscanf(pkt + 1, "%llx", &a) != 1 || a > 32) {
                rc = reply(c, "E00");
                break;
            }
            hex_le(regs, c->t->reg(c->t->ctx, (unsigned)a));
            regs[16] = 0;
            rc = reply(c, regs);
            break;
        case 'm':
            rc = read_memory(c, pkt + 1);
            break;
        case 'Z':
        case 'z':
            if (pkt[1] != '0' || sscanf(pkt + 2, ",%llx,%llx", &a, &b) != 2) {
                rc = reply(c, "");
                break;
            }
            rc = reply(c, c->t->breakpoint(c->t->ctx, a, pkt[0] == 'Z') == 0 ? "OK" : "E01");
            break;
        case 's':
        case 'c':
            rc = over ? reply(c, c->over_reply) : resume(c, pkt[0] == 's', &over);
            if (over)
                *end = SN_GDB_RUN_OVER;
            break;
        case 'D':
            reply(c, "OK");
            return 0;
        case 'k':
            *end = over ? SN_GDB_RUN_OVER : SN_GDB_KILLED;
            return 0;
        case 'H':
            rc = reply(c, "OK");
            break;
        case 'q':
            if (strncmp(pkt, "qSupported", 10) == 0)
                rc = reply(c, "PacketSize=1000;qXfer:features:read+;QStartNoAckMode+");
            else if (strncmp(pkt, "qXfer:features:read:", 20) == 0)
                rc = features(c, pkt + 20);
            else if (strcmp(pkt, "qAttached") == 0)
                rc = reply(c, "1");
            else
                rc = reply(c, "");
            break;
        case 'Q':
            if (strcmp(pkt, "QStartNoAckMode") == 0) {
                rc = reply(c, "OK");
                c->ack = false;
            } else {
                rc = reply(c, "");
            }
            break;
        default: /* 0x03 while stopped, and every packet not listed: unsupported */
            rc = pkt[0] == 0x03 ? reply(c, "S02") : reply(c, "");
            break;
        }
        if (rc != 0)
            return 0;
    }
    if (over)
        *end = SN_GDB_RUN_OVER;
    return 0;
}

/* A TCP connection as the stub's io (ctx: the socket). */
static ssize_t socket_recv(void *ctx, void *buf, size_t n)
{
    ssize_t k;
    do
        k = recv(*(int *)ctx, buf, n, 0);
    while (k < 0 && errno == EINTR);
    return k;
}

static int socket_send(void *ctx, const void *p, size_t n)
{
    const char *b = p;
    while (n > 0) {
        ssize_t k = send(*(int *)ctx, b, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static int socket_ready(void *ctx)
{
    struct pollfd p = {*(int *)ctx, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

int sn_gdb_listen(int port, char *err, size_t errlen)
{
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    if (ls < 0) {
        sn_text_fit(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof sa;
    if (port < 0 || port > 65535 || bind(ls, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(ls, 1) != 0 ||
        getsockname(ls, (struct sockaddr *)&sa, &sl) != 0) {
        sn_text_fit(err, errlen, "cannot listen on 127.0.0.1:%d: %s", port, strerror(errno));
        close(ls);
        return -1;
    }
    return ls;
}

int sn_gdb_serve(const sn_gdb_target *t, int listener, sn_gdb_end *end, char *err, size_t errlen)
{
    struct sockaddr_in sa = {0};
    socklen_t sl = sizeof sa;
    if (getsockname(listener, (struct sockaddr *)&sa, &sl) == 0) {
        fprintf(stderr, "gdb: listening on 127.0.0.1:%u\n", ntohs(sa.sin_port));
        fflush(stderr);
    }
    /* Polled in slices: a signal that comes just before the wait must end it too. */
    for (;;) {
        struct pollfd p = {listener, POLLIN, 0};
        int n = poll(&p, 1, t->stopped ? 100 : -1);
        if (n > 0)
            break;
        if (t->stopped && t->stopped(t->ctx)) {
            sn_text_fit(err, errlen, "interrupted by a signal while waiting for a debugger to connect");
            close(listener);
            return -1;
        }
        if (n < 0 && errno != EINTR) {
            sn_text_fit(err, errlen, "gdb: poll: %s", strerror(errno));
            close(listener);
            return -1;
        }
    }
    int fd = accept(listener, NULL, NULL);
    close(listener);
    if (fd < 0) {
        sn_text_fit(err, errlen, "gdb: accept: %s", strerror(errno));
        return -1;
    }
    sn_gdb_io io = {&fd, socket_recv, socket_send, socket_ready};
    int rc = sn_gdb_serve_io(t, &io, end);
    close(fd);
    if (rc != 0)
        sn_text_fit(err, errlen, "gdb: out of memory");
    return rc;
}

int sn_gdb_serve_io(const sn_gdb_target *t, const sn_gdb_io *io, sn_gdb_end *end)
{
    conn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return -1;
    c->io = io;
    c->ack = true;
    c->t = t;
    build_xml(c);
    serve(c, end);
    free(c);
    return 0;
}
