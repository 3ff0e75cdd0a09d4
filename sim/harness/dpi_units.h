/* The unit models behind the mesh's DPI calls: unit index u of sn_mesh_top
 * (0 vec0 (1,0), 1 vec1 (1,2), 2 mat0 (1,1), 3 mat1 (2,1)) maps to one C
 * model instance. DPI imports carry no user pointer, so the calls reach the
 * sn_dpi_units bound to the current thread (one mesh evaluates at a time per
 * thread, tool-pitfalls 10). */
#ifndef SN_DPI_UNITS_H
#define SN_DPI_UNITS_H

extern "C" {
#include "dram.h"
#include "mem_port.h"
#include "vector_core.h"
}

#define SN_DPI_VECTOR_CORES 2
#define SN_DPI_UNITS 4

struct sn_dpi_units {
    sn_vector_core vc[SN_DPI_VECTOR_CORES];
    sn_mem_port mem;
    char error[256]; /* first model error (bad DRAM address, unmodelled unit); empty when none */
};

/* Connects the models to dram and resets them. */
void sn_dpi_units_init(sn_dpi_units *u, sn_dram *dram);
/* Power-on state for every model; clears the error. */
void sn_dpi_units_reset(sn_dpi_units *u);
/* Makes u the target of DPI calls made on this thread. */
void sn_dpi_units_bind(sn_dpi_units *u);

#endif
