/* The L1 is not coherent with unit DRAM writes (sysnode-facts §1.5): a
 * cached line keeps its old bytes after the test's bus rewrites DRAM (on the
 * store to SIGNAL), until DCACHE invalidate; the alias sees the new bytes.
 * Each value read goes to a control register for test_hart to check. */
#include "sysnode/regs.h"
#include "dram_views.h"

#define SIGNAL SN_MBOX_ARG3 /* test_hart: "a unit writes DRAM now" */

    dram_views_start
    li s1, SN_CTRL_BASE
    ld a0, 0x400(t0)           /* miss: the line is cached (OLD) */
    sd a0, SN_MBOX_ARG0(s1)
    sd zero, SIGNAL(s1)        /* the bus writes NEW at DRAM 0x400 */
    ld a0, 0x400(t0)           /* hit: still OLD */
    sd a0, SN_MBOX_ARG0(s1)
    ld a0, 0x400(t1)           /* alias: NEW */
    sd a0, SN_MBOX_ARG0(s1)
    li a1, 2
    sd a1, SN_CTRL_DCACHE(s1)  /* invalidate */
    ld a0, 0x400(t0)           /* miss again: NEW */
    sd a0, SN_MBOX_ARG0(s1)
    ld a0, SN_CTRL_DCACHE(s1)  /* busy: 0 */
    sd a0, SN_CTRL_EXIT(s1)
1:  j 1b
