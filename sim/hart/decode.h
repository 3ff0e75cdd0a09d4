/* One instruction word of the card's ISA decoded once (RISC-V unprivileged
 * and privileged specifications, restricted to the card by card_isa.h):
 * what the pipeline needs to time it (core-timing.md §2.3) and exec.c
 * needs to perform it. */
#ifndef SN_DECODE_H
#define SN_DECODE_H

#include <stdint.h>

typedef enum {
    SN_OP_ILLEGAL, /* not an instruction of the card: cause 2 */
    SN_OP_ALU,     /* op/op-imm/op-32/op-imm-32, lui, auipc: rd = alu(a, b) */
    SN_OP_MUL,     /* mul group: 9 E cycles */
    SN_OP_DIV,     /* div/rem group: 67 E cycles */
    SN_OP_BRANCH,
    SN_OP_JAL,
    SN_OP_JALR,
    SN_OP_LOAD,
    SN_OP_STORE,
    SN_OP_AMO, /* LR, SC and the AMOs, .w and .d */
    SN_OP_CSR,
    SN_OP_FENCE,
    SN_OP_FENCE_I,
    SN_OP_ECALL,
    SN_OP_EBREAK,
    SN_OP_MRET,
    SN_OP_SRET,
    SN_OP_WFI,
    SN_OP_SFENCE_VMA,
} sn_op;

typedef struct sn_insn {
    uint8_t op;     /* sn_op */
    uint8_t fn;     /* ALU/M: sn_alu_fn; branch: funct3; load/store: funct3; AMO: funct5; CSR: funct3 */
    uint8_t rd, rs1, rs2;
    uint8_t raw1, raw2; /* bits [19:15] and [24:20] whatever the format (the load-use check, core-timing §2.4) */
    uint8_t word32;     /* ALU/M: a *w form (result sign-extended from 32 bits); AMO: .w */
    uint8_t use_imm;    /* ALU: b is imm, not rs2 */
    uint8_t pc_rel;     /* ALU: a is the pc (auipc), lui has rs1 = x0 */
    uint8_t csr_missing; /* CSR: a number the card lacks (illegal) */
    uint16_t csr;
    int32_t imm; /* every immediate fits: 32 bits for lui/auipc, fewer for the rest */
    uint32_t word;
} sn_insn;

/* ALU and M functions. */
typedef enum {
    SN_ALU_ADD, SN_ALU_SUB, SN_ALU_SLL, SN_ALU_SLT, SN_ALU_SLTU, SN_ALU_XOR, SN_ALU_SRL, SN_ALU_SRA,
    SN_ALU_OR, SN_ALU_AND,
    SN_M_MUL, SN_M_MULH, SN_M_MULHSU, SN_M_MULHU, SN_M_DIV, SN_M_DIVU, SN_M_REM, SN_M_REMU,
} sn_alu_fn;

/* Decodes a 32-bit little-endian word: every field the pipeline and exec.c
 * use, op = SN_OP_ILLEGAL for anything card_isa.h does not accept but a CSR
 * instruction naming a CSR the card lacks: SN_OP_CSR with csr_missing. */
sn_insn sn_decode(uint32_t word);

/* Whether op is a branch, JAL or JALR: what the predictor predicts (§3.1). */
static inline int sn_op_is_jump(unsigned op)
{
    return op == SN_OP_BRANCH || op == SN_OP_JAL || op == SN_OP_JALR;
}

#endif
