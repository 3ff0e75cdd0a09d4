/* MXFP7 operands for a matmul cluster FILL: the compiler's quantiser (FP16 ->
 * int7 + E5M3 scale per lane per 32-element K block), the 128-byte entry
 * packer, and the FILL-driven conversion of a case's FP16 uploads (DESIGN.md
 * §6 "Matmul FILLs read 128-byte MXFP7 entries"). Bit-exact restatements of
 * compiler/kohakutpu/hw/mxfp7.py@fd96dee (`quantise_fp16`, `_scale_field`,
 * `RECIP`, `SBIAS`) and hw/tensor.py@4c0fe81 (`to_mxfp7_words_tiled`);
 * artifacts-facts §3.2-§3.3 (which checked those against commit 7703ee8). */
#ifndef SN_HOST_MXFP7_H
#define SN_HOST_MXFP7_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "sysnode/field.h"
#include "sysnode/mxfp7.h" /* the entry format's sizes and scale bias */

/* The slot order of a packed entry: FILL sel 0 (A side) or 1 (B side). */
enum sn_mx_layout { SN_MX_A = 0, SN_MX_B = 1 };

/* The E5M3 scale of a block whose FP16 magnitude peak has bits `peak`
 * (h & 0x7FFF of the largest element): the smallest scale with
 * peak/scale <= 63. *es gets the unbiased exponent (-20..11), *m8 the
 * mantissa in eighths (8..15); a zero peak gives es 0, m8 8. Any 15-bit
 * pattern is accepted, infinities and NaNs included (they scale like the
 * largest numbers, as the compiler's does). (artifacts-facts §3.3 step 3.) */
void sn_mx_scale(uint16_t peak, int *es, int *m8);

/* The scale byte for (es, m8): ((es + 20) & 31) << 3 | (m8 - 8). */
uint8_t sn_mx_scale_byte(int es, int m8);

/* Quantises one lane's 32 FP16 values h[0..31] (bit patterns, one K block):
 * q[k] in -63..63 and the block's scale byte (artifacts-facts §3.3 steps
 * 1-5). Subnormals are not flushed; -0 gives 0. */
void sn_mx_quantise_block(const uint16_t h[SN_MX_KBLOCK], int8_t q[SN_MX_KBLOCK], uint8_t *scale);

/* Packs one entry: q[lane*32 + k] (4 lanes x 32 K, lane-major) and
 * scale[lane] into the 128-byte entry `out` (four little-endian 256-bit words, word w = K
 * 8w..8w+7; slot oi at bits [255-7oi : 249-7oi] = lane*8+kk for SN_MX_A or
 * kk*4+lane for SN_MX_B; the four scale bytes in bits 31..0 of every word,
 * lane l at [31-8l : 24-8l]). layout is SN_MX_A or SN_MX_B. */
void sn_mx_pack_entry(const int8_t q[SN_MX_LANES * SN_MX_KBLOCK], const uint8_t scale[SN_MX_LANES],
                      unsigned layout, uint8_t out[SN_MX_ENTRY_BYTES]);

/* Converts one FP16 entry (256 bytes: 4 lanes x 32 K, lane-major,
 * little-endian) into one 128-byte MXFP7 entry with the slot order of
 * layout (a FILL's sel). */
void sn_mx_convert_entry(const uint8_t fp16[SN_MX_FP16_ENTRY_BYTES], unsigned layout,
                         uint8_t out[SN_MX_ENTRY_BYTES]);

/* Converts the n FP16 entries a FILL of sel reads (n x 256 bytes at fp16)
 * into n x 128 bytes of MXFP7 at out (DESIGN.md §6). out must not overlap
 * fp16. */
void sn_mx_convert_fill(const uint8_t *fp16, uint32_t n, unsigned sel, uint8_t *out);

/* 1 when cluster payload q is a FILL (op[255:252] = 1), with the FP16 bytes
 * it reads: from unit address {addr_hi[68:63], addr[251:218]} (40 bits),
 * n[217:202] entries of SN_MX_FP16_ENTRY_BYTES (sysnode-facts §3.3,
 * artifacts-facts §3.2); 0 for a GEMM, a DRAIN or anything else. */
int sn_mx_fill_source(const sn_payload *q, uint64_t *addr, uint64_t *bytes);

/* Rewrites a DRAM image in place for an MXFP7-reading cluster, driven by the
 * program (DESIGN.md §6; each case's manifest.json `mxfp7_fill_image`):
 * for every FILL among rows[0..nrows) (cluster payloads in program order; a
 * GEMM or DRAIN is skipped, any other opcode is SN_ERR_INPUT), the n FP16
 * entries at its 40-bit address {addr_hi, addr} are converted with its sel
 * and written contiguously at that address (n x 128 bytes). All reads see
 * the image as given; the FP16 bytes the FILLs read are then zeroed and the
 * MXFP7 entries written, so the image matches the case's mxfp7_*.bin files
 * wherever a FILL reads. A region several FILLs read is converted once.
 * image[0] is unit address image_base; image_size bytes.
 * Errors (SN_ERR_INPUT, naming each payload by names[i], e.g. "FILE:
 * round R slot S", or by its index when names is NULL, and its address): a
 * FILL outside the image; two FILLs reading a common byte with different
 * sel; two FILLs whose MXFP7 outputs overlap with different bytes (their
 * FP16 windows overlap at different offsets, so no one MXFP7 image serves
 * both). Nothing is written on error. SN_ERR_INTERNAL when memory runs out.
 * *regions (may be NULL) gets the number of distinct FILL regions
 * converted. */
sn_status sn_mx_convert_image(uint8_t *image, uint64_t image_base, uint64_t image_size,
                              const sn_payload *rows, size_t nrows, const char *const *names, size_t *regions,
                              sn_error *e);

#endif
