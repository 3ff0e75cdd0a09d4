/* Console output and exit through the control region (see console.h). */
#include "console.h"
#include "sysnode/regs.h"

#define CTRL_REG(off) (*(volatile uint64_t *)(uintptr_t)(SN_CTRL_BASE + (off)))

void sn_console_puts(const char *s)
{
    while (*s)
        CTRL_REG(SN_CTRL_CONSOLE) = (uint8_t)*s++;
}

void sn_exit(uint64_t code)
{
    CTRL_REG(SN_CTRL_EXIT) = code;
    for (;;)
        ;
}
