/* json -- machine-readable output through jansson.
 *
 * Every top-level object carries "tally_version".  Returned json_t values
 * are new references the caller releases with json_decref().
 */
#ifndef TALLY_JSON_H
#define TALLY_JSON_H

#include <jansson.h>

#include "base/diag.h"
#include "core/store.h"

/* {"tally_version": ..., "command": NAME} to which a command adds its
 * fields (tally(1), JSON OUTPUT); NAME is json_set_command()'s. */
json_t *json_envelope(void);
/* The command every envelope names (main.c sets it before running one;
 * a command may refine it, "check --sat"). */
void json_set_command(const char *name);
/* "input": the 1-based index of the input among the command's inputs,
 * "source": where it was read (-f, FILE, FILE:LINE, <stdin>:LINE). */
void json_set_input(json_t *o, size_t index, const Source *src);
/* The DAG below root: {"root": id, "nodes": [{"id", "op", ...}, ...]} in
 * topological order, so shared subformulas appear once. */
json_t *json_formula(const Store *s, Node root);
/* An alphabet: its letters' names as a list, in alphabet order. */
json_t *json_letters(const SymTab *syms, const Sym *letters, size_t n);
/* An exact integer: a JSON integer when it fits 53 bits, else a string. */
json_t *json_fmpz(const fmpz_t v);
/* A count: a JSON integer below 2^53, else a string of digits;
 * UINT64_MAX (a saturated count) is ">18446744073709551614". */
json_t *json_size(uint64_t v);
/* Prints compactly on one line and a newline; releases v. */
void json_emit(json_t *v);

#endif
