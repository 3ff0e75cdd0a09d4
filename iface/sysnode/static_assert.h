/* A compile-time size check usable from C11 and C++ alike (the shared
 * headers are included by the C++ simulator too). */
#ifndef SYSNODE_STATIC_ASSERT_H
#define SYSNODE_STATIC_ASSERT_H

#ifdef __cplusplus
#define SN_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define SN_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#endif
