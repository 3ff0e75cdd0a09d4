/* The simulated SysNode: the one owner of simulated time (STYLE 10). It holds
 * the Verilated mesh, its clock and reset, the RV64 hart, the DRAM model and
 * the unit models, and offers the host-side window the loader uses: load an
 * image, read and write DRAM, boot, run to exit with a cycle cap, read the
 * console and the exit status (sysnode-facts §1.3). C API for the host. */
#ifndef SN_SIM_H
#define SN_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "inject.h"
#include "window.h" /* the run status and the records, the host window's (common/window.h) */
#include "sysnode/boot_args.h"
#include "sysnode/status_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sn_sim sn_sim;

typedef struct {
    uint64_t dram_size;  /* bytes; 0 means SN_DRAM_DEFAULT_SIZE */
    unsigned cu_version; /* every unit's CU_VERSION; 0 means 4 (DESIGN §6) */
    int lockstep;        /* nonzero: clock the mesh every cycle, the reference the
                            event-driven default must equal (sim/README.md, Clocking) */
    unsigned dram_latency; /* L, cycles per DRAM access: the CPU's past the L1 (core-timing.md §0)
                              and each memory-node transaction of the units (unit-timing §4.5);
                              at most 1000; 0: the bench RAM both timing sheets were measured on */
} sn_sim_config;

/* Creates a SysNode with the mesh of DESIGN §6 and zeroed DRAM. Returns NULL
 * with a reason in err (errlen bytes) when memory fails or cfg->dram_latency is over 1000. */
sn_sim *sn_sim_create(const sn_sim_config *cfg, char *err, size_t errlen);
void sn_sim_destroy(sn_sim *s);

/* Host window, IMEM: one 32-bit word per write (addr 4-aligned, < 32 KB).
 * Returns 0, or -1 out of range. sysnode-facts §1.3. */
int sn_sim_imem_write(sn_sim *s, uint32_t addr, uint32_t word);

/* Host window, SPAD: one 64-bit word at offset (8-aligned, < 32 KB) with byte
 * strobes (bit k writes byte k). Returns 0, or -1 out of range. */
int sn_sim_spad_write(sn_sim *s, uint32_t offset, uint64_t value, uint8_t strobes);

/* Host window, SPAD read: n bytes from offset (below 32 KB). Returns 0, or
 * -1 out of range. */
int sn_sim_spad_read(sn_sim *s, uint32_t offset, void *dst, size_t n);

/* Clears IMEM and the scratchpad (a fresh card) before a new image. */
void sn_sim_clear_memories(sn_sim *s);

/* Loads a runner ELF through the IMEM/SPAD window after clearing both.
 * Returns 0, or -1 with the reason in err (an image the core cannot run:
 * compressed or FP code, data in IMEM, segments outside IMEM/SPAD). */
int sn_sim_load_image(sn_sim *s, const char *elf_path, char *err, size_t errlen);

/* Host window DRAM access at unit address addr (the CPU sees it at
 * 0x8000_0000 | addr). Returns 0, or -1 when [addr, addr+n) is outside DRAM. */
int sn_sim_dram_write(sn_sim *s, uint64_t addr, const void *src, uint64_t n);
int sn_sim_dram_read(sn_sim *s, uint64_t addr, void *dst, uint64_t n);
/* DRAM bytes. */
uint64_t sn_sim_dram_size(const sn_sim *s);

/* Starts (on != 0) or stops recording every unit DRAM access (window.h
 * sn_unit_access), in the order the units make them; stopping drops what
 * was recorded. */
void sn_sim_track_accesses(sn_sim *s, int on);

/* The accesses recorded since the last call (*out, owned by s, valid until
 * the next call or destroy); how many. */
size_t sn_sim_take_accesses(sn_sim *s, const sn_unit_access **out);

/* Writes args as the boot-argument block (sysnode/boot_args.h) through the
 * SPAD window. Returns 0, or -1 if a write fails. */
int sn_sim_write_boot_args(sn_sim *s, const sn_boot_args *args);

/* BOOT: resets the mesh, the CPU (PC 0), its counters, exit flag and L1;
 * memories keep their bytes. Returns 0, or -1 with the reason in err. */
int sn_sim_boot(sn_sim *s, char *err, size_t errlen);

/* Runs the booted image until it exits, halts, errors, or cycle_limit CPU
 * cycles have passed since BOOT: stop (SN_RUN_BREAK at a debugger's
 * breakpoint or step, sn_sim_debug_*, after which sn_sim_run resumes),
 * exit_code, halt_cause (1..3), cycles and instret since BOOT, pc, and in
 * message the simulator's reason and, unless the image exited, where the
 * runner stood (sn_sim_stop_where). dropped_gos, inject and errata are left
 * 0 (sn_sim_dropped_gos, sn_sim_inject_report, sn_sim_errata). */
sn_run_status sn_sim_run(sn_sim *s, uint64_t cycle_limit);

/* Debugger access (sysnode-sim --gdb), between runs; simulated time stands
 * still meanwhile. Breakpoints and single step are the hart's
 * (sn_hart_breakpoint, sn_hart_single_step: 0 or -1); registers 0..31 and
 * 32 = pc. sn_sim_debug_read copies n bytes at a CPU address as the CPU
 * reads them and without side effects: IMEM, SPAD, DRAM (the L1's view),
 * and the control region's registers whole (the mailbox and RX registers
 * as the RTL shows them: reading HEAD or RX_HDR does not pop, as on the
 * card, where only stores pop, sysnode-facts §2.1; EXIT, CONSOLE and DCACHE
 * read 0); -1 for anything else. */
int sn_sim_debug_breakpoint(sn_sim *s, uint64_t addr, int on);
void sn_sim_debug_step(sn_sim *s);
uint64_t sn_sim_debug_register(sn_sim *s, unsigned i);
int sn_sim_debug_read(sn_sim *s, uint64_t addr, void *dst, size_t n);

/* Everything the image wrote to R_CONSOLE since boot, NUL-terminated, and
 * its length in bytes (a NUL byte the image wrote is in it). */
const char *sn_sim_console(const sn_sim *s);
size_t sn_sim_console_length(const sn_sim *s);

/* The console as text for a terminal or a message: every byte kept, those
 * other than printable ASCII, newline and tab written as \xHH and a
 * backslash as \\, so a NUL neither ends it nor a control byte reaches a
 * terminal. NUL-terminated, owned by s, valid until the next call or run. */
const char *sn_sim_console_text(sn_sim *s);

/* Reads the runner's status block from the scratchpad. Returns 0, or -1 when
 * the image never stamped it (magic missing). */
int sn_sim_status_block(sn_sim *s, sn_status_block *out);

/* Where a run stopped that the runner did not end itself (the cycle cap, a
 * signal): "runner at round R step S, PHASE; the mailbox accepted N payload
 * GOs, the core popped M completions (node (x,y): G GOs, P popped; ...)",
 * into buf (size bytes, cut short if need be). The place is the runner's
 * status block, which it keeps current (FORMAT.md §7); the counts are the
 * simulator's GO and completion logs, true at any cycle. Returns buf. */
char *sn_sim_stop_where(sn_sim *s, char *buf, size_t size);

/* GOs the mailbox accepted, and GOs lost since BOOT: dropped because a flit
 * was still offered (sysnode-facts §2) or by an injected go-drop (for tests:
 * "no GO reached the mailbox"; in every verdict). */
uint32_t sn_sim_accepted_gos(const sn_sim *s);
uint32_t sn_sim_dropped_gos(const sn_sim *s);

/* The core errata the run since BOOT reproduced (hart.h sn_hart_errata), one
 * description a line ("" for none); valid until the next call. */
const char *sn_sim_errata(sn_sim *s);

/* Called about every SN_SIM_PROGRESS_CYCLES simulated cycles during
 * sn_sim_run with the mesh's cycle since BOOT and the rounds the runner has
 * finished (its status block; 0 before it stamps one). */
typedef void (*sn_sim_progress_fn)(void *ctx, uint64_t cycles, uint32_t rounds_done);
#define SN_SIM_PROGRESS_CYCLES (1ull << 20)
/* Sets (or, with fn NULL, clears) the progress callback. */
void sn_sim_set_progress(sn_sim *s, sn_sim_progress_fn fn, void *ctx);

/* Rising edges the mesh was clocked since BOOT: one per cycle with
 * lockstep, one per quiet stretch otherwise (a jump; sim/README.md,
 * Clocking). For tests that the shortcut ran, and for benchmarks. */
uint64_t sn_sim_mesh_edges(const sn_sim *s);
/* Requests one injected fault (inject.h) for every run after the next BOOT;
 * a spec of kind SN_INJECT_NONE clears it. */
void sn_sim_set_inject(sn_sim *s, const sn_inject_spec *spec);

/* What was injected in the last run ("injected KIND: ... at cycle C (runner
 * at round R step S)"), that a requested injection never triggered, or ""
 * when none was requested. */
const char *sn_sim_inject_report(const sn_sim *s);

/* What the simulator counted since BOOT, as the host window's stats
 * (window.h sn_run_stats; the benchmark's source, docs/DESIGN.md §12): hart
 * reads and writes of the mailbox and RX-queue registers (SN_MBOX_DST..
 * SN_MBOX_HEAD, SN_CTRL_RX_HDR..SN_CTRL_RX_USED; an 8-byte access counts
 * once), every GO the mailbox accepted (measured, not claimed by the image)
 * and every completion the core popped (a store to HEAD), in order, and
 * each unit that issued a payload with its busy spans in mesh cycles since
 * BOOT (the harness clocks the mesh in step with the hart's cycles; a span's
 * end is 0 while it has no completion). wait_seconds is left 0. The arrays
 * stay valid until the next BOOT, run, get_stats or destroy. */
void sn_sim_get_stats(sn_sim *s, sn_run_stats *out);

/* FP16 elements the unit at (x, y) clamped to +-65504 since BOOT: a matmul
 * cluster's DRAINs, a vector core's VST and VCVT to FP16 (what KohakuTPU's
 * model counts as `saturated`, compiler/kohakutpu/model.py@7703ee8); 0 for a
 * node that ran no payload. */
uint64_t sn_sim_saturated(sn_sim *s, unsigned x, unsigned y);

/* Dumps the Verilated mesh (every signal, both clock edges; time 2c and
 * 2c+1 for mesh cycle c since BOOT) as FST to path for the mesh cycles in
 * [from, to). The dump goes to a temporary beside path and is renamed over
 * it by sn_sim_fst_close (or sn_sim_destroy), so path holds a whole, readable
 * file after any stop: exit, halt, hang, the cycle cap, an interrupt.
 * Returns 0, or -1 with the reason (naming path) in err when a dump is
 * already open, the window is empty or the file cannot be created. */
int sn_sim_fst_open(sn_sim *s, const char *path, uint64_t from, uint64_t to, char *err, size_t errlen);

/* Finishes the FST dump (no-op when none is open). Returns 0, or -1 with the
 * reason in err (may be NULL) when the rename fails. */
int sn_sim_fst_close(sn_sim *s, char *err, size_t errlen);

/* Async-signal-safe: the running simulation stops at its next mesh cycle as a
 * simulation error "interrupted (SIGINT)" (or SIGTERM: signo, the signal that
 * asked), so a signal handler can end a run cleanly and the caller can close
 * its dump. */
void sn_sim_interrupt(int signo);

/* The signal sn_sim_interrupt was given, or 0: for a wait outside the
 * simulation (a debugger's connect) to end on it too. */
int sn_sim_interrupted(void);

#ifdef __cplusplus
}
#endif
#endif
