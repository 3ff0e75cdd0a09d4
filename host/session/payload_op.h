/* A CU_INST payload's operation, bits [255:252] for both unit types
 * (sysnode-facts §3.2, §3.3): its number and the compiler's name for it. */
#ifndef SN_HOST_PAYLOAD_OP_H
#define SN_HOST_PAYLOAD_OP_H

#include <stdint.h>

#include "sysnode/field.h"

/* Operations 1..3 of each unit type; 0 is none of them. */
#define SN_PAYLOAD_OPS 4

/* The payload's operation for a unit of cu_type (SN_CU_TYPE_*): 1..3, or 0
 * for another value or another unit type. */
unsigned sn_payload_op(const sn_payload *q, uint16_t cu_type);

/* Its name: FILL, GEMM, DRAIN on a matmul cluster; IMEM, DESC, RUN on a
 * vector core; "?" for op 0. */
const char *sn_payload_op_name(uint16_t cu_type, unsigned op);

#endif
