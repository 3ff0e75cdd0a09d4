/* Zero-filled buffers from anonymous mappings; see zeroed.h. */
#include "zeroed.h"

#include <sys/mman.h>

void *sn_zeroed_alloc(size_t n)
{
    if (n == 0)
        return NULL;
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void sn_zeroed_clear(void *p, size_t n)
{
    if (p != NULL && n > 0)
        madvise(p, n, MADV_DONTNEED); /* a private anonymous mapping reads as zero pages again */
}

void sn_zeroed_free(void *p, size_t n)
{
    if (p != NULL)
        munmap(p, n);
}
