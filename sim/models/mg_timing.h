/* The matmul cluster in time: when each FILL, GEMM and DRAIN completes at
 * the unit port, given its accept cycle, the sweep in flight and the memory
 * node. Facts: unit-timing §3.1-§3.2, §4.2 (src/kohakutpu/matmul/
 * mx_cluster_cu.v, mx_cluster_mgr.v, mx_cluster_node.v @7703ee80; measured:
 * mg_fill, mg_fill2, mg_gemm, mg_drain, mg_drain2, mg_stream). Cycles are
 * mesh cycles; the next payload is accepted at completion - 1 (§3.1). FILLs
 * are timed as pre-quantised MXFP7 streams (preq = 1), the only kind this
 * project's DRAM holds (DESIGN §6). No function here can fail. */
#ifndef SN_MG_TIMING_H
#define SN_MG_TIMING_H

#include <stdint.h>

#include "mem_node.h"
#include "sysnode/words.h"

typedef struct sn_mg_timing {
    uint64_t manager_free; /* the last sweep's manager-free cycle */
    uint64_t array_free;   /* the last sweep's array-free cycle; DRAIN waits for it */
    uint64_t compute_end;  /* last cycle counted in CU_DBG's compute */
} sn_mg_timing;

/* What one payload costs: its completion tap, and what it adds to CU_DBG
 * (fill: cycles from accept to 2 after its last word reached the port;
 * compute: new cycles the array is busy, a DRAIN's counted as n + 10). */
typedef struct sn_mg_cost {
    uint64_t complete;
    uint32_t dbg_fill, dbg_compute;
    uint64_t drain_start; /* DRAIN: the cycle it starts, s (burst j's first flit at s + sn_mg_drain_flit) */
} sn_mg_cost;

/* A DRAIN of n sub-tiles: the tap of burst j's first flit (the MEM_WR_REQ or
 * CU_DATA descriptor), cycles after the DRAIN's start; its m_j data flits
 * follow one a cycle, and the completion taps 4 after the last (§3.2). */
uint64_t sn_mg_drain_flit(uint32_t n, uint32_t j);

/* Idle cluster: no sweep. */
void sn_mg_timing_reset(sn_mg_timing *t);

/* Payload p accepted at cycle accept; fault: the datapath refused it (its
 * completion, like an unknown opcode's, at accept + 4: not measured). A
 * FILL's stream is reserved on mem. */
sn_mg_cost sn_mg_timing_payload(sn_mg_timing *t, const sn_payload *p, int fault, uint64_t accept,
                                sn_mem_node *mem);

#endif
