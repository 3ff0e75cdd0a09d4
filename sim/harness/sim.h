/* The simulated SysNode: the one owner of simulated time (STYLE 10). It holds
 * the Verilated mesh, its clock and reset, the RV64 hart, the DRAM model and
 * the unit models, and offers the host-side window the loader uses: load an
 * image, read and write DRAM, boot, run to exit with a cycle cap, read the
 * console and the exit status (sysnode-facts §1.3). C API for the host. */
#ifndef SN_SIM_H
#define SN_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "sysnode/status_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sn_sim sn_sim;

typedef struct {
    uint64_t dram_size;  /* bytes; 0 means SN_DRAM_DEFAULT_SIZE */
    unsigned cu_version; /* every unit's CU_VERSION; 0 means 4 (DESIGN §6) */
} sn_sim_config;

typedef enum {
    SN_SIM_EXITED,      /* the image stored to R_EXIT; exit_code holds the word */
    SN_SIM_HALTED,      /* the core halted on a trap with no handler; halt_cause 1..3 */
    SN_SIM_CYCLE_LIMIT, /* the cycle cap passed: reported as a hang */
    SN_SIM_ERROR,       /* the simulation itself stopped (bad access, unmodelled feature) */
} sn_sim_stop;

typedef struct {
    sn_sim_stop stop;
    uint64_t exit_code;
    unsigned halt_cause;
    uint64_t cycles;  /* simulated CPU cycles since boot */
    uint64_t instret; /* instructions retired since boot */
    uint64_t pc;
    char message[512];
} sn_sim_result;

/* Creates a SysNode with the mesh of DESIGN §6 and zeroed DRAM. Returns NULL
 * with a reason in err (errlen bytes) when memory or Unicorn fail. */
sn_sim *sn_sim_create(const sn_sim_config *cfg, char *err, size_t errlen);
void sn_sim_destroy(sn_sim *s);

/* Loads a runner ELF into IMEM and the scratchpad and resets the CPU to PC 0.
 * Returns 0, or -1 with the reason in err (the image the core cannot run:
 * compressed or FP code, data in IMEM, segments outside IMEM/SPAD). */
int sn_sim_load_image(sn_sim *s, const char *elf_path, char *err, size_t errlen);

/* Host window DRAM access at unit address addr (the CPU sees it at
 * 0x8000_0000 | addr). Returns 0, or -1 when [addr, addr+n) is outside DRAM. */
int sn_sim_dram_write(sn_sim *s, uint64_t addr, const void *src, uint64_t n);
int sn_sim_dram_read(sn_sim *s, uint64_t addr, void *dst, uint64_t n);

/* Boots the loaded image (reset mesh and counters, PC 0) and runs it until it
 * exits, halts, errors, or cycle_limit CPU cycles pass. */
sn_sim_result sn_sim_run(sn_sim *s, uint64_t cycle_limit);

/* Everything the image wrote to R_CONSOLE since boot, NUL-terminated. */
const char *sn_sim_console(const sn_sim *s);

/* Reads the runner's status block from the scratchpad. Returns 0, or -1 when
 * the image never stamped it (magic missing). */
int sn_sim_status_block(sn_sim *s, sn_status_block *out);

/* GOs the mailbox dropped because a flit was still offered (for tests). */
uint32_t sn_sim_dropped_gos(const sn_sim *s);

#ifdef __cplusplus
}
#endif
#endif
