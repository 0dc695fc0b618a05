/* extract.c -- the formula of an accepted depth: greedy atoms, the small
 * enumeration, conjunctions of literals, bank entries (extract.h). */
#include <config.h>

#include "search/extract.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/share.h"
#include "base/vec.h"
#include "search/parts.h"

typedef struct {
	Word64 *pos, *neg; /* the class's points by label */
	VEC(Node) lits;    /* the conjunction that defines it */
} Cls;

static uint64_t pairs_of(uint64_t p, uint64_t n) { return p * n; }

/* Collective (shared bank): the best (gain, atom) of every rank: the
 * largest gain, the first atom among equals, as one process would pick. */
static void best_over_ranks(const Share *sh, uint64_t *best, size_t *bi)
{
	uint64_t mine[2] = {*best, *bi}, *all;
	size_t total;
	all = sh->allgather(mine, sizeof mine, &total);
	for (int r = 0; r < sh->size; r++)
		if (all[2 * r] > *best || (all[2 * r] == *best && all[2 * r] &&
					    all[2 * r + 1] < *bi)) {
			*best = all[2 * r];
			*bi = all[2 * r + 1];
		}
	free(all);
}

/* Greedy: repeatedly the atom separating the most conflicting pairs.
 * Fills chosen (atom indices) and the DNF of the pure positive classes. */
static size_t greedy(Bank *b, const Sample *S, Store *st, Atoms *a,
		     const Word64 *care, const Word64 *label, size_t *chosen,
		     size_t maxchosen, Node *dnf)
{
	size_t nw = S->nwords, nch = 0;
	VEC(Cls) cls = {0};
	VEC(Node) terms = {0};
	Cls c0 = {xmalloc(nw * sizeof(Word64)), xmalloc(nw * sizeof(Word64)), {0}};
	sig_and(c0.pos, care, label, nw);
	sig_not(c0.neg, label, care, nw);
	VEC_PUSH(cls, c0);
	Word64 *t = xmalloc(2 * nw * sizeof(Word64)), *act = t + nw;
	while (cls.len > 0 && nch < maxchosen) {
		uint64_t best = 0;
		size_t bi = SIZE_MAX;
		uint64_t *pn = xmalloc(2 * cls.len * sizeof *pn);
		for (size_t k = 0; k < cls.len; k++) {
			pn[2 * k] = sig_popcount(cls.data[k].pos, nw);
			pn[2 * k + 1] = sig_popcount(cls.data[k].neg, nw);
		}
		for (size_t i = 0; i < a->n && !limit_poll(bank_limits(b)); i++) {
			if (!atoms_mine(a, i))
				continue;
			uint64_t gain = 0;
			for (size_t k = 0; k < cls.len; k++) {
				uint64_t p1 = sig_popcount_and(cls.data[k].pos, a->sig[i], nw);
				uint64_t n1 = sig_popcount_and(cls.data[k].neg, a->sig[i], nw);
				uint64_t p = pn[2 * k], n = pn[2 * k + 1];
				gain += pairs_of(p, n) - pairs_of(p1, n1) -
					pairs_of(p - p1, n - n1);
			}
			if (gain > best) {
				best = gain;
				bi = i;
			}
		}
		free(pn);
		if (a->sh)
			best_over_ranks(a->sh, &best, &bi);
		if (bi == SIZE_MAX)
			break;
		chosen[nch++] = bi;
		atoms_pin(b, a, &bi, 1);
		atoms_sig(b, S, a, bi, act);
		Node lit = atoms_node(b, S, st, a->entry[bi]);
		VEC(Cls) next = {0};
		for (size_t k = 0; k < cls.len; k++)
			for (int side = 0; side < 2; side++) {
				Cls c = {xmalloc(nw * sizeof(Word64)),
					 xmalloc(nw * sizeof(Word64)), {0}};
				if (side)
					sig_not(t, act, S->valid, nw);
				else
					memcpy(t, act, nw * sizeof(Word64));
				sig_and(c.pos, cls.data[k].pos, t, nw);
				sig_and(c.neg, cls.data[k].neg, t, nw);
				for (size_t j = 0; j < cls.data[k].lits.len; j++)
					VEC_PUSH(c.lits, cls.data[k].lits.data[j]);
				VEC_PUSH(c.lits, side ? store_make_not(st, lit) : lit);
				bool p = sig_popcount(c.pos, nw), n = sig_popcount(c.neg, nw);
				if (p && !n)
					VEC_PUSH(terms, store_make_and(st, c.lits.data,
								       c.lits.len));
				if (p && n) {
					VEC_PUSH(next, c);
					continue;
				}
				free(c.pos);
				free(c.neg);
				VEC_FREE(c.lits);
			}
		for (size_t k = 0; k < cls.len; k++) {
			free(cls.data[k].pos);
			free(cls.data[k].neg);
			VEC_FREE(cls.data[k].lits);
		}
		VEC_FREE(cls);
		cls.data = next.data;
		cls.len = next.len;
		cls.cap = next.cap;
	}
	*dnf = cls.len == 0 ? store_make_or(st, terms.data, terms.len) : NODE_NONE;
	for (size_t k = 0; k < cls.len; k++) {
		free(cls.data[k].pos);
		free(cls.data[k].neg);
		VEC_FREE(cls.data[k].lits);
	}
	VEC_FREE(cls);
	VEC_FREE(terms);
	free(t);
	return nch;
}

/* A formula of the small enumeration: a literal, or and/or of two. */
typedef struct {
	int op; /* 0 literal, 1 and, 2 or */
	uint32_t l, r, leaves;
	Node lit;
} Small;

static Node small_node(Store *st, const Small *f, uint32_t i)
{
	if (f[i].op == 0)
		return f[i].lit;
	Node l = small_node(st, f, f[i].l), r = small_node(st, f, f[i].r);
	return f[i].op == 1 ? store_make_and2(st, l, r) : store_make_or2(st, l, r);
}

enum { SMALL_LEAVES = 4, SMALL_MAX = 400000 };

/* The smallest and/or combination of literals over the chosen atoms and
 * the letters that matches the target on the care set (signatures are
 * compared on the care set only), or NODE_NONE. */
static Node small_enum(Bank *b, const Sample *S, Store *st, const Atoms *a,
		       const size_t *chosen, size_t nch, const Word64 *care,
		       const Word64 *label)
{
	size_t nw = S->nwords;
	SigSet *seen = sigset_new(nw);
	VEC(Small) f = {0};
	size_t lvl[SMALL_LEAVES + 2] = {0};
	Word64 *s = xmalloc(nw * sizeof(Word64)), *want = xmalloc(nw * sizeof(Word64));
	sig_and(want, label, care, nw);
	Node found = NODE_NONE;
	/* literals: the chosen atoms and the letters, both polarities */
	size_t nlit = nch + S->nletters;
	for (size_t k = 0; k < 2 * nlit && !found; k++) {
		size_t i = k / 2 < nch ? chosen[k / 2] : (k / 2 - nch);
		atoms_sig(b, S, a, i, s);
		Node lit = atoms_node(b, S, st, a->entry[i]);
		if (k & 1) {
			sig_not(s, s, S->valid, nw);
			lit = store_make_not(st, lit);
		}
		sig_and(s, s, care, nw);
		bool fresh;
		sigset_insert(seen, s, &fresh);
		if (!fresh)
			continue;
		Small e = {0, 0, 0, 1, lit};
		VEC_PUSH(f, e);
		if (memcmp(s, want, nw * sizeof(Word64)) == 0)
			found = lit;
	}
	lvl[1] = 0;
	lvl[2] = f.len;
	for (uint32_t L = 2; L <= SMALL_LEAVES && !found && f.len < SMALL_MAX; L++) {
		for (uint32_t li = 1; li <= L / 2 && !found; li++) {
			uint32_t ri = L - li;
			for (size_t i = lvl[li]; i < lvl[li + 1] && !found &&
						 !limit_poll(bank_limits(b)); i++)
				for (size_t j = li == ri ? i + 1 : lvl[ri];
				     j < lvl[ri + 1] && !found && f.len < SMALL_MAX; j++)
					for (int op = 1; op <= 2 && !found; op++) {
						const Word64 *x = sigset_get(seen, i),
							     *y = sigset_get(seen, j);
						if (op == 1)
							sig_and(s, x, y, nw);
						else
							sig_or(s, x, y, nw);
						bool fresh;
						sigset_insert(seen, s, &fresh);
						if (!fresh)
							continue;
						Small e = {op, (uint32_t)i, (uint32_t)j, L, 0};
						VEC_PUSH(f, e);
						if (memcmp(s, want, nw * sizeof(Word64)) == 0)
							found = small_node(st, f.data,
									   (uint32_t)(f.len - 1));
					}
		}
		lvl[L + 1] = f.len;
	}
	VEC_FREE(f);
	sigset_free(seen);
	free(s);
	free(want);
	return found;
}

enum { GREEDY_MAX = 64, PAIR_MAX = 3000, CONJ_MAX = 8 };

typedef struct {
	size_t atom;
	bool neg;
	uint64_t size;
} Lit;

static int cmp_lit(const void *x, const void *y)
{
	const Lit *p = x, *q = y;
	if (p->size != q->size)
		return p->size < q->size ? -1 : 1;
	return p->atom < q->atom ? -1 : p->atom > q->atom ? 1 : (int)p->neg - (int)q->neg;
}

/* No pair: literals chosen greedily, each excluding the most negatives
 * still left (rows[i] = the negatives literal i keeps), until none is
 * left; the number chosen, or 0 when CONJ_MAX do not suffice. */
static size_t greedy_cover(const Word64 *rows, size_t n, const Word64 *neg,
			   size_t nw, size_t *idx)
{
	Word64 *left = xmalloc(nw * sizeof(Word64));
	memcpy(left, neg, nw * sizeof(Word64));
	size_t m = 0, remaining = sig_popcount(left, nw);
	while (remaining && m < CONJ_MAX) {
		size_t bi = SIZE_MAX, bkeep = remaining;
		for (size_t i = 0; i < n; i++) {
			size_t keep = sig_popcount_and(left, rows + i * nw, nw);
			if (keep < bkeep) {
				bkeep = keep;
				bi = i;
			}
		}
		if (bi == SIZE_MAX)
			break;
		idx[m++] = bi;
		sig_and(left, left, rows + bi * nw, nw);
		remaining = bkeep;
	}
	free(left);
	return remaining ? 0 : m;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;
	return p < q ? -1 : p > q;
}

/* Collective (shared bank): every rank's list, merged in order. */
static uint64_t *merge_over_ranks(const Share *sh, uint64_t *mine, size_t *n)
{
	if (!sh)
		return mine;
	size_t total;
	uint64_t *all = sh->allgather(mine, *n * sizeof *mine, &total);
	free(mine);
	*n = total / sizeof *all;
	qsort(all, *n, sizeof *all, cmp_u64);
	return all;
}

/* The literals (an atom or its negation) that miss at most tol of the
 * positive points, smallest first, at most PAIR_MAX of them. */
static Lit *literals(Bank *b, const Sample *S, Store *st, Atoms *a,
		     const Word64 *pos, size_t tol, size_t *n)
{
	size_t nw = S->nwords, m = 0;
	uint64_t *code = xmalloc(2 * (a->n + 1) * sizeof *code);
	Word64 *x = xmalloc(nw * sizeof(Word64));
	for (size_t i = 0; i < a->n; i++) {
		if (!atoms_mine(a, i))
			continue;
		atoms_sig(b, S, a, i, x);
		for (int ng = 0; ng < 2; ng++) {
			if (ng)
				sig_not(x, x, S->valid, nw);
			size_t miss = 0;
			for (size_t k = 0; k < nw && miss <= tol; k++)
				miss += (size_t)__builtin_popcountll(pos[k] & ~x[k]);
			if (miss <= tol)
				code[m++] = 2 * (uint64_t)i + (uint64_t)ng;
		}
	}
	free(x);
	code = merge_over_ranks(a->sh, code, &m);
	/* the sizes in the order of the atoms: the Store grows alike */
	Lit *lits = xmalloc((m + 1) * sizeof *lits);
	for (size_t k = 0; k < m; k++) {
		size_t i = (size_t)(code[k] / 2);
		lits[k] = (Lit){i, code[k] & 1,
				store_size(st, atoms_node(b, S, st, a->entry[i]))};
	}
	free(code);
	*n = m;
	qsort(lits, *n, sizeof *lits, cmp_lit);
	if (*n > PAIR_MAX)
		*n = PAIR_MAX;
	if (a->sh) {
		size_t *idx = xmalloc((*n + 1) * sizeof *idx);
		for (size_t k = 0; k < *n; k++)
			idx[k] = lits[k].atom;
		atoms_pin(b, a, idx, *n);
		free(idx);
	}
	return lits;
}

/* The smallest conjunction of two literals (an atom or its negation)
 * that matches the target on the care set, else a greedy conjunction of
 * at most CONJ_MAX literals, or NODE_NONE.  A conjunct
 * must hold on every positive point, so only those literals pair up
 * (the smallest PAIR_MAX of them); L_k = S(ab..) & !S(ba..) is such a
 * pair.  (A disjunction of two literals is the negation of a conjunction
 * for the complemented target: covered by running this on the swapped
 * labels.) */
static Node pair_conjunction(Bank *b, const Sample *S, Store *st, Atoms *a,
			     const Word64 *pos, const Word64 *neg)
{
	size_t nw = S->nwords, n = 0;
	Lit *lits = literals(b, S, st, a, pos, 0, &n);
	Word64 *x = xmalloc(nw * sizeof(Word64));
	/* the rows: neg & literal, one signature per literal */
	Word64 *rows = xmalloc((n + 1) * nw * sizeof(Word64));
	for (size_t i = 0; i < n; i++) {
		atoms_sig(b, S, a, lits[i].atom, x);
		if (lits[i].neg)
			sig_not(x, x, S->valid, nw);
		sig_and(rows + i * nw, x, neg, nw);
	}
	uint64_t best = UINT64_MAX;
	size_t bi = 0, bj = 0;
	/* (a limit cuts the quadratic pass short: search_run then drops
	 * the formula) */
	for (size_t i = 0; i < n && !limit_poll(bank_limits(b)); i++)
		for (size_t j = i + 1; j < n && lits[i].size + lits[j].size < best; j++) {
			const Word64 *p = rows + i * nw, *q = rows + j * nw;
			bool disjoint = true;
			for (size_t k = 0; k < nw && disjoint; k++)
				disjoint = (p[k] & q[k]) == 0;
			if (disjoint) {
				best = lits[i].size + lits[j].size;
				bi = i;
				bj = j;
			}
		}
	size_t idx[CONJ_MAX], m = 0;
	if (best != UINT64_MAX) {
		idx[m++] = bi;
		idx[m++] = bj;
	} else {
		m = greedy_cover(rows, n, neg, nw, idx);
	}
	Node out = NODE_NONE;
	if (m) {
		Node l[CONJ_MAX];
		for (size_t k = 0; k < m; k++) {
			l[k] = atoms_node(b, S, st, a->entry[lits[idx[k]].atom]);
			if (lits[idx[k]].neg)
				l[k] = store_make_not(st, l[k]);
		}
		out = store_make_and(st, l, m);
	}
	free(rows);
	free(x);
	free(lits);
	return out;
}

/* With noisy labels: the smallest conjunction of two literals getting at
 * most tol words wrong (positives it misses, negatives it keeps), or
 * NODE_NONE. */
static Node tolerant_pair(Bank *b, const Sample *S, Store *st, Atoms *a,
			  const Word64 *pos, const Word64 *neg, size_t tol)
{
	size_t nw = S->nwords, n = 0;
	Lit *lits = literals(b, S, st, a, pos, tol, &n);
	Word64 *x = xmalloc(nw * sizeof(Word64));
	/* per literal: the positives it misses, the negatives it keeps */
	Word64 *miss = xmalloc((n + 1) * nw * sizeof(Word64));
	Word64 *keep = xmalloc((n + 1) * nw * sizeof(Word64));
	for (size_t i = 0; i < n; i++) {
		atoms_sig(b, S, a, lits[i].atom, x);
		if (lits[i].neg)
			sig_not(x, x, S->valid, nw);
		for (size_t k = 0; k < nw; k++) {
			miss[i * nw + k] = pos[k] & ~x[k];
			keep[i * nw + k] = neg[k] & x[k];
		}
	}
	uint64_t best = UINT64_MAX;
	size_t bi = 0, bj = 0;
	for (size_t i = 0; i < n && !limit_poll(bank_limits(b)); i++)
		for (size_t j = i + 1; j < n && lits[i].size + lits[j].size < best; j++) {
			size_t wrong = 0;
			for (size_t k = 0; k < nw && wrong <= tol; k++)
				wrong += (size_t)__builtin_popcountll(
					(miss[i * nw + k] | miss[j * nw + k]) |
					(keep[i * nw + k] & keep[j * nw + k]));
			if (wrong <= tol) {
				best = lits[i].size + lits[j].size;
				bi = i;
				bj = j;
			}
		}
	Node out = NODE_NONE;
	if (best != UINT64_MAX) {
		Node l[2];
		size_t idx[2] = {bi, bj};
		for (int k = 0; k < 2; k++) {
			l[k] = atoms_node(b, S, st, a->entry[lits[idx[k]].atom]);
			if (lits[idx[k]].neg)
				l[k] = store_make_not(st, l[k]);
		}
		out = store_make_and(st, l, 2);
	}
	free(miss);
	free(keep);
	free(x);
	free(lits);
	return out;
}

/* The smaller of two candidate formulas (NODE_NONE loses). */
static Node smaller(const Store *st, Node p, Node q)
{
	if (!p)
		return q;
	if (!q)
		return p;
	return store_size(st, q) < store_size(st, p) ? q : p;
}

/* One extraction over the atoms a (with_diff: bank entries that use
 * differences may answer directly): the smallest of the greedy atoms'
 * small enumeration, the two-literal or greedy conjunctions and their
 * duals, and a matching bank entry; NODE_NONE if none, *dnf the fallback. */
static Node extract_over(Bank *b, const Sample *S, Store *st, Atoms *a,
			 bool with_diff, const Word64 *care, const Word64 *label,
			 unsigned depth, size_t *nchosen, Node *dnf)
{
	size_t chosen[GREEDY_MAX], nw = S->nwords;
	*nchosen = greedy(b, S, st, a, care, label, chosen, GREEDY_MAX, dnf);
	Node small = small_enum(b, S, st, a, chosen, *nchosen < 8 ? *nchosen : 8,
				care, label);
	Word64 *pos = xmalloc(2 * nw * sizeof(Word64)), *neg = pos + nw;
	sig_and(pos, care, label, nw);
	sig_not(neg, label, care, nw);
	small = smaller(st, small, pair_conjunction(b, S, st, a, pos, neg));
	Node dual = pair_conjunction(b, S, st, a, neg, pos);
	if (dual) /* !(f & g) matches the target */
		small = smaller(st, small, store_make_not(st, dual));
	free(pos);
	/* a guarded bank entry may itself be the answer (Q_x & atom) */
	Word64 *s = xmalloc(nw * sizeof(Word64));
	size_t m = 0;
	uint64_t *hit = xmalloc((bank_first(b, depth + 1) + 1) * sizeof *hit);
	for (size_t i = 0; i < bank_first(b, depth + 1); i++) {
		if (!bank_mine(b, bank_entry(b, i)))
			continue;
		bank_sig(b, bank_entry(b, i), s);
		bool same = true;
		for (size_t k = 0; k < nw && same; k++)
			same = ((s[k] ^ label[k]) & care[k]) == 0;
		if (same)
			hit[m++] = i;
	}
	hit = merge_over_ranks(a->sh, hit, &m);
	for (size_t k = 0; k < m; k++)
		if (with_diff || !bank_entry(b, hit[k])->linear)
			small = smaller(st, small, bank_node(b, hit[k]));
	free(hit);
	free(s);
	return small;
}

/* Formulas without difference atoms are simpler, and in the threshold
 * fragment that MONA decides. */
void extract_formula(Bank *b, const Sample *S, Store *st, Atoms *a,
		     const Word64 *care, const Word64 *label, SearchResult *r)
{
	Atoms plain;
	Refutation unused;
	Node small = NODE_NONE, dnf = NODE_NONE;
	atoms_collect(b, S, r->depth, false, &plain);
	if (plain.n < a->n &&
	    parts_test(&plain, S, care, label, NULL, 0, NULL, &unused))
		small = extract_over(b, S, st, &plain, false, care, label, r->depth,
				     &r->chosen, &dnf);
	atoms_free(&plain);
	if (!small) {
		Node d2;
		small = extract_over(b, S, st, a, true, care, label, r->depth,
				     &r->chosen, &d2);
		if (!dnf)
			dnf = d2;
	}
	r->formula = small ? small : dnf;
	r->large = !small;
}

void extract_tolerant(Bank *b, const Sample *S, Store *st, Atoms *a,
		      const Word64 *care, const Word64 *label, size_t tol,
		      SearchResult *r)
{
	Word64 *pos = xmalloc(2 * S->nwords * sizeof(Word64));
	Word64 *neg = pos + S->nwords;
	sig_and(pos, care, label, S->nwords);
	sig_not(neg, label, care, S->nwords);
	Node t = tolerant_pair(b, S, st, a, pos, neg, tol);
	Node u = tolerant_pair(b, S, st, a, neg, pos, tol);
	if (u)
		t = smaller(st, t, store_make_not(st, u));
	if (t && smaller(st, r->formula, t) == t) {
		r->formula = t;
		r->large = false;
	}
	free(pos);
}
