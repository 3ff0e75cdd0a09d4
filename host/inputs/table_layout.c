/* The packed table's section offsets (see table_layout.h). */
#include "table_layout.h"

#include "sysnode/table_image.h"

static uint64_t align_up(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
}

sn_table_layout sn_table_layout_of(uint64_t rounds, uint64_t steps, uint64_t payloads)
{
    sn_table_layout l;
    l.rounds_off = SN_TABLE_IMAGE_HEADER_BYTES;
    l.steps_off = align_up(l.rounds_off + rounds * sizeof(sn_table_round), SN_TABLE_IMAGE_STEPS_ALIGN);
    l.payloads_off = align_up(l.steps_off + steps * sizeof(sn_table_step), SN_TABLE_IMAGE_PAYLOADS_ALIGN);
    l.total = l.payloads_off + payloads * sizeof(sn_table_row);
    return l;
}
