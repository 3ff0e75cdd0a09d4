/* The SysNode's RV64 hart: the project's model of the card's core
 * (KohakuTPU rv64_syscore, from its facts: sysnode-facts §1, core-timing.md)
 * running the real runner image behind the SysNode's CPU memory map (IMEM,
 * SPAD, control region, DRAM through the CPU L1 and its uncached alias),
 * loaded through the host window and started by BOOT: every instruction,
 * trap and cycle as the core does them, its pipeline, predictor, I-cache,
 * L1, node port and Sv39 MMU included (DESIGN §3). One object per hart, no
 * global state. */
#ifndef SN_HART_H
#define SN_HART_H

#include <stddef.h>
#include <stdint.h>

#include "l1_cache.h"

/* What the hart needs from the rest of the SysNode (the mesh, the console,
 * the exit latch). ctrl_read, ctrl_write and advance are required;
 * irq_lines is optional (NULL: both lines stay low). */
typedef struct sn_hart_bus {
    void *ctx;
    /* a whole aligned 64-bit control-region register access at offset
     * (0..0x3F8), in the access's second E cycle (core-timing §5.2), the one
     * last given to advance; a byte store to R_CONSOLE arrives as a write of
     * that byte */
    uint64_t (*ctrl_read)(void *ctx, uint32_t offset);
    void (*ctrl_write)(void *ctx, uint32_t offset, uint64_t value);
    /* called as simulated time advances, so the mesh can catch up to `cycle`;
     * cycles never decrease from one call to the next */
    void (*advance)(void *ctx, uint64_t cycle);
    /* The SysNode's interrupt lines at the mesh's current cycle, as mip bits:
     * MEIP (bit 11, the external line) and MSIP (bit 3, the software line)
     * (sysnode-facts §1.2). */
    uint64_t (*irq_lines)(void *ctx);
} sn_hart_bus;

typedef struct sn_hart sn_hart; /* opaque */

/* Creates a hart with the SysNode memory map (sysnode-facts §1.4): IMEM at 0
 * (32 KB, fetch only), SPAD at 0x1_0000 (32 KB), the control region at
 * 0x2_0000 (1 KB, through bus), and the caller's dram (dram_size bytes, a
 * non-zero multiple of 4096, kept by the caller and outliving the hart) at
 * SN_DRAM_CPU_BASE through the L1 model (§1.5: every CPU load and store
 * there goes through it) and at its uncached alias (bit 38), straight onto
 * the buffer. IMEM and SPAD start zeroed. The bus is copied. Returns NULL
 * with the reason in err (errlen bytes) on a missing callback, a bad DRAM
 * size. */
sn_hart *sn_hart_create(const sn_hart_bus *bus, uint8_t *dram, uint64_t dram_size, char *err, size_t errlen);

/* Releases the hart (not the DRAM buffer). Safe on NULL. */
void sn_hart_destroy(sn_hart *h);

/* Host window (sysnode-facts §1.3). IMEM takes one 32-bit word per write at
 * byte address addr (4-aligned, < 0x8000). Returns 0, or -1 (nothing
 * written) when addr is misaligned or out of range. A word written between
 * runs is what the next run fetches: its decode is dropped. */
int sn_hart_imem_write(sn_hart *h, uint32_t addr, uint32_t word);

/* Host window: SPAD takes one 64-bit word per write at byte offset offset
 * (8-aligned, < 0x8000); byte k of value (little-endian) is written where
 * bit k of strobes is set. Returns 0, or -1 (nothing written) when offset
 * is misaligned or out of range. */
int sn_hart_spad_write(sn_hart *h, uint32_t offset, uint64_t value, uint8_t strobes);

/* Clears IMEM and SPAD to zero, as a fresh card has them; the host calls it
 * before loading a new image. Not during a run. */
void sn_hart_clear_memories(sn_hart *h);

/* HR_BOOT (sysnode-facts §1.3): resets the CPU (registers, CSRs, M mode, PC
 * 0 in F at cycle 0, the exit flag, the halt latch, the cycle and instret
 * counters and simulated time to 0; mtimecmp to all ones, core-timing §11),
 * the pipeline, predictor, I-cache and TLB, and empties the L1 (its dirty
 * lines are dropped, as a reset drops them; its counters restart; its
 * maintenance machine scans until cycle 195, core-timing §5.6); IMEM, SPAD,
 * DRAM and the DRAM latency keep their values; breakpoints are cleared.
 * Not during a run. Returns 0 (err is unused: nothing here can fail). */
int sn_hart_boot(sn_hart *h, char *err, size_t errlen);

/* L, the cycles per CPU access to DRAM past the L1 (core-timing.md §0
 * "DRAM latency L"; 0 is the bench RAM both timing sheets were measured
 * on). Set before BOOT; it holds until changed. Returns 0, or -1 (nothing
 * changed) if cycles > 1000. */
int sn_hart_set_dram_latency(sn_hart *h, unsigned cycles);

/* The core's errata (core-timing.md "Surprises", §2.3, §5.6, §10): behaviours
 * of the card's core that no specification describes, reproduced by the
 * model. Bit k of sn_hart_errata is erratum k. */
typedef enum {
    SN_ERRATUM_WFI_NO_WAIT,      /* wfi retires at once, without waiting for an interrupt */
    SN_ERRATUM_L1_BUSY_POLL,     /* a DCACHE busy read right after the store that starts maintenance reads 0 */
    SN_ERRATUM_SV39_STALE_XLATE, /* an access right after another to the same page reuses the previous translation */
    SN_ERRATUM_CSR_TRAP_TWICE,   /* a trap on a CSR instruction is entered twice (MIE lost, MPP = M) */
    SN_ERRATUM_COUNT
} sn_erratum;

/* The errata this run reproduced since BOOT: bit k set for erratum k
 * (sn_erratum). 0 before BOOT. */
unsigned sn_hart_errata(const sn_hart *h);

/* A one-line description of erratum bit (a sn_erratum), or NULL if bit >=
 * SN_ERRATUM_COUNT. The text is static. */
const char *sn_hart_erratum_text(unsigned bit);

/* Control-region DCACHE register (offset 0x1C8, sysnode-facts §1.5), for the
 * bus's ctrl_write: bit 0 flushes (every dirty line written back to DRAM,
 * lines stay valid and clean), bit 1 invalidates (every line dropped
 * without write-back); both set: flush, then invalidate. The bytes move at
 * once; the maintenance machine's scan (core-timing §5.6) then keeps every
 * cached access waiting until it ends: busy from 3 cycles after the store
 * leaves E, 2 cycles a line, a dirty line's write-back through the node
 * port; a request while it is busy merges into its scan. */
void sn_hart_dcache_write(sn_hart *h, uint64_t value);

/* DCACHE read for the bus's ctrl_read: bit 0 = busy, in the load's second E
 * cycle; 0 right after the requesting store (the erratum
 * SN_ERRATUM_L1_BUSY_POLL, recorded when a read sees it). */
uint64_t sn_hart_dcache_read(sn_hart *h);

/* The L1's hit, miss and write-back counts since BOOT (for tests): one per
 * line an access touches (accesses are aligned: one line each). */
sn_l1_stats sn_hart_l1_stats(const sn_hart *h);

/* Copies n bytes of SPAD at CPU address addr into dst (for the status block,
 * STYLE 9). Returns 0, or -1 (nothing copied) if [addr, addr+n) is not inside
 * SPAD. */
int sn_hart_spad_read(sn_hart *h, uint64_t addr, void *dst, size_t n);

typedef enum {
    SN_HART_EXITED,      /* the CPU stored to R_EXIT (sn_hart_request_exit) */
    SN_HART_HALTED,      /* an exception with mtvec == 0: halt_cause says which */
    SN_HART_CYCLE_LIMIT, /* cycle_limit reached; sn_hart_run resumes */
    SN_HART_SIM_ERROR,   /* the image did what the model or the SysNode cannot serve: see message */
    SN_HART_BREAK,       /* a debugger's breakpoint or single step: stopped before pc; sn_hart_run resumes */
} sn_hart_stop;

typedef struct {
    sn_hart_stop stop;
    uint64_t exit_code;  /* EXITED: the 64-bit word stored to R_EXIT */
    unsigned halt_cause; /* HALTED: 1 ecall, 2 ebreak, 3 illegal, misaligned or access fault (sysnode-facts §1.3) */
    uint64_t mcause;     /* HALTED: the exception's mcause code (sysnode-facts §1.2) */
    uint64_t pc;         /* EXITED: the exit store; HALTED: the faulting instruction;
                            CYCLE_LIMIT: the next instruction; SIM_ERROR: the offending
                            instruction (found by decoding its basic block; for a stop
                            the bus asked for, its last control access or its start) */
    uint64_t cycles;     /* simulated cycles since BOOT; EXITED: HR_CYCLES, the cycle the
                            exit store leaves E + 4 (core-timing.md §0 "Whole-run counters") */
    uint64_t instret;    /* instructions retired since BOOT; EXITED: HR_RETIRED, every
                            instruction that left E up to that cycle + 1 (same rule) */
    char message[256];   /* SIM_ERROR: what went wrong, naming address and PC;
                            HALTED: the exception's mcause, its name and mtval */
} sn_hart_result;

/* Runs from where the last run stopped (cycle 0 after BOOT) until exit,
 * halt, the cycle limit or a simulation error; without a successful BOOT it
 * stops with SIM_ERROR. cycle_limit is absolute: the run stops at the start
 * of the first cycle >= cycle_limit (UINT64_MAX: no limit), and the next run
 * resumes there exactly. Time is the core's, cycle by cycle
 * (core-timing.md §2.2 and the costs of §1-§11, with L from
 * sn_hart_set_dram_latency); bus->advance is called before every
 * control-region access, for every DRAM access that reaches the node port,
 * at every counter-CSR read, before sampling the interrupt lines and at
 * least every 64 cycles. What executes is the card's (card_isa.h: anything
 * else traps with cause 2), CSRs are the card's (card_csr.h). Loads, stores
 * and AMOs off their size trap with cause 4 or 6 in every region; a jump or
 * taken branch to an address off 4 bytes traps with cause 0. Traps
 * (sysnode-facts §1.1-1.3): an exception bound for M with mtvec == 0 halts
 * with halt cause 1 (ecall), 2 (ebreak) or 3 (the rest); otherwise xepc,
 * xcause, xtval (the word for an illegal instruction, the address for a
 * misaligned or refused access or a page fault, else 0) and mstatus (xPIE =
 * xIE, xIE = 0, xPP = the level trapped from) are written and execution
 * continues at mtvec, or at stvec when medeleg/mideleg delegates a trap from
 * below M. Interrupts: the timer (time >= mtimecmp) and the bus's lines,
 * taken in the first E cycle of an instruction that is not a memory
 * access, the last of a mul/div (core-timing §9). The errata are the
 * core's (sn_hart_errata). EXITED, HALTED and SIM_ERROR are final: calling
 * again returns the same result. Accesses the SysNode does not serve (IMEM
 * data, holes, a control access that is not a whole 64-bit register or a
 * console byte store) stop the run with SIM_ERROR before the bus sees
 * them. */
sn_hart_result sn_hart_run(sn_hart *h, uint64_t cycle_limit);

/* Called by the bus, inside its ctrl_write, when the CPU stores to R_EXIT:
 * the run stops right after this access with state EXITED and this code
 * (sysnode-facts §1.7: an exit store halts the core). */
void sn_hart_request_exit(sn_hart *h, uint64_t code);

/* Called by the bus (from its callbacks, or between runs) when the
 * simulation around the hart fails: the run stops with SIM_ERROR and this
 * message at once (after the control access or advance it came from), or
 * the next run stops before its first cycle. */
void sn_hart_request_stop(sn_hart *h, const char *message);

/* Debugger support (the GDB stub, sim/gdb). Simulated time stands still
 * between runs, so it stops while the debugger holds the hart.
 * sn_hart_breakpoint sets (on != 0) or clears a software breakpoint at an
 * IMEM instruction address: a run stops with SN_HART_BREAK when it enters E,
 * before performing it (the instruction a run resumes at always executes
 * first); the pipeline is kept, so the cycles are those of a run without it.
 * Returns 0, or -1 if addr is not a 4-aligned IMEM address. Breakpoints
 * are cleared by BOOT. */
int sn_hart_breakpoint(sn_hart *h, uint64_t addr, int on);

/* The next sn_hart_run executes one instruction (or enters the trap it
 * raises) and stops with SN_HART_BREAK before the next one. */
void sn_hart_single_step(sn_hart *h);

/* Register i between runs: 0..31 the integer registers, 32 the PC (the next
 * instruction to enter E). Other i read 0. */
uint64_t sn_hart_register(sn_hart *h, unsigned i);

/* Copies n bytes at CPU address addr as the CPU would read them, without
 * side effects: IMEM, SPAD, cached DRAM (a valid L1 line's copy, else
 * DRAM; the L1 is not touched) and its uncached alias. Returns 0, or -1
 * (nothing copied) if any byte is elsewhere (the control region is the
 * bus's). */
int sn_hart_debug_read(sn_hart *h, uint64_t addr, void *dst, size_t n);

/* Simulated cycles since BOOT: exact between runs; during a run (from bus
 * callbacks) use the cycle given to advance instead. */
uint64_t sn_hart_cycles(const sn_hart *h);

#endif
