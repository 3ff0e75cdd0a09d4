/* The host window's IMEM and SPAD writes as sn_elf_image_push takes them
 * (common/elf_image.h), onto a hart alone: the hart test programs and the
 * calibration runner load images this way, as the card's host window does
 * (sysnode-facts §1.3). */
#ifndef SN_TEST_HART_WINDOW_H
#define SN_TEST_HART_WINDOW_H

#include <stdint.h>

#include "hart.h"

/* One 32-bit IMEM word at byte address addr; 0, or -1 as sn_hart_imem_write. */
static inline int win_imem(void *h, uint32_t addr, uint32_t word)
{
    return sn_hart_imem_write(h, addr, word);
}

/* One 64-bit SPAD word at byte offset off with byte strobes; 0, or -1 as sn_hart_spad_write. */
static inline int win_spad(void *h, uint32_t off, uint64_t value, uint8_t strobes)
{
    return sn_hart_spad_write(h, off, value, strobes);
}

#endif
