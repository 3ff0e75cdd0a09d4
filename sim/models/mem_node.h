/* The memory node (KohakuTPU's MAG at (0,1)) in time: its read server takes
 * one transaction at a time, in the order the requests reach it, and every
 * unit's reads meet there. A vector core's VFILL word is one plain read; a
 * cluster's FILL is one stream transaction of 4-word entries. Facts:
 * unit-timing §4.2, §4.5 (src/kohakuaccel/mas/core/mag.v,
 * mag_mem_port.v, mag_dram_port.v @7703ee80; measured: vc_fill, vc_fill2,
 * mg_fill, mg_fill2). All cycles are mesh cycles; "tap" is the cycle the
 * receiver takes a flit on the memory node's link (unit-timing §0).
 *
 * Requests are served in the order these functions are called, which the
 * callers make the order of their taps: each unit reserves its reads when it
 * accepts the payload that makes them. Writes are not modelled here: a
 * CU_VERSION 4 completion never waits for them (unit-timing §4.3). No
 * function here can fail. */
#ifndef SN_MEM_NODE_H
#define SN_MEM_NODE_H

#include <stdint.h>

typedef struct sn_mem_node {
    uint64_t read_free; /* first cycle the read server can take a transaction */
    unsigned latency;   /* L: extra DRAM cycles per transaction (unit-timing §4.5) */
} sn_mem_node;

/* Idle node with DRAM latency L cycles (0: the bench RAM). */
void sn_mem_node_reset(sn_mem_node *m, unsigned latency);

/* One plain read (one 32-byte word) whose request taps at the node at cycle
 * tap: taken at max(tap + 1, free), answered 12 + L cycles later; the server
 * is free again then. Returns the response's tap on the node's link. */
uint64_t sn_mem_node_read(sn_mem_node *m, uint64_t tap);

/* One stream read of n >= 1 pre-quantised MXFP7 entries (4 words each),
 * descriptor tapping at cycle tap: first word at take + 17 + L, entry k's
 * words at +(14 + L)k + 0..3; free at the last word. Returns the last word's
 * tap on the node's link. */
uint64_t sn_mem_node_stream(sn_mem_node *m, uint64_t tap, uint32_t n);

#endif
