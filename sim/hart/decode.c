/* The decoder; see decode.h. Field layouts from the RISC-V unprivileged
 * specification (RV64I, M, A, Zicsr, Zifencei); legality from card_isa.c. */
#include "decode.h"

#include "card_isa.h"

static int64_t imm_i(uint32_t w)
{
    return (int32_t)w >> 20;
}

static int64_t imm_s(uint32_t w)
{
    return ((int64_t)(int32_t)(w & 0xFE000000u) >> 20) | ((w >> 7) & 0x1F);
}

static int64_t imm_b(uint32_t w)
{
    return ((int64_t)(int32_t)(w & 0x80000000u) >> 19) | ((w << 4) & 0x800) | ((w >> 20) & 0x7E0) | ((w >> 7) & 0x1E);
}

static int64_t imm_j(uint32_t w)
{
    return ((int64_t)(int32_t)(w & 0x80000000u) >> 11) | (w & 0xFF000) | ((w >> 9) & 0x800) | ((w >> 20) & 0x7FE);
}

static unsigned alu_fn(unsigned f3, unsigned funct7)
{
    static const unsigned base[8] = {SN_ALU_ADD, SN_ALU_SLL, SN_ALU_SLT, SN_ALU_SLTU,
                                     SN_ALU_XOR, SN_ALU_SRL, SN_ALU_OR,  SN_ALU_AND};
    if (f3 == 0 && funct7 == 0x20)
        return SN_ALU_SUB;
    if (f3 == 5 && (funct7 & 0x20))
        return SN_ALU_SRA;
    return base[f3];
}

sn_insn sn_decode(uint32_t w)
{
    sn_insn d = {0};
    d.word = w;
    d.rd = (w >> 7) & 31;
    d.rs1 = d.raw1 = (w >> 15) & 31;
    d.rs2 = d.raw2 = (w >> 20) & 31;
    unsigned f3 = (w >> 12) & 7, funct7 = w >> 25;
    sn_insn_class cls = sn_card_insn_class(w);
    d.op = SN_OP_ILLEGAL;
    if (cls == SN_INSN_ILLEGAL && (w & 0x7F) == 0x73 && f3 != 0 && f3 != 4) {
        d.op = SN_OP_CSR; /* a CSR the card lacks: illegal, but timed as a CSR instruction (core-timing §9) */
        d.fn = (uint8_t)f3;
        d.csr = (uint16_t)(w >> 20);
        d.csr_missing = 1;
        return d;
    }
    if (cls == SN_INSN_ILLEGAL)
        return d;
    switch (w & 0x7F) {
    case 0x37: /* lui */
        d.op = SN_OP_ALU;
        d.fn = SN_ALU_ADD;
        d.rs1 = 0;
        d.use_imm = 1;
        d.imm = (int32_t)(w & 0xFFFFF000u);
        break;
    case 0x17: /* auipc */
        d.op = SN_OP_ALU;
        d.fn = SN_ALU_ADD;
        d.pc_rel = 1;
        d.use_imm = 1;
        d.imm = (int32_t)(w & 0xFFFFF000u);
        break;
    case 0x6F:
        d.op = SN_OP_JAL;
        d.imm = (int32_t)imm_j(w);
        break;
    case 0x67:
        d.op = SN_OP_JALR;
        d.imm = (int32_t)imm_i(w);
        break;
    case 0x63:
        d.op = SN_OP_BRANCH;
        d.fn = (uint8_t)f3;
        d.imm = (int32_t)imm_b(w);
        break;
    case 0x03:
        d.op = SN_OP_LOAD;
        d.fn = (uint8_t)f3;
        d.imm = (int32_t)imm_i(w);
        break;
    case 0x23:
        d.op = SN_OP_STORE;
        d.fn = (uint8_t)f3;
        d.imm = (int32_t)imm_s(w);
        break;
    case 0x13:
    case 0x1B: /* op-imm(-32): shifts take funct6/funct7 from the immediate's top */
        d.op = SN_OP_ALU;
        d.word32 = (w & 0x7F) == 0x1B;
        d.use_imm = 1;
        d.imm = (int32_t)imm_i(w);
        d.fn = (uint8_t)(f3 == 1 || f3 == 5 ? alu_fn(f3, funct7 & 0x20) : alu_fn(f3, 0));
        if (f3 == 1 || f3 == 5)
            d.imm &= d.word32 ? 31 : 63;
        break;
    case 0x33:
    case 0x3B:
        d.word32 = (w & 0x7F) == 0x3B;
        if (funct7 == 1) {
            d.fn = (uint8_t)(SN_M_MUL + f3);
            d.op = f3 < 4 ? SN_OP_MUL : SN_OP_DIV;
        } else {
            d.op = SN_OP_ALU;
            d.fn = (uint8_t)alu_fn(f3, funct7);
        }
        break;
    case 0x0F:
        d.op = cls == SN_INSN_FENCE_I ? SN_OP_FENCE_I : SN_OP_FENCE;
        break;
    case 0x2F:
        d.op = SN_OP_AMO;
        d.fn = (uint8_t)(w >> 27);
        d.word32 = f3 == 2;
        break;
    default: /* system */
        switch (cls) {
        case SN_INSN_CSR:
            d.op = SN_OP_CSR;
            d.fn = (uint8_t)f3;
            d.csr = (uint16_t)(w >> 20);
            break;
        case SN_INSN_ECALL:
            d.op = SN_OP_ECALL;
            break;
        case SN_INSN_EBREAK:
            d.op = SN_OP_EBREAK;
            break;
        case SN_INSN_MRET:
            d.op = SN_OP_MRET;
            break;
        case SN_INSN_SRET:
            d.op = SN_OP_SRET;
            break;
        case SN_INSN_WFI:
            d.op = SN_OP_WFI;
            break;
        case SN_INSN_SFENCE_VMA:
            d.op = SN_OP_SFENCE_VMA;
            break;
        default:
            break;
        }
        break;
    }
    return d;
}
