/* Two pieces of the hart's state that Unicorn 2.0.1's API does not reach:
 * the privilege level (no register for it) and misa (its write is dropped,
 * and Unicorn's default CPU has C, F and D, which the card lacks:
 * sysnode-facts §1.1). Both live in the CPU state that uc_context_save
 * copies; the offsets were measured on libunicorn 2.0.1 and are checked at
 * start-up against values read through the API, so a different Unicorn is
 * refused with a message instead of being patched blindly. */
#ifndef SN_UC_CPU_STATE_H
#define SN_UC_CPU_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <unicorn/unicorn.h>

/* Checks the layout on a fresh engine (PC and mstatus are scribbled on and
 * restored), then sets misa to the card's (card_csr.h SN_MISA): Unicorn's
 * decoder then refuses C, F and D itself. *ctx receives a context buffer for
 * sn_uc_set_priv (freed with uc_context_free). Returns 0, or -1 with the
 * reason in err. */
int sn_uc_cpu_state_init(uc_engine *uc, uc_context **ctx, char *err, size_t errlen);

/* Sets the privilege level (3 M, 1 S, 0 U) as a trap or an interrupt entry
 * does (sysnode-facts §1.1 "M, S and U"). Callable from hooks; the caller
 * then writes the PC so Unicorn picks translations for the new level. */
void sn_uc_set_priv(uc_engine *uc, uc_context *ctx, unsigned priv);

/* The address of the last page fault Unicorn raised (its badaddr), for
 * mtval/stval (sysnode-facts §1.2 causes 12/13/15). */
uint64_t sn_uc_fault_address(uc_engine *uc, uc_context *ctx);

#endif
