/* The card's CSR table; see card_csr.h. Numbers and fields from
 * sysnode-facts §1.1-1.2 (the list, misa, mtvec direct only, mtimecmp at
 * 0x7C0, the id registers reading 0, delegation masks). */
#include "card_csr.h"

#include <stddef.h>

#define ALL ~0ull
#define TVEC_DIRECT (~3ull) /* mtvec/stvec: direct mode only */
#define EPC (~3ull)         /* no C: epc[1:0] read 0 */

static const sn_card_csr csrs[] = {
    {0x100, "sstatus", SN_CSR_BACKED, SN_CSR_F_MSTATUS,
     SN_MSTATUS_SIE | SN_MSTATUS_SPIE | SN_MSTATUS_SPP | (3ull << 18) /* SUM MXR */},
    {0x104, "sie", SN_CSR_IE_S, SN_CSR_F_MIE, SN_IRQ_MASK},
    {0x105, "stvec", SN_CSR_BACKED, SN_CSR_F_STVEC, TVEC_DIRECT},
    {0x140, "sscratch", SN_CSR_BACKED, SN_CSR_F_SSCRATCH, ALL},
    {0x141, "sepc", SN_CSR_BACKED, SN_CSR_F_SEPC, EPC},
    {0x142, "scause", SN_CSR_BACKED, SN_CSR_F_SCAUSE, ALL},
    {0x143, "stval", SN_CSR_BACKED, SN_CSR_F_STVAL, ALL},
    {0x144, "sip", SN_CSR_IP, 0, 1ull << 1 /* SSIP */},
    {0x180, "satp", SN_CSR_BACKED, SN_CSR_F_SATP, SN_SATP_MASK},
    {0x300, "mstatus", SN_CSR_BACKED, SN_CSR_F_MSTATUS, SN_MSTATUS_MASK},
    {0x301, "misa", SN_CSR_CONST, 0, SN_MISA},
    {0x302, "medeleg", SN_CSR_SHADOW, 0, 0xFFFFull /* codes 0-15 */},
    {0x303, "mideleg", SN_CSR_SHADOW, 0, SN_IRQ_MASK},
    {0x304, "mie", SN_CSR_BACKED, SN_CSR_F_MIE, SN_IRQ_MASK},
    {0x305, "mtvec", SN_CSR_BACKED, SN_CSR_F_MTVEC, TVEC_DIRECT},
    {0x340, "mscratch", SN_CSR_BACKED, SN_CSR_F_MSCRATCH, ALL},
    {0x341, "mepc", SN_CSR_BACKED, SN_CSR_F_MEPC, EPC},
    {0x342, "mcause", SN_CSR_BACKED, SN_CSR_F_MCAUSE, ALL},
    {0x343, "mtval", SN_CSR_BACKED, SN_CSR_F_MTVAL, ALL},
    {0x344, "mip", SN_CSR_IP, 0, 0x222ull /* SSIP STIP SEIP; M bits are the lines */},
    {0x7C0, "mtimecmp", SN_CSR_SHADOW, 0, ALL},
    {0xB00, "mcycle", SN_CSR_COUNTER, 0, ALL},
    {0xB02, "minstret", SN_CSR_COUNTER, 0, ALL},
    {0xC00, "cycle", SN_CSR_COUNTER, 0, ALL},
    {0xC01, "time", SN_CSR_COUNTER, 0, ALL},
    {0xC02, "instret", SN_CSR_COUNTER, 0, ALL},
    {0xF11, "mvendorid", SN_CSR_CONST, 0, 0},
    {0xF12, "marchid", SN_CSR_CONST, 0, 0},
    {0xF13, "mimpid", SN_CSR_CONST, 0, 0},
    {0xF14, "mhartid", SN_CSR_CONST, 0, 0},
};

const sn_card_csr *sn_card_csr_find(unsigned num)
{
    for (size_t i = 0; i < sizeof csrs / sizeof csrs[0]; i++)
        if (csrs[i].num == num)
            return &csrs[i];
    return NULL;
}
