/* A cycle-stepped C model of the SysNode mailbox, its hub and toy units, for
 * the runner's unit tests. It implements the three sn_port_* functions of
 * firmware/port/mbox_port.h (no SN_PORT_MMIO) with struct sn_port defined
 * here, and models the rules the runner must obey (DESIGN §2, sysnode-facts
 * §2): GO dropped while STAT[15] is set, a 16-deep completion queue whose
 * fullness stops the hub (gen B/C) or drops records and sets STAT[31]
 * (gen A), HEAD read without pop and pop on store. It also records what it
 * saw: access counters, every delivered flit, and (optionally) the ordered
 * list of port accesses, so tests check exact behaviour. */
#ifndef MBOX_MODEL_H
#define MBOX_MODEL_H

#include <stdint.h>
#include "mbox_port.h"
#include "sysnode/field.h"

#define MBOX_MAX_UNITS 8
#define MBOX_NONE 0xFFFFFFFFu   /* "no flit" in a flit-index knob */
#define MBOX_LOG_MAX 1024       /* delivered flits kept in the log */
#define MBOX_TRACE_MAX 8192     /* port accesses kept by the recorder */
#define MBOX_HUB_MAX 4096       /* completions the hub can hold (model limit) */
#define MBOX_UNIT_FIFO_MAX 1024 /* flits a unit can hold (model limit) */
#define MBOX_REG(off) (((off) - SN_MBOX_DST) / 8) /* counter index of a mailbox offset */

/* After a unit retires its flit number after_flit (0 = the first it
 * received), the hub gets count extra records {src, code, arg}. One knob
 * models a peer ack burst (DATA_RECEIVED credited to the receiving core,
 * DESIGN §6), an extra completion (BATCH_COMPLETE from the unit itself) and a
 * completion from a coordinate with no unit. count 0 = none. */
typedef struct {
    uint32_t after_flit;
    uint32_t count;
    uint8_t src_x, src_y;
    uint8_t code; /* SN_SIG_* */
    uint32_t arg;
} mbox_inject;

/* One toy unit (a vector core or matmul cluster endpoint shell). */
typedef struct {
    uint8_t x, y;
    uint32_t fifo_depth;  /* instruction FIFO entries, inst_depth (facts §7.2: 512) */
    uint32_t latency;     /* cycles from the start of a flit to its retirement, >= 1 */
    uint32_t fault_flit;  /* this flit retires as SIG_FAULT(fault_arg); MBOX_NONE = never */
    uint32_t fault_arg;   /* the unit's result word (facts §4: exec_result) */
    uint32_t drop_flit;   /* this flit's completion is never sent; MBOX_NONE = never */
    mbox_inject inject;
} mbox_unit_config;

/* The model's knobs. Times are in model cycles. */
typedef struct {
    uint32_t access_cycles; /* cycles one port access takes (facts §10: about
                               2 per control-region access, reads answer late) */
    uint32_t hub_take_cycles; /* cycles an offered flit waits before the hub takes
                                 it (facts §2.4: "within a few cycles"; larger =
                                 a slow or congested hub) */
    int gen_a;              /* 1: a full queue drops the record and sets STAT[31]
                               (facts §0.1 gen A); 0: backpressure (gen B/C) */
    int record;             /* 1: keep the ordered list of port accesses */
    uint64_t cycle_limit;   /* harness bound (facts §10: H-2P2 stops at 20 M
                               cycles); on reaching it the model calls on_limit,
                               so a runner with an unbounded wait fails a test
                               instead of spinning */
    void (*on_limit)(sn_port *m); /* e.g. a cmocka failure; 0 = none */
    uint32_t unit_count;
    mbox_unit_config units[MBOX_MAX_UNITS];
} mbox_model_config;

/* One flit as the hub delivered it. */
typedef struct {
    uint8_t x, y;       /* destination from DST */
    uint8_t txn;        /* the mailbox's 8-bit counter (facts §2.2) */
    uint32_t seq;       /* the flit's index at its unit (0 = the first it received) */
    sn_payload payload; /* ARG0..ARG3 at the GO, in sysnode/field.h's order */
    uint64_t cycle;     /* when the hub took it */
} mbox_flit;

/* One port access, as the recorder keeps it. */
typedef struct {
    uint8_t write;      /* 1 store, 0 load */
    uint16_t offset;    /* control-region offset */
    uint64_t value;     /* stored value, or the value the load returned */
} mbox_access;

typedef struct {
    mbox_flit fifo[MBOX_UNIT_FIFO_MAX]; /* ring: flits received, not yet retired */
    uint32_t fifo_head, fifo_count;
    uint64_t done_at;      /* retirement cycle of fifo[fifo_head] */
    uint32_t received;     /* flits delivered so far (the next flit's index) */
    uint32_t retired;
    uint32_t max_pending;  /* most flits held at once (queued + executing) */
    uint32_t fifo_overflow; /* deliveries beyond fifo_depth: a runner error */
} mbox_unit;

/* The model. Tests allocate it (it is large) and pass it as the sn_port*. */
struct sn_port {
    mbox_model_config cfg;
    uint64_t now;                 /* model time, cycles */

    uint64_t reg[5];              /* DST, ARG0..ARG3: hold their values across GOs */
    int offered;                  /* STAT[15] */
    mbox_flit offer;
    uint64_t offer_at;
    uint8_t txn;                  /* next GO's txn; the first accepted GO gets 0 */

    uint64_t cq[SN_CQ_DEPTH];     /* completion queue, cq[cq_head] is HEAD */
    uint32_t cq_head, cq_count;
    int overflow;                 /* STAT[31], sticky (gen A) */

    uint64_t hub[MBOX_HUB_MAX];   /* completions waiting at the hub, oldest first */
    uint32_t hub_head, hub_count;

    mbox_unit units[MBOX_MAX_UNITS];

    /* counters */
    uint32_t reads[SN_MBOX_REG_COUNT];  /* loads per mailbox register index */
    uint32_t writes[SN_MBOX_REG_COUNT]; /* stores per mailbox register index */
    uint32_t bad_access;    /* accesses outside the mailbox (and RX_USED) */
    uint32_t rx_used_reads; /* reads of RX_USED, which is always 0 here */
    uint32_t gos_accepted;
    uint32_t dropped_go;    /* GOs written while STAT[15] was set */
    uint32_t stray_flits;   /* flits taken for a coordinate with no unit */
    uint32_t lost_records;  /* gen A: records dropped at a full queue */
    uint32_t hub_overflow;  /* the hub's model limit was hit: a test bug */
    uint32_t stall_cycles;  /* cycles the hub held the offer because the queue was full */
    uint32_t max_queued;    /* deepest the completion queue got */
    uint32_t gos_after_fault; /* GOs written after a HEAD load returned SIG_FAULT */
    int fault_seen;

    mbox_flit log[MBOX_LOG_MAX]; /* every delivered flit, in delivery order */
    uint32_t log_count;
    mbox_access trace[MBOX_TRACE_MAX];
    uint32_t trace_count;
};

/* A config for the rv64_mesh_2p2 units (DESIGN §6): mat0 (1,1), mat1 (2,1),
 * vec0 (1,0), vec1 (1,2), each with a 512-deep FIFO and 20-cycle latency;
 * 2 cycles per access, the hub takes an offer after 3 cycles, gen B, a
 * 20 M-cycle limit with no hook. */
mbox_model_config mbox_model_default_config(void);

/* Clears m and starts it from reset with cfg. */
void mbox_model_init(sn_port *m, const mbox_model_config *cfg);

/* The unit state for (x, y), or 0 when cfg has none there. */
mbox_unit *mbox_model_unit(sn_port *m, unsigned x, unsigned y);
/* The unit config for (x, y) in cfg, or 0 when it has none there. */
mbox_unit_config *mbox_config_unit(mbox_model_config *cfg, unsigned x, unsigned y);

/* Advances model time by cycles without a port access. */
void mbox_model_step(sn_port *m, uint64_t cycles);

/* Builds a HEAD word (facts §2.3). */
uint64_t mbox_head_word(unsigned x, unsigned y, unsigned code, uint32_t arg);

#endif
