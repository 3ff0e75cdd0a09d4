/* The CU_DATA peer burst as a sending unit's model records it, shared by the
 * matmul cluster's node DRAIN and the vector core's peer VDRAIN: one
 * descriptor flit and 1..8 data flits of one 32-byte granule each
 * (sysnode-facts §3.1 "CU_DATA descriptor", §4 "CU_DATA peer burst"; at most
 * 8 granules per burst, compiler/kohakutpu/model.py@cd56929 WBURST). The mesh
 * (sn_unit_shell.sv) frames and sends what the models record here. */
#ifndef SN_CU_DATA_H
#define SN_CU_DATA_H

#include <stdint.h>

#define SN_CU_GRANULE_BYTES 32 /* one data flit's payload, one L1 word */
#define SN_CU_BURST_GRANULES 8 /* granules per CU_DATA burst (model.py WBURST) */

/* One CU_DATA burst: a descriptor to (dst_x, dst_y) naming buffer `buf` at
 * granule `offset` (units of 32 bytes) of the receiver, flags (bit 0 = ask
 * for DATA_RECEIVED), the ack target (0,0 = the mesh's default, DESIGN §6),
 * then `ngranules` (1..8) granules of 32 bytes, byte i of a granule at
 * payload bits [8i+7:8i]. */
typedef struct sn_cu_burst {
    uint8_t dst_x, dst_y;
    uint8_t buf;
    uint8_t flags;
    uint8_t ack_x, ack_y;
    uint16_t offset;   /* granule offset in the receiver's buffer */
    uint8_t ngranules; /* 1..SN_CU_BURST_GRANULES */
    uint8_t bytes[SN_CU_BURST_GRANULES][SN_CU_GRANULE_BYTES];
} sn_cu_burst;

/* Bursts a contiguous transfer of n granules takes: ceil(n / 8). */
uint32_t sn_cu_nbursts(uint32_t n);

/* Burst i (0 .. sn_cu_nbursts(n)-1) of a contiguous transfer of n granules
 * (granules[0..n)) whose destination fields are head's, head->offset naming
 * the first granule: copies head's fields into *b, with offset =
 * head->offset + 8i (16-bit, wrapping) and granules 8i .. min(8i+8, n)-1.
 * Returns 0, or -1 (b untouched) when there is no such burst. */
int sn_cu_burst_of(const sn_cu_burst *head, const uint8_t (*granules)[SN_CU_GRANULE_BYTES], uint32_t n,
                   uint32_t i, sn_cu_burst *b);

#endif
