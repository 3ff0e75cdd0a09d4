/* The vector core's kernel in time: what each kernel word costs the
 * sequencer, its waits (register hazards, pipe empty, fills landed) and its
 * memory-node reads, from which a RUN's HALT cycle and completion follow.
 * Facts: unit-timing §2.1-§2.4 (src/kohakutpu/vector/vec_cu.v,
 * vec_core.v, vec_lanes.v, vec_alu.v, vec_agu.v @7703ee80; measured: vc_base,
 * vc_alu_indep, vc_alu_dep, vc_ldst, vc_misc, vc_fill, vc_drain, vc_peer).
 *
 * Cycles are mesh cycles. Each word has a first state S and an issue cycle
 * I = S + 3 (waits hold I); the next word's first state is I - 3 + its cost.
 * The kernel starts at accept + 2 with the first word costing 1 less, which
 * is the same as a first state at accept + 1 (§2.2). No function here can
 * fail: a word the datapath refuses is charged as its opcode costs. */
#ifndef SN_VC_TIMING_H
#define SN_VC_TIMING_H

#include <stdint.h>

#include "mem_node.h"

#define SN_VC_TIMING_REGS 16

typedef struct sn_vc_timing {
    uint64_t accept;      /* the RUN's accept cycle */
    uint64_t next;        /* first state of the next word */
    uint64_t pipe_empty;  /* first cycle the lane pipeline is empty */
    uint64_t fills_landed; /* every fill response issued so far has landed */
    uint64_t reg_ready[SN_VC_TIMING_REGS]; /* first beat that may read the vector register */
    sn_mem_node *mem;     /* where VFILL words are read; never NULL */
} sn_vc_timing;

/* A RUN accepted at cycle accept, its VFILLs served by mem. */
void sn_vc_timing_start(sn_vc_timing *t, uint64_t accept, sn_mem_node *mem);

/* Charges kernel word w (opcode op, already executed) at nch 16-lane
 * chunks; n is the entries a VFILL or VDRAIN walks (0 for other words),
 * tree whether VMODE is TREE (a VRED's beats). VSETI counts as one word of
 * 6 cycles. */
void sn_vc_timing_word(sn_vc_timing *t, uint32_t w, unsigned op, unsigned nch, uint32_t n);

/* The kernel's HALT cycle H after its last word: the last cycle of that word
 * (unit-timing §2.2). The RUN's completion taps at H + 4 and its next
 * payload is accepted at H + 3 (§2.1); CU_DBG's cycle count is
 * H - (accept + 2) + 1. */
uint64_t sn_vc_timing_halt(const sn_vc_timing *t);

#endif
