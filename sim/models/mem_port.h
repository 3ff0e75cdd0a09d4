/* How a unit model reaches DRAM: a byte-addressed read/write port on unit
 * (mesh) addresses. Today the simulator wires it straight to the DRAM model
 * (a direct-DPI shortcut, see sim/README.md); the interface lets the memory
 * node's flits take its place without touching the models. */
#ifndef SN_MEM_PORT_H
#define SN_MEM_PORT_H

#include <stdint.h>

typedef struct sn_mem_port {
    void *ctx;
    /* Reads n bytes at unit address addr into dst. Returns 0, or -1 when
     * [addr, addr+n) is outside the memory (nothing is read). */
    int (*read)(void *ctx, uint64_t addr, void *dst, uint32_t n);
    /* Writes n bytes from src at unit address addr. Returns 0, or -1 when
     * [addr, addr+n) is outside the memory (nothing is written). */
    int (*write)(void *ctx, uint64_t addr, const void *src, uint32_t n);
} sn_mem_port;

#endif
