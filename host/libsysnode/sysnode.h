/* libsysnode: a simulated KohakuTPU SysNode as a shared library, for
 * compiler runtimes and the Python package in python/sysnode (docs/user-guide.md
 * "Python and the C library"). A stable C API: opaque handles, fixed-width fields,
 * every call returns a status (0 = success, else a value of
 * iface/sysnode/status.h) and leaves one message, the runner's
 * own diagnosis where there is one, for sysnode_last_error.
 *
 * Addresses are unit DRAM byte addresses (the CPU sees DRAM at
 * 0x8000_0000 | addr; sysnode-facts §6); sizes are bytes; cycles are
 * simulated CPU cycles counted from BOOT. Artifacts are the compiler's JSON
 * (artifacts-facts §1.1), checked by the rules `sysnode pack` applies
 * (artifacts/FORMAT.md §4, common/table_check.h). */
#ifndef SYSNODE_H
#define SYSNODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a declaration below changes incompatibly. */
#define SYSNODE_API_VERSION 3

typedef struct sysnode_device sysnode_device;

typedef struct sysnode_options {
    const char *mesh;    /* NULL or "rv64_mesh_2p2", the one mesh simulated (DESIGN.md §6) */
    uint32_t cu_version; /* every unit's generation: 4 or 5; 0 means 4 (DESIGN.md §6) */
    const char *image;   /* runner ELF; NULL: $SYSNODE_IMAGE, else runner.elf found from the library (the
                            build's firmware/, an install's lib/sysnode/: image_path.h) */
    uint64_t max_cycles; /* cap per execute, CPU cycles; 0 means 400 M (a run past it is SN_ERR_HANG) */
    int32_t strict;      /* nonzero: a unit read of bytes nothing wrote is an error, not a warning */
    const char *device;  /* NULL: the in-process simulator; else a --device spec (docs/user-guide.md "On a
                            card"): "sim", the simulated card, or "xdma:PREFIX", a card (cu_version 0) */
} sysnode_options;

/* What the last sysnode_execute or sysnode_run_case did. */
typedef struct sysnode_result {
    int32_t status;       /* its return value */
    int32_t match;        /* run_case: 1 when every expected byte came back; execute: 1 on success */
    uint32_t rounds;      /* rounds (artifacts) run */
    uint32_t flits;       /* payloads the runner sent */
    uint32_t completions; /* completions the runner counted (peer acks included) */
    int32_t diff_round;   /* run_case mismatch: after this round (a host step), -1 after the last */
    uint64_t cycles;      /* simulated CPU cycles, summed over boots */
    uint64_t output_bytes;/* run_case: expected bytes compared */
    uint64_t diff_offset; /* run_case mismatch: offset in the expected file ... */
    uint64_t diff_addr;   /* ... its unit DRAM address ... */
    uint8_t got, want;    /* ... the byte read and the byte expected */
    char diff_file[128];  /* ... and the expected file's name (a longer one cut at a UTF-8 boundary,
                             ending in "...") */
} sysnode_result;

/* One unit of the mesh, and what the session sent it. */
typedef struct sysnode_unit {
    uint8_t x, y;
    uint16_t cu_type;     /* two ASCII letters: 0x4D47 "MG" matmul cluster, 0x5643 "VC" vector core */
    uint32_t inst_depth;  /* instruction words a unit program may hold (DESIGN.md §6) */
    uint64_t payloads[4]; /* payloads sent to it since open, by operation [255:252] (sysnode-facts §3.2,
                             §3.3): 1..3 (sysnode_payload_op_name), 0 any other */
    uint64_t saturated;   /* FP16 elements it clamped to +-65504 since the session's boot (DRAIN; VST,
                             VCVT), as KohakuTPU's model counts `saturated`; UINT64_MAX on a device
                             (not counted) */
} sysnode_unit;

/* The mesh a compiler targets on this SysNode (DESIGN.md §6). */
typedef struct sysnode_mesh {
    uint8_t agent_x, agent_y; /* the SysNode's node: where a DRAIN's peer ack (dack) goes */
    uint16_t unit_count;
    sysnode_unit units[16];
} sysnode_mesh;

/* SYSNODE_API_VERSION of the library loaded. */
int32_t sysnode_api_version(void);

/* The project's version, "MAJOR.MINOR.PATCH" (project() in CMakeLists.txt,
 * the one place it is set; the tools' --version says the same). Static
 * storage. */
const char *sysnode_version(void);

/* Opens a fresh simulated SysNode (zeroed 16 MiB DRAM) into *out, or with
 * opts->device the SysNode behind that device through the card protocol,
 * its first 16 MiB of DRAM zeroed by DMA at open (a card reads no beat
 * before it is written: unwritten ECC answers SLVERR, DESIGN.md "On a
 * card"; zeroed, it starts as the simulator does); the session's runs hold
 * at host sync points through the runner's DRAM status copy (FORMAT.md
 * §9.2). A card's session reports no reads of bytes nothing wrote: its
 * units' DRAM port is not visible. opts may be NULL for the defaults.
 * Returns 0, or SN_ERR_INPUT (another mesh, a cu_version other than 0, 4,
 * 5 or any but 0 with xdma, a device that is not a spec, an image that
 * cannot be loaded), SN_ERR_IO (a device file that cannot be opened, named
 * with its errno) or SN_ERR_INTERNAL, with the reason in err (errlen bytes,
 * NUL-terminated); *out is then NULL. */
int32_t sysnode_open(const sysnode_options *opts, sysnode_device **out, char *err, size_t errlen);

/* Closes d (NULL is allowed). */
void sysnode_close(sysnode_device *d);

/* Writes n bytes from src to DRAM at addr; the library remembers them as the
 * host's (a matmul cluster FILL later reads them as FP16 and gets them as
 * MXFP7, DESIGN.md §6). SN_ERR_INPUT past the end of DRAM; nothing written. */
int32_t sysnode_write(sysnode_device *d, uint64_t addr, const void *src, uint64_t n);

/* Reads n bytes of DRAM at addr into dst. SN_ERR_INPUT past the end of DRAM.
 * A range a matmul cluster FILLed reads back as the MXFP7 entries the
 * conversion wrote there, not the FP16 written (DESIGN.md §6). */
int32_t sysnode_read(sysnode_device *d, uint64_t addr, void *dst, uint64_t n);

/* The mesh of d and the payloads its executes sent each unit (the
 * instruction mix); d may be NULL for the mesh alone (counts 0). */
void sysnode_mesh_get(const sysnode_device *d, sysnode_mesh *out);

/* The compiler's name of operation op of a unit of cu_type: FILL, GEMM,
 * DRAIN (matmul cluster); IMEM, DESC, RUN (vector core); "?" otherwise. */
const char *sysnode_payload_op_name(uint16_t cu_type, uint32_t op);

/* The DRAM bytes behind d (16 MiB on the simulated SysNode, DESIGN.md §6). */
uint64_t sysnode_dram_size(const sysnode_device *d);

/* Forgets that the n bytes at addr are live (the compiler freed the span;
 * the bytes stay in DRAM): a later unit read of them is reported as a read
 * of bytes nothing wrote until the host or a round writes them again
 * (host/session/device.h). SN_ERR_INPUT past the end of DRAM. */
int32_t sysnode_discard(sysnode_device *d, uint64_t addr, uint64_t n);

/* The warnings of the last execute or run_case: unit reads of bytes that
 * neither the host nor an earlier round wrote, each one line naming the
 * artifact, round, slot, payload, unit and address range (when strict, the
 * first is the call's error instead); when memory ran out for some, the
 * last line says how many were lost. sysnode_warning returns NULL for i
 * past the count; valid until the next call on d. */
uint32_t sysnode_warning_count(const sysnode_device *d);
const char *sysnode_warning(const sysnode_device *d, uint32_t i);

/* Reads the whole regular file at path as `sysnode run` reads an artifact
 * (host/inputs/file_read.h: no FIFO or device, at most 1 GiB) into *data
 * (*len bytes; free it with sysnode_free). Returns 0, or SN_ERR_IO /
 * SN_ERR_INPUT with the reason, naming path, in err. */
int32_t sysnode_file_read(const char *path, uint8_t **data, uint64_t *len, char *err, size_t errlen);
void sysnode_free(void *p);

/* Runs count artifacts (JSON texts texts[i] of lens[i] bytes, round i) as
 * one program in one boot of the runner; DRAM keeps what they leave.
 * name labels messages (NULL: "artifact"). Returns 0, or, before anything
 * is sent: a table rule (SN_ERR_TABLE_STEP/_SLOT/_NODE, naming round and
 * step), SN_ERR_TABLE_NODE for a node DRAIN whose dack is not (0,0) or
 * whose destination is no vector core (naming round, slot, field, value),
 * SN_ERR_INPUT (bad JSON, a FILL of bytes the host never wrote, FILLs no one
 * MXFP7 image serves, naming both, or no place for the table free of live
 * bytes, naming both ranges); after the run: the runner's exit status (a
 * unit fault, a hang with what each node owed, ...) with its console line,
 * SN_ERR_HANG past max_cycles, or, when strict, SN_ERR_INPUT for the first
 * unit read of bytes nothing wrote (sysnode_warning otherwise), the run
 * stopped at the poll that saw it (host/session/device.h); the next execute then
 * boots afresh, DRAM kept. */
int32_t sysnode_execute(sysnode_device *d, const char *const *texts, const size_t *lens, size_t count,
                        const char *name);

/* Replays the case folder case_dir as `sysnode run` does (same checks, same
 * bytes, host steps included; artifacts/FORMAT.md §9), on this device's
 * DRAM. digest != 0 is `--digest`. Afterwards the session holds no live
 * byte: what earlier writes and executes left is the case's now, so a later
 * execute's FILL of it is refused and its unit reads of it are reported
 * (sysnode_warning), as reads of bytes nothing wrote. Returns 0 on a byte-exact match,
 * SN_ERR_MISMATCH (the first difference in sysnode_last_result), or the error
 * that stopped it. */
int32_t sysnode_run_case(sysnode_device *d, const char *case_dir, int32_t digest);

/* The message of the last failed call on d ("" after a success); valid
 * until the next call on d. */
const char *sysnode_last_error(const sysnode_device *d);

/* Copies the last execute's or run_case's result into *out. */
void sysnode_last_result(const sysnode_device *d, sysnode_result *out);

/* The status's name, e.g. "SN_ERR_HANG"; "SN_ERR_UNKNOWN" for another value. */
const char *sysnode_status_name(int32_t status);

#ifdef __cplusplus
}
#endif
#endif
