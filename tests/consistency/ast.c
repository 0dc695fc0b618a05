/* ast.c -- the harness's syntax trees: generation, near-copies and
 * equivalent rewrites (see ast.h). */
#include <config.h>
#include "ast.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* ---- the pool ------------------------------------------------------------ */

void pool_init(Pool *p)
{
	memset(p, 0, sizeof *p);
}

void pool_free(Pool *p)
{
	for (size_t i = 0; i < p->n; i++) {
		fmpz_clear(p->items[i]->num);
		free(p->items[i]);
	}
	free(p->items);
	memset(p, 0, sizeof *p);
}

static Tree *mk(Pool *p, TreeKind kind)
{
	Tree *e = xcalloc(1, sizeof *e);
	e->kind = kind;
	fmpz_init(e->num);
	mem_grow((void **)&p->items, &p->cap, p->n + 1, sizeof *p->items);
	p->items[p->n++] = e;
	return e;
}

static Tree *mk2(Pool *p, TreeKind kind, Tree *a, Tree *b)
{
	Tree *e = mk(p, kind);
	e->k[0] = a;
	e->k[1] = b;
	return e;
}

static Tree *mk_const(Pool *p, long v)
{
	Tree *e = mk(p, E_CONST);
	fmpz_set_si(e->num, v);
	return e;
}

Tree *ast_binary(Pool *p, TreeKind kind, Tree *a, Tree *b)
{
	return mk2(p, kind, a, b);
}

Tree *ast_not(Pool *p, Tree *a)
{
	return mk2(p, E_NOT, a, NULL);
}

Tree *ast_bool(Pool *p, bool v)
{
	return mk(p, v ? E_TRUE : E_FALSE);
}

static int nkids(TreeKind k)
{
	switch (k) {
	case E_NOT: case E_PREV: case E_COUNT: case E_FCOUNT: case E_SCALE:
		return 1;
	case E_AND: case E_OR: case E_IMPLIES: case E_IFF: case E_CMP:
	case E_ADD: case E_SUB: case E_MIN: case E_MAX:
		return 2;
	case E_ITE:
		return 3;
	default:
		return 0;
	}
}

/* The node alone, without its children. */
static Tree *shallow(Pool *p, const Tree *e)
{
	Tree *c = mk(p, e->kind);
	c->letter = e->letter;
	c->rel = e->rel;
	c->m = e->m;
	c->r = e->r;
	fmpz_set(c->num, e->num);
	return c;
}

static Tree *copy(Pool *p, const Tree *e)
{
	Tree *c = shallow(p, e);
	for (int i = 0; i < nkids(e->kind); i++)
		c->k[i] = copy(p, e->k[i]);
	return c;
}

/* ---- queries ------------------------------------------------------------- */

unsigned ast_letters(const Tree *e)
{
	unsigned m = 0;
	switch (e->kind) {
	case E_LETTER: case E_TAUT: case E_CONTRA: case E_ZERO:
		m = 1u << e->letter;
		break;
	default:
		break;
	}
	for (int i = 0; i < nkids(e->kind); i++)
		m |= ast_letters(e->k[i]);
	return m;
}

bool ast_has_future(const Tree *e)
{
	if (e->kind == E_FCOUNT)
		return true;
	for (int i = 0; i < nkids(e->kind); i++)
		if (ast_has_future(e->k[i]))
			return true;
	return false;
}

unsigned ast_depth(const Tree *e)
{
	unsigned d = 0;
	for (int i = 0; i < nkids(e->kind); i++) {
		unsigned k = ast_depth(e->k[i]);
		d = k > d ? k : d;
	}
	return d + (e->kind == E_COUNT || e->kind == E_FCOUNT ||
		    e->kind == E_ZERO);
}

/* ---- generation ---------------------------------------------------------- */

typedef struct {
	Pool *p;
	Rng *r;
	const AstOptions *o;
	unsigned budget;
} Gen;

static Tree *formula(Gen *g, unsigned depth);
static Tree *term(Gen *g, unsigned depth);

static bool chance(Rng *r, uint32_t percent)
{
	return rng_below(r, 100) < percent;
}

static bool step(Gen *g)
{
	if (g->budget == 0)
		return false;
	g->budget--;
	return true;
}

static int pick_letter(Gen *g)
{
	return (int)rng_below(g->r, g->o->nletters);
}

/* A number of 20 to 24 digits: beyond 64 bits. */
static void huge(Rng *r, fmpz_t v)
{
	uint32_t digits = 20 + rng_below(r, 5);
	fmpz_set_ui(v, 1 + rng_below(r, 9));
	for (uint32_t i = 1; i < digits; i++) {
		fmpz_mul_ui(v, v, 10);
		fmpz_add_ui(v, v, rng_below(r, 10));
	}
}

/* Mostly small and non-negative; now and then negative, larger, huge. */
static void constant(Rng *r, fmpz_t v)
{
	uint32_t c = rng_below(r, 100);
	if (c < 65)
		fmpz_set_ui(v, rng_below(r, 6));
	else if (c < 80)
		fmpz_set_si(v, -1 - (long)rng_below(r, 5));
	else if (c < 95)
		fmpz_set_ui(v, 6 + rng_below(r, 15));
	else
		huge(r, v);
}

static void coefficient(Rng *r, fmpz_t v)
{
	uint32_t c = rng_below(r, 100);
	if (c < 60)
		fmpz_set_ui(v, 2 + rng_below(r, 4));
	else if (c < 85)
		fmpz_set_si(v, -1 - (long)rng_below(r, 4));
	else
		huge(r, v);
}

static Tree *letter(Gen *g)
{
	Tree *e = mk(g->p, E_LETTER);
	e->letter = pick_letter(g);
	return e;
}

/* A letter spelled but simplified away. */
static Tree *vanishing(Gen *g, TreeKind kind)
{
	Tree *e = mk(g->p, kind);
	e->letter = pick_letter(g);
	return e;
}

static Tree *modulo(Gen *g)
{
	Tree *e = mk(g->p, E_MOD);
	e->m = 1 + rng_below(g->r, 4);
	e->r = rng_below(g->r, 2 * e->m);
	return e;
}

static Tree *bool_leaf(Gen *g)
{
	uint32_t c = rng_below(g->r, 100);
	if (g->o->positional && c < g->o->mod_percent)
		return modulo(g);
	if (c < 80)
		return letter(g);
	if (c < 90)
		return ast_bool(g->p, chance(g->r, 50));
	return vanishing(g, chance(g->r, 50) ? E_TAUT : E_CONTRA);
}

static Tree *count_of(Gen *g, Tree *body)
{
	bool fut = g->o->future && chance(g->r, 25);
	return mk2(g->p, fut ? E_FCOUNT : E_COUNT, body, NULL);
}

static Tree *term_leaf(Gen *g, unsigned depth)
{
	if (depth > 0 && chance(g->r, 65))
		return count_of(g, chance(g->r, 85) ? letter(g)
						    : bool_leaf(g));
	Tree *e = mk(g->p, E_CONST);
	constant(g->r, e->num);
	return e;
}

static Tree *term(Gen *g, unsigned depth)
{
	if (!step(g))
		return term_leaf(g, depth);
	uint32_t c = rng_below(g->r, 100);
	Tree *e;
	if (c < 15)
		return term_leaf(g, 0);
	if (c < 45)
		return depth > 0 ? count_of(g, formula(g, depth - 1))
				 : term_leaf(g, depth);
	if (c < 55)
		return term_leaf(g, depth);
	if (c < 65)
		return mk2(g->p, E_ADD, term(g, depth), term(g, depth));
	if (c < 72)
		return mk2(g->p, E_SUB, term(g, depth), term(g, depth));
	if (c < 80) {
		e = mk2(g->p, E_SCALE, term(g, depth), NULL);
		coefficient(g->r, e->num);
		return e;
	}
	if (c < 86) {
		e = mk2(g->p, E_ITE, formula(g, depth), term(g, depth));
		e->k[2] = term(g, depth);
		return e;
	}
	if (c < 94)
		return mk2(g->p, chance(g->r, 50) ? E_MIN : E_MAX,
			   term(g, depth), term(g, depth));
	e = vanishing(g, E_ZERO);
	return e;
}

/* Mostly a threshold (a count against a constant, MONA's fragment),
 * else two terms. */
static Tree *comparison(Gen *g, unsigned depth)
{
	Tree *e = mk(g->p, E_CMP);
	e->rel = (int)rng_below(g->r, AST_NRELS);
	if (depth > 0 && (g->o->thresholds || chance(g->r, 45))) {
		e->k[0] = count_of(g, chance(g->r, 50) ? formula(g, depth - 1)
						       : bool_leaf(g));
		if (chance(g->r, 15)) {
			e->k[0] = mk2(g->p, E_SCALE, e->k[0], NULL);
			fmpz_set_si(e->k[0]->num, chance(g->r, 50) ? 2 : -1);
		}
		/* Now and then a threshold reached only past the methods'
		 * --max-length but within brute force's reach. */
		e->k[1] = mk(g->p, E_CONST);
		fmpz_set_ui(e->k[1]->num, chance(g->r, 70)
						  ? rng_below(g->r, 5)
						  : 5 + rng_below(g->r, 5));
		if (chance(g->r, 30)) {
			Tree *t = e->k[0];
			e->k[0] = e->k[1];
			e->k[1] = t;
		}
	} else if (g->o->thresholds) {
		e->k[0] = term_leaf(g, 0);
		e->k[1] = term_leaf(g, 0);
	} else {
		e->k[0] = term(g, depth);
		e->k[1] = term(g, depth);
	}
	return e;
}

static Tree *formula(Gen *g, unsigned depth)
{
	if (!step(g))
		return bool_leaf(g);
	uint32_t c = rng_below(g->r, g->o->positional ? 100 : 88);
	if (c < 12)
		return letter(g);
	if (c < 16)
		return bool_leaf(g);
	if (c < 24)
		return ast_not(g->p, formula(g, depth));
	if (c < 40)
		return mk2(g->p, chance(g->r, 50) ? E_AND : E_OR,
			   formula(g, depth), formula(g, depth));
	if (c < 45)
		return mk2(g->p, chance(g->r, 50) ? E_IMPLIES : E_IFF,
			   formula(g, depth), formula(g, depth));
	if (c < 88)
		return comparison(g, depth);
	if (c < 94)
		return mk2(g->p, E_PREV, formula(g, depth), NULL);
	return modulo(g);
}

Tree *ast_formula(Pool *p, Rng *r, const AstOptions *o)
{
	Gen g = {p, r, o, o->size};
	return formula(&g, o->depth);
}

/* ---- near-copies --------------------------------------------------------- */

static void collect(Tree *e, Tree ***all, size_t *n, size_t *cap)
{
	mem_grow((void **)all, cap, *n + 1, sizeof **all);
	(*all)[(*n)++] = e;
	for (int i = 0; i < nkids(e->kind); i++)
		collect(e->k[i], all, n, cap);
}

/* Changes node e in place, a little; false when it has nothing to
 * change. */
static bool nudge(Tree *e, Rng *r, const AstOptions *o)
{
	switch (e->kind) {
	case E_CONST:
		if (chance(r, 50))
			fmpz_add_ui(e->num, e->num, 1);
		else
			fmpz_sub_ui(e->num, e->num, 1);
		return true;
	case E_SCALE:
		fmpz_add_ui(e->num, e->num, 1);
		return true;
	case E_CMP:
		e->rel = (e->rel + 1 + (int)rng_below(r, AST_NRELS - 1)) %
			 AST_NRELS;
		return true;
	case E_LETTER:
		if (o->nletters < 2)
			return false;
		e->letter = (e->letter + 1) % (int)o->nletters;
		return true;
	case E_AND: e->kind = E_OR; return true;
	case E_OR: e->kind = E_AND; return true;
	case E_IMPLIES: e->kind = E_IFF; return true;
	case E_IFF: e->kind = E_IMPLIES; return true;
	case E_MIN: e->kind = E_MAX; return true;
	case E_MAX: e->kind = E_MIN; return true;
	case E_TRUE: e->kind = E_FALSE; return true;
	case E_FALSE: e->kind = E_TRUE; return true;
	case E_TAUT: e->kind = E_CONTRA; return true;
	case E_CONTRA: e->kind = E_TAUT; return true;
	case E_MOD: e->r++; return true;
	case E_COUNT:
		if (!o->future)
			return false;
		e->kind = E_FCOUNT;
		return true;
	case E_FCOUNT: e->kind = E_COUNT; return true;
	default:
		return false;
	}
}

Tree *ast_mutate(Pool *p, Rng *r, const Tree *e, const AstOptions *o)
{
	Tree *c = copy(p, e);
	Tree **all = NULL;
	size_t n = 0, cap = 0;
	collect(c, &all, &n, &cap);
	/* A few tries: some nodes have nothing to change. */
	for (int t = 0; t < 8; t++)
		if (nudge(all[rng_below(r, (uint32_t)n)], r, o))
			break;
	free(all);
	return c;
}

/* ---- equivalent rewrites ------------------------------------------------- */

typedef struct {
	Pool *p;
	Rng *r;
	unsigned extra; /* letters a.. the added parts may spell */
} Rw;

static Tree *rewrite(Rw *w, const Tree *e);

static Tree *neg(Rw *w, Tree *a)
{
	return ast_not(w->p, a);
}

static Tree *zero_of(Rw *w)
{
	Tree *z = mk(w->p, E_ZERO);
	z->letter = (int)rng_below(w->r, w->extra);
	return z;
}

/* The relation with its sides exchanged: t < u iff u > t. */
static int turned(int rel)
{
	static const int t[AST_NRELS] = {5, 4, 2, 3, 1, 0};
	return t[rel];
}

static Tree *rewrite_cmp(Rw *w, const Tree *e, Tree *a, Tree *b)
{
	Tree *c = mk2(w->p, E_CMP, a, b);
	c->rel = e->rel;
	switch (rng_below(w->r, 4)) {
	case 0: /* u REL' t */
		c->k[0] = b;
		c->k[1] = a;
		c->rel = turned(e->rel);
		return c;
	case 1: /* t < u as t + 1 <= u, t > u as t >= u + 1 */
		if (e->rel == 0) {
			c->k[0] = mk2(w->p, E_ADD, a, mk_const(w->p, 1));
			c->rel = 1;
		} else if (e->rel == 5) {
			c->k[1] = mk2(w->p, E_ADD, b, mk_const(w->p, 1));
			c->rel = 4;
		}
		return c;
	case 2: { /* t < u as !(t >= u): < >=, <= >, = != swap */
		static const int opp[AST_NRELS] = {4, 5, 3, 2, 0, 1};
		c->rel = opp[e->rel];
		return neg(w, c);
	}
	default: /* t - u REL 0 */
		c->k[0] = mk2(w->p, E_SUB, a, b);
		c->k[1] = mk_const(w->p, 0);
		return c;
	}
}

static Tree *rewrite_bool(Rw *w, const Tree *e)
{
	Tree *a = nkids(e->kind) > 0 ? rewrite(w, e->k[0]) : NULL;
	Tree *b = nkids(e->kind) > 1 ? rewrite(w, e->k[1]) : NULL;
	switch (e->kind) {
	case E_AND: /* De Morgan */
		return neg(w, mk2(w->p, E_OR, neg(w, a), neg(w, b)));
	case E_OR:
		return neg(w, mk2(w->p, E_AND, neg(w, a), neg(w, b)));
	case E_IFF:
		return mk2(w->p, E_AND, mk2(w->p, E_IMPLIES, a, b),
			   mk2(w->p, E_IMPLIES, b, a));
	case E_CMP:
		return rewrite_cmp(w, e, a, b);
	case E_MOD: { /* i = r (mod m) iff i = r or r + m (mod 2m) */
		Tree *x = mk(w->p, E_MOD), *y = mk(w->p, E_MOD);
		x->m = y->m = 2 * e->m;
		x->r = e->r % e->m;
		y->r = x->r + e->m;
		return mk2(w->p, E_OR, x, y);
	}
	case E_PREV:
		if (a->kind == E_AND || a->kind == E_OR) /* Y distributes */
			return mk2(w->p, a->kind,
				   mk2(w->p, E_PREV, a->k[0], NULL),
				   mk2(w->p, E_PREV, a->k[1], NULL));
		return mk2(w->p, E_PREV, a, NULL);
	default: {
		Tree *c = copy(w->p, e);
		Tree *t = mk(w->p, chance(w->r, 50) ? E_TAUT : E_CONTRA);
		t->letter = (int)rng_below(w->r, w->extra);
		return mk2(w->p, t->kind == E_TAUT ? E_AND : E_OR, c, t);
	}
	}
}

static Tree *rewrite_int(Rw *w, const Tree *e)
{
	Tree *k[3] = {NULL, NULL, NULL};
	for (int i = 0; i < nkids(e->kind); i++)
		k[i] = rewrite(w, e->k[i]);
	switch (e->kind) {
	case E_COUNT:
	case E_FCOUNT: { /* #[phi] = #[true] - #[!phi] */
		Tree *all = mk2(w->p, e->kind, ast_bool(w->p, true), NULL);
		Tree *rest = mk2(w->p, e->kind, neg(w, k[0]), NULL);
		return mk2(w->p, E_SUB, all, rest);
	}
	case E_MIN:
	case E_MAX: { /* min(t, u) = -max(-t, -u) */
		TreeKind other = e->kind == E_MIN ? E_MAX : E_MIN;
		Tree *z = mk_const(w->p, 0);
		Tree *m = mk2(w->p, other, mk2(w->p, E_SUB, z, k[0]),
			      mk2(w->p, E_SUB, z, k[1]));
		return mk2(w->p, E_SUB, z, m);
	}
	case E_ITE: { /* (c ? t : u) = (c ? t : 0) + (!c ? u : 0) */
		Tree *x = mk2(w->p, E_ITE, k[0], k[1]);
		x->k[2] = mk_const(w->p, 0);
		Tree *y = mk2(w->p, E_ITE, neg(w, k[0]), k[2]);
		y->k[2] = mk_const(w->p, 0);
		return mk2(w->p, E_ADD, x, y);
	}
	default: {
		Tree *c = shallow(w->p, e);
		for (int i = 0; i < nkids(e->kind); i++)
			c->k[i] = k[i];
		return mk2(w->p, E_ADD, c, zero_of(w));
	}
	}
}

static bool is_int(TreeKind k)
{
	return k >= E_CONST;
}

/* Each node is rewritten with probability 1/3, else copied (its
 * children still rewritten). */
static Tree *rewrite(Rw *w, const Tree *e)
{
	if (chance(w->r, 33))
		return is_int(e->kind) ? rewrite_int(w, e) : rewrite_bool(w, e);
	Tree *c = shallow(w->p, e);
	for (int i = 0; i < nkids(e->kind); i++)
		c->k[i] = rewrite(w, e->k[i]);
	return c;
}

Tree *ast_rewrite(Pool *p, Rng *r, const Tree *e, unsigned extra_letters)
{
	Rw w = {p, r, extra_letters ? extra_letters : 1};
	return rewrite(&w, e);
}
