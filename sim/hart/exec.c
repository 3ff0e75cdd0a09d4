/* The AMOs' arithmetic; see exec.h. */
#include "exec.h"

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
