/* What the SysNode core executes: RV64IMA + Zicsr + Zifencei and the
 * privileged instructions of M, S and U (sysnode-facts §1.1-1.2). No C, no
 * F/D/Q, no V; any other 32-bit word and every 16-bit or longer encoding is
 * an illegal instruction (mcause 2). decode.c applies this rule to every
 * word the hart fetches. */
#ifndef SN_CARD_ISA_H
#define SN_CARD_ISA_H

#include <stdint.h>

typedef enum {
    SN_INSN_PLAIN,   /* integer, M, loads, stores, branches, fence */
    SN_INSN_ILLEGAL, /* not an instruction of the card: trap with cause 2 */
    SN_INSN_CSR,     /* csrrw/s/c[i] naming one of the card's CSRs (card_csr.h) */
    SN_INSN_ECALL,
    SN_INSN_EBREAK,
    SN_INSN_MRET,
    SN_INSN_SRET,
    SN_INSN_WFI,
    SN_INSN_SFENCE_VMA,
    SN_INSN_FENCE_I,
    SN_INSN_AMO, /* LR, SC or an AMO, .w or .d */
} sn_insn_class;

/* The class of the 32-bit little-endian word at an instruction address
 * (sysnode-facts §1.1 for the extensions, §1.2 for the CSR list). A CSR
 * instruction naming a CSR the card lacks is SN_INSN_ILLEGAL. */
sn_insn_class sn_card_insn_class(uint32_t word);

#endif
