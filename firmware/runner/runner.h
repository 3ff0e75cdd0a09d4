/* The runner core: executes an artifact table's seed/kick/await/barrier steps
 * over the mailbox port, counting completions per source node. Portable C with
 * no MMIO of its own (DESIGN §2 and §3). */
#ifndef SN_RUNNER_H
#define SN_RUNNER_H

#include <stdint.h>
#include "mbox_port.h"
#include "sysnode/mesh.h"
#include "sysnode/status.h"
#include "sysnode/status_block.h"
#include "sysnode/table.h"
#include "sysnode/table_image.h"

/* Cycles a wait may go without any completion arriving before it is a hang.
 * The KohakuTPU tests bound completion polls at 2-4 M STAT reads
 * (sysnode-facts §10); one read costs a few cycles, so 8 M cycles is safely
 * above anything a live mesh needs. */
#define SN_RUNNER_DEFAULT_HANG_CYCLES 8000000ull

/* Drain the completion queue once it holds this many records, even while the
 * next GO could go out: half of the 16-deep queue, as KohakuTPU's firmware
 * does (firmware/kohakuaccel/dispatch/engine.c@46d4f03f). */
#define SN_RUNNER_DRAIN_AT 8

/* Cycles the runner waits at a round's end (and so before it exits) when a
 * unit the round used is older than CU_VERSION 5: such a unit retires when its
 * last DRAM write beat is sent, not landed (DESIGN §2; sysnode-facts §2.4).
 * The facts give no landing time for such a unit (its era's tests spin
 * 40 000 iterations instead, sysnode-facts §2.4), so none can be derived:
 * chosen well above the simulator's modelled landing time
 * (SN_V4_WRITE_LANDING_CYCLES); a card's figure belongs here once measured.
 * Where the packer proves a round's writes are read only by later kicks
 * (SN_ROUND_SETTLE_PROVEN, host/inputs/settle.c), the proof replaces the wait. */
#define SN_RUNNER_SETTLE_CYCLES 4096ull

/* Payload rows (32-byte hash lines) of the next round's hash taken per
 * poll of a wait: about 45 cycles each at DRAM latency 0 (4 loads, 20 ALU
 * operations, core-timing §1), so a poll is late by at most about 360
 * cycles, while the 16-deep queue fills in no less than 16 completions. */
#define SN_RUNNER_AHEAD_ROWS 8u

/* Count slots: mesh unit i is slot i + 1; slot 0 stands for every
 * coordinate with no unit and is never counted. */
#define SN_RUNNER_SLOTS (SN_MESH_MAX_UNITS + 1)

/* A count slot's unit: its counts this round (received = kicked -
 * outstanding (by node) + other) and what CU_CAPS said; one record per slot,
 * so one address reaches all of them. */
typedef struct {
    uint32_t expected; /* cumulative await count */
    uint32_t kicked;   /* flits sent */
    uint32_t other;    /* records that completed no flit: peer acks, extras */
    uint16_t depth;    /* inst_depth from CU_CAPS; inst_depth for a unit not probed */
    uint8_t version;   /* CU_VERSION from CU_CAPS; 0 = not probed */
    uint8_t node;      /* the unit's SN_NODE_ID, set with depth */
} sn_runner_unit;

typedef struct {
    /* per node (SN_NODE_ID), this round: flits sent and not completed; by
     * node, so the drain indexes it with HEAD's source bits; first, and the
     * per-slot records after it, all within an immediate offset of r */
    uint32_t outstanding[SN_NODE_COUNT];
    sn_runner_unit unit[SN_RUNNER_SLOTS]; /* by slot */
    sn_mesh_map map;           /* slot[SN_NODE_ID]: the unit's count slot; 0 for the SysNode or no unit */

    sn_port *port;
    sn_status_block *status;   /* where progress and the first error are kept */
    uint64_t hang_cycles;      /* SN_RUNNER_DEFAULT_HANG_CYCLES unless a test sets it */
    uint32_t inst_depth;       /* outstanding-flit bound for a node not probed */
    uint8_t probe_units;       /* read every unit's CU_CAPS after the table check */
    uint32_t settles;          /* round ends that waited out write landing */

    uint64_t dst;              /* DST as last written: the mailbox holds it across GOs (sysnode-facts §2.1) */

    /* Host sync points (sysnode/host_sync.h): the words the image shares
     * with the host; NULL on an image without a host, where a sync step is
     * refused. */
    volatile const uint64_t *host_release;
    volatile uint64_t *host_held;
    /* The image's DRAM copy of the status block and the held word, written
     * at each hold before the held word (a card's host cannot read the
     * scratchpad: FORMAT.md §9), or NULL. */
    void (*hold_copy)(const sn_status_block *status, uint64_t held);
    uint32_t syncs;            /* sync points held since BOOT */
    uint32_t host_command;     /* the command that released the last one (enum sn_host_command) */

    uint32_t total_completions;
    uint32_t total_flits;

    /* Each round's payload rows are hashed against its payload_hash before
     * its first GO (FORMAT.md §4 check 15). The next round's rows are
     * hashed a few at a time while this round waits for completions:
     * rows [ahead_rows, ahead_end), ahead_next the first not yet taken
     * into ahead_hash. */
    const sn_table_row *ahead_rows, *ahead_next, *ahead_end;
    uint64_t ahead_hash;
} sn_runner;

/* Prepares r, which must be zeroed storage (static, or calloc'ed: the image
 * clears its .bss at reset, so the code budget carries no second clear), to
 * drive the mailbox behind port for a mesh. status must point at a writable
 * sn_status_block (the fixed scratchpad address on the target); it is
 * cleared and stamped with SN_STATUS_MAGIC. */
void sn_runner_init(sn_runner *r, sn_port *port, const sn_mesh *mesh, sn_status_block *status);

/* Records an image check's fault f in s as the host reads it for
 * SN_ERR_TABLE_IMAGE (FORMAT.md §7): error_rule = f's check, detail_field =
 * its field's byte offset, detail = {value, expected, count}. No error. */
void sn_runner_image_fault(sn_status_block *s, const sn_table_image_fault *f);

/* Checks table against the table rules (table_check.h) before any GO; then,
 * with probe_units set, reads every unit's CU_CAPS with a CU_CTRL read through
 * the mailbox's typed send (DST[24], type 7, index in payload[247:240]) and
 * takes each reply from the RX queue (value = RX_P3[47:0] << 16 |
 * RX_P2[63:48]) to set each unit's depth and version (sysnode-facts §2.5, §7.1;
 * tests/rv64/hw_bundle.c@1a77e97e); then runs every round of table in order:
 * per round, counts restart at 0; kicks send
 * payloads[round.payload_first + base ..] one GO each (waiting STAT[15]==0
 * and draining HEAD while it waits, at most inst_depth outstanding per node);
 * an await grows the node's expected count and blocks until received reaches
 * it; a barrier waits until no flit is outstanding. At a round's end, when a
 * unit the round kicked or awaited is older than CU_VERSION 5 (or was not
 * probed), the runner settles: it waits SN_RUNNER_SETTLE_CYCLES, still draining
 * (skipped for a round flagged SN_ROUND_SETTLE_PROVEN but the last, or one
 * ending at a host sync point, FORMAT.md §3); then every node's received
 * count must equal its expected count. A round whose last step is a host
 * sync then holds (host_sync.h): held word = its number, status phase
 * SN_PHASE_HOST_SYNC, until the release word carries that number
 * (host_command = its command), or hang_cycles pass (SN_ERR_HANG,
 * error_value = the sync point's number, error_node none).
 * Each round's payload rows must hash to the round record's payload_hash
 * before the round's first GO (the next round's are hashed while a round
 * waits on completions, FORMAT.md §4 check 15).
 * Returns SN_OK, or the first error (also recorded in r->status):
 *   SN_ERR_TABLE_IMAGE a round's payload rows do not hash to its payload_hash
 *                      (error_round = the round; error_rule SN_TI_PAYLOAD_HASH,
 *                      detail as sn_table_image_fault);
 *   SN_ERR_TABLE_STEP  unknown step opcode;
 *   SN_ERR_TABLE_SLOT  a kick past the round's payloads or the 128-slot window;
 *   SN_ERR_TABLE_NODE  a kick or await naming a coordinate with no unit, or the SysNode;
 *   SN_ERR_UNIT_FAULT  a SIG_FAULT completion (error_value = its argument);
 *   SN_ERR_EXTRA_COMPLETION  a node received more than it was awaited for;
 *   SN_ERR_UNKNOWN_SOURCE    a completion from a coordinate with no unit;
 *   SN_ERR_LOST_COMPLETION   STAT[31] set: the mailbox dropped completions;
 *   SN_ERR_HANG        no completion for hang_cycles while a wait was owed,
 *                      or no CU_CTRL reply within hang_cycles;
 *   SN_ERR_UNIT_CAPS   a unit's CU_CAPS type differs from the mesh, or inst_depth 0;
 *   SN_ERR_PROTOCOL    a signal code or CU_CTRL reply the runner does not expect;
 *   SN_ERR_TABLE_CHANGED a round record or a step broke a table rule when re-checked
 *                      on the runner's copy just before it ran (the table in DRAM changed);
 *   SN_ERR_RX_FLIT     a flit other than a CU_CTRL reply waits in the RX queue at a round's end.
 * No GO is issued for a step the table does not allow. Rules: DESIGN.md §2.
 * Every error is reported in r->status with the facts its message names
 * (FORMAT.md §7); the host words it (common/messages.h). */
sn_status sn_runner_run(sn_runner *r, const sn_table *table);

#endif
