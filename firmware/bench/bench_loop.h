/* The table walk shared by the benchmark's two reference dispatchers,
 * runner-floor.elf and runner-sendwait.elf (docs/DESIGN.md §12). They read
 * the same DRAM table and boot arguments as runner.elf (artifacts/FORMAT.md
 * §2-§3, §6) and honour the steps of DESIGN §2 just enough to produce the
 * case's bytes: per-node completion counts for awaits, a barrier and each
 * round's end wait for every GO's completion, and every round ends with the
 * version-4 settle (SN_RUNNER_SETTLE_CYCLES; the images do not probe the
 * units, so they settle on version 5 too), and a round ending in a host sync
 * step holds for the host as the runner does (sysnode/host_sync.h; a case's
 * host steps, FORMAT.md §9). They check nothing else: no table check, no
 * bounded waits, no inst_depth throttle, no error latch. Only the kick
 * differs between them. */
#ifndef SN_BENCH_LOOP_H
#define SN_BENCH_LOOP_H

#include <stdint.h>

#include "mbox_port.h"
#include "sysnode/regs.h"
#include "sysnode/table.h"

typedef struct {
    uint32_t received[SN_NODE_COUNT]; /* completions this round per source node, peer acks included */
    uint32_t expected[SN_NODE_COUNT]; /* the node's cumulative await count this round */
    uint32_t flits;                   /* GOs stored over the run */
    uint32_t popped;                  /* completion records popped over the run */
    uint32_t peer_acks;               /* ... of which SIG_DATA_RECEIVED, which answer no GO */
    uint64_t dst;                     /* DST as the floor last wrote it (0 at start) */
} sn_bench_dispatch;

/* HEAD[55:48] = {src_y, src_x} (sysnode-facts §2.3) is the source's SN_NODE_ID (sysnode/regs.h). */
#define SN_BENCH_HEAD_NODE(head) SN_NODE_ID(sn_head_src_x(head), sn_head_src_y(head))

/* Reads the oldest completion record, pops it (a HEAD store pops,
 * sysnode-facts §2.1) and credits it to its source node: 2 MMIO operations.
 * Call only when STAT shows a record queued. *popped and *peer_acks are
 * passed apart so that a hot loop can keep them in registers. */
static inline void sn_bench_pop(uint32_t *received, uint32_t *popped, uint32_t *peer_acks)
{
    uint64_t head = sn_port_read(0, SN_MBOX_HEAD);
    sn_port_write(0, SN_MBOX_HEAD, 0);
    received[SN_BENCH_HEAD_NODE(head)]++;
    ++*popped;
    if (sn_head_code(head) == SN_SIG_DATA_RECEIVED)
        ++*peer_acks;
}

/* GOs whose completion has not been popped. */
static inline uint32_t sn_bench_in_flight(const sn_bench_dispatch *d)
{
    return d->flits - (d->popped - d->peer_acks);
}

/* Sends payloads p[0..n) to the unit at DST value dst (a kick step, DESIGN
 * §2), one accepted GO each, updating d->dst, d->flits and the pop counts. */
typedef void (*sn_bench_kick_fn)(sn_bench_dispatch *d, uint64_t dst, const sn_table_row *p, uint32_t n);

/* Runs the table the boot arguments point at (read as runner.elf reads it,
 * table_view.h) with kick, then reports rounds, flits and completions in the status
 * block, which sysnode run checks, with the runner's summary line
 * (artifacts/FORMAT.md §7). Returns the exit status: SN_OK, or
 * SN_ERR_BOOT_ARGS (in the status block) when the boot-argument block's
 * magic or version is wrong. */
int sn_bench_run(sn_bench_kick_fn kick);

#endif
