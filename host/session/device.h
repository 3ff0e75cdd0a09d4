/* A live session on a SysNode: the host writes and reads DRAM between the
 * rounds of one runner boot, as a compiler runtime does between kernels
 * (artifacts/FORMAT.md §9; DESIGN.md §3). The runner holds at each host sync
 * point (iface/sysnode/host_sync.h) and the host releases it, so
 * the units keep their state from round to round. The host's own writes are
 * remembered (a shadow of every byte it wrote), because a matmul cluster
 * FILL reads 128-byte MXFP7 entries converted from the FP16 the host wrote
 * (DESIGN.md §6): before rounds run, every region they FILL is converted
 * from that shadow and written, as `sysnode run` converts a case's uploads.
 *
 * The session also knows which DRAM bytes are live: written by the host or
 * by a unit in an earlier round, and not discarded since (the compiler
 * freed the span). The table goes only where nothing is live, and a unit
 * read of bytes that are not live is reported, naming the round, slot,
 * payload, unit and range: a warning by default, an error when strict.
 * Only a window that sees the units' DRAM port (the simulator's,
 * transport.h track_accesses) reports reads and unit writes. */
#ifndef SN_HOST_DEVICE_H
#define SN_HOST_DEVICE_H

#include <stdint.h>

#include "artifact.h"
#include "elf_image.h"
#include "error.h"
#include "payload_op.h"
#include "replay_verdict.h"
#include "sysnode/regs.h"
#include "sysnode/status_block.h"
#include "transport.h"

/* How often, in CPU cycles, the host looks at the runner's held word while
 * the simulated runner runs; a held runner spins at most this long before
 * the host sees it. */
#define SN_DEVICE_POLL_CYCLES 16384u

/* The packed table goes at the top of DRAM, on a 4 KB boundary. */
#define SN_REPLAY_TABLE_ALIGN 4096u

/* How a run reports a unit read of bytes nothing wrote, when it is not
 * strict: msg is one line naming round, slot, payload, unit and range. */
typedef void (*sn_device_warn_fn)(void *ctx, const char *msg);

typedef struct sn_device {
    sn_transport *t;      /* borrowed: the caller opens and closes it */
    char *image_path;
    sn_elf_image image;   /* the runner, loaded once, pushed at BOOT */
    uint64_t max_cycles;  /* cap per run between two host steps */
    uint64_t dram_bytes;
    uint8_t *shadow;      /* dram_bytes: the bytes the host last wrote */
    uint8_t *written;     /* one bit per DRAM byte: the host wrote it */
    uint64_t marked_lo, marked_hi; /* bytes of `written` that may be nonzero */
    uint8_t *live;        /* one bit per DRAM byte: the host or a unit wrote it, not discarded since */
    int tracking;         /* the transport records unit DRAM accesses (window.h) */
    const sn_program *tracked; /* while set, sn_device_wait checks its accesses at every poll */
    int strict;           /* a read of bytes that are not live is an error, not a warning */
    sn_device_warn_fn warn;
    void *warn_ctx;
    uint32_t sent[SN_NODE_COUNT]; /* payloads kicked to each node since BOOT by earlier runs */
    uint64_t ops[SN_NODE_COUNT][SN_PAYLOAD_OPS]; /* payloads sent to each node since init, by operation */
    int held;             /* the runner holds at sync point `syncs` */
    uint32_t syncs;       /* sync points reached since BOOT */
    uint64_t cycles;      /* CPU cycles since BOOT at the last stop */
    uint64_t held_cycle;  /* CPU cycle since BOOT at which the runner reached the current hold */
    uint64_t cap;         /* the cycle the current run may not pass */
    uint64_t table_addr, table_bytes; /* the table the runner reads, while it runs */
    int booted;           /* sn_device_boot has run */
    /* The MXFP7 sn_device_write_fills wrote over the host's FP16 before
     * the boot, one region per run of FILL sources: part of what lay in
     * DRAM before the run (sn_replay_compare). */
    sn_region *boot_fills;
    size_t boot_fill_count;
} sn_device;

/* Prepares *d over transport t with the runner ELF at image_path and a cap
 * of max_cycles CPU cycles per run. Errors: SN_ERR_INPUT naming the image
 * when it cannot be loaded; SN_ERR_INTERNAL when the shadow (DRAM size plus
 * one eighth) cannot be allocated. Free with sn_device_free, also after a
 * failure. */
sn_status sn_device_init(sn_device *d, sn_transport *t, const char *image_path, uint64_t max_cycles, sn_error *e);
void sn_device_free(sn_device *d);

/* Writes n bytes to unit DRAM address addr and records them as the host's.
 * SN_ERR_INPUT when [addr, addr+n) passes the end of DRAM or covers the
 * table of the runner's current boot (nothing written). */
sn_status sn_device_write(sn_device *d, uint64_t addr, const void *src, uint64_t n, sn_error *e);

/* Forgets that [addr, addr+n) is live (the compiler freed it; the bytes
 * stay in DRAM and in the host's shadow): a later unit read of it is
 * reported until something writes it again. SN_ERR_INPUT past the end of
 * DRAM. */
sn_status sn_device_discard(sn_device *d, uint64_t addr, uint64_t n, sn_error *e);

/* Takes the unit DRAM accesses made since the last take (window.h) and
 * checks them in order against the live bytes: a write makes its bytes
 * live; a read of bytes that are not live is reported through d->warn
 * ("FILE: round R slot S: payload OP to UNIT (x,y) reads N bytes at [A, B)
 * (a VFILL), K of them written by neither ..., first 0xF"), or, when
 * d->strict, is SN_ERR_INPUT with the first such read (every write is
 * still applied); a write over the runner's status copy after its current
 * table, which the runner rewrites at each hold and exit, is SN_ERR_INPUT
 * naming the payload and both ranges, strict or not. p is the program running since the boot or the last
 * sn_device_run's start; the payload numbers are counted from d->sent.
 * SN_OK on a window that records no accesses. */
sn_status sn_device_check_accesses(sn_device *d, const sn_program *p, sn_error *e);

/* Reads n bytes at unit DRAM address addr. SN_ERR_INPUT past the end of DRAM. */
sn_status sn_device_read(sn_device *d, uint64_t addr, void *dst, uint64_t n, sn_error *e);

/* Marks [addr, addr+n) (inside DRAM) as written by the host, or, with
 * addr = n = 0 and clear set, forgets every mark: for checking a whole
 * program's FILLs before anything is written (sn_device_check_fills). */
void sn_device_mark(sn_device *d, uint64_t addr, uint64_t n, int clear);

/* SN_OK when every FILL of rounds first..last of p reads bytes the host
 * wrote (marked); else SN_ERR_INPUT as sn_device_write_fills. */
sn_status sn_device_check_fills(const sn_device *d, const sn_program *p, uint32_t first, uint32_t last, sn_error *e);

/* Converts every region rounds first..last of p FILL from the host's FP16
 * and writes it (the MXFP7 entries, then zeros where FP16 was). SN_ERR_INPUT
 * for a FILL of bytes the host never wrote (naming artifact, round, slot,
 * range) or FILLs sn_mx_convert_image refuses. */
sn_status sn_device_write_fills(sn_device *d, const sn_program *p, uint32_t first, uint32_t last, sn_error *e);

/* The unit DRAM address where a table of `bytes` (and the status block's
 * copy after it) goes: the highest SN_REPLAY_TABLE_ALIGN-aligned place
 * where no byte is live or was written by the host, the top of DRAM when
 * that is free. SN_ERR_INPUT when it does not fit DRAM, or when no such
 * place exists, naming the table's range at the top and the live range it
 * would cover. */
sn_status sn_device_table_addr(const sn_device *d, uint64_t bytes, uint64_t *addr, sn_error *e);

/* Loads the image, writes the table (table_bytes at table_addr) and the
 * boot arguments (result: the region to digest, or NULL), clears the
 * release word and pulses BOOT. */
sn_status sn_device_boot(sn_device *d, const uint8_t *table, uint64_t table_bytes, uint64_t table_addr,
                         const sn_region *result, sn_error *e);

/* Releases the held runner (host_sync.h) with command SN_HOST_CONTINUE, or,
 * when table is not NULL, writes that table and the boot arguments naming
 * it and releases with SN_HOST_NEXT_TABLE. */
sn_status sn_device_release(sn_device *d, const uint8_t *table, uint64_t table_bytes, uint64_t table_addr,
                            sn_error *e);

/* Lets the runner run until it holds at its next sync point (*held = 1,
 * d->syncs counts it) or stops (*held = 0, *rs says how), polling every
 * SN_DEVICE_POLL_CYCLES; with poll 0 (no sync point ahead), in one wait to
 * the cap, as a run without host steps always was. SN_ERR_HANG when
 * max_cycles pass since the boot or the last release without either (the
 * message names the sync point awaited and the runner's status block). */
sn_status sn_device_wait(sn_device *d, int poll, int *held, sn_run_status *rs, sn_error *e);

/* Forgets the live runner (its hold, its table) and every byte the session
 * knew in DRAM (the host's shadow, its written and live bytes): another user
 * of the transport booted the SysNode and wrote DRAM (a case replay), so the
 * next sn_device_run boots afresh, a FILL of bytes written before is refused
 * and a unit read of them is a read of bytes nothing wrote, never the
 * session's old bytes taken for DRAM's (DESIGN.md §10). */
void sn_device_forget(sn_device *d);

/* How a stopped run ended (sn_replay_run_status), from the runner's status
 * block copy after the current table (FORMAT.md §7). */
sn_status sn_device_stopped(sn_device *d, const sn_run_status *rs, sn_error *e);

/* The runner's live status block in the scratchpad, as it holds at a sync
 * point (iface/sysnode/status_block.h). */
sn_status sn_device_status(sn_device *d, sn_status_block *out, sn_error *e);

/* Runs program p (one execute of a live session) to a sync point after its
 * last round: the table rules and packing of `sysnode pack` (mesh
 * rv64_mesh_2p2, DESIGN.md §6), the FILL conversion, then a BOOT (first
 * call) or a release with the new table; the runner holds after p's last
 * round, its units keeping their state for the next call. res->rounds,
 * flits, completions and cycles count this run; after an error in the run,
 * its cycles up to the stop, and the runner's own flits and completions
 * when it exited. Errors: a table rule
 * (SN_ERR_TABLE_*, naming artifact, round, step) or SN_ERR_INPUT (FILL or
 * table placement) before anything runs; the runner's error (its status,
 * with its console; the session is then over and the next call boots
 * afresh); SN_ERR_HANG past max_cycles; SN_ERR_PROTOCOL when the image
 * exits instead of holding, or holds with another count of flits sent than
 * p kicks (its summary, as `sysnode run` checks it: replay_verdict.h), the
 * next call then booting afresh too. */
sn_status sn_device_run(sn_device *d, const sn_program *p, sn_replay_result *res, sn_error *e);

#endif
