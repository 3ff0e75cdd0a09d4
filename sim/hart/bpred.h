/* The core's branch predictor (core-timing §3): a 256-entry direct-mapped
 * BTB (index PC[9:2], tag PC[20:10], target bits [38:1]) and 1024 gshare
 * two-bit counters (index PC[11:2] XOR an 8-bit history), looked up when
 * an instruction leaves F and trained when it leaves E (a JALR in its check
 * cycle) at the history of that cycle, the write landing at the end of the
 * following cycle; blind for cycles 0-1023 after BOOT. The return stack
 * changes no prediction (§3.4) and is not modelled. */
#ifndef SN_BPRED_H
#define SN_BPRED_H

#include <stdbool.h>
#include <stdint.h>

#define SN_BP_CLEAR_CYCLES 1024u /* §3.3: updates before this cycle are lost */
#define SN_BP_FIRST_PREDICTION 1026u /* §3.3: no prediction in D before this cycle */

typedef struct sn_bp_write {
    bool valid, btb;
    uint64_t cycle; /* written at the end of this cycle */
    uint16_t pht_index;
    uint8_t pht_value;
    uint8_t btb_index;
    uint16_t btb_tag;
    uint64_t btb_target;
} sn_bp_write;

typedef struct sn_bpred {
    bool btb_valid[256];
    uint16_t btb_tag[256];
    uint64_t btb_target[256];
    uint8_t pht[1024];
    uint8_t ghist;
    sn_bp_write pending, next;
    bool shift, shift_taken; /* a conditional branch leaves E this cycle */
    bool busy;               /* pending, next or shift is set: the end of the cycle has work */
} sn_bpred;

/* Tables as after the start-up clear (BTB empty, counters 1). */
void sn_bpred_reset(sn_bpred *b);

/* The lookup for the instruction at pc leaving F this cycle. */
void sn_bpred_lookup(const sn_bpred *b, uint64_t pc, bool *hit, uint64_t *target, uint8_t *counter);

/* Trains on the transfer at pc this cycle (cycle): a branch (cond), or a
 * JAL/JALR (!cond, sets the counter to 3); taken ones write the BTB with
 * target. A conditional branch also shifts the history at the end of the
 * cycle. */
void sn_bpred_train(sn_bpred *b, uint64_t cycle, uint64_t pc, bool cond, bool taken, uint64_t target);

/* The end of cycle: the write due now lands, the history shifts. */
void sn_bpred_end_cycle(sn_bpred *b, uint64_t cycle);

#endif
