/* store -- the hash-consed DAG shared by TL[#] formulas and C-RASP programs.
 *
 * A Node is a uint32_t id into a Store.  Nodes are immutable and
 * hash-consed: structurally equal nodes have the same id, and a node's
 * children always have smaller ids than the node itself, so increasing id
 * order is a topological order.  Smart constructors (store_make_*) apply
 * the conservative normalisations listed in logic/README.md.
 *
 * Ownership: every node, constant and symbol belongs to its Store; a Store
 * lives as long as its job (a CLI run, a REPL session) and is freed whole.
 * Pointers returned by store_kids() and store_constant() are valid until
 * the next node is created.
 */
#ifndef TALLY_STORE_H
#define TALLY_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <flint/fmpz.h>

#include "base/sym.h"

typedef uint32_t Node;
#define NODE_NONE 0u

typedef enum {
	OP_NONE,
	/* Boolean sort */
	OP_TRUE,
	OP_FALSE,
	OP_LETTER, /* Q_sigma: aux = letter Sym */
	OP_NOT,
	OP_AND, /* n-ary, kids sorted by id, no duplicates */
	OP_OR,
	OP_CMP,  /* kids[0] REL 0, rel in node.rel */
	OP_PREV, /* Y phi */
	OP_MOD,  /* i = aux2 (mod aux), 1-based i */
	/* integer sort */
	OP_CONST,  /* aux = index of the value in the constant pool */
	OP_COUNT,  /* #[phi], inclusive past count */
	OP_FCOUNT, /* #>[phi], inclusive future count */
	OP_ITE,    /* (phi ? t : u) */
	OP_MIN,
	OP_MAX,
	OP_ADD, /* n-ary sum: terms sorted by atom, then one optional CONST */
	OP_MUL, /* aux = constant pool index of c (c not 0, 1), kids[0] atom */
	OP__COUNT
} Op;

typedef enum { REL_LT, REL_LE, REL_EQ, REL_NE, REL_GE, REL_GT } Rel;
typedef enum { SORT_BOOL, SORT_INT } Sort;

/* Fragment flags, cached per node. */
enum {
	FLAG_FUTURE = 1,   /* contains #> */
	FLAG_PREV = 2,     /* contains Y */
	FLAG_MOD = 4,      /* contains MOD */
};

typedef struct Store Store;

Store *store_new(void);
void store_free(Store *s);
SymTab *store_syms(Store *s);
size_t store_node_count(const Store *s); /* ids are 1..count */

/* A point to come back to: store_rollback forgets every node, constant
 * and symbol made after store_mark, leaving the store as it was then
 * (the same ids for whatever is made next).  The fuzz targets run each
 * input over a prelude parsed once.  Nodes made after the mark must no
 * longer be used (nor Syms, nor Defs naming them). */
typedef struct {
	size_t nodes, kids, pool, syms;
} StoreMark;
StoreMark store_mark(const Store *s);
void store_rollback(Store *s, const StoreMark *m);

/* Inspection */
Op store_op(const Store *s, Node n);
Sort store_sort(const Store *s, Node n);
Rel store_rel(const Store *s, Node n);
uint32_t store_nkids(const Store *s, Node n);
const Node *store_kids(const Store *s, Node n);
Node store_kid(const Store *s, Node n, uint32_t i);
uint32_t store_aux(const Store *s, Node n);
uint32_t store_aux2(const Store *s, Node n);
Sym store_letter_sym(const Store *s, Node n);
/* The value of an OP_CONST node, or the coefficient of an OP_MUL node. */
const fmpz *store_constant(const Store *s, Node n);
uint32_t store_depth(const Store *s, Node n);
uint64_t store_size(const Store *s, Node n); /* saturating */
/* Nodes on the longest path down to a leaf (a letter is 1): how deep a
 * recursive walk of the expanded tree goes. */
uint32_t store_height(const Store *s, Node n);
unsigned store_flags(const Store *s, Node n);
bool store_is_bool(const Store *s, Node n);

/* Smart constructors (Boolean). */
Node store_make_true(Store *s);
Node store_make_false(Store *s);
Node store_make_bool(Store *s, bool b);
Node store_make_letter(Store *s, Sym letter);
Node store_make_not(Store *s, Node a);
Node store_make_and(Store *s, const Node *kids, size_t n);
Node store_make_or(Store *s, const Node *kids, size_t n);
Node store_make_and2(Store *s, Node a, Node b);
Node store_make_or2(Store *s, Node a, Node b);
Node store_make_implies(Store *s, Node a, Node b);
Node store_make_iff(Store *s, Node a, Node b);
Node store_make_cmp(Store *s, Rel rel, Node t, Node u);
Node store_make_prev(Store *s, Node a);
/* MOD(m, r): m >= 1; r is reduced modulo m. */
Node store_make_mod(Store *s, uint32_t m, uint32_t r);

/* Smart constructors (integer). */
Node store_make_const(Store *s, const fmpz_t c);
Node store_make_const_si(Store *s, long c);
Node store_make_count(Store *s, Node a);
Node store_make_fcount(Store *s, Node a);
Node store_make_ite(Store *s, Node c, Node t, Node u);
Node store_make_min(Store *s, Node t, Node u);
Node store_make_max(Store *s, Node t, Node u);
Node store_make_add(Store *s, const Node *kids, size_t n);
Node store_make_add2(Store *s, Node t, Node u);
Node store_make_sub(Store *s, Node t, Node u);
Node store_make_scale(Store *s, const fmpz_t c, Node t);
Node store_make_neg(Store *s, Node t);

/* Split a linear term into (coefficient, atom) pairs and a constant:
 * atoms[i] are non-ADD, non-MUL, non-CONST nodes.  Arrays are malloc'd
 * (coefs holds initialised fmpz the caller clears with store_linear_free).
 */
typedef struct {
	size_t n;
	Node *atoms;
	fmpz *coefs;
	fmpz_t constant;
} Linear;
void store_linear(const Store *s, Node t, Linear *out);
void store_linear_free(Linear *l);

/* The letters a node mentions, sorted by Sym; malloc'd array. */
Sym *store_letters(const Store *s, Node root, size_t *count);
/* The same for several roots in one sweep (linear in the DAG, however
 * many roots share it). */
Sym *store_letters_of(const Store *s, const Node *roots, size_t nroots,
		      size_t *count);

/* mark[v] = 1 for every node v reachable from one of the roots: a
 * malloc'd array indexed by node id up to the largest root. */
unsigned char *store_reachable(const Store *s, const Node *roots, size_t n);

/* Copies the nodes reachable from roots into dst (letters by name):
 * out[i] is the copy of roots[i], with the same shape, depth and size.
 * Work on a small part of a large store (the REPL's values) costs what
 * that part costs, not the whole store. */
void store_import(Store *dst, const Store *src, const Node *roots,
		  size_t nroots, Node *out);

/* Distinct nodes reachable from root (the DAG size). */
size_t store_dag_size(const Store *s, Node root);

const char *store_op_name(Op op);

#endif
