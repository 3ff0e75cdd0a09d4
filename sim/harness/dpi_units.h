/* The unit models behind the mesh's DPI calls, and the memory timing the
 * mesh models with them. Unit index u of sn_mesh_top (default mesh: the
 * order of SN_MESH_2P2_INIT, 0 mat0 (1,1), 1 mat1 (2,1), 2 vec0 (1,0),
 * 3 vec1 (1,2)) maps to one C model,
 * created on the unit's first instruction with the type its shell names.
 * DPI imports carry no user pointer, so the calls reach the sn_dpi_units
 * bound to the current thread (one mesh evaluates at a time per thread,
 * tool-pitfalls 10).
 *
 * Memory (the lead's decision for this model; DESIGN §6, sysnode-facts
 * §2.4): a model reads and writes DRAM at execute time, but
 *  - a WRITE does not reach DRAM then: it is kept as a pending write. When
 *    the unit's shell reports the instruction's last beat sent, the write
 *    lands SN_V4_WRITE_LANDING_CYCLES mesh cycles later. A CU_VERSION 4 unit
 *    sends its completion at that moment (a CPU read in between sees the old
 *    bytes); a CU_VERSION 5 unit holds it until the writes have landed;
 *  - a model READ sees DRAM with every pending write laid over it in arrival
 *    order (the memory node serves requests in order), so units see each
 *    other's earlier writes; only the CPU and the host, which read the DRAM
 *    array directly, can see old bytes;
 *  - timing is the units' own (unit-timing §1-§4): a payload's completion
 *    cycle follows from its accept cycle, the unit's timing state (a
 *    cluster's sweep, a kernel's waits) and the memory node's read server
 *    (mem_node.h), where each unit reserves its reads when it accepts the
 *    payload that makes them. The countdown of a payload that moves DRAM
 *    words, and the landing countdown, hold while the SysNode hub holds its
 *    inbound link. */
#ifndef SN_DPI_UNITS_H
#define SN_DPI_UNITS_H

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "sim.h"

extern "C" {
#include "dram.h"
#include "matmul_cluster.h"
#include "mem_node.h"
#include "mem_port.h"
#include "mg_timing.h"
#include "sysnode/mesh.h"
#include "sysnode/regs.h"
#include "sysnode/status.h"
#include "vector_core.h"
}

/* Completion tap after the accept of a payload with no timing of its own
 * (IMEM, DESC, an unknown opcode, a refused cluster payload): unit-timing
 * §2.1 (IMEM, DESC); the cluster's refusals were not measured. */
#define SN_UNIT_PLAIN_COMPLETE 4
/* A RUN's completion tap after its HALT cycle (unit-timing §2.1). */
#define SN_VC_HALT_TO_COMPLETE 4

#define SN_DPI_MAX_UNITS SN_MESH_MAX_UNITS

/* Frees a cluster taken from sn_zeroed_alloc (zeroed.h). */
struct sn_mc_unmap {
    void operator()(sn_matmul_cluster *mc) const;
};

struct sn_dpi_unit {
    unsigned cu_type = 0; /* SN_CU_TYPE_*; 0 until the first instruction */
    unsigned x = 0, y = 0; /* the shell's coordinate, from its first issue */
    std::vector<sn_busy_span> spans; /* since reset, in issue order (sim.h) */
    std::deque<uint64_t> arrivals;       /* CU_INST taps not yet accepted */
    size_t completed = 0;                /* spans whose completion has tapped */
    sn_mg_timing mg_time{};
    uint32_t drain_n = 0; /* the last payload's node DRAIN sub-tiles, 0 if it was none */
    std::unique_ptr<sn_vector_core> vc;
    std::unique_ptr<sn_matmul_cluster, sn_mc_unmap> mc; /* 0.9 MB, mostly never touched */
    uint64_t executed = 0; /* payloads executed since reset */
    /* the CU_DATA burst being received, one 32-byte word per data flit */
    std::vector<uint8_t> rx_words;
};

struct sn_dpi_write {
    unsigned unit;
    uint64_t addr;
    std::vector<uint8_t> bytes;
    bool sent;        /* the unit's last beat is out: the countdown runs */
    uint64_t land_at; /* memory-clock time it lands, once sent */
};

struct sn_dpi_units {
    sn_dram *dram = nullptr;
    sn_dpi_unit unit[SN_DPI_MAX_UNITS];
    std::deque<sn_dpi_write> pending; /* in arrival order */
    uint64_t mem_clock = 0;           /* mesh cycles the hub was not stalled */
    unsigned dram_latency = 0;        /* L, cycles per memory transaction (sn_sim_config) */
    sn_mem_node mem_node{};
    bool landed = false;              /* a write landed on the last edge (the harness clears it) */
    uint64_t now = 0;                 /* the mesh cycle being evaluated (set by the harness; a jump
                                         edge's first: spans begin and end on ordinary edges) */
    /* the instruction executing: its unit and bytes moved */
    unsigned exec_unit = 0;
    uint64_t exec_read_bytes = 0, exec_write_bytes = 0;
    sn_mem_port port{};
    char error[256] = {0}; /* first model error; empty when none */
    /* An injected fault for the next instruction any unit issues (inject.h):
     * 0 none, UINT32_MAX never finishes, else its SIG_FAULT argument. */
    uint32_t inject_fault = 0;
    int inject_hit_unit = -1;     /* the unit it hit, and that unit's payload count */
    uint64_t inject_hit_payload = 0; /* since reset, 0-based */
    bool track = false;                  /* record every access (sn_sim_track_accesses) */
    std::vector<sn_unit_access> accesses; /* recorded, in the order the units made them */
};

/* Connects the models to dram, with dram_latency cycles per memory-node
 * transaction (unit-timing §4.5), and resets them. */
void sn_dpi_units_init(sn_dpi_units *u, sn_dram *dram, unsigned dram_latency);
/* Power-on state for every model; every pending write lands first. Clears
 * the error. */
void sn_dpi_units_reset(sn_dpi_units *u);
/* Makes u the target of DPI calls made on this thread. */
void sn_dpi_units_bind(sn_dpi_units *u);
/* Memory-clock cycles (mesh cycles without a hub stall) until the next sent
 * write's landing time, or UINT64_MAX when no sent write waits for its time.
 * A write whose time has passed waits for an earlier one to the same bytes,
 * so only a landing counted here, or a unit sending its last beat (a unit
 * countdown ending), can let it land: the bound for a jump (sim.cpp). After
 * a landing (`landed`) a fenced unit may leave FENCE on the next edge, which
 * the mesh's quiet output cannot see: that edge is an ordinary one. */
uint64_t sn_dpi_units_cycles_to_landing(const sn_dpi_units *u);
/* DRAM writes not yet landed (all units). */
size_t sn_dpi_units_pending_writes(const sn_dpi_units *u);
/* The vector core or matmul cluster behind unit index i, or NULL when that
 * unit has not run an instruction of that type (for tests). */
sn_vector_core *sn_dpi_units_vc(sn_dpi_units *u, unsigned i);
sn_matmul_cluster *sn_dpi_units_mc(sn_dpi_units *u, unsigned i);

#endif
