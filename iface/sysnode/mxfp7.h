/* The MXFP7 entry format a matmul cluster FILL reads: the one description
 * of its sizes and scale encoding, for the host's packer (host/inputs/mxfp7.c)
 * and the cluster model (sim/models/matmul_cluster.c). Restated from
 * compiler/kohakutpu/hw/mxfp7.py@fd96dee (`SBIAS`, `quantise_fp16`) and
 * hw/tensor.py@4c0fe81; artifacts-facts §3.2-§3.3. Freestanding. */
#ifndef SYSNODE_MXFP7_H
#define SYSNODE_MXFP7_H

#define SN_MX_LANES 4              /* lanes per entry (rows of A, columns of B); sub-tile edge */
#define SN_MX_KBLOCK 32            /* K elements sharing one scale, per entry */
#define SN_MX_SBIAS 20             /* scale exponent bias */
#define SN_MX_QMAX 63              /* |q| <= 63; -64 never occurs */
#define SN_MX_FP16_ENTRY_BYTES 256 /* 4 lanes x 32 FP16, lane-major */
#define SN_MX_ENTRY_BYTES 128      /* four 256-bit words */
#define SN_MX_ZERO_SCALE 0xA0      /* scale byte of an all-zero block: es 0, m8 8 */

/* Where things sit in an entry: four 256-bit words, each little-endian in
 * 32 bytes. Word w holds K elements w*8 .. w*8+7 of every lane as 32 7-bit
 * two's-complement values, value i at bits [255-7i-6 .. 255-7i], i.e. from
 * bit SN_MX_Q_LO(i) up; which lane and K element value i is depends on the
 * side's layout (A: lane-major, B: K-major). The lane's scale byte is byte
 * SN_MX_SCALE_BYTE(lane) of every word (bits [31-8l : 24-8l]). */
#define SN_MX_Q_BITS 7
#define SN_MX_Q_LO(i) (249u - 7u * (i))
#define SN_MX_Q_LANE(layout, i) ((layout) ? (i) % 4u : (i) / 8u)
#define SN_MX_Q_K(layout, i) ((layout) ? (i) / 4u : (i) % 8u)
#define SN_MX_SCALE_BYTE(lane) (3u - (lane))

#endif
