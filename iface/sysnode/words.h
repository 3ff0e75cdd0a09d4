/* The interface schema: every word that crosses a SysNode boundary, as one
 * list of fields per word. The one description of these layouts: the C
 * accessors below, and (through iface/gen_iface) the RTL's pack/unpack
 * functions, the disassembler's field tables and the test scripts' Python
 * module are all expanded from these lists. Register offsets, flit types and
 * signal codes are in sysnode/regs.h, table records in sysnode/table_image.h.
 * Freestanding: no libc.
 *
 * A word is W(word, bits) in SN_REG_WORDS (at most 64 bits, held in a
 * uint64_t) or SN_PAYLOAD_LAYOUTS (256 bits, an sn_payload); its fields are
 * SN_FIELDS_<word>(F) with F(word, field, hi, lo), bit positions inclusive.
 * Fields of one word never overlap (checked by the generator). A layout
 * whose fields mean different things per opcode is one word per opcode. */
#ifndef SYSNODE_WORDS_H
#define SYSNODE_WORDS_H

#include <stdint.h>

#include "sysnode/field.h"
#include "sysnode/static_assert.h"

/* ---- register words and sub-words (at most 64 bits) ---- */
#define SN_REG_WORDS(W)                                                         \
    W(dst, 64) W(stat, 64) W(head, 64) W(rx_hdr, 64) W(flit_hdr, 32)           \
    W(cu_caps, 64) W(cu_status, 64) W(cu_counters, 64) W(cu_dbg_mg, 64)        \
    W(cu_dbg_vc, 64) W(kword_alu, 32) W(kword_mem, 32) W(kword_peer, 32)       \
    W(vc_dim, 34) W(vc_peer_base, 34)

/* Mailbox DST (sysnode-facts §2.1): the flit's destination; type is used
 * only when typed is set, CU_INST otherwise. Reads back {y, x} only. */
#define SN_FIELDS_dst(F) F(dst, x, 3, 0) F(dst, y, 11, 8) F(dst, type, 23, 20) F(dst, typed, 24, 24)
/* Mailbox STAT (sysnode-facts §2.2). */
#define SN_FIELDS_stat(F) F(stat, queued, 7, 0) F(stat, offered, 15, 15) F(stat, overflow, 31, 31)
/* Mailbox HEAD, the oldest completion (sysnode-facts §2.3). */
#define SN_FIELDS_head(F)                                                       \
    F(head, arg, 39, 8) F(head, code, 47, 40) F(head, src_x, 51, 48) F(head, src_y, 55, 52)
/* RX_HDR: the RX queue head's flit header (sysnode-facts §2.5). */
#define SN_FIELDS_rx_hdr(F) F(rx_hdr, header, 31, 0) F(rx_hdr, valid, 63, 63)
/* Flit header = flit bits 287:256 (sysnode-facts §3.1). */
#define SN_FIELDS_flit_hdr(F)                                                   \
    F(flit_hdr, rsvd, 2, 0) F(flit_hdr, last, 3, 3) F(flit_hdr, txn, 11, 4)     \
    F(flit_hdr, type, 15, 12) F(flit_hdr, src_y, 19, 16) F(flit_hdr, src_x, 23, 20) \
    F(flit_hdr, dst_y, 27, 24) F(flit_hdr, dst_x, 31, 28)
/* CU_CTRL registers 0..3 (sysnode-facts §7.1). */
#define SN_FIELDS_cu_caps(F)                                                    \
    F(cu_caps, inst_depth, 35, 20) F(cu_caps, n_buffers, 39, 36)               \
    F(cu_caps, cu_version, 47, 40) F(cu_caps, cu_type, 63, 48)
#define SN_FIELDS_cu_status(F)                                                  \
    F(cu_status, free, 47, 32) F(cu_status, error, 62, 62) F(cu_status, busy, 63, 63)
#define SN_FIELDS_cu_counters(F) F(cu_counters, busy_cycles, 31, 0) F(cu_counters, retired, 63, 32)
#define SN_FIELDS_cu_dbg_mg(F) F(cu_dbg_mg, memory_cycles, 31, 0) F(cu_dbg_mg, compute_cycles, 63, 32)
#define SN_FIELDS_cu_dbg_vc(F) F(cu_dbg_vc, kernel_cycles, 31, 0)
/* Vector kernel words (sysnode-facts §3.2): arithmetic, load/store/fill/
 * drain, and the peer-drain overlay of VDRAIN (peer = bit 24). */
#define SN_FIELDS_kword_alu(F)                                                  \
    F(kword_alu, pm, 2, 1) F(kword_alu, pr, 4, 3) F(kword_alu, vc, 8, 5)        \
    F(kword_alu, vb, 12, 9) F(kword_alu, va, 16, 13) F(kword_alu, vd, 20, 17)   \
    F(kword_alu, sc, 22, 21) F(kword_alu, sb, 24, 23) F(kword_alu, sa, 26, 25)  \
    F(kword_alu, op, 31, 27)
#define SN_FIELDS_kword_mem(F)                                                  \
    F(kword_mem, offset, 13, 0) F(kword_mem, vd, 20, 17) F(kword_mem, ad, 23, 21) \
    F(kword_mem, dtype, 26, 24) F(kword_mem, op, 31, 27)
#define SN_FIELDS_kword_peer(F)                                                 \
    F(kword_peer, buf, 12, 9) F(kword_peer, dst_y, 16, 13) F(kword_peer, dst_x, 20, 17) \
    F(kword_peer, ad, 23, 21) F(kword_peer, peer, 24, 24) F(kword_peer, signal, 25, 25) \
    F(kword_peer, op, 31, 27)
/* A DESC dimension value, and a peer drain's descriptor base (sysnode-facts
 * §3.2). stride is two's complement. */
#define SN_FIELDS_vc_dim(F) F(vc_dim, bound, 15, 0) F(vc_dim, stride, 33, 16)
#define SN_FIELDS_vc_peer_base(F)                                               \
    F(vc_peer_base, word, 15, 0) F(vc_peer_base, ack_x, 19, 16) F(vc_peer_base, ack_y, 23, 20)

/* ---- 256-bit payloads ---- */
#define SN_PAYLOAD_LAYOUTS(W)                                                   \
    W(sig, 256) W(ctrl_req, 256) W(ctrl_reply, 256) W(cu_data_desc, 256)       \
    W(vc_imem, 256) W(vc_desc, 256) W(vc_run, 256) W(mg, 256)

/* CU_SIGNAL, CU_CTRL request and reply (sysnode-facts §3.1 "Selected
 * payloads"), CU_DATA descriptor (ibid.). */
#define SN_FIELDS_sig(F) F(sig, arg, 247, 216) F(sig, code, 255, 248)
#define SN_FIELDS_ctrl_req(F) F(ctrl_req, index, 247, 240) F(ctrl_req, op, 255, 248)
#define SN_FIELDS_ctrl_reply(F)                                                 \
    F(ctrl_reply, value, 239, 176) F(ctrl_reply, index, 247, 240) F(ctrl_reply, op, 255, 248)
#define SN_FIELDS_cu_data_desc(F)                                               \
    F(cu_data_desc, ack_x, 211, 208) F(cu_data_desc, ack_y, 215, 212)           \
    F(cu_data_desc, flags, 223, 216) F(cu_data_desc, len, 231, 224)             \
    F(cu_data_desc, offset, 247, 232) F(cu_data_desc, buf, 255, 248)
/* Vector-core CU_INST by op, in decode order (sysnode-facts §3.2). */
#define SN_FIELDS_vc_imem(F) F(vc_imem, op, 255, 252) F(vc_imem, addr, 251, 243) F(vc_imem, word, 31, 0)
#define SN_FIELDS_vc_desc(F)                                                    \
    F(vc_desc, op, 255, 252) F(vc_desc, ad, 251, 249) F(vc_desc, fld, 248, 246) \
    F(vc_desc, value, 245, 212) F(vc_desc, value_hi, 68, 63)
#define SN_FIELDS_vc_run(F) F(vc_run, op, 255, 252) F(vc_run, pc, 251, 243)
/* Matmul-cluster CU_INST, in decode order (artifacts-facts §3.4,
 * sysnode-facts §3.3); the DRAM address is {addr_hi, addr}. */
#define SN_FIELDS_mg(F)                                                         \
    F(mg, op, 255, 252) F(mg, addr, 251, 218) F(mg, n, 217, 202) F(mg, sel, 201, 201) \
    F(mg, acc, 200, 200) F(mg, gm, 199, 192) F(mg, gn, 191, 184) F(mg, nk, 183, 176) \
    F(mg, anchor, 175, 168) F(mg, peers, 167, 144) F(mg, npeer, 143, 142)       \
    F(mg, preq, 141, 141) F(mg, eoff, 140, 133) F(mg, aoff, 132, 125)           \
    F(mg, boff, 124, 117) F(mg, emit, 116, 116) F(mg, fuse, 115, 115)           \
    F(mg, abank, 114, 114) F(mg, bbank, 113, 113) F(mg, fbank, 112, 112)        \
    F(mg, dnode, 111, 111) F(mg, dst_x, 110, 107) F(mg, dst_y, 106, 103)        \
    F(mg, dbuf, 102, 95) F(mg, dflags, 94, 87) F(mg, dack_y, 86, 83)            \
    F(mg, dack_x, 82, 79) F(mg, dmesh, 78, 77) F(mg, dfin, 76, 69) F(mg, addr_hi, 68, 63)

/* CU_INST opcodes, payload [255:252] (sysnode-facts §3.2, §3.3). */
enum sn_vc_payload_op { SN_VC_OP_IMEM = 1, SN_VC_OP_DESC = 2, SN_VC_OP_RUN = 3 };
enum sn_mg_payload_op { SN_MG_OP_FILL = 1, SN_MG_OP_GEMM = 2, SN_MG_OP_DRAIN = 3 };

/* Vector kernel opcodes, word [31:27] (sysnode-facts §3.2; hw/vector.py@7703ee8
 * OPS): K(name, code). */
#define SN_KERNEL_OPS(K)                                                      \
    K(VMOV, 0x00) K(VNEG, 0x01) K(VABS, 0x02) K(VADD, 0x03) K(VSUB, 0x04)     \
    K(VMUL, 0x05) K(VFMA, 0x06) K(VFNMA, 0x07) K(VMAX, 0x08) K(VMIN, 0x09)    \
    K(VSEL, 0x0A) K(VCMPLT, 0x0B) K(VCMPGT, 0x0C) K(VCMPEQ, 0x0D)             \
    K(VEXP2, 0x0E) K(VLOG2, 0x0F) K(VINV, 0x10) K(VRSQRT, 0x11)               \
    K(VCVT, 0x12) K(VRED, 0x13) K(VLD, 0x14) K(VST, 0x15) K(VBCAST, 0x16)     \
    K(VSHUF, 0x17) K(VSETVL, 0x18) K(VSETMODE, 0x19) K(VSETI, 0x1A)           \
    K(VLOOP, 0x1B) K(VBAR, 0x1C) K(VFILL, 0x1D) K(VDRAIN, 0x1E)               \
    K(VHALT, 0x1F)
#define SN_KERNEL_OP_ENUM(name, code) SN_K_##name = code,
enum sn_kernel_op { SN_KERNEL_OPS(SN_KERNEL_OP_ENUM) };

/* Bits of the low DRAM address field of a matmul-cluster and a DESC base
 * value; the rest is in addr_hi / value_hi (sysnode-facts §3.2, §3.3). */
#define SN_MG_ADDR_LO_BITS 34
#define SN_VC_VALUE_BITS 34

/* The DRAM address of a matmul-cluster payload, {addr_hi, addr}. */
#define SN_MG_DRAM_ADDR(p) (sn_mg_addr(p) | sn_mg_addr_hi(p) << SN_MG_ADDR_LO_BITS)

/* Each field's position as constants, for constant expressions (static
 * asserts, masks a loop tests at once): SN_LO_<word>_<field>,
 * SN_HI_<word>_<field>, and SN_MASK(word, field) its bits in the word. */
#define SN_FIELD_POS_ENUM(word, field, hi, lo) SN_LO_##word##_##field = (lo), SN_HI_##word##_##field = (hi),
#define SN_WORD_POS_ENUM(word, bits) SN_FIELDS_##word(SN_FIELD_POS_ENUM)
enum { SN_REG_WORDS(SN_WORD_POS_ENUM) SN_PAYLOAD_LAYOUTS(SN_WORD_POS_ENUM) };
#define SN_MASK(word, field)                                                    \
    ((SN_HI_##word##_##field - SN_LO_##word##_##field == 63                     \
          ? ~0ull                                                               \
          : (1ull << (SN_HI_##word##_##field - SN_LO_##word##_##field + 1)) - 1) \
     << SN_LO_##word##_##field)

/* The DST value that sends CU_INST to (x, y). */
#define SN_DST_VALUE(x, y) sn_dst_with_y(sn_dst_with_x(0, (x)), (y))

/* ---- accessors ----
 * Register word W, field F: sn_W_F(word) returns the field;
 * sn_W_with_F(word, value) returns word with the field replaced by value's
 * low bits. Payload P, field F: sn_P_F(&payload), sn_P_set_F(&payload, v).
 * Every field is checked at compile time to lie inside its word and be at
 * most 64 bits wide. */
#define SN_WORD_BITS_CHECK(word, hi, lo, bits)                                  \
    SN_STATIC_ASSERT((hi) >= (lo) && (hi) < (bits) && (hi) - (lo) < 64,        \
                     "field of " #word " lies outside its " #bits " bits");

#define SN_REG_ACCESSORS(word, field, hi, lo)                                   \
    static inline uint64_t sn_##word##_##field(uint64_t w) { return sn_bits64(w, hi, lo); } \
    static inline uint64_t sn_##word##_with_##field(uint64_t w, uint64_t v)     \
    {                                                                           \
        uint64_t ones = (hi) - (lo) == 63 ? ~0ull : (1ull << ((hi) - (lo) + 1)) - 1; \
        return (w & ~(ones << (lo))) | ((v & ones) << (lo));                    \
    }                                                                           \
    SN_WORD_BITS_CHECK(word##_##field, hi, lo, SN_BITS_##word)
#define SN_PAYLOAD_ACCESSORS(word, field, hi, lo)                               \
    static inline uint64_t sn_##word##_##field(const sn_payload *p) { return sn_field_get(p, hi, lo); } \
    static inline void sn_##word##_set_##field(sn_payload *p, uint64_t v) { sn_field_set(p, hi, lo, v); } \
    SN_WORD_BITS_CHECK(word##_##field, hi, lo, SN_BITS_##word)

#define SN_WORD_BITS_ENUM(word, bits) SN_BITS_##word = (bits),
enum { SN_REG_WORDS(SN_WORD_BITS_ENUM) SN_PAYLOAD_LAYOUTS(SN_WORD_BITS_ENUM) };
#define SN_REG_WORD_ACCESSORS(word, bits) SN_FIELDS_##word(SN_REG_ACCESSORS)
#define SN_PAYLOAD_WORD_ACCESSORS(word, bits) SN_FIELDS_##word(SN_PAYLOAD_ACCESSORS)
SN_REG_WORDS(SN_REG_WORD_ACCESSORS)
SN_PAYLOAD_LAYOUTS(SN_PAYLOAD_WORD_ACCESSORS)

/* Vector-core payloads (256 bits) by op (sysnode-facts §3.2): IMEM puts the
 * 32-bit kernel word at kernel address addr (0..511); DESC sets field fld
 * (0 base, 1..4 a dimension) of descriptor A[ad] (0..7) to value, a base's
 * bits 39:34 going to value_hi; RUN starts the kernel at pc. Fields are cut
 * to their widths. */
static inline sn_payload sn_vc_imem_payload(unsigned addr, uint32_t word)
{
    sn_payload p = {{0, 0, 0, 0}};
    sn_vc_imem_set_op(&p, SN_VC_OP_IMEM);
    sn_vc_imem_set_addr(&p, addr);
    sn_vc_imem_set_word(&p, word);
    return p;
}

static inline sn_payload sn_vc_desc_payload(unsigned ad, unsigned fld, uint64_t value)
{
    sn_payload p = {{0, 0, 0, 0}};
    sn_vc_desc_set_op(&p, SN_VC_OP_DESC);
    sn_vc_desc_set_ad(&p, ad);
    sn_vc_desc_set_fld(&p, fld);
    sn_vc_desc_set_value(&p, value);
    if (fld == 0)
        sn_vc_desc_set_value_hi(&p, value >> SN_VC_VALUE_BITS);
    return p;
}

static inline sn_payload sn_vc_run_payload(unsigned pc)
{
    sn_payload p = {{0, 0, 0, 0}};
    sn_vc_run_set_op(&p, SN_VC_OP_RUN);
    sn_vc_run_set_pc(&p, pc);
    return p;
}

#endif
