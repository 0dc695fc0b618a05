/* json -- machine-readable output through jansson.
 *
 * Every top-level object carries "tally_version".  Returned json_t values
 * are new references the caller releases with json_decref().
 */
#ifndef TALLY_JSON_H
#define TALLY_JSON_H

#include <jansson.h>

#include "store.h"

/* {"tally_version": ...} to which a command adds its fields. */
json_t *json_envelope(void);
/* The DAG below root: {"root": id, "nodes": [{"id", "op", ...}, ...]} in
 * topological order, so shared subformulas appear once. */
json_t *json_formula(const Store *s, Node root);
/* An exact integer: a JSON integer when it fits 53 bits, else a string. */
json_t *json_fmpz(const fmpz_t v);
/* A count: a JSON integer below 2^53, else a string of digits;
 * UINT64_MAX (a saturated count) is ">18446744073709551614". */
json_t *json_size(uint64_t v);
/* Prints compactly on one line and a newline; releases v. */
void json_emit(json_t *v);

#endif
