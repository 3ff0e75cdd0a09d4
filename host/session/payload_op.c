/* Payload operations (see payload_op.h). */
#include "payload_op.h"

#include "sysnode/mesh.h"
#include "sysnode/words.h"

unsigned sn_payload_op(const sn_payload *q, uint16_t cu_type)
{
    unsigned op = cu_type == SN_CU_TYPE_MG ? (unsigned)sn_mg_op(q) : cu_type == SN_CU_TYPE_VC ? (unsigned)sn_vc_run_op(q) : 0;
    return op < SN_PAYLOAD_OPS ? op : 0;
}

const char *sn_payload_op_name(uint16_t cu_type, unsigned op)
{
    static const char *const mg[SN_PAYLOAD_OPS] = {"?", "FILL", "GEMM", "DRAIN"};
    static const char *const vc[SN_PAYLOAD_OPS] = {"?", "IMEM", "DESC", "RUN"};
    if (op >= SN_PAYLOAD_OPS)
        return "?";
    return cu_type == SN_CU_TYPE_MG ? mg[op] : cu_type == SN_CU_TYPE_VC ? vc[op] : "?";
}
