/* Large zero-filled buffers straight from the kernel (anonymous mmap): their
 * pages are zero until first touched, so a 16 MiB DRAM costs only the pages a
 * run uses. calloc cannot promise that: once glibc has freed such a block it
 * serves the next one from its heap and clears it byte by byte. */
#ifndef SN_ZEROED_H
#define SN_ZEROED_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* n zero bytes (n > 0), page-aligned, or NULL when they cannot be mapped. */
void *sn_zeroed_alloc(size_t n);

/* Makes a buffer of n bytes from sn_zeroed_alloc all zero again, its pages
 * given back (they cost nothing until touched again); NULL is ignored. */
void sn_zeroed_clear(void *p, size_t n);

/* Returns a buffer of n bytes from sn_zeroed_alloc; NULL is ignored. */
void sn_zeroed_free(void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif
