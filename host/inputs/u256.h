/* Decimal text of a JSON integer -> 256-bit payload. The compiler writes
 * flits as plain JSON integers of up to 82 digits, some carrying CU_INST
 * header bits 271:256 above the payload; a runner keeps bits 255:0 only
 * (DESIGN.md §2, artifacts-facts §1.1 "Flits may be wider than 256 bits"). */
#ifndef SN_HOST_U256_H
#define SN_HOST_U256_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "sysnode/field.h"

/* Parses `len` bytes of `text` as a non-negative decimal integer and stores
 * its value modulo 2^256 in *out (sysnode/field.h's word order). *masked is set
 * when any of bits 287:256 was set (those bits are dropped, as the runner
 * must). Rejected with SN_ERR_INPUT and a message quoting the text: empty
 * text, a sign ('-' or '+'), a leading zero ("01"), a fraction, an exponent,
 * any other non-digit, and any value >= 2^288 (wider than a whole 288-bit
 * flit, sysnode-facts §3.1, so not a payload). *out and *masked are written
 * only on success. */
sn_status sn_u256_parse(const char *text, size_t len, sn_payload *out, bool *masked,
                        sn_error *e);

#endif
