#include <config.h>
#include "core/store.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/vec.h"

typedef struct {
	uint8_t op, rel, flags;
	uint32_t nkids, kids; /* kids: offset into Store.kid */
	uint32_t aux, aux2;
	uint32_t depth;
	uint32_t height; /* longest path to a leaf, in nodes (saturating) */
	uint64_t size;
	uint32_t hash;
} NodeRec;

struct Store {
	VEC(NodeRec) nodes; /* index 0 is the unused NODE_NONE */
	VEC(Node) kid;
	VEC(fmpz) pool; /* constant pool: values of CONST, coefficients of MUL */
	Node *slots;    /* hash table of node ids; 0 = empty */
	size_t nslots;
	SymTab *syms;
};

/* ---- construction and inspection ---------------------------------- */

Store *store_new(void)
{
	Store *s = xcalloc(1, sizeof *s);
	NodeRec none = {0};
	VEC_PUSH(s->nodes, none);
	/* Kid offset 0 is never used: kid.data is then never NULL, and a
	 * leaf's kids pointer (NULL + 0) stays defined behaviour. */
	VEC_PUSH(s->kid, NODE_NONE);
	s->nslots = 1024;
	s->slots = xcalloc(s->nslots, sizeof *s->slots);
	s->syms = sym_new();
	return s;
}

void store_free(Store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->pool.len; i++)
		fmpz_clear(&s->pool.data[i]);
	VEC_FREE(s->pool);
	VEC_FREE(s->nodes);
	VEC_FREE(s->kid);
	free(s->slots);
	sym_free(s->syms);
	free(s);
}

SymTab *store_syms(Store *s) { return s->syms; }
size_t store_node_count(const Store *s) { return s->nodes.len - 1; }

static const NodeRec *rec(const Store *s, Node n)
{
	assert(n > 0 && n < s->nodes.len);
	return &s->nodes.data[n];
}

Op store_op(const Store *s, Node n) { return (Op)rec(s, n)->op; }
Rel store_rel(const Store *s, Node n) { return (Rel)rec(s, n)->rel; }
uint32_t store_nkids(const Store *s, Node n) { return rec(s, n)->nkids; }
const Node *store_kids(const Store *s, Node n)
{
	return s->kid.data + rec(s, n)->kids;
}
Node store_kid(const Store *s, Node n, uint32_t i)
{
	assert(i < rec(s, n)->nkids);
	return s->kid.data[rec(s, n)->kids + i];
}
uint32_t store_aux(const Store *s, Node n) { return rec(s, n)->aux; }
uint32_t store_aux2(const Store *s, Node n) { return rec(s, n)->aux2; }
Sym store_letter_sym(const Store *s, Node n) { return rec(s, n)->aux; }
uint32_t store_depth(const Store *s, Node n) { return rec(s, n)->depth; }
uint64_t store_size(const Store *s, Node n) { return rec(s, n)->size; }
uint32_t store_height(const Store *s, Node n) { return rec(s, n)->height; }
unsigned store_flags(const Store *s, Node n) { return rec(s, n)->flags; }

const fmpz *store_constant(const Store *s, Node n)
{
	const NodeRec *r = rec(s, n);
	assert(r->op == OP_CONST || r->op == OP_MUL);
	return &s->pool.data[r->aux];
}

Sort store_sort(const Store *s, Node n)
{
	return store_op(s, n) >= OP_CONST ? SORT_INT : SORT_BOOL;
}

bool store_is_bool(const Store *s, Node n)
{
	return store_sort(s, n) == SORT_BOOL;
}

static const char *const op_names[OP__COUNT] = {
	"none", "true", "false", "letter", "not", "and", "or", "cmp",
	"prev", "mod", "const", "count", "fcount", "ite", "min", "max",
	"add", "mul",
};

const char *store_op_name(Op op)
{
	return op < OP__COUNT ? op_names[op] : "?";
}

/* ---- hash-consing --------------------------------------------------- */

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
	return h;
}

static uint32_t fmpz_hash(const fmpz_t c)
{
	/* Residues modulo two primes identify the value well enough. */
	uint32_t h = (uint32_t)fmpz_fdiv_ui(c, 4294967291UL);
	return mix(h, (uint32_t)fmpz_fdiv_ui(c, 2147483647UL));
}

/* A candidate node before it is interned; the constant (if any) lives in
 * val, not yet in the pool. */
typedef struct {
	Op op;
	Rel rel;
	uint32_t aux, aux2;
	const Node *kids;
	uint32_t nkids;
	const fmpz *val; /* CONST value or MUL coefficient */
} Shape;

static uint32_t shape_hash(const Shape *k)
{
	uint32_t h = mix((uint32_t)k->op, (uint32_t)k->rel);
	h = mix(h, k->val ? fmpz_hash(k->val) : k->aux);
	h = mix(h, k->aux2);
	for (uint32_t i = 0; i < k->nkids; i++)
		h = mix(h, k->kids[i]);
	/* The table is probed by the low bits, which mix() leaves clustered
	 * for ids that differ little: a finaliser (MurmurHash3's) spreads
	 * them (lowering 4096-piece terms spent most of its time probing). */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static bool shape_equal(const Store *s, const Shape *k, Node n, uint32_t h)
{
	const NodeRec *r = rec(s, n);
	if (r->hash != h || r->op != k->op || r->rel != k->rel ||
	    r->aux2 != k->aux2 || r->nkids != k->nkids)
		return false;
	if (k->val) {
		if (!fmpz_equal(&s->pool.data[r->aux], k->val))
			return false;
	} else if (r->aux != k->aux) {
		return false;
	}
	return k->nkids == 0 ||
	       memcmp(s->kid.data + r->kids, k->kids,
		      k->nkids * sizeof(Node)) == 0;
}

static void grow_table(Store *s)
{
	free(s->slots);
	s->nslots *= 2;
	s->slots = xcalloc(s->nslots, sizeof *s->slots);
	size_t mask = s->nslots - 1;
	for (Node n = 1; n < s->nodes.len; n++) {
		size_t i = s->nodes.data[n].hash & mask;
		while (s->slots[i])
			i = (i + 1) & mask;
		s->slots[i] = n;
	}
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Depth, size and flags of a new node from its children (syntax.md). */
static void summarise(const Store *s, NodeRec *r, const Node *kids)
{
	uint32_t depth = 0, height = 0;
	uint64_t size = 1;
	unsigned flags = 0;
	for (uint32_t i = 0; i < r->nkids; i++) {
		const NodeRec *k = rec(s, kids[i]);
		if (k->depth > depth)
			depth = k->depth;
		if (k->height > height)
			height = k->height;
		size = add_sat(size, k->size);
		flags |= k->flags;
	}
	/* An n-ary operator is n-1 binary ones; a MUL also shows its constant. */
	if ((r->op == OP_AND || r->op == OP_OR || r->op == OP_ADD) &&
	    r->nkids > 2)
		size = add_sat(size, r->nkids - 2);
	if (r->op == OP_MUL)
		size = add_sat(size, 1);
	if (r->op == OP_COUNT || r->op == OP_FCOUNT)
		depth++;
	if (r->op == OP_FCOUNT)
		flags |= FLAG_FUTURE;
	if (r->op == OP_PREV)
		flags |= FLAG_PREV;
	if (r->op == OP_MOD)
		flags |= FLAG_MOD;
	r->depth = depth;
	r->height = height < UINT32_MAX ? height + 1 : height;
	r->size = size;
	r->flags = (uint8_t)flags;
}

static Node intern(Store *s, const Shape *k)
{
	uint32_t h = shape_hash(k);
	size_t mask = s->nslots - 1, i = h & mask;
	for (; s->slots[i]; i = (i + 1) & mask)
		if (shape_equal(s, k, s->slots[i], h))
			return s->slots[i];
	if (s->nodes.len >= UINT32_MAX - 1) {
		/* ids are 32-bit by design; 4e9 nodes is beyond any job */
		abort();
	}
	NodeRec r = {.op = (uint8_t)k->op,
		     .rel = (uint8_t)k->rel,
		     .nkids = k->nkids,
		     .kids = (uint32_t)s->kid.len,
		     .aux = k->aux,
		     .aux2 = k->aux2,
		     .hash = h};
	for (uint32_t j = 0; j < k->nkids; j++) {
		assert(k->kids[j] > 0 && k->kids[j] < s->nodes.len);
		VEC_PUSH(s->kid, k->kids[j]);
	}
	if (k->val) {
		fmpz v;
		fmpz_init_set(&v, k->val);
		r.aux = (uint32_t)s->pool.len;
		VEC_PUSH(s->pool, v);
	}
	summarise(s, &r, s->kid.data + r.kids);
	Node n = (Node)s->nodes.len;
	VEC_PUSH(s->nodes, r);
	s->slots[i] = n;
	if (2 * s->nodes.len > s->nslots)
		grow_table(s);
	return n;
}

StoreMark store_mark(const Store *s)
{
	return (StoreMark){s->nodes.len, s->kid.len, s->pool.len,
			   sym_count(s->syms)};
}

/* The table is filled in id order (intern, grow_table) with linear
 * probing, so emptying the slots of the newest nodes first restores it
 * exactly: no older node's probe ran past a newer one's slot. */
void store_rollback(Store *s, const StoreMark *m)
{
	assert(m->nodes >= 1 && m->nodes <= s->nodes.len);
	size_t mask = s->nslots - 1;
	for (Node n = (Node)s->nodes.len - 1; n >= m->nodes; n--) {
		size_t i = s->nodes.data[n].hash & mask;
		while (s->slots[i] != n)
			i = (i + 1) & mask;
		s->slots[i] = NODE_NONE;
	}
	for (size_t i = m->pool; i < s->pool.len; i++)
		fmpz_clear(&s->pool.data[i]);
	s->nodes.len = m->nodes;
	s->kid.len = m->kids;
	s->pool.len = m->pool;
	sym_truncate(s->syms, m->syms);
}

void store_import(Store *dst, const Store *src, const Node *roots,
		  size_t nroots, Node *out)
{
	unsigned char *mark = store_reachable(src, roots, nroots);
	Node max = 0;
	for (size_t i = 0; i < nroots; i++)
		if (roots[i] > max)
			max = roots[i];
	Node *map = xcalloc((size_t)max + 1, sizeof *map);
	VEC(Node) kids = {0};
	/* Increasing ids map to increasing ids, so operands sorted by id
	 * stay sorted and the shapes stay normal: they are interned as
	 * they are, without the constructors' rewriting. */
	for (Node v = 1; v <= max; v++) {
		if (!mark[v])
			continue;
		const NodeRec *r = rec(src, v);
		kids.len = 0;
		for (uint32_t j = 0; j < r->nkids; j++)
			VEC_PUSH(kids, map[src->kid.data[r->kids + j]]);
		Shape k = {.op = (Op)r->op, .rel = (Rel)r->rel, .aux = r->aux,
			   .aux2 = r->aux2, .kids = kids.data, .nkids = r->nkids};
		if (r->op == OP_LETTER) {
			const char *name = sym_name(src->syms, r->aux);
			k.aux = sym_intern(dst->syms, name, strlen(name));
		} else if (r->op == OP_CONST || r->op == OP_MUL) {
			k.val = &src->pool.data[r->aux];
			k.aux = 0;
		}
		map[v] = intern(dst, &k);
	}
	for (size_t i = 0; i < nroots; i++)
		out[i] = map[roots[i]];
	VEC_FREE(kids);
	free(map);
	free(mark);
}

static Node make(Store *s, Op op, const Node *kids, uint32_t n)
{
	Shape k = {.op = op, .kids = kids, .nkids = n};
	return intern(s, &k);
}

/* ---- Boolean constructors ------------------------------------------- */

Node store_make_true(Store *s) { return make(s, OP_TRUE, NULL, 0); }
Node store_make_false(Store *s) { return make(s, OP_FALSE, NULL, 0); }
Node store_make_bool(Store *s, bool b)
{
	return b ? store_make_true(s) : store_make_false(s);
}

Node store_make_letter(Store *s, Sym letter)
{
	Shape k = {.op = OP_LETTER, .aux = letter};
	return intern(s, &k);
}

Node store_make_not(Store *s, Node a)
{
	switch (store_op(s, a)) {
	case OP_TRUE: return store_make_false(s);
	case OP_FALSE: return store_make_true(s);
	case OP_NOT: return store_kid(s, a, 0); /* !!p = p */
	default: return make(s, OP_NOT, &a, 1);
	}
}

static int cmp_node(const void *a, const void *b)
{
	Node x = *(const Node *)a, y = *(const Node *)b;
	return (x > y) - (x < y);
}

static bool contains(const Node *sorted, size_t n, Node x)
{
	return bsearch(&x, sorted, n, sizeof x, cmp_node) != NULL;
}

/* AND and OR share one normaliser; `unit` is the neutral element (true for
 * AND) and `zero` the absorbing one. */
static Node make_junction(Store *s, Op op, const Node *kids, size_t n)
{
	Node unit = op == OP_AND ? store_make_true(s) : store_make_false(s);
	Node zero = op == OP_AND ? store_make_false(s) : store_make_true(s);
	VEC(Node) flat = {0};
	for (size_t i = 0; i < n; i++) {
		Node k = kids[i];
		if (k == zero) {
			VEC_FREE(flat);
			return zero;
		}
		if (k == unit)
			continue;
		if (store_op(s, k) == op) { /* flatten */
			for (uint32_t j = 0; j < store_nkids(s, k); j++)
				VEC_PUSH(flat, store_kid(s, k, j));
		} else {
			VEC_PUSH(flat, k);
		}
	}
	if (flat.len > 1) /* qsort(NULL, 0, ...) is undefined */
		qsort(flat.data, flat.len, sizeof(Node), cmp_node);
	size_t m = 0; /* drop duplicates */
	for (size_t i = 0; i < flat.len; i++)
		if (m == 0 || flat.data[m - 1] != flat.data[i])
			flat.data[m++] = flat.data[i];
	Node result = NODE_NONE;
	for (size_t i = 0; i < m && !result; i++) /* p and !p */
		if (store_op(s, flat.data[i]) == OP_NOT &&
		    contains(flat.data, m, store_kid(s, flat.data[i], 0)))
			result = zero;
	if (!result)
		result = m == 0 ? unit
			 : m == 1 ? flat.data[0]
				  : make(s, op, flat.data, (uint32_t)m);
	VEC_FREE(flat);
	return result;
}

Node store_make_and(Store *s, const Node *kids, size_t n)
{
	return make_junction(s, OP_AND, kids, n);
}
Node store_make_or(Store *s, const Node *kids, size_t n)
{
	return make_junction(s, OP_OR, kids, n);
}
Node store_make_and2(Store *s, Node a, Node b)
{
	Node k[2] = {a, b};
	return store_make_and(s, k, 2);
}
Node store_make_or2(Store *s, Node a, Node b)
{
	Node k[2] = {a, b};
	return store_make_or(s, k, 2);
}
Node store_make_implies(Store *s, Node a, Node b)
{
	return store_make_or2(s, store_make_not(s, a), b);
}
Node store_make_iff(Store *s, Node a, Node b)
{
	return store_make_or2(
		s, store_make_and2(s, a, b),
		store_make_and2(s, store_make_not(s, a), store_make_not(s, b)));
}

static bool rel_holds(Rel rel, int sign)
{
	switch (rel) {
	case REL_LT: return sign < 0;
	case REL_LE: return sign <= 0;
	case REL_EQ: return sign == 0;
	case REL_NE: return sign != 0;
	case REL_GE: return sign >= 0;
	case REL_GT: return sign > 0;
	}
	return false;
}

Node store_make_cmp(Store *s, Rel rel, Node t, Node u)
{
	Node d = store_make_sub(s, t, u); /* t REL u  <=>  t - u REL 0 */
	if (store_op(s, d) == OP_CONST)
		return store_make_bool(s, rel_holds(rel,
						    fmpz_sgn(store_constant(s, d))));
	Shape k = {.op = OP_CMP, .rel = rel, .kids = &d, .nkids = 1};
	return intern(s, &k);
}

Node store_make_prev(Store *s, Node a)
{
	if (store_op(s, a) == OP_FALSE)
		return a; /* Y false = false */
	return make(s, OP_PREV, &a, 1);
}

Node store_make_mod(Store *s, uint32_t m, uint32_t r)
{
	assert(m >= 1);
	if (m == 1)
		return store_make_true(s);
	Shape k = {.op = OP_MOD, .aux = m, .aux2 = r % m};
	return intern(s, &k);
}

/* ---- integer constructors ------------------------------------------- */

Node store_make_const(Store *s, const fmpz_t c)
{
	Shape k = {.op = OP_CONST, .val = c};
	return intern(s, &k);
}

Node store_make_const_si(Store *s, long c)
{
	fmpz_t v;
	fmpz_init_set_si(v, c);
	Node n = store_make_const(s, v);
	fmpz_clear(v);
	return n;
}

Node store_make_count(Store *s, Node a)
{
	if (store_op(s, a) == OP_FALSE)
		return store_make_const_si(s, 0);
	return make(s, OP_COUNT, &a, 1);
}

Node store_make_fcount(Store *s, Node a)
{
	if (store_op(s, a) == OP_FALSE)
		return store_make_const_si(s, 0);
	return make(s, OP_FCOUNT, &a, 1);
}

Node store_make_ite(Store *s, Node c, Node t, Node u)
{
	if (store_op(s, c) == OP_TRUE || t == u)
		return t;
	if (store_op(s, c) == OP_FALSE)
		return u;
	if (store_op(s, c) == OP_NOT) /* (!p ? t : u) = (p ? u : t) */
		return store_make_ite(s, store_kid(s, c, 0), u, t);
	Node k[3] = {c, t, u};
	return make(s, OP_ITE, k, 3);
}

static Node make_extremum(Store *s, Op op, Node t, Node u)
{
	if (t == u)
		return t;
	if (store_op(s, t) == OP_CONST && store_op(s, u) == OP_CONST) {
		int c = fmpz_cmp(store_constant(s, t), store_constant(s, u));
		return (op == OP_MIN) == (c <= 0) ? t : u;
	}
	Node k[2] = {t < u ? t : u, t < u ? u : t}; /* commutative: sort */
	return make(s, op, k, 2);
}

Node store_make_min(Store *s, Node t, Node u)
{
	return make_extremum(s, OP_MIN, t, u);
}
Node store_make_max(Store *s, Node t, Node u)
{
	return make_extremum(s, OP_MAX, t, u);
}

void store_linear_free(Linear *l)
{
	for (size_t i = 0; i < l->n; i++)
		fmpz_clear(&l->coefs[i]);
	free(l->coefs);
	free(l->atoms);
	fmpz_clear(l->constant);
	l->n = 0;
	l->coefs = NULL;
	l->atoms = NULL;
}

/* Append c * t to an unmerged linear list. */
static void linear_add(const Store *s, Linear *l, size_t *cap, const fmpz_t c,
		       Node t)
{
	switch (store_op(s, t)) {
	case OP_CONST:
		fmpz_addmul(l->constant, c, store_constant(s, t));
		return;
	case OP_ADD:
		for (uint32_t i = 0; i < store_nkids(s, t); i++)
			linear_add(s, l, cap, c, store_kid(s, t, i));
		return;
	case OP_MUL: {
		fmpz_t cc;
		fmpz_init(cc);
		fmpz_mul(cc, c, store_constant(s, t));
		linear_add(s, l, cap, cc, store_kid(s, t, 0));
		fmpz_clear(cc);
		return;
	}
	default:
		if (l->n == *cap) {
			size_t c2 = *cap;
			mem_grow((void **)&l->atoms, &c2, l->n + 1, sizeof(Node));
			l->coefs = xrealloc(l->coefs, c2 * sizeof(fmpz));
			*cap = c2;
		}
		l->atoms[l->n] = t;
		fmpz_init_set(&l->coefs[l->n], c);
		l->n++;
	}
}

typedef struct {
	Node atom;
	fmpz coef;
} Pair;

static int cmp_pair(const void *a, const void *b)
{
	return cmp_node(&((const Pair *)a)->atom, &((const Pair *)b)->atom);
}

/* Sorts by atom id.  An fmpz is one word that may be moved bitwise (as
 * fmpz_swap does), so the pairs travel through qsort: O(n log n) on the
 * million-term sums of hostile inputs. */
static void linear_sort(Linear *l)
{
	Pair *p = xmalloc(l->n * sizeof *p);
	for (size_t i = 0; i < l->n; i++)
		p[i] = (Pair){l->atoms[i], l->coefs[i]};
	qsort(p, l->n, sizeof *p, cmp_pair);
	for (size_t i = 0; i < l->n; i++) {
		l->atoms[i] = p[i].atom;
		l->coefs[i] = p[i].coef;
	}
	free(p);
}

/* Sort by atom id, merge equal atoms, drop zero coefficients. */
static void linear_merge(Linear *l)
{
	if (l->n > 1)
		linear_sort(l);
	size_t m = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (m > 0 && l->atoms[m - 1] == l->atoms[i]) {
			fmpz_add(&l->coefs[m - 1], &l->coefs[m - 1], &l->coefs[i]);
			continue;
		}
		if (m > 0 && fmpz_is_zero(&l->coefs[m - 1]))
			m--;
		l->atoms[m] = l->atoms[i];
		fmpz_swap(&l->coefs[m], &l->coefs[i]);
		m++;
	}
	if (m > 0 && fmpz_is_zero(&l->coefs[m - 1]))
		m--;
	for (size_t i = m; i < l->n; i++)
		fmpz_clear(&l->coefs[i]);
	l->n = m;
}

static void linear_collect(const Store *s, const Node *kids, size_t n,
			   const fmpz_t scale, Linear *l)
{
	size_t cap = 0;
	l->n = 0;
	l->atoms = NULL;
	l->coefs = NULL;
	fmpz_init(l->constant);
	for (size_t i = 0; i < n; i++)
		linear_add(s, l, &cap, scale, kids[i]);
	linear_merge(l);
}

void store_linear(const Store *s, Node t, Linear *out)
{
	fmpz_t one;
	fmpz_init_set_ui(one, 1);
	linear_collect(s, &t, 1, one, out);
	fmpz_clear(one);
}

static Node make_term(Store *s, const fmpz_t c, Node atom)
{
	if (fmpz_is_one(c))
		return atom;
	Shape k = {.op = OP_MUL, .val = c, .kids = &atom, .nkids = 1};
	return intern(s, &k);
}

/* Rebuild the canonical node of a merged linear form. */
static Node linear_build(Store *s, const Linear *l)
{
	if (l->n == 0)
		return store_make_const(s, l->constant);
	if (l->n == 1 && fmpz_is_zero(l->constant))
		return make_term(s, &l->coefs[0], l->atoms[0]);
	Node *k = xmalloc((l->n + 1) * sizeof *k);
	for (size_t i = 0; i < l->n; i++)
		k[i] = make_term(s, &l->coefs[i], l->atoms[i]);
	size_t m = l->n;
	if (!fmpz_is_zero(l->constant))
		k[m++] = store_make_const(s, l->constant);
	Node r = make(s, OP_ADD, k, (uint32_t)m);
	free(k);
	return r;
}

static Node make_linear(Store *s, const Node *kids, size_t n, const fmpz_t c)
{
	Linear l;
	linear_collect(s, kids, n, c, &l);
	Node r = linear_build(s, &l);
	store_linear_free(&l);
	return r;
}

Node store_make_add(Store *s, const Node *kids, size_t n)
{
	fmpz_t one;
	fmpz_init_set_ui(one, 1);
	Node r = make_linear(s, kids, n, one);
	fmpz_clear(one);
	return r;
}

Node store_make_add2(Store *s, Node t, Node u)
{
	Node k[2] = {t, u};
	return store_make_add(s, k, 2);
}

Node store_make_scale(Store *s, const fmpz_t c, Node t)
{
	return make_linear(s, &t, 1, c);
}

Node store_make_neg(Store *s, Node t)
{
	fmpz_t m1;
	fmpz_init_set_si(m1, -1);
	Node r = make_linear(s, &t, 1, m1);
	fmpz_clear(m1);
	return r;
}

Node store_make_sub(Store *s, Node t, Node u)
{
	return store_make_add2(s, t, store_make_neg(s, u));
}

/* ---- whole-DAG queries ---------------------------------------------- */

/* Ids are topological, so one downward sweep over ids marks everything
 * below the roots: no recursion on deep DAGs. */
unsigned char *store_reachable(const Store *s, const Node *roots, size_t n)
{
	Node top = 0;
	for (size_t r = 0; r < n; r++)
		if (roots[r] > top)
			top = roots[r];
	unsigned char *mark = xcalloc((size_t)top + 1, 1);
	for (size_t r = 0; r < n; r++)
		mark[roots[r]] = 1;
	for (Node v = top; v > 0; v--) {
		if (!mark[v])
			continue;
		for (uint32_t i = 0; i < store_nkids(s, v); i++)
			mark[store_kid(s, v, i)] = 1;
	}
	return mark;
}

static unsigned char *reachable(const Store *s, Node root)
{
	return store_reachable(s, &root, 1);
}

size_t store_dag_size(const Store *s, Node root)
{
	unsigned char *mark = reachable(s, root);
	size_t count = 0;
	for (Node n = 1; n <= root; n++)
		count += mark[n];
	free(mark);
	return count;
}

static int cmp_sym(const void *a, const void *b)
{
	Sym x = *(const Sym *)a, y = *(const Sym *)b;
	return (x > y) - (x < y);
}

Sym *store_letters(const Store *s, Node root, size_t *count)
{
	return store_letters_of(s, &root, 1, count);
}

Sym *store_letters_of(const Store *s, const Node *roots, size_t nroots,
		      size_t *count)
{
	unsigned char *mark = store_reachable(s, roots, nroots);
	Node top = 0;
	for (size_t r = 0; r < nroots; r++)
		if (roots[r] > top)
			top = roots[r];
	VEC(Sym) out = {0};
	for (Node n = 1; n <= top; n++)
		if (mark[n] && store_op(s, n) == OP_LETTER)
			VEC_PUSH(out, store_letter_sym(s, n));
	free(mark);
	if (out.len > 1) /* qsort(NULL, 0, ...) is undefined */
		qsort(out.data, out.len, sizeof(Sym), cmp_sym);
	*count = out.len;
	return out.data;
}
