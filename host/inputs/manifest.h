/* A case directory's manifest.json: which artifacts to replay in order,
 * which operand files to place in DRAM first, and which bytes to expect
 * after the last round (artifacts-facts §5; the cases in
 * artifacts/compiler/). Descriptive members the replay does not need
 * (description, provenance, layouts, sha256, ...) are ignored. */
#ifndef SN_HOST_MANIFEST_H
#define SN_HOST_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* A DRAM region backed by a file of the case. addr is a unit DRAM byte
 * address (the CPU sees it at 0x8000_0000 | addr, DESIGN.md §2). */
typedef struct sn_region {
    char *file;          /* a plain file name in the case directory */
    uint64_t addr;
    uint64_t nbytes;     /* >= 1 */
    unsigned char *data; /* the file's bytes after sn_manifest_read_data, else NULL; read-only */
    bool shares_data;    /* data is an earlier region's of the same file (read once), not owned */
    bool has_sha256;     /* the manifest gave "sha256" */
    uint8_t sha256[32];  /* ... its value */
    bool fp16;           /* an expected output whose "dtype" starts with "fp16": 2-byte FP16 elements */
    uint64_t rows, cols; /* its "shape" [rows, cols] (row-major), or [n] as rows 1, cols n; 0, 0 when none */
} sn_region;

/* Host work between two rounds (DESIGN.md §2, artifacts/FORMAT.md §9): after
 * round after_round ends, the host compares `expected` with DRAM (naming that
 * round on a difference), then writes `uploads` in list order (a later one
 * wins where two overlap), then lets round after_round + 1 start. */
typedef struct sn_host_step {
    uint32_t after_round; /* 0 .. rounds - 2 */
    sn_region *expected;  /* "expected_outputs", may be empty */
    size_t expected_count;
    sn_region *uploads;   /* "uploads", may be empty */
    size_t upload_count;
} sn_host_step;

typedef struct sn_coord {
    uint8_t x, y;
} sn_coord;

typedef struct sn_manifest {
    char *dir;  /* the case directory, as given */
    char *path; /* dir/manifest.json, for messages */
    char *name;
    char **artifacts; /* "artifacts_in_order": plain file names, >= 1 */
    size_t artifact_count;
    sn_region *uploads; /* "uploads_before_round0", may be empty */
    size_t upload_count;
    sn_region *expected; /* "expected_outputs_after_last_round"; empty only when a host step compares */
    size_t expected_count;
    sn_host_step *host_steps; /* "host_steps", in round order; may be empty */
    size_t host_step_count;
    bool has_mesh; /* "mesh" present: MG and VC coordinate lists */
    sn_coord *mg;
    size_t mg_count;
    sn_coord *vc;
    size_t vc_count;
    /* Declared totals to check the loaded artifacts against; -1 if absent. */
    int64_t declared_rounds;     /* "rounds" */
    int64_t declared_flits;      /* "total_flits" */
    int64_t declared_wide_flits; /* "flits_wider_than_256_bits" */
} sn_manifest;

/* Parses case_dir/manifest.json into *m (zeroed first; free with
 * sn_manifest_free, also after a failure). Errors (SN_ERR_INPUT, naming the
 * manifest, line:column and byte offset): a missing or mistyped member; a
 * file name that is not a plain name in the case directory (empty, ".",
 * "..", or containing '/'); a name or file name holding a control
 * character (0x00-0x1f, 0x7f); an empty artifact or expected-output list; a
 * region of 0 bytes or one passing the 40-bit unit address space
 * (sysnode-facts §6); a mesh coordinate outside 0..15; a host step whose
 * "after_round" is not below the last round or not above the previous
 * step's, or that neither compares nor uploads; no compare at all (every
 * expected-output list empty). SN_ERR_IO if the manifest cannot be read. */
sn_status sn_manifest_load(sn_manifest *m, const char *case_dir, sn_error *e);

/* sn_manifest_load with case_dir already open as dir_fd
 * (sn_manifest_open_dir; still the caller's to close): a case load opens
 * its directory once for the manifest and every artifact. */
sn_status sn_manifest_load_at(sn_manifest *m, const char *case_dir, int dir_fd, sn_error *e);

/* Sets *out to a fresh heap string "dir/file" (the caller frees it).
 * SN_ERR_INPUT (*out NULL) when the file exists but resolves (through
 * symlinks) outside the case directory, naming both. */
sn_status sn_manifest_file_path(const sn_manifest *m, const char *file, char **out, sn_error *e);

/* Opens case file `file` of m for reading (O_NONBLOCK: a FIFO is refused by
 * the reader, never waited on) relative to dir_fd, m's case directory held
 * open: *fd, and *path the fresh heap "dir/file" for messages (the caller
 * frees it and closes *fd). A plain name opened without following a
 * symlink is an entry of the directory itself, so no path is resolved; a
 * symlink, or a name with '/', is held to sn_manifest_file_path's rule
 * first. Errors: sn_manifest_file_path's; SN_ERR_IO naming the path and the
 * system's reason when it cannot be opened (*fd -1, *path NULL). */
sn_status sn_manifest_open_file(const sn_manifest *m, int dir_fd, const char *file, char **path, int *fd,
                                sn_error *e);

/* Opens case_dir for sn_manifest_open_file: the descriptor (the caller
 * closes it), or -1 with SN_ERR_IO: case_dir is not a directory, or
 * case_dir/manifest.json (the first file a case reads) with the system's
 * reason. */
int sn_manifest_open_dir(const char *case_dir, sn_error *e);

/* SN_OK when every upload and expected output lies inside DRAM of
 * dram_bytes bytes; else SN_ERR_INPUT naming the manifest, the file, its
 * address and size and the DRAM size. Call it before reading or placing
 * anything (sysnode-facts §6: DRAM behind unit addresses). */
sn_status sn_manifest_check_dram(const sn_manifest *m, uint64_t dram_bytes, sn_error *e);

/* Every file the case reads: the manifest, its artifacts, uploads and
 * expected outputs, as fresh heap paths *paths[0..*n) (free each and the
 * array, also after a failure). m may be what a failed sn_manifest_load
 * left: the files named so far. SN_ERR_INTERNAL when memory runs out. */
sn_status sn_manifest_input_paths(const sn_manifest *m, char ***paths, size_t *n, sn_error *e);

/* Reads every upload and expected-output file (host steps' too) into its region's data,
 * each file once: regions naming the same file and size share its bytes, so
 * a manifest that names one file many times costs its bytes once.
 * SN_ERR_INPUT when a file's size differs from the region's nbytes (checked
 * before it is read), or it resolves outside the case directory, or its
 * SHA-256 from the manifest's "sha256" (the message names the file and both
 * values); SN_ERR_IO when one cannot be read. */
sn_status sn_manifest_read_data(sn_manifest *m, sn_error *e);

/* Frees everything *m owns and zeroes it. */
void sn_manifest_free(sn_manifest *m);

#endif
