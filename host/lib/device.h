/* A live session on a SysNode: the host writes and reads DRAM and runs
 * programs one boot at a time, as a compiler runtime does between kernels
 * (issue 12; DESIGN.md §3). DRAM keeps its bytes across boots. The host's own
 * writes are remembered (a shadow of every byte it wrote), because a matmul
 * cluster FILL reads 128-byte MXFP7 entries converted from the FP16 the host
 * wrote (DESIGN.md §6): before each boot, every region the program FILLs is
 * converted from that shadow and written, exactly as `sysnode run` converts
 * a case's uploads. */
#ifndef SN_HOST_DEVICE_H
#define SN_HOST_DEVICE_H

#include <stdint.h>

#include "artifact.h"
#include "elf_image.h"
#include "error.h"
#include "replay.h"
#include "transport.h"

typedef struct sn_device {
    sn_transport *t;      /* borrowed: the caller opens and closes it */
    char *image_path;
    sn_elf_image image;   /* the runner, loaded once, pushed at every boot */
    uint64_t max_cycles;  /* cap per boot */
    uint64_t dram_bytes;
    uint8_t *shadow;      /* dram_bytes: the bytes the host last wrote */
    uint8_t *written;     /* one bit per DRAM byte: the host wrote it */
} sn_device;

/* Prepares *d over transport t with the runner ELF at image_path and a cap
 * of max_cycles CPU cycles per boot. Errors: SN_ERR_INPUT naming the image
 * when it cannot be loaded; SN_ERR_INTERNAL when the shadow (DRAM size plus
 * one eighth) cannot be allocated. Free with sn_device_free, also after a
 * failure. */
sn_status sn_device_init(sn_device *d, sn_transport *t, const char *image_path, uint64_t max_cycles, sn_error *e);
void sn_device_free(sn_device *d);

/* Writes n bytes to unit DRAM address addr and records them as the host's.
 * SN_ERR_INPUT when [addr, addr+n) passes the end of DRAM (nothing written). */
sn_status sn_device_write(sn_device *d, uint64_t addr, const void *src, uint64_t n, sn_error *e);

/* Reads n bytes at unit DRAM address addr. SN_ERR_INPUT past the end of DRAM. */
sn_status sn_device_read(sn_device *d, uint64_t addr, void *dst, uint64_t n, sn_error *e);

/* Runs program p (rounds numbered from 0 in it; first_round is added in
 * messages, for a slice of a longer program) in one boot: the table rules
 * and packing of `sysnode pack` (mesh rv64_mesh_2p2, DESIGN.md §6), the
 * FILL conversion, the table at the top of DRAM (FORMAT.md §6), then
 * sn_replay_boot; result (or NULL) is the region the runner digests.
 * res->rounds, flits, completions, cycles and instret describe this boot.
 * Errors: a table rule (SN_ERR_TABLE_*, naming the artifact, round, step);
 * SN_ERR_INPUT for a FILL that reads bytes the host never wrote (naming
 * artifact, round, slot and range) or a table that would cover bytes the
 * host wrote; then those of sn_replay_boot. Nothing boots on an input error. */
sn_status sn_device_run(sn_device *d, const sn_program *p, uint32_t first_round, const sn_region *result,
                        sn_replay_result *res, sn_error *e);

#endif
