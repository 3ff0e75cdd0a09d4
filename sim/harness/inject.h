/* Faults injected on demand (`--inject KIND[@R:S|@CYCLE]` on `sysnode run`
 * and `sysnode-sim`), so each of the runner's diagnoses can be shown. One
 * fault per run, once. It is armed when the runner's status block
 * (sysnode/status_block.h) reaches round R step S, or at CPU cycle CYCLE, or
 * at once; the first matching event after that takes it. Every event is a
 * control-region access by the hart or a unit instruction issued after one,
 * so no clock, however it skips idle cycles, can pass over it. Kinds (the
 * mailbox registers and HEAD word: sysnode-facts §2, regs.h):
 *   go-drop            the next GO store is lost (the flit is never offered)
 *   completion-drop    the next completion the runner would see is popped unseen
 *   completion-dup     the runner's next HEAD pop is lost: it sees the record twice
 *   completion-forge   a completion from (3,3), a coordinate with no unit, is
 *                      queued ahead of the others
 *   unit-stuck         the next instruction a unit issues never finishes
 *   unit-fault:CODE    the next instruction a unit issues ends in SIG_FAULT
 *                      with argument CODE (1..255)
 *   table-flip[:OFF]   one DRAM byte of the packed table (boot arguments:
 *                      table_addr + OFF; default its last byte) is inverted;
 *                      at once or @0 means at BOOT, before the table check
 *   missing-node       the next GO is sent to (3,3), a coordinate with no unit
 *   mailbox-gen-a      from then on the mailbox is the older generation: a
 *                      completion arriving at a full queue is dropped and
 *                      STAT[31] set (no backpressure; sysnode-facts §2)
 * C API, used by the simulator (sim.cpp, through sn_inject_bus) and the
 * command lines. */
#ifndef SN_INJECT_H
#define SN_INJECT_H

#include <stddef.h>
#include <stdint.h>

#include "sysnode/boot_args.h"
#include "sysnode/regs.h"
#include "sysnode/status_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SN_INJECT_NONE = 0,
    SN_INJECT_GO_DROP,
    SN_INJECT_COMPLETION_DROP,
    SN_INJECT_COMPLETION_DUP,
    SN_INJECT_COMPLETION_FORGE,
    SN_INJECT_UNIT_STUCK,
    SN_INJECT_UNIT_FAULT,
    SN_INJECT_TABLE_FLIP,
    SN_INJECT_MISSING_NODE,
    SN_INJECT_MAILBOX_GEN_A,
} sn_inject_kind;

typedef struct {
    sn_inject_kind kind;
    uint32_t value;     /* unit-fault: the code; table-flip: the offset (see has_value) */
    int has_value;
    int at_cycle;       /* armed at `cycle` ... */
    uint64_t cycle;
    int at_step;        /* ... or when the runner reaches round:step ... */
    uint32_t round, step;
} sn_inject_spec;       /* ... or, with neither, at once */

/* The coordinate the forge and missing-node kinds use: no unit of
 * rv64_mesh_2p2 (DESIGN.md §6) sits there. */
#define SN_INJECT_NO_UNIT_X 3u
#define SN_INJECT_NO_UNIT_Y 3u

/* What the injector acts through: the simulator's mailbox registers, its
 * scratchpad (status block, boot arguments), DRAM, the unit models and the
 * mailbox generation input (sim.cpp implements it). */
typedef struct {
    void *ctx;
    uint64_t (*cycle)(void *ctx);                                /* CPU cycle now */
    uint64_t (*mbox_read)(void *ctx, uint32_t off);              /* a register, no side effect */
    void (*mbox_write)(void *ctx, uint32_t off, uint64_t value); /* a store, one mesh cycle */
    int (*spad_read)(void *ctx, uint64_t addr, void *dst, size_t n); /* 0, or -1 */
    int (*dram_flip)(void *ctx, uint64_t addr);                  /* inverts one byte: 0, or -1 outside */
    void (*unit_fault)(void *ctx, uint32_t fault); /* the next unit instruction: UINT32_MAX never ends, else
                                                      SIG_FAULT with this argument */
    void (*mailbox_gen_a)(void *ctx);              /* the older mailbox from now on */
} sn_inject_bus;

/* One injection request and its state for a run. */
typedef struct {
    sn_inject_spec spec;
    int taken;          /* the fault happened (or, for the unit kinds, was armed) */
    int forged_pending; /* a forged completion sits ahead of the queue */
    uint64_t last_dst;  /* the runner's DST value, restored after missing-node */
    uint32_t go_drops;  /* GO stores lost to go-drop */
    char report[256];   /* what happened, for sn_sim_inject_report */
} sn_injector;

/* Clears j's state for a run at BOOT (the spec stays). A table-flip with no
 * trigger, or at cycle 0, is taken here, before the image runs, so the
 * runner's table check meets the flipped byte and refuses the table (any
 * later trigger flips a byte the check has passed: what the runner reads
 * next from the table shows it, or nothing does). */
void sn_injector_boot(sn_injector *j, const sn_inject_bus *bus);

/* Called at every control-region access before it takes effect (write:
 * a store of *value to off; else a read). Returns 1 when the access was
 * consumed (a lost store) or answered (*value, a read), 0 to go on. */
int sn_injector_access(sn_injector *j, const sn_inject_bus *bus, int write, uint32_t off, uint64_t *value);

/* At the run's end: notes which payload a unit fault hit (hit_unit >= 0:
 * the unit's index and its payload count since BOOT, 0-based), or that it
 * was still pending (no unit issued a payload after it). */
void sn_injector_end(sn_injector *j, int still_pending, int hit_unit, uint64_t hit_payload);

/* Parses "KIND[:VALUE][@ROUND:STEP|@CYCLE]" (decimal numbers, or 0x hex).
 * Returns 0, or -1 with the reason in err (errlen bytes): an unknown kind, a
 * value the kind does not take or lacks, a malformed number. */
int sn_inject_parse(const char *text, sn_inject_spec *out, char *err, size_t errlen);

/* The kinds, one per line, for usage texts. */
extern const char SN_INJECT_KINDS[];

#ifdef __cplusplus
}
#endif
#endif
