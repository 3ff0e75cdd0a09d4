/* Which round ends may skip the version-4 settle: a proof over the
 * program's own DRAM traffic (artifacts/FORMAT.md §3 `flags`, DESIGN §2).
 * A version-4 unit retires when its last write beat is sent, so the runner
 * waits out the landing at a round's end; the wait is useless when nothing
 * read before the next kept settle can see the round's writes in flight. */
#ifndef SN_HOST_SETTLE_H
#define SN_HOST_SETTLE_H

#include "artifact.h"
#include "manifest.h"
#include "sysnode/mesh.h"

/* Sets SN_ROUND_SETTLE_PROVEN in p->rounds[r].flags for every round r but
 * the last where it can prove, from the payloads (matmul cluster fields,
 * sysnode-facts §3.3):
 *  - round r kicks only matmul cluster FILL, GEMM and DRAIN-to-DRAM payloads,
 *    and every DRAIN writes [addr, addr + 32·n) inside one of m's expected
 *    outputs (the host never places the table there, so the runner's own
 *    table reads cannot see them);
 *  - the rounds after r up to the next kept settle kick only such payloads,
 *    and none of their FILLs ([addr, addr + 256·n): the FP16 size, more than
 *    the 128-byte MXFP7 entries read) or DRAINs touches a byte written since
 *    the last kept settle.
 * Clears the flag everywhere else; with m NULL (a table packed from artifact
 * files alone), or when memory for the proof runs out, every round keeps its
 * settle. p is a loaded program, judged by the table rules (artifact.h). No
 * error. Keeps no state between calls: safe on several threads. */
void sn_settle_plan(sn_program *p, const sn_mesh *mesh, const sn_manifest *m);

#endif
