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
static bool parity_pair(uint64_t n, unsigned d, BlockWord *u, BlockWord *v)
{
	(void)d;
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
static bool mod3_pair(uint64_t n, unsigned d, BlockWord *u, BlockWord *v)
{
	(void)d;
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
static bool dyck2_pair(uint64_t n, unsigned d, BlockWord *u, BlockWord *v)
{
	(void)d;
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

/* Openers alternating [ ( [ ( ..., m = d + 2 blocks, each block twice as
 * long as the next (the shape of the L_k pairs: every block of the
 * prefix longer than all later ones), then the closers mirrored.  v
 * swaps one closer of a block with the first of the next: at the
 * innermost boundary (inner) or the outermost one (outer).  The order of
 * the openers is what tells them apart, which a formula sees only
 * through the nesting of its counts. */
static bool dyck2_nested(uint64_t n, unsigned d, BlockWord *u, BlockWord *v,
			 bool inner)
{
	unsigned m = d + 2;
	if (n < 2 || m > 40 || n > (BLOCKWORD_MAX_LEN >> (m + 2)))
		return false;
	uint8_t open[2] = {2, 0}, close[2] = {3, 1}; /* [ ( and ] ) */
	for (unsigned i = 0; i < m; i++) {
		blockword_push(u, open[i % 2], n << (m - 1 - i));
		blockword_push(v, open[i % 2], n << (m - 1 - i));
	}
	unsigned swap = inner ? m - 1 : 1; /* the closer block before it */
	for (unsigned i = m; i-- > 0;) {
		uint64_t len = n << (m - 1 - i);
		blockword_push(u, close[i % 2], len);
		if (i == swap) { /* its last closer after the next's first */
			blockword_push(v, close[i % 2], len - 1);
			blockword_push(v, close[(i - 1) % 2], 1);
			blockword_push(v, close[i % 2], 1);
		} else if (i == swap - 1) {
			blockword_push(v, close[i % 2], len - 1);
		} else {
			blockword_push(v, close[i % 2], len);
		}
	}
	return true;
}

static bool dyck2_inner(uint64_t n, unsigned d, BlockWord *u, BlockWord *v)
{
	return dyck2_nested(n, d, u, v, true);
}

static bool dyck2_outer(uint64_t n, unsigned d, BlockWord *u, BlockWord *v)
{
	return dyck2_nested(n, d, u, v, false);
}

static const Outside table[] = {
	{"parity", "01", "PARITY: an odd number of 1s", parity_member,
	 {{"1^n and 1^(n+1), the odd one in", parity_pair}}},
	{"mod3", "ab", "MOD3: the number of a's is divisible by 3", mod3_member,
	 {{"a^(3n) (in) and a^(3n+1) (out)", mod3_pair}}},
	{"dyck2", "()[]", "Dyck-2: balanced, every closer matching the last "
	 "open opener", dyck2_member,
	 {{"[^n (^n )^n ]^n (in) and [^n (^n )^(n-1) ] ) ]^(n-1) (out)",
	   dyck2_pair},
	  {"d+2 opener blocks alternating [ ( ..., each twice the next "
	   "(the last n), closers mirrored; out: the innermost closer "
	   "blocks' boundary swapped", dyck2_inner},
	  {"the same openers and closers; out: the outermost closer blocks' "
	   "boundary swapped", dyck2_outer}}},
};

const Outside *outside_find(const char *name)
{
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

/* Letters and digits only, lower case: "Dyck-2" and "MOD 3" as typed. */
static bool same_name(const char *typed, const char *name)
{
	for (;; typed++) {
		while (*typed == '-' || *typed == '_' || *typed == ' ')
			typed++;
		char c = *typed >= 'A' && *typed <= 'Z' ? (char)(*typed - 'A' + 'a')
							 : *typed;
		if (c != *name)
			return false;
		if (!c)
			return true;
		name++;
	}
}

const Outside *outside_lookup(const char *typed)
{
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (same_name(typed, table[i].name))
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
static int try_size(const Outside *o, unsigned shape, uint64_t n, unsigned d,
		    IndistBounds b, Limits *lim, PairCert *out, bool *never,
		    unsigned *sep)
{
	*out = (PairCert){.depth = d};
	if (!o->shapes[shape].pair(n, d, &out->u, &out->v) ||
	    !o->member(&out->u) || o->member(&out->v)) {
		pairgen_free(out);
		return -3;
	}
	int r = pairgen_check(out, strlen(o->letters), d, b, lim, sep, never);
	if (r != 1 && r != -1)
		pairgen_free(out);
	return r;
}

PairgenStatus outside_pair(const Outside *o, unsigned shape, unsigned d,
			   IndistBounds b, uint64_t max_n, Limits *lim,
			   PairCert *out, bool *fixpoint, OutsideTried *tried)
{
	double t0 = limit_now();
	unsigned tries = 0;
	uint64_t lo = 0, hi = 0; /* lo: not certified (0: none tried) */
	PairCert best = {0};
	bool never = false;
	*tried = (OutsideTried){0};
	for (uint64_t n = 1; n && n <= max_n; n *= 2) {
		PairCert p;
		bool nv;
		unsigned sep = 0;
		int r = try_size(o, shape, n, d, b, lim, &p, &nv, &sep);
		tries++;
		if (r == -3)
			continue; /* no pair of this size */
		if (!tried->sizes++)
			tried->nmin = n;
		tried->nmax = n;
		tried->last_sep = sep;
		if (r == 0 || r == 1) {
			PairCert q = {0};
			if (o->shapes[shape].pair(n, d, &q.u, &q.v))
				tried->ulen = blockword_length(&q.u);
			pairgen_free(&q);
		}
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
		unsigned sep;
		int r = try_size(o, shape, mid, d, b, lim, &p, &nv, &sep);
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
