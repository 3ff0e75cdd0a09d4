/* The DRAM model: a flat, zero-filled byte array indexed by unit (mesh) DRAM
 * byte offset. Size is a parameter (DESIGN §6: default 16 MiB). Every access
 * is bounds-checked and all-or-nothing. */
#ifndef SN_DRAM_H
#define SN_DRAM_H

#include <stdint.h>

#include "mem_port.h"

typedef struct sn_dram {
    uint8_t *bytes;
    uint64_t size; /* bytes */
} sn_dram;

/* Allocates size bytes of zeroed DRAM. Returns SN_OK, SN_ERR_INPUT for a size
 * of 0, or SN_ERR_INTERNAL when memory cannot be allocated (d is then empty). */
int sn_dram_init(sn_dram *d, uint64_t size);

/* Releases the bytes; d becomes empty. Safe on an empty or freed d. */
void sn_dram_free(sn_dram *d);

/* Copies n bytes at DRAM byte offset addr into dst. Returns SN_OK, or
 * SN_ERR_INPUT if [addr, addr+n) is not inside the DRAM (nothing copied;
 * the check cannot overflow). */
int sn_dram_read(const sn_dram *d, uint64_t addr, void *dst, uint64_t n);

/* Copies n bytes from src to DRAM byte offset addr. Same errors as
 * sn_dram_read; nothing is written on error. */
int sn_dram_write(sn_dram *d, uint64_t addr, const void *src, uint64_t n);

/* A memory port onto d for the unit models: unit address == DRAM byte offset
 * (manifest.json "address_convention"). The port keeps a pointer to d, which
 * must outlive it. */
sn_mem_port sn_dram_port(sn_dram *d);

#endif
