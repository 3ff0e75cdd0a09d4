/* A strict JSON layer for artifacts and manifests: every number's text is
 * kept whole, which 256-bit flits need (DESIGN.md §5), and nothing lenient
 * passes ("01", "12a4", "tru", stray ',' and ':', documents glued back to
 * back; tool-pitfalls 14). The text is checked against the JSON grammar
 * (RFC 8259) and tokenized in one pass; every error names the file,
 * line:column and byte offset.
 *
 * Values are addressed by handles (int >= 0; -1 = none) into a parsed
 * document: a token index, or for an element of an array of short scalars
 * its offset in the text. Handles come only from the lookups below and are
 * compared with -1, never computed. A document owns its text and is
 * immutable. */
#ifndef SN_HOST_JSON_H
#define SN_HOST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct sn_json sn_json;

/* Deepest nesting accepted. Real documents nest 4 deep; the limit bounds
 * the checker's stack of open containers. */
#define SN_JSON_MAX_DEPTH 1000

typedef enum {
    SN_JSON_OBJECT = 1,
    SN_JSON_ARRAY,
    SN_JSON_STRING,
    SN_JSON_NUMBER,
    SN_JSON_BOOL,
    SN_JSON_NULL,
} sn_json_kind;

/* Validates and tokenizes `len` bytes of `text` (a copy is kept) into a new
 * document *out (NULL on failure; free with sn_json_free); `name` labels
 * every message. The root must be an object or an array, nested at most
 * SN_JSON_MAX_DEPTH deep. SN_ERR_INPUT on invalid JSON (message:
 * "name:line:col (byte N): reason", N counted from 0) and on a document over
 * SN_FILE_MAX_BYTES (file_read.h; 2^30: a token keeps two flags beside the offset);
 * SN_ERR_INTERNAL when memory runs out. */
sn_status sn_json_parse(const char *name, const char *text, size_t len, sn_json **out,
                        sn_error *e);

/* sn_file_read + sn_json_parse, labelled with `path`; the document keeps
 * the file's buffer (no copy), so memory is the file plus 8 bytes per
 * object or array and 4 per member name, member value and element of an
 * array that holds an object or array; an array of scalars costs only its
 * 8 bytes once closed (json.c: leaves). */
sn_status sn_json_load(const char *path, sn_json **out, sn_error *e);

/* sn_json_load of the file already open as `fd`, labelled `path` (see
 * sn_file_read_fd, file_read.h); closes fd. */
sn_status sn_json_load_fd(int fd, const char *path, sn_json **out, sn_error *e);

/* sn_json_load_fd into *doc, reusing the text and token buffers of the
 * document an earlier call left there (NULL at first), grown to the largest
 * file: a reader of many files in a row (a case's artifacts) allocates per
 * larger file, not per file. The previous content is gone, also on failure;
 * *doc is the caller's to sn_json_free in every case. Errors as
 * sn_json_load_fd's. */
sn_status sn_json_reload_fd(int fd, const char *path, sn_json **doc, sn_error *e);

/* Frees a document; NULL is allowed. */
void sn_json_free(sn_json *doc);

/* The label given at parse time (the file path). */
const char *sn_json_name(const sn_json *doc);

/* The root value's token index (always 0 for a parsed document). */
int sn_json_root(const sn_json *doc);

/* The kind of value v. */
sn_json_kind sn_json_kind_of(const sn_json *doc, int v);

/* Elements of an array or members of an object (counted along the
 * container, so linear in them); 0 for any other value. */
size_t sn_json_count(const sn_json *doc, int v);

/* First element of array v, or first member *name* of object v; -1 if empty
 * or v is not a container. */
int sn_json_first(const sn_json *doc, int v);

/* The element or member name after v in the same container; -1 at the end
 * and for a member's value (its name is what has a next). */
int sn_json_next(const sn_json *doc, int v);

/* The value of the object member whose name token is `key`. */
int sn_json_value(const sn_json *doc, int key);

/* Raw text of a value: a number's digits, a string's bytes between the
 * quotes (escapes not decoded), a literal's word, a container's opening
 * bracket. *len receives its length. */
const char *sn_json_raw(const sn_json *doc, int v, size_t *len);

/* Records an error located at value v: "name:line:col (byte N): message",
 * with N the value's first byte (a string's opening quote). Returns code. */
sn_status sn_json_fail(const sn_json *doc, int v, sn_status code, sn_error *e,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* SN_OK if v is of `kind`, else SN_ERR_INPUT at v: "<what> must be an
 * array, found a string". */
sn_status sn_json_expect(const sn_json *doc, int v, sn_json_kind kind, const char *what,
                         sn_error *e);

/* Finds member `key` of object `obj` and stores its value's index in *out.
 * An absent member gives *out = -1 and SN_OK when !required, else
 * SN_ERR_INPUT at obj. A name given twice is SN_ERR_INPUT at the second
 * (RFC 8259 §4 leaves duplicates undefined, so they are refused). */
sn_status sn_json_member(const sn_json *doc, int obj, const char *key, bool required, int *out,
                         sn_error *e);

/* Reads v as an integer in min..max: plain decimal digits, no sign,
 * fraction, exponent or leading zero. SN_ERR_INPUT at v otherwise, naming
 * `what`, the range and the text found. */
sn_status sn_json_u64(const sn_json *doc, int v, uint64_t min, uint64_t max, const char *what,
                      uint64_t *out, sn_error *e);

/* Decodes string v (escapes, \uXXXX to UTF-8) into a fresh NUL-terminated
 * heap string *out, which the caller frees. SN_ERR_INPUT at v if v is not a
 * string or contains \u0000 (a C string would truncate it silently). */
sn_status sn_json_string(const sn_json *doc, int v, const char *what, char **out, sn_error *e);

/* True when v is a string whose decoded text equals s. */
bool sn_json_string_is(const sn_json *doc, int v, const char *s);

#endif
