/* Packing a program into the DRAM-resident table image the firmware walks
 * (artifacts/FORMAT.md; iface/sysnode/table_image.h), after the
 * one set of table rules (common/table_check.h) has passed, and
 * the mesh a case describes (its manifest's "mesh", else rv64_mesh_2p2). */
#ifndef SN_HOST_PACK_H
#define SN_HOST_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "artifact.h"
#include "error.h"
#include "manifest.h"
#include "sysnode/mesh.h"

/* Checks p's table against mesh (sn_program_check, artifact.h: p may be
 * one the loader did not make, such as sn_program_with_host_syncs'), then
 * builds its image:
 * *image (heap, 8-byte aligned, the caller frees it) of *bytes bytes =
 * the total of sn_table_layout_of its counts (FORMAT.md §2-§3). Errors: the table rule's status
 * (SN_ERR_TABLE_STEP, _SLOT or _NODE) with "FILE: round R step S: <rule>"
 * (FILE = that round's artifact, the words of sn_table_fault_describe);
 * SN_ERR_INPUT when the image would pass the format's 32-bit total_bytes;
 * SN_ERR_INTERNAL when memory runs out. *image is NULL on failure. */
sn_status sn_pack_program(const sn_program *p, const sn_mesh *mesh, uint8_t **image, uint64_t *bytes,
                          sn_error *e);

/* Writes bytes[0..n) to `path` atomically: a fresh temporary file beside
 * it, flushed and fsync'ed, then renamed over it (the temporary is removed
 * on failure). SN_ERR_IO names the file and the system's reason. */
sn_status sn_pack_write_file(const char *path, const uint8_t *bytes, uint64_t n, sn_error *e);

#endif
