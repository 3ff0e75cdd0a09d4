/* Arithmetic; see exec.h. */
#include "exec.h"

static uint64_t sext32(uint64_t v)
{
    return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

/* The high 64 bits of a * b, each operand signed or not. */
static uint64_t mulh(uint64_t a, uint64_t b, int sa, int sb)
{
    if (sa && sb)
        return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
    if (sa)
        return (uint64_t)(((__int128)(int64_t)a * (__int128)b) >> 64);
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static uint64_t divide(unsigned fn, int word32, uint64_t a, uint64_t b)
{
    if (word32) {
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        switch (fn) {
        case SN_M_DIV:
            return sext32(sb == 0 ? UINT32_MAX : (sa == INT32_MIN && sb == -1) ? (uint32_t)sa : (uint32_t)(sa / sb));
        case SN_M_DIVU:
            return sext32(ub == 0 ? UINT32_MAX : ua / ub);
        case SN_M_REM:
            return sext32(sb == 0 ? (uint32_t)sa : (sa == INT32_MIN && sb == -1) ? 0 : (uint32_t)(sa % sb));
        default:
            return sext32(ub == 0 ? ua : ua % ub);
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

uint64_t sn_alu(unsigned fn, int word32, uint64_t a, uint64_t b)
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
        return mulh(a, b, 1, 1);
    case SN_M_MULHSU:
        return mulh(a, b, 1, 0);
    case SN_M_MULHU:
        return mulh(a, b, 0, 0);
    default:
        return divide(fn, word32, a, b);
    }
    return word32 ? sext32(r) : r;
}

int sn_branch_taken(unsigned f3, uint64_t a, uint64_t b)
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

uint64_t sn_load_extend(unsigned f3, uint64_t raw)
{
    switch (f3) {
    case 0:
        return (uint64_t)(int64_t)(int8_t)raw;
    case 1:
        return (uint64_t)(int64_t)(int16_t)raw;
    case 2:
        return sext32(raw);
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

uint64_t sn_amo_result(unsigned funct5, int word32, uint64_t old, uint64_t rs2)
{
    int64_t so = word32 ? (int32_t)old : (int64_t)old, s2 = word32 ? (int32_t)rs2 : (int64_t)rs2;
    uint64_t uo = word32 ? (uint32_t)old : old, u2 = word32 ? (uint32_t)rs2 : rs2;
    switch (funct5) {
    case 0x01: /* swap */
        return rs2;
    case 0x00:
        return old + rs2;
    case 0x04:
        return old ^ rs2;
    case 0x0C:
        return old & rs2;
    case 0x08:
        return old | rs2;
    case 0x10:
        return so < s2 ? old : rs2;
    case 0x14:
        return so > s2 ? old : rs2;
    case 0x18:
        return uo < u2 ? old : rs2;
    default: /* 0x1C maxu */
        return uo > u2 ? old : rs2;
    }
}
