// DPI side of the unit endpoints (see dpi_units.h).
#include "dpi_units.h"

#include <cstdio>
#include <cstring>

#include "Vsn_mesh_top__Dpi.h"

extern "C" {
#include "sysnode/field.h"
}

static thread_local sn_dpi_units *bound;

void sn_dpi_units_init(sn_dpi_units *u, sn_dram *dram)
{
    u->mem = sn_dram_port(dram);
    sn_dpi_units_reset(u);
}

void sn_dpi_units_reset(sn_dpi_units *u)
{
    for (auto &vc : u->vc)
        sn_vc_reset(&vc);
    u->error[0] = '\0';
}

void sn_dpi_units_bind(sn_dpi_units *u)
{
    bound = u;
}

static void model_error(sn_dpi_units *u, const char *msg)
{
    if (!u->error[0])
        snprintf(u->error, sizeof u->error, "%s", msg);
}

// Called by sn_unit_shell when an instruction leaves its FIFO. svBitVecVal
// word i holds payload bits [32i+31:32i] (tool-pitfalls 8).
void sn_dpi_unit_exec(unsigned int unit_index, const svBitVecVal *payload, unsigned int *fault,
                      unsigned int *result, unsigned int *cycles)
{
    sn_dpi_units *u = bound;
    sn_payload p;
    for (int i = 0; i < SN_PAYLOAD_WORDS; i++)
        p.w[i] = (uint64_t)payload[2 * i] | ((uint64_t)payload[2 * i + 1] << 32);
    *fault = 0;
    *result = 0;
    *cycles = 1;
    if (unit_index >= SN_DPI_VECTOR_CORES) {
        model_error(u, "mesh: a matmul cluster received an instruction, but the cluster model "
                       "is not built yet");
        return;
    }
    sn_vc_result r = sn_vc_execute(&u->vc[unit_index], &p, &u->mem);
    if (r.mem_error) {
        char msg[160];
        snprintf(msg, sizeof msg, "vector core %u: DRAM access at 0x%llx is outside DRAM", unit_index,
                 (unsigned long long)r.bad_addr);
        model_error(u, msg);
    }
    *fault = r.fault;
    *result = r.cycles;
    *cycles = r.cycles;
}
