/* The fatal-trap report: crt0's trap vector lands here with the trap CSRs.
 * They go into the status block (detail[] = mcause, mepc, mtval; FORMAT.md
 * §7) and the image exits with SN_ERR_TRAP. */
#include <stdint.h>
#include "console.h"
#include "report.h"

void sn_trap_report(uint64_t mcause, uint64_t mepc, uint64_t mtval);

void sn_trap_report(uint64_t mcause, uint64_t mepc, uint64_t mtval)
{
    sn_status_block *s = (sn_status_block *)(uintptr_t)SN_STATUS_BLOCK_ADDR;
    if (s->magic != SN_STATUS_MAGIC) { /* trapped before the runner stamped the block */
        s->error = SN_OK;
        s->round = s->step = 0;
    }
    if (s->error == SN_OK) { /* the first error stays the one reported */
        s->detail[0] = mcause;
        s->detail[1] = mepc;
        s->detail[2] = mtval;
    }
    sn_exit(sn_app_report(s, SN_ERR_TRAP));
}
