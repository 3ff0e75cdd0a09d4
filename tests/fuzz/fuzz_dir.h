/* The case directory the case-shaped fuzz targets (fuzz_case, fuzz_host_steps)
 * write each input into: a fresh folder in /dev/shm (or /tmp), removed at
 * exit. An input is up to three parts separated by NUL bytes: manifest.json,
 * the text written to every artifact the manifest names, and the bytes
 * written to every region it names (uploads and expected outputs, those of
 * its host steps included), repeated or cut to the region's nbytes. The
 * folder is made by fuzz_dir.c's LLVMFuzzerInitialize. */
#ifndef SN_FUZZ_DIR_H
#define SN_FUZZ_DIR_H

#include <stddef.h>
#include <stdint.h>

#include "manifest.h"

/* The folder's path. */
const char *sn_fuzz_dir(void);

/* Empties the folder and writes data[0..size) into it as a case. Files past
 * 40 names, and regions above 256 KB, are left unwritten (the load refuses
 * them by name or size). The manifest is parsed once, to name the files:
 * *m and the status are sn_manifest_load's of the folder (it reads only
 * manifest.json, so a second load would give the same), for the caller to
 * go on from and free. */
sn_status sn_fuzz_write_case(const uint8_t *data, size_t size, sn_manifest *m, sn_error *e);

#endif
