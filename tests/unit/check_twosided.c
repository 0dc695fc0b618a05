/* check_twosided.c -- the two-sided class (IndistBounds.two_sided: each
 * count of a comparison is #[psi] or #>[psi]) in the three exact checks:
 *  - a naive refinement here, straight from the class's definition
 *    (every count is of a union of classes of the level below, past or
 *    future; the reachable (X, Y) summed over the T counts), against the
 *    explicit refinement (indist.c) on every pair of short words;
 *  - the explicit refinement against the block refinement (blockref.c)
 *    on every pair up to a length and on random block pairs;
 *  - the fixpoint certificate against the explicit refinement run far;
 *  - the independent re-check (blockcheck.c) against blockref on random
 *    block pairs, long ones included, and on the D_k pairs (pairgen.h),
 *    each also against the naive refinement when short. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "search/blockcheck.h"
#include "search/blockref.h"
#include "search/indist.h"
#include "search/pairgen.h"
#include "blockpairs.h"
#include "randgen.h"
#include "suites.h"

/* ---- the naive refinement ---------------------------------------------- */

/* positions in all; |X| <= T C (counts <= NAIVE_MAX), T C <= 4 */
enum { NAIVE_MAX = 12, NAIVE_SPAN = 2 * 4 * NAIVE_MAX + 1 };

typedef struct {
	size_t n;                  /* positions: u's, then v's */
	int word[2 * NAIVE_MAX];   /* 0 or 1 */
	unsigned cls[2 * NAIVE_MAX];
	unsigned ncls;
	IndistBounds b;
} Naive;

/* The count of the classes in set S at position p: past (j <= p) or
 * future (j >= p), within p's word. */
static int naive_count(const Naive *z, size_t p, unsigned S, int future)
{
	int c = 0;
	for (size_t j = 0; j < z->n; j++)
		if (z->word[j] == z->word[p] && (future ? j >= p : j <= p) &&
		    (S >> z->cls[j] & 1))
			c++;
	return c;
}

/* Some comparison sum_i a_i count_i ~ c, t <= T counts, |a_i|, |c| <= C,
 * with different values X at p and Y at q and a constant between them
 * within [-C, C]? */
static bool naive_apart(const Naive *z, size_t p, size_t q)
{
	int C = (int)z->b.C, off = NAIVE_SPAN / 2;
	static bool reach[NAIVE_SPAN][NAIVE_SPAN], next[NAIVE_SPAN][NAIVE_SPAN];
	/* the (count at p, count at q) of one count */
	static int one[2 << NAIVE_MAX][2];
	size_t none = 0;
	ck_assert(z->b.T * z->b.C <= 4);
	for (int future = 0; future < 1 + z->b.two_sided; future++)
		for (unsigned S = 0; S < 1u << z->ncls; S++) {
			int cp = naive_count(z, p, S, future), cq = naive_count(z, q, S, future);
			size_t k = 0;
			while (k < none && (one[k][0] != cp || one[k][1] != cq))
				k++;
			if (k == none) {
				one[none][0] = cp;
				one[none++][1] = cq;
			}
		}
	memset(reach, 0, sizeof reach);
	reach[off][off] = true;
	for (unsigned t = 0; t < z->b.T; t++) {
		memcpy(next, reach, sizeof next); /* fewer counts */
		for (int x = 0; x < NAIVE_SPAN; x++)
			for (int y = 0; y < NAIVE_SPAN; y++) {
				if (!reach[x][y])
					continue;
				for (size_t k = 0; k < none; k++)
					for (int a = -C; a <= C; a++) {
						int nx = x + a * one[k][0], ny = y + a * one[k][1];
						ck_assert(nx >= 0 && nx < NAIVE_SPAN && ny >= 0 &&
							  ny < NAIVE_SPAN);
						next[nx][ny] = true;
					}
			}
		memcpy(reach, next, sizeof reach);
	}
	for (int x = 0; x < NAIVE_SPAN; x++)
		for (int y = 0; y < NAIVE_SPAN; y++) {
			int X = x - off, Y = y - off;
			int lo = X < Y ? X : Y, hi = X < Y ? Y : X;
			if (reach[x][y] && X != Y && hi >= -C && lo <= C)
				return true;
		}
	return false;
}

/* The least depth <= maxd separating the last positions of u and v, or
 * INDIST_NONE. */
static unsigned naive_depth(const uint8_t *u, size_t nu, const uint8_t *v,
			    size_t nv, unsigned maxd, IndistBounds b)
{
	Naive z = {.n = nu + nv, .b = b};
	ck_assert(nu && nv && nu <= NAIVE_MAX && nv <= NAIVE_MAX);
	for (size_t i = 0; i < z.n; i++) {
		z.word[i] = i >= nu;
		z.cls[i] = i < nu ? u[i] : v[i - nu];
	}
	z.ncls = 2;
	for (unsigned d = 0;; d++) {
		if (z.cls[nu - 1] != z.cls[z.n - 1])
			return d;
		if (d == maxd)
			return INDIST_NONE;
		/* the next level: a position joins the first earlier one of its
		 * class that no comparison separates from it */
		unsigned cls[2 * NAIVE_MAX], n = 0;
		size_t rep[2 * NAIVE_MAX];
		for (size_t p = 0; p < z.n; p++) {
			unsigned k = 0;
			while (k < n && (z.cls[rep[k]] != z.cls[p] || naive_apart(&z, rep[k], p)))
				k++;
			if (k == n)
				rep[n++] = p;
			cls[p] = k;
		}
		ck_assert(n <= NAIVE_MAX);
		memcpy(z.cls, cls, sizeof cls);
		z.ncls = n;
	}
}

static const IndistBounds C1T2 = {1, 2, true};

/* ---- the tests -------------------------------------------------------------- */

static void against_naive(const uint8_t *u, unsigned nu, unsigned mu,
			  const uint8_t *v, unsigned nv, unsigned mv, void *ctx)
{
	const IndistBounds *b = ctx;
	unsigned e = indist_pair(u, nu, v, nv, 2, 4, *b, NULL);
	unsigned z = naive_depth(u, nu, v, nv, 4, *b);
	ck_assert_msg(e == z, "C=%u T=%u words %x/%u %x/%u: explicit %u, naive %u",
		      b->C, b->T, mu, nu, mv, nv, e, z);
}

/* The explicit refinement against the class's definition. */
START_TEST(explicit_against_naive)
{
	IndistBounds bs[] = {{1, 2, true}, {1, 1, true}, {2, 1, true}};
	for (size_t k = 0; k < sizeof bs / sizeof *bs; k++)
		blockpairs_each(3, against_naive, &bs[k]);
}
END_TEST

/* The same on longer random words, C = 1, T = 2. */
START_TEST(explicit_against_naive_random)
{
	Rng r;
	rng_seed(&r, 11);
	uint8_t u[NAIVE_MAX], v[NAIVE_MAX];
	unsigned n = test_count(30);
	for (unsigned i = 0; i < n; i++) {
		size_t nu = 1 + rng_below(&r, 6), nv = 1 + rng_below(&r, 6);
		for (size_t k = 0; k < nu; k++)
			u[k] = (uint8_t)rng_below(&r, 2);
		for (size_t k = 0; k < nv; k++)
			v[k] = (uint8_t)rng_below(&r, 2);
		unsigned e = indist_pair(u, nu, v, nv, 2, 4, C1T2, NULL);
		unsigned z = naive_depth(u, nu, v, nv, 4, C1T2);
		ck_assert_msg(e == z, "case %u: explicit %u, naive %u", i, e, z);
	}
}
END_TEST

typedef struct {
	IndistBounds b;
	unsigned maxd;
	size_t wider; /* pairs two-sided separates earlier than past-only */
} VsBlocks;

static void vs_blocks(const uint8_t *u, unsigned nu, unsigned mu,
		      const uint8_t *v, unsigned nv, unsigned mv, void *ctx)
{
	VsBlocks *c = ctx;
	IndistBounds past = c->b;
	past.two_sided = false;
	unsigned e = blockpairs_explicit_agrees(u, nu, mu, v, nv, mv, c->maxd,
					       c->b);
	/* two-sided is a wider class: it never separates later */
	unsigned p = indist_pair(u, nu, v, nv, 2, c->maxd, past, NULL);
	ck_assert(e <= p);
	c->wider += e < p;
}

static void explicit_vs_blocks(unsigned maxlen, IndistBounds b, unsigned maxd)
{
	VsBlocks c = {b, maxd, 0};
	blockpairs_each(maxlen, vs_blocks, &c);
	ck_assert(c.wider > 0); /* future counts do separate more */
}

START_TEST(every_pair_blocks)
{
	explicit_vs_blocks(5, C1T2, 5);
	explicit_vs_blocks(4, (IndistBounds){2, 2, true}, 4);
	explicit_vs_blocks(4, (IndistBounds){1, 3, true}, 4);
}
END_TEST

/* Random block pairs of up to ~60 letters: v is u with two neighbours
 * swapped (same Parikh vector, the cases depth 1 cannot split) or a
 * fresh word; with tune, the small-count tables shrunk so that every
 * count goes through the enumerations. */
static size_t swap_or_fresh(Rng *r, const uint8_t *u, size_t nu,
			    unsigned maxrun, uint8_t *v)
{
	if (!rng_below(r, 3))
		return blockpairs_random(r, 6, maxrun, v);
	memcpy(v, u, nu);
	size_t p = rng_below(r, (uint32_t)nu);
	if (p + 1 < nu) {
		uint8_t t = v[p];
		v[p] = v[p + 1];
		v[p + 1] = t;
	}
	return nu;
}

START_TEST(random_block_pairs)
{
	unsigned n = test_count(40);
	blockpairs_explicit_random(21, n, C1T2, 10, 0, swap_or_fresh);
	blockpairs_explicit_random(22, n / 2, (IndistBounds){2, 2, true}, 8, 0,
				   swap_or_fresh);
	blockpairs_explicit_random(23, n / 2, C1T2, 10, 3, swap_or_fresh);
}
END_TEST

static void fixpoint(const uint8_t *u, unsigned nu, unsigned mu,
		     const uint8_t *v, unsigned nv, unsigned mv, void *ctx)
{
	size_t *never = ctx;
	bool certified = blockpairs_never_agrees(u, nu, mu, v, nv, mv, C1T2);
	if (nu <= 3 && nv <= 3 && certified)
		ck_assert_int_eq(naive_depth(u, nu, v, nv, 8, C1T2), INDIST_NONE);
	*never += certified;
}

/* "No depth separates" exactly when the explicit refinement, run far
 * past where short words stabilise, never separates. */
START_TEST(fixpoint_against_explicit)
{
	size_t never = 0;
	blockpairs_each(4, fixpoint, &never);
	ck_assert(never > 0); /* the certificate is exercised */
}
END_TEST

/* The independent re-check against blockref on random block pairs of
 * the D_k shape, lengths far beyond the explicit check. */
START_TEST(recheck_agrees)
{
	static const IndistBounds bs[] = {{1, 2, true}, {2, 2, true}, {1, 1, true}};
	blockpairs_recheck(&blockpairs_dk, bs,
			   (BlockpairsDraw){27, test_count(24), {20, 120}, 5});
}
END_TEST

/* ---- the D_k pairs -------------------------------------------------------- */

/* Membership in L_m by the runs: m blocks, the first of a's. */
static bool runs_in_lm(unsigned m, const BlockWord *w)
{
	unsigned blocks = 0;
	for (size_t r = 0; r < w->n; r++)
		blocks += r == 0 || w->letter[r] != w->letter[r - 1];
	return w->n && w->letter[0] == 0 && blocks == m;
}

/* pairgen's membership callback: w judged and labelled `in`. */
static bool in_lm(void *ctx, const BlockWord *w, bool in)
{
	return runs_in_lm(*(const unsigned *)ctx, w) == in;
}

/* pairgen_dk's pairs for D_1..D_3 (D_2 only under a reduced count):
 * certified at depth k - 1, u in D_k and v out by the runs, and the
 * explicit refinement (no code shared with either block check) agrees
 * that no depth below k separates them and that depth k does (D_k is
 * two-sided definable at depth k within C = 1, T = 2); the naive
 * refinement agrees where the words are short. */
START_TEST(dk_pairs)
{
	unsigned top = test_count(3) >= 3 ? 3 : 2;
	for (unsigned k = 1; k <= top; k++) {
		unsigned m = 2 * k - 1;
		PairCert p;
		PairgenStatus st = pairgen_dk(k, k - 1, C1T2, 1, 40, in_lm, &m, NULL, &p);
		ck_assert_msg(st == PAIRGEN_FOUND, "D_%u: status %d", k, st);
		ck_assert(runs_in_lm(m, &p.u) && !runs_in_lm(m, &p.v));
		size_t nu = blockword_length(&p.u), nv = blockword_length(&p.v);
		uint8_t *u = blockword_expand(&p.u, 5000), *v = blockword_expand(&p.v, 5000);
		ck_assert(u && v);
		unsigned e = indist_pair(u, nu, v, nv, 2, k, C1T2, NULL);
		ck_assert_msg(e == k, "D_%u: explicit separates at %u", k, e);
		if (nu <= NAIVE_MAX && nv <= NAIVE_MAX)
			ck_assert_int_eq(naive_depth(u, nu, v, nv, k, C1T2), k);
		free(u);
		free(v);
		pairgen_free(&p);
	}
}
END_TEST

/* "a^45 b^9 ab a^8": letters a = 0, b = 1, x^n a run; its length. */
static size_t runs_word(const char *s, uint8_t *out)
{
	size_t n = 0;
	while (*s) {
		if (*s == ' ') {
			s++;
			continue;
		}
		uint8_t c = (uint8_t)(*s++ - 'a');
		unsigned long len = 1;
		if (*s == '^')
			len = strtoul(s + 1, (char **)&s, 10);
		for (unsigned long k = 0; k < len; k++)
			out[n++] = c;
	}
	return n;
}

/* Pairs tally prints as two-sided refutations at depths <= 2 (search -f
 * majority --two-sided, hierarchy --family=dk --k=1..3; the golden
 * cases and the README): no formula of the depth separates them, by the
 * naive refinement where short, else by the explicit one. */
START_TEST(printed_pairs)
{
	static const struct {
		const char *u, *v;
		unsigned d;
	} pp[] = {{"a", "ba", 0}, {"a", "bba", 0}, {"aa", "ba", 0},
		  {"a", "baa", 0}, {"a", "aba", 0}, {"aba", "a", 0},
		  {"aba", "aa", 0}, {"aba", "ba", 0}, {"aba", "baa", 1},
		  {"abaa", "baaa", 1}, {"aaba", "baaa", 1}, {"aa", "ba", 0},
		  {"a^45 b^10 a^9", "a^45 b^9 ab a^8", 1},
		  {"a^33 b^53 a^38 b^36 a^67", "a^33 b^53 a^37 ba b^35 a^67", 2},
		  {"a^460 b^61 a^14 b^14 a^197", "a^460 b^61 a^13 ba b^13 a^197", 2}};
	for (size_t i = 0; i < sizeof pp / sizeof *pp; i++) {
		uint8_t u[1000], v[1000];
		size_t nu = runs_word(pp[i].u, u), nv = runs_word(pp[i].v, v);
		unsigned e = nu <= NAIVE_MAX && nv <= NAIVE_MAX
			     ? naive_depth(u, nu, v, nv, pp[i].d, C1T2)
			     : indist_pair(u, nu, v, nv, 2, pp[i].d, C1T2, NULL);
		ck_assert_msg(e == INDIST_NONE, "\"%s\" / \"%s\" separated at %u",
			      pp[i].u, pp[i].v, e);
	}
}
END_TEST

Suite *twosided_suite(void)
{
	Suite *s = suite_create("twosided");
	const struct {
		const char *name;
		const TTest *test;
	} cases[] = {{"naive", explicit_against_naive},
		     {"naive_random", explicit_against_naive_random},
		     {"blocks", every_pair_blocks},
		     {"random_blocks", random_block_pairs},
		     {"fixpoint", fixpoint_against_explicit},
		     {"recheck", recheck_agrees},
		     {"dk_pairs", dk_pairs},
		     {"printed_pairs", printed_pairs}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		TCase *tc = tcase_create(cases[i].name);
		tcase_set_timeout(tc, 600);
		tcase_add_test(tc, cases[i].test);
		suite_add_tcase(s, tc);
	}
	return s;
}
