/* The SysNode core's CSR file (sysnode-facts §1.2): exactly these CSR
 * numbers exist, each with the bits the card implements; every other bit
 * is WARL and reads 0, and every other CSR number is an illegal
 * instruction. */
#ifndef SN_CARD_CSR_H
#define SN_CARD_CSR_H

#include <stdint.h>

typedef enum {
    SN_CSR_BACKED,   /* held in the hart's register field: reads give it & mask, writes change only mask bits */
    SN_CSR_CONST,    /* reads give mask, writes are ignored (misa, the id registers) */
    SN_CSR_SHADOW,   /* held by the hart model: medeleg, mideleg, mtimecmp */
    SN_CSR_IP,       /* mip / sip: software-writable bits (mask) plus the live interrupt lines */
    SN_CSR_IE_S,     /* sie: mie restricted to mideleg */
    SN_CSR_COUNTER,  /* cycle, time, instret, mcycle, minstret: simulated time (core-timing §11) */
} sn_csr_kind;

/* The hart's registers behind SN_CSR_BACKED and SN_CSR_IE_S entries. */
typedef enum {
    SN_CSR_F_NONE,
    SN_CSR_F_MSTATUS,
    SN_CSR_F_MIE,
    SN_CSR_F_STVEC,
    SN_CSR_F_SSCRATCH,
    SN_CSR_F_SEPC,
    SN_CSR_F_SCAUSE,
    SN_CSR_F_STVAL,
    SN_CSR_F_SATP,
    SN_CSR_F_MTVEC,
    SN_CSR_F_MSCRATCH,
    SN_CSR_F_MEPC,
    SN_CSR_F_MCAUSE,
    SN_CSR_F_MTVAL,
} sn_csr_field;

typedef struct sn_card_csr {
    uint16_t num;
    const char *name;
    sn_csr_kind kind;
    sn_csr_field field; /* SN_CSR_BACKED, SN_CSR_IE_S: the register */
    uint64_t mask; /* the implemented (writable) bits; SN_CSR_CONST: the value */
} sn_card_csr;

/* mstatus fields the hart models: SIE MIE SPIE MPIE SPP MPP MPRV SUM MXR
 * TVM. No FS/XS/SD: the card has no F/D (sysnode-facts §1.1). TW and TSR
 * read 0: the card has neither (issue 18's conformance run: mstatus without
 * UXL, SXL, TSR or TW). */
#define SN_MSTATUS_SIE (1ull << 1)
#define SN_MSTATUS_MIE (1ull << 3)
#define SN_MSTATUS_SPIE (1ull << 5)
#define SN_MSTATUS_MPIE (1ull << 7)
#define SN_MSTATUS_SPP (1ull << 8)
#define SN_MSTATUS_MPP_LO 11
#define SN_MSTATUS_MPP (3ull << SN_MSTATUS_MPP_LO)
#define SN_MSTATUS_TVM (1ull << 20) /* satp and sfence.vma trap in S */
#define SN_MSTATUS_MASK (0x1E0000ull | SN_MSTATUS_MPP | SN_MSTATUS_SPP | SN_MSTATUS_MPIE | SN_MSTATUS_SPIE | \
                         SN_MSTATUS_MIE | SN_MSTATUS_SIE)
/* Interrupt bits of mie/mip/mideleg: SSIP 1, MSIP 3, STIP 5, MTIP 7, SEIP 9,
 * MEIP 11 (sysnode-facts §1.2 "mideleg bits 1,3,5,7,9,11"). */
#define SN_IRQ_MASK 0xAAAull
#define SN_IRQ_MSI 3
#define SN_IRQ_MTI 7
#define SN_IRQ_MEI 11
/* misa: MXL = 2 (RV64), A, I, M, S, U (sysnode-facts §1.2) */
#define SN_MISA 0x8000000000141101ull
/* satp: MODE [63:60] (0 bare or 8 Sv39), PPN [27:0]; no ASID (sysnode-facts §1.1) */
#define SN_SATP_MODE_SV39 8ull
#define SN_SATP_MASK ((0xFull << 60) | 0xFFFFFFFull)

/* The card's CSR numbered num, or NULL if the card has none. */
const sn_card_csr *sn_card_csr_find(unsigned num);

#endif
