/* Bit-exact datapath model of the KohakuTPU matmul cluster (`mx_cluster_cu`,
 * CU type 'MG'): FILL, GEMM and DRAIN, executed once per CU_INST payload
 * (through DPI from the RTL). The definition of correct is the compiler's
 * model, compiler/kohakutpu/model.py@cd56929 `ClusterUnit`, `sweep`,
 * `to_acc24` (the stored version nearest 7703ee8: it quantises FP16 at the
 * sweep), with FILL reading 128-byte MXFP7 entries as DESIGN.md §6 decides
 * and model.py@3d20115 `_fill` does. Field layout isa/cluster.py@894a833;
 * facts: sysnode-facts §3.3-§4, artifacts-facts §3.3-§3.4 and §7. */
#ifndef SN_MATMUL_CLUSTER_H
#define SN_MATMUL_CLUSTER_H

#include <stdint.h>

#include "cu_data.h"
#include "mem_port.h"
#include "sysnode/mxfp7.h"
#include "sysnode/words.h"

#define SN_MC_BANKS 2            /* banks per L1 side (model.py BANKS) */
#define SN_MC_BANK_ENTRIES 256   /* entries per bank (model.py BANK_ENTRIES) */
#define SN_MC_SIDE_ENTRIES (SN_MC_BANKS * SN_MC_BANK_ENTRIES) /* GA/GB = 512 */
#define SN_MC_TILES 4096         /* accumulator sub-tiles, gm*gn <= this (R-MAT TILES) */

/* Why a payload did not execute: each is a case the compiler's model
 * refuses with ModelError. Nothing is changed by a faulting payload. */
enum sn_mc_fault {
    SN_MC_FAULT_NONE = 0,
    SN_MC_FAULT_OPCODE = 1,     /* op is not FILL, GEMM or DRAIN */
    SN_MC_FAULT_FILL_RANGE = 2, /* fbank*256 + eoff + n > 512 entries */
    SN_MC_FAULT_HAZARD = 3,     /* FILL lands in entries the live sweep reads */
    SN_MC_FAULT_GEMM_RANGE = 4, /* gm or gn 0, gm*gn > 4096, or an operand past its L1 side */
    SN_MC_FAULT_CHAIN = 5,      /* acc=1 onto a tile of another gm x gn */
    SN_MC_FAULT_NO_TILE = 6,    /* DRAIN before any GEMM */
    SN_MC_FAULT_DRAIN_RANGE = 7 /* DRAIN of more sub-tiles than the tile holds */
};

typedef struct sn_mc_result {
    uint8_t fault;           /* enum sn_mc_fault; nonzero: report SIG_FAULT */
    uint32_t cycles;         /* cycles the payload holds the unit (artifacts-facts §7) */
    uint8_t mem_error;       /* 1 if the DRAM access fell outside memory */
    uint64_t bad_addr;       /* unit address of the failed access */
    uint8_t node_drain;      /* DRAIN with dnode=1: bursts for the mesh, see below */
    uint32_t nbursts;        /* node DRAIN: CU_DATA bursts to send, ceil(n / 8) (cu_data.h) */
    uint32_t saturated;      /* DRAIN: elements clamped to +-65504 */
} sn_mc_result;

/* One L1 entry as the sweep reads it (the 928 bits the cluster assembles
 * an entry into, sysnode-facts §9): q[lane][k] and the lane's scale
 * m8 * 2^es (m8 8..15, es -20..11), exact in a double. q fits 7 bits; it is
 * held in 16 so the dot products compile to multiply-adds of 16-bit pairs. */
typedef struct sn_mc_operand {
    int16_t q[SN_MX_LANES][SN_MX_KBLOCK];
    double scale[SN_MX_LANES];
} sn_mc_operand;

/* The whole state of one cluster; nothing is global. About 0.9 MB:
 * allocate it on the heap. */
typedef struct sn_matmul_cluster {
    /* L1A (side 0) and L1B (side 1) as filled, 128-byte MXFP7 entries;
     * entry index = bank * 256 + offset. */
    uint8_t l1[2][SN_MC_SIDE_ENTRIES][SN_MX_ENTRY_BYTES];
    /* The ACC24 tile of the last GEMM, (gm*4) x (gn*4) row-major, values
     * on ACC24's 17-bit significand grid. */
    double acc[SN_MC_TILES * SN_MX_LANES * SN_MX_LANES];
    uint8_t have_tile;
    uint16_t tile_gm, tile_gn;
    /* The entries the sweep in flight reads, per side; span 0 = none. */
    uint16_t reading_at[2], reading_span[2];
    /* The last node DRAIN's bursts, valid until the next payload: the
     * destination fields with offset = the first granule, and the granules,
     * each a 4x4 FP16 sub-tile, element (r, s) at bytes 2*(4r+s),
     * little-endian. */
    sn_cu_burst drain_head;
    uint32_t drain_granules;
    uint8_t drained[SN_MC_TILES][SN_CU_GRANULE_BYTES];
    uint64_t saturated; /* elements clamped by DRAINs since reset */
    /* Scratch of one GEMM: its A and B operand entries, decoded. */
    sn_mc_operand op[2][SN_MC_SIDE_ENTRIES];
} sn_matmul_cluster;

/* Puts mc in its power-on state: L1 zero, no tile, no live sweep, no
 * pending bursts. */
void sn_mc_reset(sn_matmul_cluster *mc);

/* Executes one 256-bit CU_INST payload (fields of isa/cluster.py; addresses
 * are {addr_hi, addr}, 40 bits, unit DRAM byte addresses):
 *  FILL (op 1): reads n 128-byte MXFP7 entries at addr into L1 side sel,
 *    from entry fbank*256 + eoff. cycles = n * 8.
 *  GEMM (op 2): for each of gm x gn sub-tiles, sweeps nk K blocks of A
 *    entries abank*256 + aoff + m*nk + b against B entries bbank*256 + boff
 *    + g*nk + b: per block the int7 dot product times 2^(esa+esb) *
 *    m8a*m8b/64 is added and rounded to ACC24 (17-bit significand, half to
 *    even); with acc=1 after an earlier tile the result is then added to it
 *    and rounded once more. cycles = ceil(gm*4 * nk*32 * gn*4 / 512).
 *    When it completes and when a DRAIN may follow is mg_timing.h's.
 *  DRAIN (op 3): the first n sub-tiles of the tile in row-major (m, n)
 *    order, each clamped to +-65504 and rounded to FP16 (half to even): to
 *    DRAM at addr (32 bytes each) when dnode = 0; when dnode = 1 nothing is
 *    sent, the granules are kept as nbursts bursts for sn_mc_node_burst
 *    (offset = addr[20:5]). cycles = n.
 * Ignored, as the compiler's model ignores them: anchor (always 2*SBIAS),
 * peers/npeer, emit/fuse, dmesh/dfin. A fault or memory error changes
 * nothing but dropping the pending bursts. mem must be valid
 * for FILL and DRAIN. */
sn_mc_result sn_mc_execute(sn_matmul_cluster *mc, const sn_payload *p, const sn_mem_port *mem);

/* Copies burst i (0 .. nbursts-1) of the last payload, a node DRAIN, into
 * *b. Returns 0, or -1 when there is no such burst. Burst i carries
 * granules 8i .. min(8i+8, n)-1 at offset addr[20:5] + 8i (16-bit). */
int sn_mc_node_burst(const sn_matmul_cluster *mc, uint32_t i, sn_cu_burst *b);

#endif
