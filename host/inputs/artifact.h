/* Compiler artifacts -> rounds -> a program. One artifact JSON is one round
 * (artifacts-facts §1.1 schema, §1.3 "each round is a separate Artifact");
 * a program is the ordered list of rounds a case replays (DESIGN.md §2),
 * flattened into the runner's table layout (iface/sysnode/table.h)
 * for the table emitters. */
#ifndef SN_HOST_ARTIFACT_H
#define SN_HOST_ARTIFACT_H

#include <stddef.h>

#include "error.h"
#include "manifest.h"
#include "sysnode/mesh.h"
#include "sysnode/table.h"

/* One parsed artifact. Payloads are the table's rows (sysnode/table.h);
 * a kick's first_slot indexes `payloads`. */
typedef struct sn_round {
    sn_table_row *payloads;
    size_t payload_count; /* at most SN_STAGE_SLOTS */
    size_t masked_count;  /* payloads whose integer had bits above 255 */
    sn_table_step *steps;
    size_t step_count;
} sn_round;

/* Parses the artifact at `path` into *r (zeroed first; free with
 * sn_round_free, also after a failure). It parses only; the table rules
 * (staging window, kicks and awaits, nodes) are sn_table_check's alone
 * (common/table_check.h, run by sn_program_check). Errors, each
 * naming the file and the step index or byte offset:
 *  - top level: an object with "flits" and "steps" arrays, optional
 *    "machine" (string) and "meta" (object), nothing else (§1.1).
 *  - flits: JSON integers below 2^288, masked to bits 255:0 (DESIGN §2).
 *  - steps: ["seed", n], ["kick", x, y, base, n], ["await", x, y, count],
 *    ["barrier"] (§1.1); another tag, arity or a non-integer field, or one
 *    past 2^32-1 (what a step record holds, table.h) is SN_ERR_TABLE_STEP;
 *    x or y outside 0..15 (4-bit coordinates, sysnode-facts §3.1) is
 *    SN_ERR_TABLE_NODE.
 * Malformed JSON is SN_ERR_INPUT, an unreadable file SN_ERR_IO. */
sn_status sn_round_load(sn_round *r, const char *path, sn_error *e);

/* Frees a round's arrays and zeroes it. */
void sn_round_free(sn_round *r);

/* An ordered list of rounds, stored flattened in table layout: round i owns
 * steps[rounds[i].step_first ..+step_count) and payloads[rounds[i].
 * payload_first ..+payload_count). Every count fits uint32_t. A program
 * from a loader below has passed the table rules (sn_program_check below),
 * so every kick names rows of its own round: whatever reads a kick's rows
 * (the settle proof, the peer check, the FILL conversion, a replay with
 * --table) reads inside them. */
typedef struct sn_program {
    size_t round_count;
    char **files;     /* round i's artifact path, as given */
    size_t *masked;   /* round i's masked payload count */
    size_t masked_total;
    sn_table_round *rounds;
    sn_table_step *steps;
    size_t step_count;
    sn_table_row *payloads;
    size_t payload_count;
} sn_program;

/* Checks p's table against mesh with sn_table_check, the one judge of the
 * table rules (common/table_check.h; FORMAT.md §4). Errors: the
 * rule's status (SN_ERR_TABLE_STEP, _SLOT or _NODE) with "FILE: round R step
 * S: <rule>", FILE being that round's artifact and the words those of
 * sn_table_fault_describe, which the firmware prints too. */
sn_status sn_program_check(const sn_program *p, const sn_mesh *mesh, sn_error *e);

/* Loads files[0..nfiles) as rounds 0..nfiles-1 into *p (zeroed first; free
 * with sn_program_free, also after a failure), judged by the table rules
 * against rv64_mesh_2p2. Errors: any sn_round_load error; the table rule's
 * status and words (sn_program_check); SN_ERR_INPUT for nfiles = 0 or totals
 * past uint32_t. */
sn_status sn_program_load(sn_program *p, const char *const *files, size_t nfiles, sn_error *e);

/* Loads n artifacts' JSON texts (texts[i] of lens[i] bytes: the compiler's
 * serialised dicts) as rounds 0..n-1, names[i] labelling round i's
 * messages (*p zeroed first; free with sn_program_free, also after a
 * failure). The rules and errors of sn_program_load, from text instead of
 * files. */
sn_status sn_program_load_texts(sn_program *p, const char *const *names, const char *const *texts,
                                const size_t *lens, size_t n, sn_error *e);

/* Copies rounds first..first+count-1 of p into *out as rounds 0..count-1
 * (zeroed first; free with sn_program_free). SN_ERR_INTERNAL for a range
 * outside p or when memory runs out. */
sn_status sn_program_slice(const sn_program *p, size_t first, size_t count, sn_program *out, sn_error *e);

/* Copies p into *out (zeroed first; free with sn_program_free), ending
 * round i with a host sync step (SN_STEP_HOST_SYNC, artifacts/FORMAT.md §9)
 * where sync_after[i] (one flag per round) is nonzero. SN_ERR_INTERNAL when
 * memory runs out. */
sn_status sn_program_with_host_syncs(const sn_program *p, const uint8_t *sync_after, sn_program *out, sn_error *e);

/* Loads the rounds of the case directory `case_dir` in its manifest's
 * "artifacts_in_order" (see manifest.h), and checks the manifest's optional
 * "rounds", "total_flits" and "flits_wider_than_256_bits" against what was
 * loaded (SN_ERR_INPUT on a difference). Every round a host step follows
 * ends with a host sync step (artifacts/FORMAT.md §9), so `sysnode pack`,
 * `dump` and `run` see one program, judged by the table rules against the
 * manifest's mesh (sn_mesh_check_manifest first; rv64_mesh_2p2 without one):
 * those errors too (sn_program_check). */
sn_status sn_program_load_case(sn_program *p, const char *case_dir, sn_error *e);

/* sn_program_load_case for a case whose manifest m the caller read already
 * (sn_manifest_load; m stays the caller's): the artifacts it names, opened
 * relative to m->dir, and the same checks, without reading manifest.json
 * again. Errors: those of sn_program_load_case; SN_ERR_IO when m->dir is
 * no longer a directory. */
sn_status sn_program_load_manifest(sn_program *p, const sn_manifest *m, sn_error *e);

/* Frees everything *p owns and zeroes it. */
void sn_program_free(sn_program *p);

/* A view of *p as the runner's table; valid while *p is. */
sn_table sn_program_table(const sn_program *p);

#endif
