/* randgen.c -- see randgen.h. */
#include <config.h>
#include "randgen.h"

#include <stdlib.h>
#include <string.h>

#include "base/splitmix.h"

/* ---- splitmix64 ----------------------------------------------------- */

void rng_seed(Rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t rng_next(Rng *r)
{
	return splitmix64_next(&r->s);
}

uint32_t rng_below(Rng *r, uint32_t n)
{
	/* The high 32 bits scaled to [0, n): bias below 2^-32 per value. */
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* ---- the generator ------------------------------------------------- */

typedef struct {
	Store *s;
	Rng *r;
	const GenOptions *o;
	unsigned budget; /* steps left before only leaves are made */
} Gen;

static Node formula(Gen *g, unsigned depth);
static Node term(Gen *g, unsigned depth);

static bool chance(Gen *g, uint32_t percent)
{
	return rng_below(g->r, 100) < percent;
}

/* One step of the budget; false once it is spent. */
static bool step(Gen *g)
{
	if (g->budget == 0)
		return false;
	g->budget--;
	return true;
}

static Node letter(Gen *g)
{
	if (g->o->nletters == 0)
		return store_make_bool(g->s, rng_below(g->r, 2));
	Sym l = g->o->letters[rng_below(g->r, (uint32_t)g->o->nletters)];
	return store_make_letter(g->s, l);
}

static void huge(Gen *g, fmpz_t v)
{
	uint32_t digits = 40 + rng_below(g->r, 30);
	fmpz_set_ui(v, 1 + rng_below(g->r, 9));
	for (uint32_t i = 1; i < digits; i++) {
		fmpz_mul_ui(v, v, 10);
		fmpz_add_ui(v, v, rng_below(g->r, 10));
	}
}

/* A constant: small and mostly non-negative; extended also negative and
 * rarely huge. */
static void constant(Gen *g, fmpz_t v)
{
	if (g->o->extended && chance(g, 3))
		huge(g, v);
	else
		fmpz_set_ui(v, rng_below(g->r, 6));
	if (g->o->extended && chance(g, 25))
		fmpz_neg(v, v);
}

static Node const_node(Gen *g)
{
	fmpz_t v;
	fmpz_init(v);
	constant(g, v);
	Node n = store_make_const(g->s, v);
	fmpz_clear(v);
	return n;
}

static Node count(Gen *g, unsigned depth)
{
	Node body = formula(g, depth - 1);
	if (g->o->future && chance(g, 30))
		return store_make_fcount(g->s, body);
	return store_make_count(g->s, body);
}

static Node term_leaf(Gen *g, unsigned depth)
{
	if (depth > 0 && chance(g, 60)) {
		Node l = letter(g);
		return g->o->future && chance(g, 30) ? store_make_fcount(g->s, l)
						     : store_make_count(g->s, l);
	}
	return const_node(g);
}

static Node term(Gen *g, unsigned depth)
{
	if (!step(g))
		return term_leaf(g, depth);
	uint32_t kinds = g->o->extended ? 9 : 4;
	switch (rng_below(g->r, kinds)) {
	case 0: return const_node(g);
	case 1:
		if (depth > 0)
			return count(g, depth);
		return term_leaf(g, depth);
	case 2: return term_leaf(g, depth);
	case 3: {
		Node k[3];
		uint32_t n = 2 + rng_below(g->r, 2);
		for (uint32_t i = 0; i < n; i++)
			k[i] = term(g, depth);
		return store_make_add(g->s, k, n);
	}
	case 4: {
		Node t = term(g, depth);
		return store_make_sub(g->s, t, term(g, depth));
	}
	case 5: {
		fmpz_t c;
		fmpz_init(c);
		constant(g, c);
		if (fmpz_is_zero(c) || chance(g, 50))
			fmpz_set_si(c, (long)rng_below(g->r, 7) - 3);
		Node r = store_make_scale(g->s, c, term(g, depth));
		fmpz_clear(c);
		return r;
	}
	case 6: {
		Node c = formula(g, depth);
		Node t = term(g, depth);
		return store_make_ite(g->s, c, t, term(g, depth));
	}
	case 7: {
		Node t = term(g, depth);
		return store_make_min(g->s, t, term(g, depth));
	}
	default: {
		Node t = term(g, depth);
		return store_make_max(g->s, t, term(g, depth));
	}
	}
}

static Node comparison(Gen *g, unsigned depth)
{
	Rel rel = (Rel)rng_below(g->r, 6);
	Node t = term(g, depth);
	return store_make_cmp(g->s, rel, t, term(g, depth));
}

static Node formula(Gen *g, unsigned depth)
{
	if (!step(g))
		return chance(g, 90) ? letter(g)
				     : store_make_bool(g->s, rng_below(g->r, 2));
	uint32_t kinds = g->o->positional ? 8 : 6;
	switch (rng_below(g->r, kinds)) {
	case 0: return letter(g);
	case 1:
		return chance(g, 30) ? store_make_bool(g->s, rng_below(g->r, 2))
				     : letter(g);
	case 2: return store_make_not(g->s, formula(g, depth));
	case 3: {
		if (chance(g, 20)) { /* the sugar: -> and <-> */
			Node a = formula(g, depth);
			Node b = formula(g, depth);
			return rng_below(g->r, 2) ? store_make_implies(g->s, a, b)
						  : store_make_iff(g->s, a, b);
		}
		Node k[4];
		uint32_t n = 2 + rng_below(g->r, 3);
		for (uint32_t i = 0; i < n; i++)
			k[i] = formula(g, depth);
		return rng_below(g->r, 2) ? store_make_and(g->s, k, n)
					  : store_make_or(g->s, k, n);
	}
	case 4:
	case 5: return comparison(g, depth);
	case 6: return store_make_prev(g->s, formula(g, depth));
	default: {
		uint32_t m = 1 + rng_below(g->r, 5);
		return store_make_mod(g->s, m, rng_below(g->r, 2 * m));
	}
	}
}

Node randgen_formula(Store *s, Rng *r, const GenOptions *o)
{
	Gen g = {s, r, o, o->max_size};
	return formula(&g, o->max_depth);
}

Node randgen_term(Store *s, Rng *r, const GenOptions *o)
{
	Gen g = {s, r, o, o->max_size};
	return term(&g, o->max_depth);
}

unsigned test_multiplier(void)
{
	const char *m = getenv("TALLY_TEST_MULTIPLIER");
	long v = m ? strtol(m, NULL, 10) : 1;
	return v >= 1 && v <= 1000 ? (unsigned)v : 1;
}

/* The divisor D of a multiplier written 1/D, else 1. */
static unsigned test_divisor(void)
{
	const char *m = getenv("TALLY_TEST_MULTIPLIER");
	const char *slash = m ? strchr(m, '/') : NULL;
	long d = slash ? strtol(slash + 1, NULL, 10) : 1;
	return d >= 1 && d <= 1000 ? (unsigned)d : 1;
}

bool test_scaled_down(void)
{
	return test_divisor() > 1;
}

unsigned test_count(unsigned n)
{
	unsigned c = n * test_multiplier() / test_divisor();
	return c ? c : 1;
}
