/* A GDB remote-serial-protocol server for the image inside the simulator:
 * registers (x0-x31, pc), memory reads, software breakpoints, single step,
 * continue, Ctrl-C, detach and kill, over one TCP connection on
 * 127.0.0.1. The target is reached only through the callbacks, so the stub
 * knows nothing of the hart or the mesh. Simulated time stands still while
 * the debugger holds the image (the caller runs it only in resume). */
#ifndef SN_GDB_STUB_H
#define SN_GDB_STUB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h> /* ssize_t */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SN_GDB_BREAK,       /* stopped in the image (breakpoint or step) */
    SN_GDB_INTERRUPTED, /* interrupted() answered true between slices of the run */
    SN_GDB_EXITED,      /* the image exited: *code holds the exit word */
    SN_GDB_ENDED,       /* the run is over otherwise (halt, hang, simulation error) */
} sn_gdb_stop;

typedef struct sn_gdb_target {
    void *ctx;
    /* register i: 0..31 x0..x31, 32 pc */
    uint64_t (*reg)(void *ctx, unsigned i);
    /* n bytes at a CPU address, without side effects; 0, or -1 if unreadable */
    int (*read)(void *ctx, uint64_t addr, void *dst, size_t n);
    /* sets (on) or clears a software breakpoint; 0, or -1 if refused */
    int (*breakpoint)(void *ctx, uint64_t addr, int on);
    /* runs one instruction (step) or until a stop; a continue calls
     * interrupted(ictx) between slices and stops with SN_GDB_INTERRUPTED
     * when it answers nonzero */
    sn_gdb_stop (*resume)(void *ctx, int step, int (*interrupted)(void *ictx), void *ictx, uint64_t *code);
    /* nonzero once the user asked the run to stop (a signal), so that the wait for a
     * debugger to connect ends; may be NULL */
    int (*stopped)(void *ctx);
} sn_gdb_target;

typedef enum {
    SN_GDB_DETACHED, /* the debugger detached (D) or closed the connection: the caller finishes the run */
    SN_GDB_KILLED,   /* the debugger asked to kill (k): the caller stops */
    SN_GDB_RUN_OVER, /* the run ended (exit, halt, hang or error) while the debugger held it */
} sn_gdb_end;

/* Listens on 127.0.0.1:port (0: a free port), so that a busy port is
 * refused before anything runs. Returns the listening socket, or -1 with the
 * reason in err (errlen bytes). */
int sn_gdb_listen(int port, char *err, size_t errlen);

/* Writes "gdb: listening on 127.0.0.1:N" to stderr, accepts one connection
 * on listener (from sn_gdb_listen, closed here) and serves it until it ends. Returns 0 with *end set, or -1 with the reason in
 * err (errlen bytes) if no connection comes or memory runs out. Protocol:
 * the GDB manual's "Remote Protocol" appendix (packets ?, g, p, m, Z0/z0, s,
 * c, D, k, qSupported, qXfer:features:read, QStartNoAckMode; Ctrl-C as the
 * byte 0x03). */
int sn_gdb_serve(const sn_gdb_target *t, int listener, sn_gdb_end *end, char *err, size_t errlen);

/* The byte stream of one connection, as the stub reads and writes it. */
typedef struct sn_gdb_io {
    void *ctx;
    /* up to n bytes the client sent, into buf: the count (>= 1, waiting
     * for one if need be), or 0 or -1 when the connection is over */
    ssize_t (*recv)(void *ctx, void *buf, size_t n);
    /* all n bytes at p to the client: 0, or -1 when the connection is gone */
    int (*send)(void *ctx, const void *p, size_t n);
    /* nonzero when recv would return at once (bytes or the end), never waiting */
    int (*ready)(void *ctx);
} sn_gdb_io;

/* Serves one connection through io (a TCP connection accepted by
 * sn_gdb_serve; the fuzz input itself in tests/fuzz/fuzz_gdb.c) until it
 * ends: the packets and their answers as sn_gdb_serve's. Returns 0 with
 * *end set, -1 when memory runs out. */
int sn_gdb_serve_io(const sn_gdb_target *t, const sn_gdb_io *io, sn_gdb_end *end);

#ifdef __cplusplus
}
#endif

#endif
