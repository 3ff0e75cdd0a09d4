/* The fatal-trap report: crt0's trap vector lands here with the trap CSRs.
 * Prints them on the console and exits with SN_ERR_TRAP. */
#include <stdint.h>
#include "console.h"
#include "fmt.h"
#include "sysnode/status.h"

void sn_trap_report(uint64_t mcause, uint64_t mepc, uint64_t mtval);

void sn_trap_report(uint64_t mcause, uint64_t mepc, uint64_t mtval)
{
    char buf[96];
    sn_fmt f;
    sn_fmt_init(&f, buf, sizeof buf);
    sn_fmt_str(&f, "trap: mcause=");
    sn_fmt_hex(&f, mcause);
    sn_fmt_str(&f, " mepc=");
    sn_fmt_hex(&f, mepc);
    sn_fmt_str(&f, " mtval=");
    sn_fmt_hex(&f, mtval);
    sn_fmt_str(&f, "\n");
    sn_console_puts(buf);
    sn_exit(SN_ERR_TRAP);
}
