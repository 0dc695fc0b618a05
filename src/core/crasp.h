/* crasp -- TL[#] as C-RASP programs (logic.md §4.1): the program layout
 * shared by the printers, `tally info` and the dot graph.
 *
 * A CraspProgram lists the definitions of the program computing a root
 * node: one per DAG node that is an operation of C-RASP (counting,
 * comparison, Boolean connective, conditional, min, max), in increasing id
 * order, which is a topological order.  Linear arithmetic (sums, constant
 * multiples, constants) is written inline inside the operation that uses
 * it, and so is a letter test directly under a count; a user-named node
 * is always a definition and keeps its name.  Generated names are
 * readable: C_a for #Q_a, C_V for #V, P_a for Q_a, P1, P2, ... for other
 * Boolean definitions and N1, N2, ... for integer ones; the unnamed root
 * is `out`.
 *
 * Two-sided counts (#>) have no C-RASP counterpart: printing a program
 * that contains one fails with a message.  Y and MOD are kept as the
 * positional extension (C-RASP[local, periodic]).
 *
 * Ownership: a CraspProgram owns its arrays; names are Syms interned in
 * the Store's symbol table.  Nodes belong to the Store, which must not be
 * freed before the program.
 */
#ifndef TALLY_CRASP_H
#define TALLY_CRASP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "core/store.h"
#include "core/unit.h"

typedef struct {
	Node node;
	Sym name;
	bool is_count; /* a counting operation (an attention head) */
} CraspDef;

typedef struct {
	CraspDef *defs; /* topological order; the root is last */
	size_t ndefs;
	Sym *name_of;   /* indexed by node id: the definition's name or SYM_NONE */
	size_t nnodes;  /* length of name_of */
	Node root;
} CraspProgram;

typedef enum {
	CRASP_COMPACT, /* Ca := #Q_a, V := Ca < Cb */
	CRASP_PAPER,   /* Ca(i) := #[j <= i] Q_a(j), V(i) := Ca(i) < Cb(i) */
} CraspForm;

/* Lays out the program for root; user_names (indexed by node id, may be
 * NULL) gives names to keep.  Future counts are laid out like counts (for
 * `tally info` and dot graphs) but cannot be printed as C-RASP. */
void crasp_program(Store *s, Node root, const Sym *user_names,
		   CraspProgram *out);
void crasp_program_free(CraspProgram *p);

/* The program as text, one definition per line; false, with a message
 * in *err (malloc'd), when it counts the future. */
bool crasp_print(Buf *out, Store *s, const CraspProgram *p, CraspForm form,
		 char **err);

/* The right side of definition n alone. */
void crasp_print_body(Buf *out, Store *s, const CraspProgram *p, Node n,
		      CraspForm form);

/* Per layer (= depth) counts: counts[d] counting operations and
 * pointwise[d] other definitions of depth d, for d = 0..depth(root).
 * The arrays are malloc'd with depth(root) + 1 entries. */
void crasp_layers(const Store *s, const CraspProgram *p, size_t **counts,
		  size_t **pointwise);

/* A letter's name as part of an identifier (C_a, C_lpar): itself when
 * identifier-like, a word for common punctuation, else its bytes in hex. */
void crasp_letter_stem(Buf *b, const char *letter);

/* Calls visit(node) for every definition or letter that definition d reads
 * directly (each once; letters as their OP_LETTER node). */
void crasp_reads(const Store *s, const CraspProgram *p, Node d,
		 void (*visit)(Node, void *), void *arg);

#endif
