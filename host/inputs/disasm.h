/* Decoding CU_INST payloads for `sysnode dump`: every field of the payload
 * layout of the unit type at the target (vector core: IMEM / DESC / RUN and
 * the 32-bit kernel word an IMEM write carries; matmul cluster: FILL / GEMM
 * / DRAIN), as raw named values and as one readable line. Layouts:
 * sysnode-facts §3.2-§3.3 and artifacts-facts §3.4; kernel words as
 * sim/models/vector_core.c executes them. Field names are the compiler's
 * (the keys of each case's disasm.txt). */
#ifndef SN_HOST_DISASM_H
#define SN_HOST_DISASM_H

#include <stdint.h>

#include "sysnode/regs.h"
#include "sysnode/table.h"

#define SN_DISASM_MAX_FIELDS 32

typedef struct {
    const char *name; /* e.g. "addr", "n", "dst_x" */
    uint64_t value;   /* the raw field; MG addr includes addr_hi, DESC value excludes value_hi */
} sn_disasm_field;

typedef struct {
    const char *unit; /* "VC", "MG", or "none" when the mesh has no unit there */
    const char *op;   /* "IMEM", "DESC", "RUN", "FILL", "GEMM", "DRAIN", "NOP" (an opcode the unit
                         retires as a no-op), or "?" (no unit) */
    const char *insn; /* IMEM only: the kernel word's mnemonic ("VSETI", ...), or ".imm" when the
                         word is the immediate of the VSETI written just before it; else NULL */
    unsigned field_count;
    sn_disasm_field fields[SN_DISASM_MAX_FIELDS]; /* in layout order, op first */
    char text[192]; /* e.g. "IMEM[0] = 0xd0000000  VSETI S0", "FILL A addr=0x1000 n=1 sel=0 ..." */
} sn_disasm;

/* What the decoder remembers between payloads: per node, the IMEM address
 * whose word is a pending VSETI immediate (-1 for none). A VSETI takes two
 * kernel words (sysnode-facts §3.2), so the word written to the next
 * address is data, not an instruction. */
typedef struct {
    int16_t imm_addr[SN_NODE_COUNT];
} sn_disasm_state;

/* Resets *s: no VSETI pending at any node. */
void sn_disasm_init(sn_disasm_state *s);

/* Decodes `row` (mailbox order {ARG3, ARG2, ARG1, ARG0}) as sent to node
 * (x, y) whose unit type is cu_type (SN_CU_TYPE_VC, SN_CU_TYPE_MG, or 0 for
 * none) into *out. Feed a node's payloads in the order it receives them
 * (kick order): *s tracks VSETI immediates per node. Never fails: an
 * unknown opcode decodes as "NOP" (vector core, which retires it as a
 * no-op) or as "op N" with its raw fields. */
void sn_disasm_payload(sn_disasm_state *s, unsigned x, unsigned y, uint16_t cu_type,
                       const sn_table_row *row, sn_disasm *out);

/* The value of field `name` in *d, or -1 cast to uint64_t (all ones) when
 * the op has no such field; *found (may be NULL) says which. */
uint64_t sn_disasm_get(const sn_disasm *d, const char *name, int *found);

#endif
