/* Bit-exact datapath model of the KohakuTPU vector core (`vec_cu`, CU type
 * 'VC'): the three CU_INST payloads (IMEM, DESC, RUN) and the kernel
 * interpreter a RUN starts. Called once per CU_INST payload (through DPI from
 * the RTL). The definition of correct is the compiler's own model,
 * compiler/kohakutpu/model.py@7703ee8 `VectorUnit`, with encodings from
 * compiler/kohakutpu/hw/vector.py@7703ee8 and isa/vector.py@7703ee8; facts in
 * sysnode-facts §3.2 and §9, artifacts-facts §3.1, §6 and §7. The peer VDRAIN,
 * which that model refuses (model.py@cd56929 `_sink` raises ModelError), is
 * defined by hw/vector.py@60942f3 (its module docstring and `vdrain`). */
#ifndef SN_VECTOR_CORE_H
#define SN_VECTOR_CORE_H

#include <stdint.h>

#include "cu_data.h"
#include "mem_port.h"
#include "sysnode/field.h"
#include "vc_timing.h"
#include "sysnode/words.h"

#define SN_VC_IMEM_WORDS 512 /* 32-bit kernel words */
#define SN_VC_L1_WORDS 512   /* 32-byte words, 16 KB */
#define SN_VC_WORD_BYTES 32
#define SN_VC_VLMAX 128      /* elements */
#define SN_VC_LANES 16       /* elements per chunk, one chunk a cycle */
#define SN_VC_NVREG 16
#define SN_VC_NSREG 16
#define SN_VC_NKREG 4
#define SN_VC_NPRED 4
#define SN_VC_NDESC 8
#define SN_VC_NDIM 4
#define SN_VC_MAX_WALK 256       /* VFILL/VDRAIN entries before F_LEN */
#define SN_VC_MAX_STEPS (1u << 20) /* kernel instructions before a RUN counts as hung */
/* CU_DATA bursts one RUN's peer VDRAINs may leave for the mesh: one L1's
 * worth (512 words / 8). A model limit, not the core's: more stops the RUN
 * with SN_VC_UNSUP_PEER_BURSTS. */
#define SN_VC_PEER_BURSTS (SN_VC_L1_WORDS / SN_CU_BURST_GRANULES)

/* Vector modes (VSETMODE), hw/vector.py@7703ee8. */
enum sn_vc_mode { SN_VC_FLAT = 0, SN_VC_D2 = 1, SN_VC_D4 = 2, SN_VC_TREE = 3 };

/* Fault codes a RUN reports as SIG_FAULT's argument (hw/vector.py@7703ee8
 * FAULTS; sysnode-facts §3.2). */
enum sn_vc_fault {
    SN_VC_FAULT_NONE = 0,
    SN_VC_F_DTYPE = 1,  /* VLD/VST/VCVT dtype is not FP16 or FP32 */
    SN_VC_F_VSRC = 2,   /* a chained instruction named a vector source */
    SN_VC_F_CHAIN = 3,  /* source C used outside D2/D4/TREE */
    SN_VC_F_OPCODE = 4, /* VRED outside TREE mode (every 5-bit opcode is defined) */
    SN_VC_F_LEN = 5,    /* a VFILL/VDRAIN walk longer than 256 entries */
    SN_VC_F_LOOP = 6,   /* VLOOP inside a VLOOP */
    SN_VC_F_VL = 7,     /* VSETVL of 0 or more than 128 */
    SN_VC_F_REDVL = 8,  /* VRED with VL not a multiple of 16 */
    SN_VC_F_CUDATA = 9, /* a CU_DATA burst outside L1 */
};

/* Why a RUN stopped on something the compiler's model refuses to execute
 * (model.py@7703ee8 raises ModelError, not a VecFault). No behaviour is
 * invented for these: the kernel stops and the caller decides. */
enum sn_vc_unsupported {
    SN_VC_UNSUP_NONE = 0,
    SN_VC_UNSUP_PEER_BURSTS = 1, /* peer VDRAINs of one RUN past SN_VC_PEER_BURSTS bursts */
    SN_VC_UNSUP_CHAIN_MODE = 2, /* an ALU word while VMODE is D2, D4 or TREE (chaining) */
};

/* One address descriptor. Never-written fields read as base 0, stride 0,
 * bound 1 (artifacts-facts §6). */
typedef struct sn_vc_desc {
    uint64_t base;                 /* up to 40 bits: DRAM byte address or L1 word index */
    int32_t stride[SN_VC_NDIM];    /* signed 18-bit */
    uint32_t bound[SN_VC_NDIM];    /* 1..65535 (a written 0 reads as 1) */
} sn_vc_desc;

/* The whole architectural state. Nothing is global: one struct per core. */
typedef struct sn_vector_core {
    uint32_t imem[SN_VC_IMEM_WORDS];
    sn_vc_desc desc[SN_VC_NDESC];
    uint8_t l1[SN_VC_L1_WORDS][SN_VC_WORD_BYTES]; /* data in memory format */
    /* Lane values as doubles, like the compiler's model: an ALU result is an
     * E8M15 value, but a VLD of FP32 or a VCVT keeps what it read unrounded. */
    double vreg[SN_VC_NVREG][SN_VC_VLMAX];
    uint32_t sreg[SN_VC_NSREG]; /* 24-bit words (E8M15 bits or integers) */
    uint32_t kreg[SN_VC_NKREG]; /* K0 0.0, K1 1.0, K2 -1.0, K3 set by VSETI */
    uint8_t preg[SN_VC_NPRED][SN_VC_VLMAX]; /* 0 or 1 per element */
    uint32_t vl;    /* 1..128 */
    uint32_t vmode; /* enum sn_vc_mode */
    uint64_t saturated; /* FP16 elements clamped by VST/VCVT since reset */
    /* The last RUN's peer VDRAIN bursts in issue order, valid until the next
     * payload (each payload starts with none). */
    sn_cu_burst peer[SN_VC_PEER_BURSTS];
    uint32_t npeer;
} sn_vector_core;

typedef struct sn_vc_result {
    uint8_t fault;       /* 0 = retired normally, else enum sn_vc_fault 1..9 */
    uint32_t cycles;     /* cycles the payload occupies the unit (artifacts-facts §7) */
    uint8_t mem_error;   /* 1 if a DRAM access fell outside memory; bad_addr says where */
    uint64_t bad_addr;   /* unit address of the failing 32-byte access */
    uint8_t unsupported; /* enum sn_vc_unsupported; nonzero stops the kernel */
    uint8_t hang;        /* 1: pc ran past IMEM or SN_VC_MAX_STEPS without VHALT */
    uint16_t pc;         /* RUN: address of the last kernel word executed */
    uint32_t retired;    /* RUN: kernel instructions executed (VSETI counts once) */
    uint32_t saturated;  /* FP16 elements clamped to +-65504 by this payload */
    uint32_t nbursts;    /* RUN: CU_DATA bursts its peer VDRAINs left (sn_vc_peer_burst) */
} sn_vc_result;

/* Puts vc in its power-on state: IMEM, L1, registers and predicates zero,
 * descriptors base 0 / stride 0 / bound 1, K = {0.0, 1.0, -1.0, 0.0},
 * VL = 128, VMODE = FLAT (model.py@7703ee8 `VectorUnit.__init__`). */
void sn_vc_reset(sn_vector_core *vc);

/* Executes one 256-bit CU_INST payload on vc:
 *  IMEM (op 1): imem[[251:243]] = [31:0]; 1 cycle.
 *  DESC (op 2): descriptor [251:249], field [248:246] (0 base, 1..4 dims,
 *    5..7 ignored) = value [245:212]; a base also takes bits 39:34 from
 *    [68:63]; 1 cycle.
 *  RUN (op 3): interprets the kernel from pc [251:243] until VHALT or a stop;
 *    cycles = the kernel's cost (artifacts-facts §7). A peer VDRAIN (word
 *    bit 24; sysnode-facts §3.2) writes no DRAM: it snapshots L1 words
 *    l1off[8:0] .. +n-1 (mod 512), n = the product of A[ad]'s bounds (its
 *    strides are ignored; n > 256 faults F_LEN), as one contiguous transfer
 *    to (dst_x [20:17], dst_y [16:13]) buffer [12:9], flags bit 0 = word bit
 *    25 (ask for DATA_RECEIVED), ack {A[ad].base[23:20] y, [19:16] x}, first
 *    granule A[ad].base[15:0]; recorded as ceil(n/8) bursts for
 *    sn_vc_peer_burst (hw/vector.py@60942f3 `vdrain`).
 *  any other op: retires at once as a no-op (sysnode-facts §3.2); 1 cycle.
 * A RUN stops early on a fault (result.fault), a DRAM access outside memory
 * (result.mem_error, bad_addr), an unsupported instruction (result.unsupported)
 * or a runaway kernel (result.hang); everything done before the stop stays
 * done (bursts recorded before the stop stay recorded) and result.cycles
 * counts up to and including the stopping word.
 * mem (32-byte accesses by VFILL and VDRAIN) must be valid for a RUN.
 * time, when not NULL, is a RUN's clock started at its accept cycle
 * (vc_timing.h): every word executed, the stopping one included, is charged
 * to it, so sn_vc_timing_halt gives the RUN's HALT cycle afterwards.
 * result.cycles stays the compiler's cost model. */
sn_vc_result sn_vc_execute(sn_vector_core *vc, const sn_payload *payload, const sn_mem_port *mem,
                           sn_vc_timing *time);

/* Places nwords 32-byte words from bytes into L1 from word word_offset, as a
 * CU_DATA burst lands (model.py@7703ee8 `receive`). Returns 0, or
 * SN_VC_F_CUDATA when word_offset + nwords exceeds L1 (nothing written). */
int sn_vc_l1_write(sn_vector_core *vc, uint32_t word_offset, const uint8_t *bytes, uint32_t nwords);

/* Copies burst i (0 .. nbursts-1) of the last payload's peer VDRAINs into
 * *b. Returns 0, or -1 when there is no such burst. */
int sn_vc_peer_burst(const sn_vector_core *vc, uint32_t i, sn_cu_burst *b);

#endif
