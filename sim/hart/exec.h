/* One instruction's arithmetic (RISC-V unprivileged specification: RV64I,
 * M, A): pure functions of the operands, no state; inline, since every
 * simulated instruction calls one. */
#ifndef SN_EXEC_H
#define SN_EXEC_H

#include <stdint.h>

#include "decode.h"




/* The value an AMO (funct5, .w when word32) writes back, given the old
 * memory value (raw, zero-extended) and rs2: .w forms compare and operate on
 * 32-bit values, signed or unsigned as the AMO says. */
uint64_t sn_amo_result(unsigned funct5, int word32, uint64_t old, uint64_t rs2);

static inline uint64_t sn_sext32(uint64_t v)
{
    return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

/* The high 64 bits of a * b, each operand signed or not. */
static inline uint64_t sn_mulh(uint64_t a, uint64_t b, int sa, int sb)
{
    if (sa && sb)
        return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
    if (sa)
        return (uint64_t)(((__int128)(int64_t)a * (__int128)b) >> 64);
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* div, divu, rem, remu (fn), with the results the specification gives for
 * a zero divisor and for overflow. */
static inline uint64_t sn_divide(unsigned fn, int word32, uint64_t a, uint64_t b)
{
    if (word32) {
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        switch (fn) {
        case SN_M_DIV:
            return sn_sext32(sb == 0 ? UINT32_MAX : (sa == INT32_MIN && sb == -1) ? (uint32_t)sa : (uint32_t)(sa / sb));
        case SN_M_DIVU:
            return sn_sext32(ub == 0 ? UINT32_MAX : ua / ub);
        case SN_M_REM:
            return sn_sext32(sb == 0 ? (uint32_t)sa : (sa == INT32_MIN && sb == -1) ? 0 : (uint32_t)(sa % sb));
        default:
            return sn_sext32(ub == 0 ? ua : ua % ub);
        }
    }
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    switch (fn) {
    case SN_M_DIV:
        return b == 0 ? UINT64_MAX : (sa == INT64_MIN && sb == -1) ? a : (uint64_t)(sa / sb);
    case SN_M_DIVU:
        return b == 0 ? UINT64_MAX : a / b;
    case SN_M_REM:
        return b == 0 ? a : (sa == INT64_MIN && sb == -1) ? 0 : (uint64_t)(sa % sb);
    default:
        return b == 0 ? a : a % b;
    }
}

/* The ALU or M result of fn (sn_alu_fn) on a and b, 64-bit or (word32) the
 * *w form's 32-bit result sign-extended. Division by zero and overflow
 * give the specification's results. */
static inline uint64_t sn_alu(unsigned fn, int word32, uint64_t a, uint64_t b)
{
    unsigned sh = (unsigned)b & (word32 ? 31 : 63);
    uint64_t r;
    switch (fn) {
    case SN_ALU_ADD:
        r = a + b;
        break;
    case SN_ALU_SUB:
        r = a - b;
        break;
    case SN_ALU_SLL:
        r = a << sh;
        break;
    case SN_ALU_SLT:
        return (int64_t)a < (int64_t)b;
    case SN_ALU_SLTU:
        return a < b;
    case SN_ALU_XOR:
        return a ^ b;
    case SN_ALU_SRL:
        r = word32 ? (uint64_t)((uint32_t)a >> sh) : a >> sh;
        break;
    case SN_ALU_SRA:
        r = word32 ? (uint64_t)(int64_t)((int32_t)a >> sh) : (uint64_t)((int64_t)a >> sh);
        break;
    case SN_ALU_OR:
        return a | b;
    case SN_ALU_AND:
        return a & b;
    case SN_M_MUL:
        r = a * b;
        break;
    case SN_M_MULH:
        return sn_mulh(a, b, 1, 1);
    case SN_M_MULHSU:
        return sn_mulh(a, b, 1, 0);
    case SN_M_MULHU:
        return sn_mulh(a, b, 0, 0);
    default:
        return sn_divide(fn, word32, a, b);
    }
    return word32 ? sn_sext32(r) : r;
}

/* Whether the branch with funct3 f3 is taken for operands a, b. */
static inline int sn_branch_taken(unsigned f3, uint64_t a, uint64_t b)
{
    switch (f3) {
    case 0:
        return a == b;
    case 1:
        return a != b;
    case 4:
        return (int64_t)a < (int64_t)b;
    case 5:
        return (int64_t)a >= (int64_t)b;
    case 6:
        return a < b;
    default:
        return a >= b;
    }
}

/* A loaded value of size 1 << (f3 & 3) bytes, raw (little-endian, zero-
 * extended), sign- or zero-extended as load funct3 f3 says. */
static inline uint64_t sn_load_extend(unsigned f3, uint64_t raw)
{
    switch (f3) {
    case 0:
        return (uint64_t)(int64_t)(int8_t)raw;
    case 1:
        return (uint64_t)(int64_t)(int16_t)raw;
    case 2:
        return sn_sext32(raw);
    case 4:
        return raw & 0xFF;
    case 5:
        return raw & 0xFFFF;
    case 6:
        return raw & 0xFFFFFFFFu;
    default:
        return raw;
    }
}

#endif
