/* The host window's vocabulary, shared by every side that opens or serves
 * one (docs/DESIGN.md §3 "The same transport for sim and card"): how a run
 * stopped, the records a window counts (GO, completion, a unit's busy
 * spans, its DRAM accesses) and the operations of a window. The SysNode's
 * window as the loader uses it: load IMEM and the scratchpad, read and
 * write DRAM, pulse BOOT, wait for exit with the status word, read the
 * console (sysnode-facts §1.3: hs_* regions IMEM/SPAD/control, STATUS
 * {exited, halted, cause}, EXIT, console FIFO). The host's transports are in
 * host/session/transport.h, the simulator's in sim/transport/. */
#ifndef SN_COMMON_WINDOW_H
#define SN_COMMON_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "sysnode/mesh.h"

struct sn_sim; /* the simulator (sim/harness/sim.h), opaque here */

typedef enum {
    SN_RUN_EXITED,      /* the image stored to R_EXIT */
    SN_RUN_HALTED,      /* the core halted on a trap with no handler (cause 1..3) */
    SN_RUN_CYCLE_LIMIT, /* no exit within the cycle limit: a hang */
    SN_RUN_SIM_ERROR,   /* the simulator stopped the run (unmodelled or illegal access) */
    SN_RUN_BREAK,       /* a debugger's breakpoint or step (sim/gdb): the simulator's run resumes; a
                           window's wait never ends so */
} sn_run_stop;

typedef struct {
    sn_run_stop stop;
    uint64_t exit_code;
    unsigned halt_cause;
    uint64_t cycles;  /* CPU cycles from BOOT (STATUS CYCLES on a card) */
    uint64_t instret; /* instructions retired (RETIRED) */
    uint64_t pc;      /* where the core stopped (HALTPC on a card) */
    char message[512];/* the simulator's reason for SN_RUN_SIM_ERROR; SN_RUN_HALTED: "at PC 0x…" and, where
                         the simulator knows it, the exception (mcause, its name, mtval) */
    uint32_t dropped_gos; /* GOs lost since BOOT (a GO while STAT[15], or injected) */
    char inject[256];     /* what an injected fault did, or "" (sim/harness/inject.h) */
    char errata[512];     /* the core errata the run reproduced, one description a line, or ""
                             (a simulator's: core-timing.md "Surprises"; a card names none) */
} sn_run_status;

/* One GO the mailbox accepted, as the window measured it (not as the image
 * reports it): the source of sysnode-bench's figures. */
typedef struct {
    uint64_t cycle;    /* CPU cycle of the GO store, counted from BOOT */
    uint64_t mmio_ops; /* mailbox and RX-queue register reads and writes since BOOT, before this GO */
    uint8_t typed;     /* a typed send (DST[24], e.g. a CU_CTRL probe), not a CU_INST payload */
    uint8_t node;      /* SN_NODE_ID of DST: where it went */
} sn_go_record;

/* One completion the core popped from the mailbox (HEAD, sysnode-facts §2.3). */
typedef struct {
    uint64_t cycle; /* CPU cycle of the pop, counted from BOOT */
    uint8_t x, y;   /* the source node */
    uint8_t code;   /* signal code (sysnode-facts §4) */
    uint32_t arg;   /* its argument: the txn for BATCH_COMPLETE */
} sn_completion_record;

/* One payload in a unit, in cycles from BOOT: arrive, its CU_INST's tap at
 * the unit port; start, the unit's accept; end, its completion's tap at the
 * port (0: none). The unit's busy counter is the union of [arrive + 1,
 * end - 1] (unit-timing §1, sn_busy_union). estimate: the compiler's cost
 * model for that payload (artifacts-facts §7), cycles. */
typedef struct {
    uint64_t arrive, start, end;
    uint32_t estimate;
} sn_busy_span;

typedef struct {
    uint8_t x, y;
    uint16_t cu_type; /* SN_CU_TYPE_* */
    uint64_t span_count;
    const sn_busy_span *spans;
} sn_unit_busy;

/* What the window counted over the last run (since BOOT). The arrays are
 * owned by the transport and valid until the next stats call, wait, boot or
 * close. */
typedef struct {
    uint64_t mmio_reads;  /* mailbox and RX-queue register reads by the core (8-byte accesses count once) */
    uint64_t mmio_writes; /* ... and writes, GO and HEAD pops included */
    uint64_t go_count;    /* accepted GOs; dropped GOs are not recorded */
    const sn_go_record *gos;
    double wait_seconds;  /* host wall-clock seconds spent in every wait since BOOT (the simulation itself,
                             from the boot to the exit across all host steps) */
    uint64_t completion_count; /* completions the core popped, in order */
    const sn_completion_record *completions;
    uint32_t unit_count;  /* units that issued a payload, and their spans in issue order */
    sn_unit_busy units[SN_MESH_MAX_UNITS];
} sn_run_stats;

/* One unit DRAM access as the simulator saw it: unit (x, y) moved nbytes
 * at unit address addr, reading (write 0) or writing (1), executing its
 * payload number `payload` since BOOT (0-based, in the order kicks sent
 * them); consecutive bytes one payload moves the same way are one access. */
typedef struct {
    uint8_t x, y, write;
    uint64_t payload, addr, nbytes;
} sn_unit_access;

typedef struct sn_transport_ops {
    /* IMEM: one 32-bit word per write, addr 4-aligned below 32 KB. */
    sn_status (*imem_write)(void *ctx, uint32_t addr, uint32_t word, sn_error *e);
    /* SPAD: one 64-bit word per write at offset (8-aligned, below 32 KB) with byte strobes. */
    sn_status (*spad_write)(void *ctx, uint32_t offset, uint64_t value, uint8_t strobes, sn_error *e);
    /* SPAD: n bytes from offset (below 32 KB), e.g. the runner's status block after a run. */
    sn_status (*spad_read)(void *ctx, uint32_t offset, void *dst, uint32_t n, sn_error *e);
    /* DRAM at unit address addr, n bytes. */
    sn_status (*dram_write)(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e);
    sn_status (*dram_read)(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e);
    /* Pulses BOOT: reset the core (PC 0), its counters and exit flag; memories keep their bytes. */
    sn_status (*boot)(void *ctx, sn_error *e);
    /* Waits until the core exits or halts, or cycle_limit CPU cycles pass. */
    sn_status (*wait)(void *ctx, uint64_t cycle_limit, sn_run_status *out, sn_error *e);
    /* What the image printed since BOOT, as text (escape.h: every byte kept, a NUL or control byte
     * escaped as \xHH); a NUL-terminated string owned by the transport that only grows during a run. */
    const char *(*console)(void *ctx);
    /* DRAM bytes behind the window (the simulator's model size; a card's per-mesh DRAM). */
    uint64_t (*dram_size)(void *ctx);
    void (*close)(void *ctx);
    /* Optional (NULL on a window that cannot count, such as a card's): the
     * counts of the last run. SN_ERR_INTERNAL when out of memory. */
    sn_status (*stats)(void *ctx, sn_run_stats *out, sn_error *e);
    /* Optional (NULL on a window that cannot see the units' DRAM port, such
     * as a card's): track(on) starts or stops recording every unit DRAM
     * access and says whether it records (0 under a debugger, whose waits
     * must not be split); take hands out those since the last take, in the
     * order the units made them (*out owned by the transport, valid until
     * the next take or close). SN_ERR_INTERNAL when out of memory. */
    int (*track_accesses)(void *ctx, int on);
    sn_status (*take_accesses)(void *ctx, const sn_unit_access **out, size_t *n, sn_error *e);
    /* Optional (NULL: the window serves host steps, FORMAT.md §9): why this
     * window cannot hold the runner at a host sync point, so a case with host
     * steps is refused before anything is read or written. */
    const char *(*host_steps_refused)(void *ctx);
    /* Optional (NULL on a card, a recorder): the simulator behind this window,
     * the in-process one or the simulated card's, for what only it offers
     * (sim/transport/transport_sim.h: the FST dump). Owned by the window. */
    struct sn_sim *(*sim)(void *ctx);
} sn_transport_ops;

typedef struct sn_transport {
    const sn_transport_ops *ops;
    void *ctx;
} sn_transport;

#endif
