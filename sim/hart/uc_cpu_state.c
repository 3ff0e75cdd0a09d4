/* See uc_cpu_state.h. Measured on libunicorn 2.0.1: uc_context_save copies
 * the CPU state after a 16-byte header (size, mode, arch); in that state the
 * PC is at byte 512 (after 32 integer and 32 FP registers), the faulting
 * address of the last exception at 544, misa at 568,
 * the privilege level at 592 and mstatus at 624. */
#include "uc_cpu_state.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "card_csr.h"

#define STATE_AT 16
#define PC_AT 512
#define BADADDR_AT 544
#define MISA_AT 568
#define PRIV_AT 592
#define MSTATUS_AT 624
#define PRIV_M 3

static uint64_t field(uc_context *ctx, size_t at)
{
    uint64_t v;
    memcpy(&v, (uint8_t *)ctx + STATE_AT + at, sizeof v);
    return v;
}

static void set_field(uc_context *ctx, size_t at, uint64_t v)
{
    memcpy((uint8_t *)ctx + STATE_AT + at, &v, sizeof v);
}

int sn_uc_cpu_state_init(uc_engine *uc, uc_context **ctx, char *err, size_t errlen)
{
    *ctx = NULL;
    if (uc_context_size(uc) < MSTATUS_AT + 8 || uc_context_alloc(uc, ctx) != UC_ERR_OK) {
        snprintf(err, errlen, "Unicorn's CPU state is not the measured 2.0.1 layout (context of %zu bytes)",
                 uc_context_size(uc));
        return -1;
    }
    uint64_t pc_mark = 0x5A5A0, ms_mark = SN_MSTATUS_MPP, misa = 0, zero = 0;
    uc_reg_write(uc, UC_RISCV_REG_PC, &pc_mark);
    uc_reg_write(uc, UC_RISCV_REG_MSTATUS, &ms_mark);
    uc_reg_read(uc, UC_RISCV_REG_MISA, &misa);
    uc_context_save(uc, *ctx);
    if (field(*ctx, PC_AT) != pc_mark || field(*ctx, MSTATUS_AT) != ms_mark || field(*ctx, MISA_AT) != misa ||
        field(*ctx, PRIV_AT) != PRIV_M) {
        snprintf(err, errlen, "Unicorn's CPU state is not the measured 2.0.1 layout (PC, mstatus, misa, privilege)");
        uc_context_free(*ctx);
        *ctx = NULL;
        return -1;
    }
    set_field(*ctx, MISA_AT, SN_MISA);
    set_field(*ctx, PC_AT, 0);
    set_field(*ctx, MSTATUS_AT, 0);
    uc_context_restore(uc, *ctx);
    uc_reg_write(uc, UC_RISCV_REG_MSTATUS, &zero);
    return 0;
}

void sn_uc_set_priv(uc_engine *uc, uc_context *ctx, unsigned priv)
{
    uc_context_save(uc, ctx);
    set_field(ctx, PRIV_AT, priv);
    uc_context_restore(uc, ctx);
}

uint64_t sn_uc_fault_address(uc_engine *uc, uc_context *ctx)
{
    uc_context_save(uc, ctx);
    return field(ctx, BADADDR_AT);
}
