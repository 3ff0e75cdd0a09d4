/* The state of one hart, shared by the files of sim/hart that model the
 * card's core (core-timing.md, sysnode-facts §1): hart.c is the API,
 * pipeline.c the per-cycle rules, csr.c the CSR file and traps, mmu.c Sv39,
 * memmap.c the regions and their access times, icache.c, bpred.c, nport.h.
 * Internal to sim/hart. */
#ifndef SN_CORE_H
#define SN_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "bpred.h"
#include "card_csr.h"
#include "decode.h"
#include "hart.h"
#include "icache.h"
#include "l1_cache.h"
#include "mmu.h"
#include "nport.h"
#include "sysnode/regs.h"

#define SN_IMEM_WORDS (SN_IMEM_SIZE / 4)
#define SN_INTERRUPT (1ull << 63)

/* mcause values (sysnode-facts §1.2; 5 and 7, the access faults, from the
 * privileged specification) */
enum {
    SN_CAUSE_FETCH_MISALIGNED = 0,
    SN_CAUSE_ILLEGAL = 2,
    SN_CAUSE_BREAKPOINT = 3,
    SN_CAUSE_LOAD_MISALIGNED = 4,
    SN_CAUSE_LOAD_ACCESS = 5,
    SN_CAUSE_STORE_MISALIGNED = 6,
    SN_CAUSE_STORE_ACCESS = 7,
    SN_CAUSE_ECALL_U = 8,
    SN_CAUSE_FETCH_PAGE = 12,
    SN_CAUSE_LOAD_PAGE = 13,
    SN_CAUSE_STORE_PAGE = 15,
};
enum { SN_HALT_ECALL = 1, SN_HALT_EBREAK = 2, SN_HALT_ILLEGAL = 3 };
enum { SN_PRIV_U = 0, SN_PRIV_S = 1, SN_PRIV_M = 3 };

/* An instruction in F2, D or E, with what the predictor answered when it
 * left F (core-timing §3.2: the values travel with the instruction). */
typedef struct sn_slot {
    bool valid;
    uint8_t fetch_cause; /* 0: fetched; else 1 + the mcause of its fetch fault (12) */
    bool outside;        /* fetched from cached DRAM outside the buffer (at fetch_pa): a simulation error if
                            it reaches E */
    uint8_t pht;         /* the PHT counter read at lookup */
    bool btb_hit;        /* the BTB tag matched at lookup */
    bool pred_taken;     /* D's prediction when it moved to E */
    uint64_t pred_target;
    uint64_t pc;
    uint64_t fetch_pa; /* outside: the physical address (pc, or its Sv39 translation) */
    uint64_t btb_target;
    sn_insn in;
} sn_slot;

/* The instruction in E: its timing, decided when it enters (pipeline.c). */
typedef struct sn_estage {
    bool valid, executed;
    bool trap_first;    /* a trap in its first cycle too (a trap on a CSR instruction, core-timing §9) */
    bool kill_last;     /* a redirect in its last cycle: mispredict, trap, xret */
    bool trap_last;     /* the redirect is a trap (fetch hold 2 cycles, not counted as retired) */
    bool xret_last;
    bool is_load;       /* opcode 0x03 with rd != 0: the load-use check (§2.4) */
    bool jalr;          /* a JALR that did not trap: the JALR check follows */
    bool update_bp;     /* a branch or JAL: the predictor is trained in its last cycle */
    bool taken;         /* branch/JAL/JALR: taken */
    uint64_t first, last; /* its E cycles */
    uint64_t next;        /* the correct next PC */
    uint64_t target;      /* branch/JAL/JALR: the target */
    sn_slot *s;           /* one of the hart's three slots, as F2 and D */
} sn_estage;

/* What BOOT keeps: the host-loaded memories and the L1's storage; the
 * decode of each IMEM word, dropped when the host writes it. */
typedef struct sn_memories {
    uint8_t imem[SN_IMEM_SIZE];
    uint8_t spad[SN_SPAD_SIZE];
    sn_insn decoded[SN_IMEM_WORDS];
    bool decoded_ok[SN_IMEM_WORDS];
    bool breakpoint[SN_IMEM_WORDS];
    sn_l1 l1;
} sn_memories;

struct sn_hart {
    sn_hart_bus bus;
    uint8_t *dram;
    uint64_t dram_size;
    sn_memories *mem;
    unsigned latency; /* L (core-timing §0) */
    bool booted;

    /* architectural state */
    uint64_t x[32];
    unsigned priv;
    bool xlate; /* Sv39 translates fetches: priv below M and satp.MODE = 8 (sn_core_xlate) */
    uint64_t mstatus, mie, mtvec, stvec, mscratch, sscratch, mepc, sepc, mcause, scause, mtval, stval, satp;
    uint64_t medeleg, mideleg, mip_sw;
    uint64_t mtimecmp, mtimecmp_old, mtimecmp_at; /* mtimecmp takes effect for the timer at cycle mtimecmp_at */
    uint64_t mcycle_delta, minstret_delta;        /* what csrw mcycle/minstret added, modulo 2^64 */
    bool reserved;                                /* LR's reservation */
    uint64_t reservation;

    /* time and counters */
    uint64_t cycle;   /* the cycle being simulated (core-timing §0 numbering) */
    uint64_t retired; /* instructions that left E without trapping */
    uint64_t last_advance;

    /* pipeline (core-timing §2.2) */
    uint64_t pc; /* F */
    sn_slot slots[3]; /* F2, D and E hold one each: moving the pipeline moves pointers */
    sn_slot *f2, *d;
    sn_estage e;
    bool redirect_pending, jalr_check;
    uint64_t pending_target;
    struct { /* the JALR whose check is this cycle */
        bool pred_taken;
        uint64_t pc, target, pred_target;
    } jalr;
    uint64_t hold_end;      /* fetch held before this cycle after a trap or xret (the 2 cycles after it) */
    uint64_t sfence_hold;   /* fetch held in this cycle after sfence.vma */
    uint64_t mem_last;      /* the last E cycle of the latest memory instruction (Sv39 b2b rule) */

    sn_bpred bp;
    sn_icache ic;
    sn_nport port;
    sn_mmu mmu;

    /* the L1's maintenance machine (core-timing §5.6): cached lookups wait in [l1_wait_from, l1_idle) */
    uint64_t l1_wait_from, l1_busy_from, l1_idle;
    unsigned l1_end_index;

    unsigned errata; /* sn_erratum bits */

    /* debugger */
    bool stepping, resume_armed;
    bool debugging;       /* stepping or a breakpoint set: E entries check for a stop */
    unsigned breakpoints; /* how many are set */
    uint64_t resume_pc; /* the instruction a run resumes at executes before any stop */

    /* run control */
    uint64_t cycle_limit;
    bool running, stopping, done;
    bool exit_requested, exiting;
    uint64_t exit_code, exit_cycle, exit_pc; /* exit_cycle: the exit store leaves E (c_exit, core-timing §0) */
    uint64_t access_cycle; /* the cycle of the current control access (DCACHE reads) */
    sn_hart_result result;
};

/* Ends the run with why at pc (the first stop wins). */
void sn_core_stop(sn_hart *h, sn_hart_stop why, uint64_t pc);
/* Ends the run with SIM_ERROR and a message naming the PC (printf format). */
void sn_core_error(sn_hart *h, uint64_t pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Recomputes xlate after a change of priv or satp. */
static inline void sn_core_xlate(sn_hart *h)
{
    h->xlate = h->priv < SN_PRIV_M && (h->satp >> 60) == SN_SATP_MODE_SV39;
}
/* The bus brought to cycle (never backwards). */
void sn_core_advance(sn_hart *h, uint64_t cycle);

/* pipeline.c: runs cycles until a stop or the limit (hart.h sn_hart_run). */
void sn_pipeline_run(sn_hart *h);
/* pipeline.c: the next instruction to enter E (where a stop says the run is). */
uint64_t sn_pipeline_next_pc(const sn_hart *h);
/* pipeline.c: the pipeline emptied for BOOT: PC 0 in F at cycle 0. */
void sn_pipeline_reset(sn_hart *h);

#endif
