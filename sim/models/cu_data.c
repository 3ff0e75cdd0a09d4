/* Splitting a contiguous CU_DATA transfer into bursts (see cu_data.h). */
#include "cu_data.h"

#include <string.h>

uint32_t sn_cu_nbursts(uint32_t n)
{
    return n / SN_CU_BURST_GRANULES + (n % SN_CU_BURST_GRANULES != 0);
}

int sn_cu_burst_of(const sn_cu_burst *head, const uint8_t (*granules)[SN_CU_GRANULE_BYTES], uint32_t n,
                   uint32_t i, sn_cu_burst *b)
{
    if (i >= sn_cu_nbursts(n))
        return -1;
    uint32_t first = i * SN_CU_BURST_GRANULES, count = n - first;
    if (count > SN_CU_BURST_GRANULES)
        count = SN_CU_BURST_GRANULES;
    *b = *head;
    b->offset = (uint16_t)(head->offset + first);
    b->ngranules = (uint8_t)count;
    memcpy(b->bytes, granules[first], (size_t)count * SN_CU_GRANULE_BYTES);
    return 0;
}
