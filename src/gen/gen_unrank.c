/* gen_unrank.c -- sampling in machine words (see gen_unrank.h). */
#include <config.h>

#include "gen/gen_unrank.h"
#include "gen/gen_graph.h"

#include <assert.h>
#include <string.h>

#include <gmp.h>
#include <flint/fmpz_vec.h>

#include "base/mem.h"

__extension__ typedef unsigned __int128 U128;

/* The words of a count (at least one). */
static size_t limbs_of(const fmpz_t x)
{
	size_t k = fmpz_size(x);
	return k ? k : 1;
}

size_t gen_states_limbs(const GenStates *g, bool member)
{
	return limbs_of(&g->total[member][g->aim]);
}

void gen_unrank_table(GenStates *g)
{
	size_t states = g->first[g->aim + 1];
	for (int c = 0; c < 2; c++) {
		size_t L = gen_states_limbs(g, c);
		g->limbs[c] = L;
		mem_grow((void **)&g->lcnt[c], &g->lcnt_cap[c], states * L,
			 sizeof *g->lcnt[c]);
		/* every state's count is at most the start's (each is
		 * reached from it), so L words hold them all */
		for (size_t s = 0; s < states; s++)
			fmpz_get_ui_array(g->lcnt[c] + s * L, (slong)L,
					  &g->cnt[c][s]);
	}
}

/* -1, 0, +1 as x (n words) is below, equal to or above y. */
static int cmp_limbs(const uint64_t *x, const uint64_t *y, size_t n)
{
	for (size_t i = n; i-- > 0;)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

bool gen_states_draw_limbs(const GenStates *g, bool member, GenRng *r,
			   uint64_t *rank)
{
	const fmpz *total = &g->total[member][g->aim];
	if (fmpz_is_zero(total))
		return false;
	size_t L = limbs_of(total);
	uint64_t small[8], *big = NULL, *top = small;
	if (L > 8)
		top = big = xmalloc(L * sizeof *big);
	fmpz_get_ui_array(top, (slong)L, total);
	/* gen_rng_below_fmpz: bits(total) random bits, the first number
	 * drawn the most significant, drawn again until below total */
	unsigned high = 64 - (unsigned)__builtin_clzll(top[L - 1]);
	uint64_t mask = high == 64 ? UINT64_MAX : ((uint64_t)1 << high) - 1;
	do {
		for (size_t i = L; i-- > 0;)
			rank[i] = gen_rng_next(r);
		rank[L - 1] &= mask;
	} while (cmp_limbs(rank, top, L) >= 0);
	free(big);
	return true;
}

/* ---- the walks ---------------------------------------------------------- */

/* One word per count, two, or any number: the same walk (the first
 * letter whose completions exceed what is left of the rank). */
static void walk1(const GenStates *g, const uint64_t *cnt, uint64_t r,
		  uint32_t *w, uint32_t *path)
{
	uint32_t s = 0;
	size_t nl = g->nletters;
	for (size_t d = 0; d < g->aim; d++) {
		const uint32_t *next = g->next + (size_t)s * nl;
		size_t a = 0;
		for (;; a++) {
			assert(a < nl);
			uint64_t c = cnt[next[a]];
			if (r < c)
				break;
			r -= c;
		}
		if (path)
			path[d] = s;
		w[d] = (uint32_t)a;
		s = next[a];
	}
	if (path)
		path[g->aim] = s;
}

static void walk2(const GenStates *g, const uint64_t *cnt, U128 r,
		  uint32_t *w, uint32_t *path)
{
	uint32_t s = 0;
	size_t nl = g->nletters;
	for (size_t d = 0; d < g->aim; d++) {
		const uint32_t *next = g->next + (size_t)s * nl;
		size_t a = 0;
		for (;; a++) {
			assert(a < nl);
			const uint64_t *x = cnt + 2 * (size_t)next[a];
			U128 c = (U128)x[1] << 64 | x[0];
			if (r < c)
				break;
			r -= c;
		}
		if (path)
			path[d] = s;
		w[d] = (uint32_t)a;
		s = next[a];
	}
	if (path)
		path[g->aim] = s;
}

static void walk_any(const GenStates *g, const uint64_t *cnt, size_t L,
		     uint64_t *r, uint32_t *w, uint32_t *path)
{
	uint32_t s = 0;
	size_t nl = g->nletters;
	for (size_t d = 0; d < g->aim; d++) {
		const uint32_t *next = g->next + (size_t)s * nl;
		size_t a = 0;
		for (;; a++) {
			assert(a < nl);
			const uint64_t *c = cnt + L * (size_t)next[a];
			if (cmp_limbs(r, c, L) < 0)
				break;
			mpn_sub_n((mp_limb_t *)r, (const mp_limb_t *)r,
				  (const mp_limb_t *)c, (mp_size_t)L);
		}
		if (path)
			path[d] = s;
		w[d] = (uint32_t)a;
		s = next[a];
	}
	if (path)
		path[g->aim] = s;
}

/* Over a job: the ranks as fmpz, unranked collectively, the paths
 * walked after. */
static void unrank_shared(const GenStates *g, bool member,
			  const uint64_t *ranks, size_t k, uint32_t *w,
			  uint32_t *path)
{
	size_t L = gen_states_limbs(g, member), n = g->aim;
	fmpz *x = _fmpz_vec_init((slong)k);
	for (size_t i = 0; i < k; i++)
		fmpz_set_ui_array(&x[i], ranks + i * L, (slong)L);
	gen_states_unrank_many(g, member, x, k, w);
	_fmpz_vec_clear(x, (slong)k);
	for (size_t i = 0; path && i < k; i++) {
		uint32_t *p = path + i * (n + 1);
		p[0] = gen_states_start(g);
		for (size_t d = 0; d < n; d++)
			p[d + 1] = gen_states_next(g, p[d], w[i * n + d]);
	}
}

void gen_states_unrank_limbs(const GenStates *g, bool member,
			     const uint64_t *ranks, size_t k, uint32_t *w,
			     uint32_t *path)
{
	if (g->sh) {
		unrank_shared(g, member, ranks, k, w, path);
		return;
	}
	size_t L = g->limbs[member], n = g->aim;
	const uint64_t *cnt = g->lcnt[member];
	uint64_t small[8], *r = L > 8 ? xmalloc(L * sizeof *r) : small;
	for (size_t i = 0; i < k; i++) {
		const uint64_t *x = ranks + i * L;
		uint32_t *wi = w + i * n, *pi = path ? path + i * (n + 1) : NULL;
		if (L == 1) {
			walk1(g, cnt, x[0], wi, pi);
		} else if (L == 2) {
			walk2(g, cnt, (U128)x[1] << 64 | x[0], wi, pi);
		} else {
			memcpy(r, x, L * sizeof *r);
			walk_any(g, cnt, L, r, wi, pi);
		}
	}
	if (r != small)
		free(r);
}

/* The letter of m at position i. */
static inline uint32_t letter_at(const GenMutant *m, size_t i)
{
	return i == m->at[0] ? m->letter[0]
	       : i == m->at[1] ? m->letter[1] : m->base[i];
}

void gen_states_rewalk(const GenStates *g, size_t n, size_t k,
		       const GenMutant *m, unsigned *cls)
{
	uint32_t s[GEN_REWALK_MAX];
	size_t pos[GEN_REWALK_MAX], live[GEN_REWALK_MAX], nlive = 0;
	/* two letters a step where the table of pairs is there (its rows
	 * stop two levels before the last, where i + 2 <= n ends) */
	const uint32_t *pair = g->pair;
	size_t nl = g->nletters;
	assert(k <= GEN_REWALK_MAX);
	for (size_t j = 0; j < k; j++) {
		if (!m[j].base)
			continue;
		pos[j] = m[j].path ? m[j].at[0] : 0;
		s[j] = m[j].path ? m[j].path[pos[j]] : gen_states_start(g);
		live[nlive++] = j;
	}
	/* a step of every walk still going per round: k chains of
	 * dependent loads overlap instead of following each other */
	while (nlive) {
		size_t keep = 0;
		for (size_t q = 0; q < nlive; q++) {
			size_t j = live[q], i = pos[j];
			const uint32_t *p = m[j].path;
			if (i == n) {
				cls[j] = g->cls[s[j]];
			} else if (p && i > m[j].at[1] && s[j] == p[i]) {
				cls[j] = g->cls[p[n]]; /* the old word's */
			} else if (pair && i + 2 <= n) {
				size_t x = (size_t)s[j] * nl +
					   letter_at(&m[j], i);
				s[j] = pair[x * nl + letter_at(&m[j], i + 1)];
				pos[j] = i + 2;
				live[keep++] = j;
			} else {
				s[j] = gen_states_succ(g, s[j],
						       letter_at(&m[j], i));
				pos[j] = i + 1;
				live[keep++] = j;
			}
		}
		nlive = keep;
	}
}
