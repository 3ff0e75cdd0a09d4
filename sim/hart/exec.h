/* One instruction's arithmetic (RISC-V unprivileged specification: RV64I,
 * M, A): pure functions of the operands, no state. */
#ifndef SN_EXEC_H
#define SN_EXEC_H

#include <stdint.h>

#include "decode.h"

/* The ALU or M result of fn (sn_alu_fn) on a and b, 64-bit or (word32) the
 * *w form's 32-bit result sign-extended. Division by zero and overflow
 * give the specification's results. */
uint64_t sn_alu(unsigned fn, int word32, uint64_t a, uint64_t b);

/* Whether the branch with funct3 f3 is taken for operands a, b. */
int sn_branch_taken(unsigned f3, uint64_t a, uint64_t b);

/* A loaded value of size 1 << (f3 & 3) bytes, raw (little-endian, zero-
 * extended), sign- or zero-extended as load funct3 f3 says. */
uint64_t sn_load_extend(unsigned f3, uint64_t raw);

/* The value an AMO (funct5, .w when word32) writes back, given the old
 * memory value (raw, zero-extended) and rs2: .w forms compare and operate on
 * 32-bit values, signed or unsigned as the AMO says. */
uint64_t sn_amo_result(unsigned funct5, int word32, uint64_t old, uint64_t rs2);

#endif
