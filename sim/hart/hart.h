/* The SysNode's RV64 hart: the real runner image executed by Unicorn behind
 * the SysNode's CPU memory map (IMEM fetch-only, SPAD, control region, DRAM
 * and its uncached alias), with simulated time, counter CSRs and the
 * SysNode's trap and halt behaviour implemented here because Unicorn's are
 * not the card's (DESIGN §3 "the hart is the real image on a real RV64
 * model"; sysnode-facts §1; tool-pitfalls 1-5). One object per hart, no
 * global state. */
#ifndef SN_HART_H
#define SN_HART_H

#include <stddef.h>
#include <stdint.h>

#include "elf_image.h"

/* What the hart needs from the rest of the SysNode (the mesh, the console,
 * the exit latch). All three callbacks are required. */
typedef struct sn_hart_bus {
    void *ctx;
    /* a whole aligned 64-bit control-region register access at offset
     * (0..0x3F8), at the hart's current cycle (the one last given to
     * advance); a byte store to R_CONSOLE arrives as a write of that byte */
    uint64_t (*ctrl_read)(void *ctx, uint32_t offset);
    void (*ctrl_write)(void *ctx, uint32_t offset, uint64_t value);
    /* called as simulated time advances, so the mesh can catch up to `cycle`;
     * cycles never decrease from one call to the next */
    void (*advance)(void *ctx, uint64_t cycle);
} sn_hart_bus;

typedef struct sn_hart sn_hart; /* opaque */

/* Creates a hart with the SysNode memory map (sysnode-facts §1.4): IMEM at 0
 * (32 KB, fetch only), SPAD at 0x1_0000 (32 KB), the control region at
 * 0x2_0000 (1 KB, through bus), and the caller's dram (dram_size bytes, a
 * non-zero multiple of 4096, kept by the caller and outliving the hart) at
 * SN_DRAM_CPU_BASE and at its uncached alias (bit 38). The bus is copied.
 * Returns NULL with the reason in err (errlen bytes) on a missing callback,
 * a bad DRAM size or a Unicorn error. */
sn_hart *sn_hart_create(const sn_hart_bus *bus, uint8_t *dram, uint64_t dram_size, char *err, size_t errlen);

/* Releases the hart (not the DRAM buffer). Safe on NULL. */
void sn_hart_destroy(sn_hart *h);

/* Boots img: a fresh core (registers, CSRs, counters and simulated time at
 * 0, as HR_BOOT clears them, sysnode-facts §1.3) with IMEM and SPAD zeroed,
 * then img's segments written into them, its counter-CSR reads served with
 * simulated time (tool-pitfalls 3) and PC = 0, the SysNode's fixed reset PC.
 * A hart may be loaded again; DRAM is the caller's and is not touched.
 * Returns 0, or -1 with the reason in err when img's entry point is not 0, a
 * segment is outside IMEM and SPAD, or Unicorn fails (the hart then holds no
 * image). */
int sn_hart_load(sn_hart *h, const sn_elf_image *img, char *err, size_t errlen);

/* Copies n bytes of SPAD at CPU address addr into dst (for the status block,
 * STYLE 9). Returns 0, or -1 (nothing copied) if [addr, addr+n) is not inside
 * SPAD. */
int sn_hart_spad_read(sn_hart *h, uint64_t addr, void *dst, size_t n);

typedef enum {
    SN_HART_EXITED,      /* the CPU stored to R_EXIT (sn_hart_request_exit) */
    SN_HART_HALTED,      /* an exception with mtvec == 0: halt_cause says which */
    SN_HART_CYCLE_LIMIT, /* cycle_limit reached; sn_hart_run resumes */
    SN_HART_SIM_ERROR,   /* the image did what the model or the SysNode cannot serve: see message */
} sn_hart_stop;

typedef struct {
    sn_hart_stop stop;
    uint64_t exit_code;  /* EXITED: the 64-bit word stored to R_EXIT */
    unsigned halt_cause; /* HALTED: 1 ecall, 2 ebreak, 3 illegal (sysnode-facts §1.3) */
    uint64_t pc;         /* EXITED: the exit store; HALTED: the faulting instruction;
                            CYCLE_LIMIT: the next instruction; SIM_ERROR: the offending
                            instruction (found by decoding its basic block; for a stop
                            the bus asked for, its last control access or its start) */
    uint64_t cycles;     /* simulated cycles since load */
    uint64_t instret;    /* instructions retired since load */
    char message[256];   /* SIM_ERROR: what went wrong, naming address and PC */
} sn_hart_result;

/* Runs from the current PC until exit, halt, the cycle limit or a simulation
 * error. cycle_limit is absolute: the run stops at the first basic-block
 * boundary where sn_hart_cycles() >= cycle_limit (UINT64_MAX: no limit).
 * Time (sysnode-facts §10): one cycle per instruction executed plus one per
 * control-region access; bus->advance is called before every control-region
 * access, at every counter-CSR read and at least every 64 cycles of
 * execution. Traps (sysnode-facts §1.2-1.3, tool-pitfalls 2): an ecall,
 * ebreak or illegal instruction with mtvec == 0 halts with cause 1, 2 or 3;
 * otherwise mepc, mcause (11, 3, 2), mtval (the word for illegal, else 0)
 * and mstatus (MPIE = MIE, MIE = 0, MPP = M) are written and execution
 * continues at mtvec. EXITED, HALTED and SIM_ERROR are final: calling again
 * returns the same result. A 4-byte control access whose other half never
 * comes is found at the next control access, counter CSR, trap or block
 * boundary, or at the end of the run. */
sn_hart_result sn_hart_run(sn_hart *h, uint64_t cycle_limit);

/* Called by the bus, inside its ctrl_write, when the CPU stores to R_EXIT:
 * the run stops right after this access with state EXITED and this code
 * (sysnode-facts §1.7: an exit store halts the core). */
void sn_hart_request_exit(sn_hart *h, uint64_t code);

/* Called by the bus (from its callbacks, or between runs) when the
 * simulation around the hart fails: the run stops with SIM_ERROR and this
 * message as soon as Unicorn allows (at once from a control access or an
 * advance), or the next run stops before its first instruction. */
void sn_hart_request_stop(sn_hart *h, const char *message);

/* Simulated cycles since load: exact between runs; during a run (from bus
 * callbacks) use the cycle given to advance instead. */
uint64_t sn_hart_cycles(const sn_hart *h);

#endif
