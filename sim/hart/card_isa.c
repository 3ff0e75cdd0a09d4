/* The card's instruction rule; see card_isa.h. Encodings from the RISC-V
 * unprivileged ISA (RV64I, M, A, Zicsr, Zifencei) and the privileged ISA
 * (ecall, ebreak, mret, sret, wfi, sfence.vma), restricted to the card's
 * extensions by sysnode-facts §1.1. */
#include "card_isa.h"

#include <stddef.h>

#include "card_csr.h"

enum {
    OP_LOAD = 0x03,
    OP_MISC_MEM = 0x0F,
    OP_IMM = 0x13,
    OP_AUIPC = 0x17,
    OP_IMM_32 = 0x1B,
    OP_STORE = 0x23,
    OP_AMO = 0x2F,
    OP_OP = 0x33,
    OP_LUI = 0x37,
    OP_OP_32 = 0x3B,
    OP_BRANCH = 0x63,
    OP_JALR = 0x67,
    OP_JAL = 0x6F,
    OP_SYSTEM = 0x73,
};

#define INSN_ECALL 0x00000073u
#define INSN_EBREAK 0x00100073u
#define INSN_SRET 0x10200073u
#define INSN_MRET 0x30200073u
#define INSN_WFI 0x10500073u

static int op_legal(unsigned funct7, unsigned f3, int word32)
{
    if (funct7 == 0x01) /* M: mul mulh mulhsu mulhu div divu rem remu; .w has mulw divw divuw remw remuw */
        return !word32 || f3 == 0 || f3 >= 4;
    if (funct7 == 0x20) /* sub, sra (subw, sraw) */
        return f3 == 0 || f3 == 5;
    if (funct7 == 0x00)
        return !word32 || f3 == 0 || f3 == 1 || f3 == 5;
    return 0;
}

static sn_insn_class amo_class(uint32_t w)
{
    unsigned f3 = (w >> 12) & 7, funct5 = w >> 27, rs2 = (w >> 20) & 31;
    if (f3 != 2 && f3 != 3)
        return SN_INSN_ILLEGAL;
    switch (funct5) {
    case 0x02: /* lr: rs2 must be 0 */
        return rs2 == 0 ? SN_INSN_AMO : SN_INSN_ILLEGAL;
    case 0x03: /* sc */
    case 0x01: /* amoswap */
    case 0x00: /* amoadd */
    case 0x04: /* amoxor */
    case 0x0C: /* amoand */
    case 0x08: /* amoor */
    case 0x10: /* amomin */
    case 0x14: /* amomax */
    case 0x18: /* amominu */
    case 0x1C: /* amomaxu */
        return SN_INSN_AMO;
    default:
        return SN_INSN_ILLEGAL;
    }
}

static sn_insn_class system_class(uint32_t w)
{
    unsigned f3 = (w >> 12) & 7;
    if (f3 == 4)
        return SN_INSN_ILLEGAL;
    if (f3 != 0)
        return sn_card_csr_find(w >> 20) != NULL ? SN_INSN_CSR : SN_INSN_ILLEGAL;
    switch (w) {
    case INSN_ECALL:
        return SN_INSN_ECALL;
    case INSN_EBREAK:
        return SN_INSN_EBREAK;
    case INSN_MRET:
        return SN_INSN_MRET;
    case INSN_SRET:
        return SN_INSN_SRET;
    case INSN_WFI:
        return SN_INSN_WFI;
    default: /* sfence.vma rs1, rs2: funct7 0x09, rd 0 */
        return (w & 0xFE007FFFu) == 0x12000073u ? SN_INSN_SFENCE_VMA : SN_INSN_ILLEGAL;
    }
}

sn_insn_class sn_card_insn_class(uint32_t w)
{
    if ((w & 3) != 3 || (w & 0x1C) == 0x1C) /* 16-bit, or 48-bit and longer */
        return SN_INSN_ILLEGAL;
    unsigned f3 = (w >> 12) & 7, funct7 = w >> 25, funct6 = w >> 26;
    int ok;
    switch (w & 0x7F) {
    case OP_LUI:
    case OP_AUIPC:
    case OP_JAL:
        ok = 1;
        break;
    case OP_JALR:
        ok = f3 == 0;
        break;
    case OP_BRANCH:
        ok = f3 != 2 && f3 != 3;
        break;
    case OP_LOAD: /* lb lh lw ld lbu lhu lwu */
        ok = f3 != 7;
        break;
    case OP_STORE: /* sb sh sw sd */
        ok = f3 <= 3;
        break;
    case OP_IMM: /* slli: shamt[5:0]; srli/srai: funct6 0 or 0x10 */
        ok = f3 == 1 ? funct6 == 0 : f3 == 5 ? (funct6 == 0 || funct6 == 0x10) : 1;
        break;
    case OP_IMM_32: /* addiw slliw srliw sraiw */
        ok = f3 == 0 || (f3 == 1 && funct7 == 0) || (f3 == 5 && (funct7 == 0 || funct7 == 0x20));
        break;
    case OP_OP:
        ok = op_legal(funct7, f3, 0);
        break;
    case OP_OP_32:
        ok = op_legal(funct7, f3, 1);
        break;
    case OP_MISC_MEM: /* fence, fence.i */
        if (f3 == 1)
            return SN_INSN_FENCE_I;
        ok = f3 == 0;
        break;
    case OP_AMO:
        return amo_class(w);
    case OP_SYSTEM:
        return system_class(w);
    default:
        ok = 0;
        break;
    }
    return ok ? SN_INSN_PLAIN : SN_INSN_ILLEGAL;
}
