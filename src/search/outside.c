/* outside.c -- targets outside the logic by their membership function,
 * and the pairs that certify a lower bound at each depth (outside.h). */
#include <config.h>

#include "search/outside.h"

#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "search/blockref.h"

static uint64_t count_letter(const BlockWord *w, uint8_t x)
{
	uint64_t k = 0;
	for (size_t r = 0; r < w->n; r++)
		if (w->letter[r] == x)
			k += w->len[r];
	return k;
}

/* ---- PARITY over {0, 1}: an odd number of 1s ---------------------------- */

static bool parity_member(const BlockWord *w)
{
	return count_letter(w, 1) % 2 == 1;
}

/* 1^n and 1^(n+1): the odd one is u */
static bool parity_pair(uint64_t n, BlockWord *u, BlockWord *v)
{
	blockword_push(u, 1, n % 2 ? n : n + 1);
	blockword_push(v, 1, n % 2 ? n + 1 : n);
	return true;
}

/* ---- MOD3 over {a, b}: the number of a's is divisible by 3 -------------- */

static bool mod3_member(const BlockWord *w)
{
	return count_letter(w, 0) % 3 == 0;
}

/* a^(3n) and a^(3n+1) */
static bool mod3_pair(uint64_t n, BlockWord *u, BlockWord *v)
{
	if (n > BLOCKWORD_MAX_LEN / 4)
		return false;
	blockword_push(u, 0, 3 * n);
	blockword_push(v, 0, 3 * n + 1);
	return true;
}

/* ---- Dyck-2 over ( ) [ ]: balanced, each closer matching its opener ----- */

static bool dyck2_member(const BlockWord *w)
{
	/* a stack of runs of openers (letter, count) */
	size_t cap = w->n + 1, top = 0;
	uint8_t *sl = malloc(cap);
	uint64_t *sn = malloc(cap * sizeof *sn);
	bool ok = sl && sn;
	for (size_t r = 0; ok && r < w->n; r++) {
		uint8_t x = w->letter[r];
		uint64_t k = w->len[r];
		if (x == 0 || x == 2) { /* ( or [ */
			if (top && sl[top - 1] == x)
				sn[top - 1] += k;
			else {
				sl[top] = x;
				sn[top++] = k;
			}
			continue;
		}
		uint8_t open = (uint8_t)(x - 1);
		while (ok && k) {
			if (!top || sl[top - 1] != open) {
				ok = false;
				break;
			}
			uint64_t t = sn[top - 1] < k ? sn[top - 1] : k;
			sn[top - 1] -= t;
			k -= t;
			if (!sn[top - 1])
				top--;
		}
	}
	ok = ok && top == 0;
	free(sl);
	free(sn);
	return ok;
}

/* u = [^n (^n )^n ]^n; v the same with the last ) and the first ]
 * swapped: [^n (^n )^(n-1) ] ) ]^(n-1) (a ] closes a (), the same letters
 * and the same last letter. */
static bool dyck2_pair(uint64_t n, BlockWord *u, BlockWord *v)
{
	if (n < 2 || n > BLOCKWORD_MAX_LEN / 8)
		return false;
	uint8_t lp = 0, rp = 1, lb = 2, rb = 3;
	blockword_push(u, lb, n);
	blockword_push(u, lp, n);
	blockword_push(u, rp, n);
	blockword_push(u, rb, n);
	blockword_push(v, lb, n);
	blockword_push(v, lp, n);
	blockword_push(v, rp, n - 1);
	blockword_push(v, rb, 1);
	blockword_push(v, rp, 1);
	blockword_push(v, rb, n - 1);
	return true;
}

static const Outside table[] = {
	{"parity", "01", "PARITY: an odd number of 1s",
	 "1^n and 1^(n+1), the odd one in", parity_member, parity_pair},
	{"mod3", "ab", "MOD3: the number of a's is divisible by 3",
	 "a^(3n) (in) and a^(3n+1) (out)", mod3_member, mod3_pair},
	{"dyck2", "()[]", "Dyck-2: balanced, every closer matching the last "
	 "open opener", "[^n (^n )^n ]^n (in) and [^n (^n )^(n-1) ] ) ]^(n-1) "
	 "(out)", dyck2_member, dyck2_pair},
};

const Outside *outside_find(const char *name)
{
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

const char *outside_names(void)
{
	return "parity, mod3, dyck2";
}

/* The pair of size n, checked; 1 certified (*out filled), 0 not, -1
 * the checks disagree (*out filled), -2 a limit, -3 no pair of size n
 * (or the membership function refuses it). */
static int try_size(const Outside *o, uint64_t n, unsigned d, IndistBounds b,
		    Limits *lim, PairCert *out, bool *never)
{
	*out = (PairCert){.depth = d};
	if (!o->pair(n, &out->u, &out->v) || !o->member(&out->u) ||
	    o->member(&out->v)) {
		pairgen_free(out);
		return -3;
	}
	unsigned sep;
	int r = pairgen_check(out, strlen(o->letters), d, b, lim, &sep, never);
	if (r != 1 && r != -1)
		pairgen_free(out);
	return r;
}

PairgenStatus outside_pair(const Outside *o, unsigned d, IndistBounds b,
			   uint64_t max_n, Limits *lim, PairCert *out,
			   bool *fixpoint)
{
	double t0 = limit_now();
	unsigned tries = 0;
	uint64_t lo = 0, hi = 0; /* lo: not certified (0: none tried) */
	PairCert best = {0};
	bool never = false;
	for (uint64_t n = 1; n && n <= max_n; n *= 2) {
		PairCert p;
		bool nv;
		int r = try_size(o, n, d, b, lim, &p, &nv);
		tries++;
		if (r == -2)
			return PAIRGEN_STOPPED;
		if (r == -1) {
			*out = p;
			return PAIRGEN_DISAGREE;
		}
		if (r == 1) {
			best = p;
			never = nv;
			hi = n;
			break;
		}
		lo = n;
	}
	if (!hi)
		return PAIRGEN_NONE;
	while (hi - lo > 1) { /* the least size certified, if monotone */
		uint64_t mid = lo + (hi - lo) / 2;
		PairCert p;
		bool nv;
		int r = try_size(o, mid, d, b, lim, &p, &nv);
		tries++;
		if (r == -2) {
			pairgen_free(&best);
			return PAIRGEN_STOPPED;
		}
		if (r == -1) {
			pairgen_free(&best);
			*out = p;
			return PAIRGEN_DISAGREE;
		}
		if (r == 1) {
			pairgen_free(&best);
			best = p;
			never = nv;
			hi = mid;
		} else {
			lo = mid;
		}
	}
	/* at any depth: a fixpoint before separation, both checks (a
	 * fixpoint at a level <= d was seen already) */
	if (!never) {
		unsigned sep;
		int r = pairgen_check(&best, strlen(o->letters), BLOCKREF_MAX_DEPTH,
				      b, lim, &sep, &never);
		if (r == -2) {
			pairgen_free(&best);
			return PAIRGEN_STOPPED;
		}
		if (r == -1) {
			*out = best;
			return PAIRGEN_DISAGREE;
		}
		never = r == 1 && never;
	}
	*out = best;
	out->tries = tries;
	out->seconds = limit_now() - t0;
	*fixpoint = never;
	return PAIRGEN_FOUND;
}
