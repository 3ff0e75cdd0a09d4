/* The CSR instructions, traps, xret and interrupts of the card's core
 * (sysnode-facts §1.1-1.2, core-timing §7, §9, §11), on the CSR file of
 * card_csr.h. */
#ifndef SN_CSR_H
#define SN_CSR_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"

struct sn_hart;

/* Whether the CSR instruction in traps as illegal at the current level:
 * a CSR above it, a write to a read-only number, satp from S with TVM. */
bool sn_csr_illegal(const struct sn_hart *h, const sn_insn *in);

/* Performs the CSR instruction's access in its second E cycle (cycle): the
 * value read (what rd gets) is returned; writes change only implemented
 * bits and take effect at the end of that cycle (core-timing §7, §11). */
uint64_t sn_csr_execute(struct sn_hart *h, const sn_insn *in, uint64_t cycle);

/* Whether an exception with cause halts the core: bound for M with mtvec =
 * 0 (sysnode-facts §1.2). */
bool sn_trap_halts(const struct sn_hart *h, uint64_t cause);

/* The name of an exception's mcause code (the privileged specification's
 * table of exception codes), "unknown" for a code it does not define. */
const char *sn_cause_name(uint64_t cause);

/* Enters the trap with cause (bit 63: an interrupt) at epc: to S when
 * below M and medeleg/mideleg delegates it (the timer never), else to M;
 * xepc, xcause, xtval, xPIE = xIE, xIE = 0, xPP = the level trapped from.
 * Returns the handler's address (xtvec, direct mode). */
uint64_t sn_trap_enter(struct sn_hart *h, uint64_t epc, uint64_t cause, uint64_t tval);

/* mret (mret true) or sret: the level and interrupt enable restored, xPP
 * set to U, xPIE to 1; returns xepc. The caller checks the level first
 * (sn_xret_illegal). */
uint64_t sn_xret(struct sn_hart *h, bool mret);
bool sn_xret_illegal(const struct sn_hart *h, bool mret);

/* The interrupt the instruction in E at cycle takes, or -1 (privileged
 * specification's priority MEI, MSI, MTI, SEI, SSI, STI; the timer as the
 * compare saw it in cycle - 1, the bus's lines registered once). */
int sn_irq_taken(struct sn_hart *h, uint64_t cycle);

#endif
