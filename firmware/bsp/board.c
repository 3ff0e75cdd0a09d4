/* picolibc's board support on the SysNode: stdout and stderr write to
 * R_CONSOLE one byte per store, write() does the same for fds 1 and 2, and
 * _exit stores the status to R_EXIT, which halts the core (sysnode-facts
 * §1.7). The heap is the scratchpad between .bss and the stack
 * (picolibc.ld); picolibc's own sbrk serves it. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "sysnode/regs.h"

static volatile uint8_t *const console = (volatile uint8_t *)(uintptr_t)(SN_CTRL_BASE + SN_CTRL_CONSOLE);

ssize_t write(int fd, const void *buf, size_t n)
{
    if (fd != STDOUT_FILENO && fd != STDERR_FILENO) {
        errno = EBADF;
        return -1;
    }
    const unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        *console = p[i];
    return (ssize_t)n;
}

static int console_putc(char c, FILE *f)
{
    (void)f;
    *console = (uint8_t)c;
    return (unsigned char)c;
}

static FILE console_stream = FDEV_SETUP_STREAM(console_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = NULL;
FILE *const stdout = &console_stream;
FILE *const stderr = &console_stream;

void _exit(int status)
{
    *(volatile uint64_t *)(uintptr_t)(SN_CTRL_BASE + SN_CTRL_EXIT) = (uint64_t)(int64_t)status;
    for (;;)
        ;
}
