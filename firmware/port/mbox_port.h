/* The mailbox port: the only way the runner core touches the mailbox. On the
 * SysNode (SN_PORT_MMIO defined) it is inline MMIO on the control region; in
 * unit tests it is a C model or a recorder linked in instead (DESIGN §3
 * "the runner core is portable C"). Offsets are control-region offsets from
 * sysnode/regs.h; values are whole 64-bit registers. */
#ifndef SN_MBOX_PORT_H
#define SN_MBOX_PORT_H

#include <stdint.h>
#include "sysnode/regs.h"

typedef struct sn_port sn_port;

#ifdef SN_PORT_MMIO

/* tp holds SN_CTRL_BASE from reset on (boot/crt0.S): the SysNode runs no
 * threads, so no thread pointer, and a control register is then one load or
 * store off tp instead of a lui and a load or store. */
register uintptr_t sn_ctrl_base __asm__("tp");

/* Control-region accesses are uncached and never reordered on the SysNode
 * (sysnode-facts §1.4), so a volatile 64-bit access is the whole rule. */
static inline uint64_t sn_port_read(sn_port *port, unsigned offset)
{
    (void)port;
    return *(volatile uint64_t *)(sn_ctrl_base + offset);
}

static inline void sn_port_write(sn_port *port, unsigned offset, uint64_t value)
{
    (void)port;
    *(volatile uint64_t *)(sn_ctrl_base + offset) = value;
}

/* Cycles since boot from the `cycle` CSR (sysnode-facts §1.2). */
static inline uint64_t sn_port_cycles(sn_port *port)
{
    (void)port;
    uint64_t c;
    __asm__ volatile("csrr %0, cycle" : "=r"(c));
    return c;
}

#ifdef SN_RUNNER_WFI_AWAIT
/* runner-wfi.elf's await: mtimecmp (CSR 0x7C0) at `until`, the timer and
 * the external line (completion or RX queue non-empty) enabled in mie with
 * mstatus.MIE clear, then wfi, which wakes on either without a trap
 * (sysnode-facts §1.2: the line is a level). */
static inline void sn_port_sleep_until(sn_port *port, uint64_t until)
{
    (void)port;
    __asm__ volatile("csrw 0x7c0, %0\n\tcsrs mie, %1\n\twfi" : : "r"(until), "r"((1ull << 11) | (1ull << 7))
                     : "memory");
}
#endif

#else

/* Reads the 64-bit control register at offset. */
uint64_t sn_port_read(sn_port *port, unsigned offset);
/* Writes the 64-bit control register at offset. */
void sn_port_write(sn_port *port, unsigned offset, uint64_t value);
/* Returns the current cycle count. */
uint64_t sn_port_cycles(sn_port *port);

#endif
#endif
