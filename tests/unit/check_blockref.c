/* check_blockref.c -- the exact check on words given as runs
 * (blockref.c) against the explicit refinement of positions (indist.c),
 * which shares no code with it:
 *  - every pair of words over {a, b} up to a length, for several (C, T);
 *  - random pairs of block words with short expansions (fixed seeds),
 *    also with the tables of small counts shrunk so that every count goes
 *    through the enumerations;
 *  - the fixpoint certificate ("no depth separates") against the
 *    explicit refinement run to depth INDIST_MAX_DEPTH on short words,
 *    where every partition is stable long before;
 *  - the independent re-check (blockcheck.c) against blockref on random
 *    block pairs, long ones included. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "search/blockcheck.h"
#include "search/blockref.h"
#include "search/outside.h"
#include "search/indist.h"
#include "blockpairs.h"
#include "randgen.h"
#include "suites.h"

typedef struct {
	IndistBounds b;
	unsigned maxd;
} Class;

static void explicit_agrees(const uint8_t *u, unsigned nu, unsigned mu,
			    const uint8_t *v, unsigned nv, unsigned mv,
			    void *ctx)
{
	const Class *c = ctx;
	blockpairs_explicit_agrees(u, nu, mu, v, nv, mv, c->maxd, c->b);
}

static void all_pairs(unsigned maxlen, IndistBounds b, unsigned maxd)
{
	Class c = {b, maxd};
	blockpairs_each(maxlen, explicit_agrees, &c);
}

START_TEST(every_pair_c1t2)
{
	all_pairs(6, (IndistBounds){1, 2, false}, 6);
}
END_TEST

START_TEST(every_pair_other_classes)
{
	static const IndistBounds bs[] = {{1, 1, false}, {2, 2, false}, {2, 3, false}, {3, 3, false}, {1, 4, false}};
	for (size_t i = 0; i < sizeof bs / sizeof *bs; i++)
		all_pairs(5, bs[i], 5);
}
END_TEST

/* v: u with two neighbours swapped, a letter added or removed, or a
 * fresh word. */
static size_t perturb(Rng *r, const uint8_t *u, size_t nu, unsigned maxrun,
		      uint8_t *v)
{
	memcpy(v, u, nu);
	switch (rng_below(r, 4)) {
	case 0:
		if (nu > 2) {
			size_t p = rng_below(r, (uint32_t)nu - 1);
			uint8_t t = v[p];
			v[p] = v[p + 1];
			v[p + 1] = t;
		}
		return nu;
	case 1: v[nu] = (uint8_t)rng_below(r, 2); return nu + 1;
	case 2: return nu > 1 ? nu - 1 : nu;
	default: return blockpairs_random(r, 5, maxrun, v);
	}
}

START_TEST(random_block_pairs)
{
	unsigned n = test_count(60);
	blockpairs_explicit_random(1, n, (IndistBounds){1, 2, false}, 40, 0,
				   perturb);
	blockpairs_explicit_random(2, n, (IndistBounds){2, 2, false}, 30, 0,
				   perturb);
	blockpairs_explicit_random(3, n / 2, (IndistBounds){1, 3, false}, 30, 0,
				   perturb);
}
END_TEST

START_TEST(random_block_pairs_enumerated)
{
	unsigned n = test_count(60);
	blockpairs_explicit_random(4, n, (IndistBounds){1, 2, false}, 40, 3,
				   perturb);
	blockpairs_explicit_random(5, n, (IndistBounds){2, 2, false}, 30, 2,
				   perturb);
	blockpairs_explicit_random(6, n / 2, (IndistBounds){2, 3, false}, 20, 8,
				   perturb);
}
END_TEST

/* The last level from the last positions' counts alone (what blockref
 * falls back on when refining every run of that level hits a bound)
 * against the explicit refinement, past-only and two-sided, at each
 * depth: the same least depth, or none. */
START_TEST(last_level_alone)
{
	static const IndistBounds bs[] = {{1, 2, false}, {1, 2, true}, {2, 2, true}};
	Rng r;
	rng_seed(&r, 7);
	uint8_t u[512], v[512];
	blockref_tune_last(true);
	for (size_t k = 0; k < sizeof bs / sizeof *bs; k++)
		for (unsigned i = 0; i < test_count(40); i++) {
			size_t nu = blockpairs_random(&r, 6, 12, u);
			size_t nv = perturb(&r, u, nu, 12, v);
			for (unsigned d = 1; d <= 4; d++)
				blockpairs_explicit_agrees(u, (unsigned)nu, i, v,
							   (unsigned)nv, i, d, bs[k]);
		}
	blockref_tune_last(false);
}
END_TEST

/* "No depth separates" exactly when the explicit refinement, run far
 * past where short words stabilise, never separates. */
typedef struct {
	IndistBounds b;
	size_t never; /* the pairs certified */
} Fixpoint;

static void never_agrees(const uint8_t *u, unsigned nu, unsigned mu,
			 const uint8_t *v, unsigned nv, unsigned mv, void *ctx)
{
	Fixpoint *c = ctx;
	c->never += blockpairs_never_agrees(u, nu, mu, v, nv, mv, c->b);
}

START_TEST(fixpoint_against_brute_force)
{
	static const IndistBounds bs[] = {{1, 2, false}, {1, 1, false}, {2, 2, false}};
	size_t never = 0;
	for (size_t k = 0; k < sizeof bs / sizeof *bs; k++) {
		Fixpoint c = {bs[k], 0};
		blockpairs_each(5, never_agrees, &c);
		never += c.never;
	}
	ck_assert(never > 0); /* the certificate is exercised */
}
END_TEST

/* Naive membership on the letters' characters, for outside.h's
 * families. */
static bool naive_member(const char *name, const char *w, size_t n)
{
	size_t ones = 0, as = 0, top = 0;
	char stack[512];
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		ones += w[i] == '1';
		as += w[i] == 'a';
		if (w[i] == '(' || w[i] == '[')
			stack[top++] = w[i];
		else if (w[i] == ')' || w[i] == ']')
			ok = ok && top && stack[--top] == (w[i] == ')' ? '(' : '[');
	}
	if (strcmp(name, "parity") == 0)
		return ones % 2 == 1;
	if (strcmp(name, "mod3") == 0)
		return as % 3 == 0;
	return ok && top == 0;
}

/* The pairs of the families outside the logic, at depths 0..4: u in and
 * v out by a naive membership test, no explicit refinement separates
 * them at the depth (indist.h, no code shared with blockref or
 * blockcheck), and the "no fixpoint" answer agrees with the explicit
 * refinement run to its end (it separates them at some depth). */
START_TEST(outside_pairs_explicit)
{
	static const char *const names[] = {"parity", "mod3", "dyck2"};
	IndistBounds b = {1, 2, false};
	for (size_t f = 0; f < 3; f++) {
		const Outside *o = outside_find(names[f]);
		ck_assert_ptr_nonnull(o);
		size_t nl = strlen(o->letters);
		for (unsigned d = 0; d <= 4; d++) {
			PairCert p;
			bool never = true;
			OutsideTried tried;
			PairgenStatus st = outside_pair(o, 0, d, b, 1u << 10, NULL,
							&p, &never, &tried);
			if (f == 2 && d >= 2) { /* the shape stops at depth 2 */
				ck_assert_int_eq(st, PAIRGEN_NONE);
				continue;
			}
			ck_assert_int_eq(st, PAIRGEN_FOUND);
			uint8_t *u = blockword_expand(&p.u, 400), *v = blockword_expand(&p.v, 400);
			ck_assert_ptr_nonnull(u);
			ck_assert_ptr_nonnull(v);
			size_t nu = blockword_length(&p.u), nv = blockword_length(&p.v);
			char cu[401], cv[401];
			for (size_t i = 0; i < nu; i++)
				cu[i] = o->letters[u[i]];
			for (size_t i = 0; i < nv; i++)
				cv[i] = o->letters[v[i]];
			ck_assert(naive_member(names[f], cu, nu));
			ck_assert(!naive_member(names[f], cv, nv));
			unsigned e = indist_pair(u, nu, v, nv, nl, d, b, NULL);
			ck_assert_msg(e == INDIST_NONE, "%s depth %u: explicit %u",
				      names[f], d, e);
			unsigned all = indist_pair(u, nu, v, nv, nl, INDIST_MAX_DEPTH, b, NULL);
			ck_assert_msg(never == (all == INDIST_NONE), "%s depth %u: "
				      "fixpoint %d, explicit %u", names[f], d, never, all);
			free(u);
			free(v);
			pairgen_free(&p);
		}
	}
}
END_TEST

/* Every shape of every family makes u in and v out by the naive
 * membership test above (small sizes, depths 0..3), the same letters in
 * both and the same last letter. */
START_TEST(outside_shapes_members)
{
	static const char *const names[] = {"parity", "mod3", "dyck2"};
	for (size_t f = 0; f < 3; f++) {
		const Outside *o = outside_find(names[f]);
		for (unsigned k = 0; k < OUTSIDE_SHAPES && o->shapes[k].desc; k++)
			for (unsigned d = 0; d <= 3; d++)
				for (uint64_t n = 1; n <= 4; n++) {
					BlockWord bu = {0}, bv = {0};
					if (!o->shapes[k].pair(n, d, &bu, &bv)) {
						blockword_free(&bu);
						blockword_free(&bv);
						continue;
					}
					size_t nu = blockword_length(&bu), nv = blockword_length(&bv);
					uint8_t *u = blockword_expand(&bu, 400), *v = blockword_expand(&bv, 400);
					ck_assert_ptr_nonnull(u);
					ck_assert_ptr_nonnull(v);
					char cu[401], cv[401];
					for (size_t i = 0; i < nu; i++)
						cu[i] = o->letters[u[i]];
					for (size_t i = 0; i < nv; i++)
						cv[i] = o->letters[v[i]];
					ck_assert_msg(naive_member(names[f], cu, nu),
						      "%s shape %u: u out", names[f], k + 1);
					ck_assert_msg(!naive_member(names[f], cv, nv),
						      "%s shape %u: v in", names[f], k + 1);
					free(u);
					free(v);
					blockword_free(&bu);
					blockword_free(&bv);
				}
	}
}
END_TEST

/* Unary words: a^n and a^(n+1) against the explicit check, and the
 * lengths themselves never expanded (a^(10^15)). */
START_TEST(unary_pairs)
{
	IndistBounds b = {1, 2, false};
	uint8_t w[80];
	memset(w, 0, sizeof w);
	for (unsigned n = 1; n < 70; n++) {
		unsigned e = indist_pair(w, n, w, n + 1, 1, 10, b, NULL);
		BlockWord U = {0}, V = {0};
		blockword_push(&U, 0, n);
		blockword_push(&V, 0, n + 1);
		BlockrefAnswer a = blockref_pair(&U, &V, 1, 10, b, NULL);
		ck_assert_msg(a.kind == BLOCKREF_SEPARATED && a.depth == e,
			      "a^%u: explicit %u, blocks kind %d depth %u", n, e,
			      a.kind, a.depth);
		blockword_free(&U);
		blockword_free(&V);
	}
	BlockWord U = {0}, V = {0};
	blockword_push(&U, 0, 1000000000000000ull);
	blockword_push(&V, 0, 1000000000000001ull);
	BlockrefAnswer a = blockref_pair(&U, &V, 1, 4, b, NULL);
	ck_assert_int_eq(a.kind, BLOCKREF_NONE);
	blockword_free(&U);
	blockword_free(&V);
}
END_TEST

/* hierarchy's certified pairs for L_5 and L_6 (u = P Y^(n+1) X X in L_k,
 * v = P Y^n X Y X not): L_k has a formula of depth k within C = 1, T = 2
 * and the pair was printed as certified at depth k - 1, so both checks
 * must first separate it at depth k exactly.  Long runs of one class
 * split into many pieces at the deep levels, which is where blockcheck
 * narrows the classes it compares a piece with. */
START_TEST(witness_pairs_theory)
{
	static const uint64_t len[][6] = {{1044, 393, 107, 64},
					  {3691, 1394, 401, 148, 83}};
	IndistBounds b = {1, 2, false};
	for (unsigned i = 0; i < 2; i++) {
		unsigned k = 5 + i, nb = k - 1;
		BlockWord U = {0}, V = {0};
		for (unsigned j = 0; j + 1 < nb; j++) {
			blockword_push(&U, (uint8_t)(j % 2), len[i][j]);
			blockword_push(&V, (uint8_t)(j % 2), len[i][j]);
		}
		uint8_t y = (uint8_t)((nb - 1) % 2), x = (uint8_t)(1 - y);
		blockword_push(&U, y, len[i][nb - 1]);
		blockword_push(&U, x, 2);
		blockword_push(&V, y, len[i][nb - 1] - 1);
		blockword_push(&V, x, 1);
		blockword_push(&V, y, 1);
		blockword_push(&V, x, 1);
		ck_assert_uint_eq(blockcheck_pair(&U, &V, 2, k, b, NULL), k);
		blockpairs_agree(&U, &V, 2, k, b, i);
		blockword_free(&U);
		blockword_free(&V);
	}
}
END_TEST

/* The second check agrees with blockref on random block pairs of the
 * witness shape (a run lengthened, or two letters inserted before the
 * last), lengths far beyond the explicit check. */
START_TEST(recheck_agrees)
{
	static const IndistBounds bs[] = {{1, 2, false}, {2, 2, false}, {1, 1, false}};
	blockpairs_recheck(&blockpairs_witness, bs,
			   (BlockpairsDraw){7, test_count(40), {25, 400}, 6});
}
END_TEST

Suite *blockref_suite(void)
{
	Suite *s = suite_create("blockref");
	TCase *tc = tcase_create("explicit");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, every_pair_c1t2);
	tcase_add_test(tc, every_pair_other_classes);
	tcase_add_test(tc, random_block_pairs);
	tcase_add_test(tc, random_block_pairs_enumerated);
	tcase_add_test(tc, last_level_alone);
	tcase_add_test(tc, fixpoint_against_brute_force);
	tcase_add_test(tc, unary_pairs);
	tcase_add_test(tc, outside_pairs_explicit);
	tcase_add_test(tc, outside_shapes_members);
	tcase_add_test(tc, recheck_agrees);
	tcase_add_test(tc, witness_pairs_theory);
	suite_add_tcase(s, tc);
	return s;
}
