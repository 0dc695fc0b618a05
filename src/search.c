/* search.c -- targets on a sample, the partition test, greedy atom
 * choice, the small enumeration, separation. */
#include <config.h>

#include "search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "limit.h"
#include "mem.h"
#include "vec.h"

/* ---- targets ---------------------------------------------------------- */

/* Blocks of a word over letters 0/1 starting with 0 (the prefixes of L_m
 * members); SIZE_MAX when it starts with 1 or uses another letter. */
static size_t blocks(const uint8_t *w, size_t len)
{
	if (len == 0 || w[0] != 0)
		return SIZE_MAX;
	size_t k = 1;
	for (size_t i = 0; i < len; i++) {
		if (w[i] > 1)
			return SIZE_MAX;
		if (i > 0 && w[i] != w[i - 1])
			k++;
	}
	return k;
}

bool target_sig(const Target *t, const Sample *S, const Store *st,
		Word64 *care, Word64 *label)
{
	size_t nw = S->nwords;
	memset(care, 0, nw * sizeof(Word64));
	memset(label, 0, nw * sizeof(Word64));
	if (t->kind == TARGET_FORMULA) {
		memcpy(care, S->valid, nw * sizeof(Word64));
		return sample_eval(S, st, t->node, label);
	}
	if (t->kind == TARGET_LABELS) {
		for (size_t i = 0; i < t->nwords; i++) {
			size_t b = sample_node(S, t->words[i].w, t->words[i].len);
			sig_set(care, b);
			if (t->labels[i])
				sig_set(label, b);
		}
		return true;
	}
	uint8_t *w = xmalloc(S->nbits + 1);
	for (size_t b = 0; b < S->nbits; b++) {
		if (!sig_bit(S->valid, b))
			continue;
		size_t k = blocks(w, sample_word(S, b, w));
		if (k == SIZE_MAX || k > t->m)
			continue;
		sig_set(care, b);
		if (k == t->m)
			sig_set(label, b);
	}
	free(w);
	return true;
}

size_t search_check(const Sample *S, const Store *st, Node f,
		    const Word64 *care, const Word64 *label, size_t *first)
{
	size_t nw = S->nwords, bad = 0;
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	*first = SIZE_MAX;
	if (!sample_eval(S, st, f, sig)) {
		free(sig);
		return SIZE_MAX;
	}
	for (size_t i = 0; i < nw; i++) {
		Word64 d = (sig[i] ^ label[i]) & care[i];
		if (d && *first == SIZE_MAX)
			*first = i * 64 + (size_t)__builtin_ctzll(d);
		bad += (size_t)__builtin_popcountll(d);
	}
	free(sig);
	return bad;
}

/* ---- atoms ------------------------------------------------------------ */

/* The letters and the count atoms of depth <= d, as borrowed canonical
 * signatures (polarity does not matter for a partition), with their
 * entries (SIZE_MAX + x for letter x). */
typedef struct {
	const Word64 **sig;
	size_t *entry;
	size_t n;
} Atoms;

static void collect_atoms_if(const Bank *b, const Sample *S, unsigned d,
			     bool with_diff, Atoms *a)
{
	size_t hi = bank_first(b, d + 1);
	a->sig = xmalloc((S->nletters + hi) * sizeof *a->sig);
	a->entry = xmalloc((S->nletters + hi) * sizeof *a->entry);
	a->n = 0;
	for (size_t x = 0; x < S->nletters; x++) {
		a->sig[a->n] = S->letter + x * S->nwords;
		a->entry[a->n++] = SIZE_MAX - x;
	}
	for (size_t i = 0; i < hi; i++) {
		const Entry *e = bank_entry(b, i);
		if ((e->kind != ENTRY_ATOM && e->kind != ENTRY_LIN) ||
		    (!with_diff && e->linear))
			continue;
		a->sig[a->n] = bank_canonical(b, e);
		a->entry[a->n++] = i;
	}
}

static void collect_atoms(const Bank *b, const Sample *S, unsigned d, Atoms *a)
{
	collect_atoms_if(b, S, d, true, a);
}

static void atoms_free(Atoms *a)
{
	free(a->sig);
	free(a->entry);
}

/* ---- the partition test ------------------------------------------------ */

typedef struct {
	size_t n;       /* live points */
	size_t *bit;    /* their sample bits */
	bool *lab;
	uint32_t *cls;
	uint32_t ncls;
	uint32_t *remap; /* scratch: 2 * points */
	uint32_t *npos, *nneg;
} Parts;

static void parts_init(Parts *p, const Sample *S, const Word64 *care,
		       const Word64 *label)
{
	size_t total = sig_popcount(care, S->nwords);
	p->bit = xmalloc((total + 1) * sizeof *p->bit);
	p->lab = xmalloc(total + 1);
	p->cls = xcalloc(total + 1, sizeof *p->cls);
	p->remap = xmalloc(2 * (total + 1) * sizeof *p->remap);
	p->npos = xmalloc(2 * (total + 1) * sizeof *p->npos);
	p->nneg = xmalloc(2 * (total + 1) * sizeof *p->nneg);
	p->n = 0;
	for (size_t b = 0; b < S->nbits; b++)
		if (sig_bit(care, b)) {
			p->bit[p->n] = b;
			p->lab[p->n++] = sig_bit(label, b);
		}
	p->ncls = 1;
}

static void parts_free(Parts *p)
{
	free(p->bit);
	free(p->lab);
	free(p->cls);
	free(p->remap);
	free(p->npos);
	free(p->nneg);
}

static void split(Parts *p, const Word64 *a)
{
	uint32_t next = 0;
	for (size_t k = 0; k < 2 * (size_t)p->ncls; k++)
		p->remap[k] = UINT32_MAX;
	for (size_t i = 0; i < p->n; i++) {
		size_t k = 2 * (size_t)p->cls[i] + sig_bit(a, p->bit[i]);
		if (p->remap[k] == UINT32_MAX)
			p->remap[k] = next++;
		p->cls[i] = p->remap[k];
	}
	p->ncls = next;
}

/* Keeps only the points of classes holding both labels (renumbered). */
static void drop_pure(Parts *p)
{
	memset(p->npos, 0, p->ncls * sizeof *p->npos);
	memset(p->nneg, 0, p->ncls * sizeof *p->nneg);
	for (size_t i = 0; i < p->n; i++)
		(p->lab[i] ? p->npos : p->nneg)[p->cls[i]]++;
	uint32_t next = 0;
	for (uint32_t c = 0; c < p->ncls; c++)
		p->remap[c] = p->npos[c] && p->nneg[c] ? next++ : UINT32_MAX;
	size_t m = 0;
	for (size_t i = 0; i < p->n; i++) {
		uint32_t c = p->remap[p->cls[i]];
		if (c == UINT32_MAX)
			continue;
		p->bit[m] = p->bit[i];
		p->lab[m] = p->lab[i];
		p->cls[m++] = c;
	}
	p->n = m;
	p->ncls = next;
}

/* Shortest positive and negative word of up to SEARCH_PAIRS classes. */
static void witness_pairs(const Parts *p, const Sample *S, Refutation *r)
{
	r->npairs = 0;
	for (uint32_t c = 0; c < p->ncls && r->npairs < SEARCH_PAIRS; c++) {
		size_t pos = SIZE_MAX, neg = SIZE_MAX;
		for (size_t i = 0; i < p->n; i++) {
			if (p->cls[i] != c)
				continue;
			size_t *slot = p->lab[i] ? &pos : &neg;
			if (*slot == SIZE_MAX ||
			    S->length[p->bit[i]] < S->length[*slot])
				*slot = p->bit[i];
		}
		r->pairs[r->npairs++] = (WordPair){pos, neg};
	}
}

/* Is the target a Boolean function of the atoms on the care set? */
static bool partition_test(const Atoms *a, const Sample *S, const Word64 *care,
			   const Word64 *label, Refutation *r)
{
	Parts p;
	parts_init(&p, S, care, label);
	drop_pure(&p);
	for (size_t i = 0; i < a->n && p.n > 0; i++) {
		split(&p, a->sig[i]);
		if (i % 16 == 15 || i + 1 == a->n)
			drop_pure(&p);
	}
	bool ok = p.n == 0;
	r->natoms = a->n;
	if (!ok)
		witness_pairs(&p, S, r);
	parts_free(&p);
	return ok;
}

/* ---- greedy choice and the small enumeration --------------------------- */

typedef struct {
	Word64 *pos, *neg; /* the class's points by label */
	VEC(Node) lits;    /* the conjunction that defines it */
} Cls;

static Node atom_node(Bank *b, const Sample *S, Store *st, size_t entry)
{
	if (entry > SIZE_MAX - S->nletters)
		return store_make_letter(st, S->letters[SIZE_MAX - entry]);
	return bank_node(b, entry);
}

/* The actual signature of atom i (letters, or the entry's own). */
static void atom_sig(const Bank *b, const Sample *S, const Atoms *a, size_t i,
		     Word64 *out)
{
	if (a->entry[i] > SIZE_MAX - S->nletters)
		memcpy(out, a->sig[i], S->nwords * sizeof(Word64));
	else
		bank_sig(b, bank_entry(b, a->entry[i]), out);
}

static uint64_t pairs_of(uint64_t p, uint64_t n) { return p * n; }

/* Greedy: repeatedly the atom separating the most conflicting pairs.
 * Fills chosen (atom indices) and the DNF of the pure positive classes. */
static size_t greedy(Bank *b, const Sample *S, Store *st, const Atoms *a,
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
		if (bi == SIZE_MAX)
			break;
		chosen[nch++] = bi;
		atom_sig(b, S, a, bi, act);
		Node lit = atom_node(b, S, st, a->entry[bi]);
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
		atom_sig(b, S, a, i, s);
		Node lit = atom_node(b, S, st, a->entry[i]);
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

/* The smallest conjunction of two literals (an atom or its negation)
 * that matches the target on the care set, else a greedy conjunction of
 * at most CONJ_MAX literals, or NODE_NONE.  A conjunct
 * must hold on every positive point, so only those literals pair up
 * (the smallest PAIR_MAX of them); L_k = S(ab..) & !S(ba..) is such a
 * pair.  (A disjunction of two literals is the negation of a conjunction
 * for the complemented target: covered by running this on the swapped
 * labels.) */
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

static Node pair_conjunction(Bank *b, const Sample *S, Store *st, const Atoms *a,
			     const Word64 *pos, const Word64 *neg)
{
	size_t nw = S->nwords, n = 0;
	Lit *lits = xmalloc(2 * (a->n + 1) * sizeof *lits);
	Word64 *x = xmalloc(nw * sizeof(Word64));
	for (size_t i = 0; i < a->n; i++) {
		atom_sig(b, S, a, i, x);
		for (int ng = 0; ng < 2; ng++) {
			if (ng)
				sig_not(x, x, S->valid, nw);
			bool covers = true;
			for (size_t k = 0; k < nw && covers; k++)
				covers = (pos[k] & ~x[k]) == 0;
			if (covers)
				lits[n++] = (Lit){i, ng != 0,
					store_size(st, atom_node(b, S, st, a->entry[i]))};
		}
	}
	qsort(lits, n, sizeof *lits, cmp_lit);
	if (n > PAIR_MAX)
		n = PAIR_MAX;
	/* the rows: neg & literal, one signature per literal */
	Word64 *rows = xmalloc((n + 1) * nw * sizeof(Word64));
	for (size_t i = 0; i < n; i++) {
		atom_sig(b, S, a, lits[i].atom, x);
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
			l[k] = atom_node(b, S, st, a->entry[lits[idx[k]].atom]);
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
static Node extract_over(Bank *b, const Sample *S, Store *st, const Atoms *a,
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
	for (size_t i = 0; i < bank_first(b, depth + 1); i++) {
		bank_sig(b, bank_entry(b, i), s);
		bool same = true;
		for (size_t k = 0; k < nw && same; k++)
			same = ((s[k] ^ label[k]) & care[k]) == 0;
		if (same && (with_diff || !bank_entry(b, i)->linear))
			small = smaller(st, small, bank_node(b, i));
	}
	free(s);
	return small;
}

/* Prefers formulas without difference atoms (simpler, and in the
 * threshold fragment that MONA decides) when those atoms give a small
 * formula; else all atoms. */
static void extract(Bank *b, const Sample *S, Store *st, const Atoms *a,
		    const Word64 *care, const Word64 *label, SearchResult *r)
{
	Atoms plain;
	Refutation unused;
	Node small = NODE_NONE, dnf = NODE_NONE;
	collect_atoms_if(b, S, r->depth, false, &plain);
	if (plain.n < a->n && partition_test(&plain, S, care, label, &unused))
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

void search_run(Bank *b, const Sample *S, Store *st, const Word64 *care,
		const Word64 *label, unsigned maxd, SearchResult *r)
{
	memset(r, 0, sizeof *r);
	if (maxd > SEARCH_MAXD)
		maxd = SEARCH_MAXD;
	for (unsigned d = 0; d <= maxd; d++) {
		BankStop stop = bank_build(b, d);
		if (stop != BANK_OK && bank_depth(b) < d) {
			r->stop = stop;
			return;
		}
		Atoms a;
		collect_atoms(b, S, d, &a);
		bool ok = partition_test(&a, S, care, label, &r->refuted[d]);
		if (ok) {
			r->found = true;
			r->depth = d;
			extract(b, S, st, &a, care, label, r);
			atoms_free(&a);
			/* A formula whose extraction a limit cut short is no
			 * answer; the least depth is. */
			if ((r->stop = bank_limit_stop(bank_limits(b))) != BANK_OK)
				r->formula = NODE_NONE;
			return;
		}
		r->tried = d + 1;
		atoms_free(&a);
		if ((r->stop = bank_limit_stop(bank_limits(b))) != BANK_OK)
			return;
	}
}

/* ---- separation --------------------------------------------------------- */

static int cmp_gsize(const void *x, const void *y, void *ctx)
{
	const Bank *b = ctx;
	const Entry *p = bank_entry(b, *(const size_t *)x);
	const Entry *q = bank_entry(b, *(const size_t *)y);
	if (p->gsize != q->gsize)
		return p->gsize < q->gsize ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* Key of a node for the depth-1 certificate: last letter and Parikh
 * vector (two words with equal keys agree on every depth-1 formula). */
static void parikh_key(const Sample *S, size_t bit, uint32_t *key)
{
	memset(key, 0, (S->nletters + 1) * sizeof *key);
	key[0] = UINT32_MAX;
	for (size_t b = bit; b != UINT32_MAX && b != 0; b = S->parent[b])
		for (size_t x = 0; x < S->nletters; x++)
			if (sig_bit(S->letter + x * S->nwords, b)) {
				key[1 + x]++;
				if (b == bit)
					key[0] = (uint32_t)x;
			}
}

static const Sample *key_sample;
static uint32_t *key_table;
static int cmp_key(const void *x, const void *y)
{
	size_t k = key_sample->nletters + 1;
	return memcmp(key_table + *(const size_t *)x * k,
		      key_table + *(const size_t *)y * k, k * sizeof(uint32_t));
}

/* A pair with equal keys that sig separates (shortest words), or false. */
static bool parikh_pair(const Sample *S, const size_t *order, const uint32_t *keys,
			size_t n, const Word64 *sig, WordPair *out)
{
	size_t k = S->nletters + 1, best = SIZE_MAX;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		size_t pos = SIZE_MAX, neg = SIZE_MAX;
		while (j < n && memcmp(keys + order[i] * k, keys + order[j] * k,
				       k * sizeof(uint32_t)) == 0) {
			size_t bit = order[j];
			size_t *slot = sig_bit(sig, bit) ? &pos : &neg;
			if (*slot == SIZE_MAX)
				*slot = bit;
			j++;
		}
		if (pos != SIZE_MAX && neg != SIZE_MAX &&
		    S->length[pos] < best) {
			best = S->length[pos];
			*out = (WordPair){pos, neg};
		}
		i = j;
	}
	return best != SIZE_MAX;
}

/* The sample's witness pairs with u in L_D: consecutive chains of equal
 * length that differ only in their last three letters, u having D blocks;
 * their end bits, two per pair. */
static size_t witness_ends(const Sample *S, unsigned D, size_t *ends)
{
	size_t m = 0;
	for (size_t c = 0; c + 1 < S->nchains; c += 2) {
		const SampleWord *x = &S->chains[c].word, *y = &S->chains[c + 1].word;
		if (x->len != y->len || x->len < 4 ||
		    memcmp(x->w, y->w, x->len - 3) != 0)
			continue;
		size_t k = 1; /* the blocks of u = the first len - 4 letters */
		for (size_t i = 1; i < x->len - 4; i++)
			if (x->w[i] != x->w[i - 1])
				k++;
		if (k != D)
			continue;
		ends[m++] = S->chains[c].first + (x->len - S->n - 1);
		ends[m++] = S->chains[c + 1].first + (y->len - S->n - 1);
	}
	return m;
}

size_t search_separate(Bank *b, const Sample *S, unsigned D, size_t max,
		       Separation *out)
{
	size_t nw = S->nwords;
	if (bank_build_full(b, D + 1) != BANK_OK && bank_depth(b) < D + 1)
		return 0;
	/* the full partition of the sample by the depth-<=D atoms */
	Atoms a;
	collect_atoms(b, S, D, &a);
	Word64 *all = xmalloc(nw * sizeof(Word64));
	memcpy(all, S->valid, nw * sizeof(Word64));
	Parts p;
	parts_init(&p, S, all, all);
	for (size_t i = 0; i < a.n; i++)
		split(&p, a.sig[i]);
	atoms_free(&a);
	uint32_t *cls_of = xmalloc(S->nbits * sizeof *cls_of);
	for (size_t i = 0; i < p.n; i++)
		cls_of[p.bit[i]] = p.cls[i];
	/* depth-1 certificate keys */
	size_t k = S->nletters + 1;
	uint32_t *keys = xmalloc(S->nbits * k * sizeof *keys);
	size_t *order = xmalloc(p.n * sizeof *order);
	for (size_t i = 0; i < p.n; i++) {
		order[i] = p.bit[i];
		parikh_key(S, p.bit[i], keys + p.bit[i] * k);
	}
	key_sample = S;
	key_table = keys;
	qsort(order, p.n, sizeof *order, cmp_key);
	/* the depth-(D+1) entries, smallest first */
	size_t lo = bank_first(b, D + 1), hi = bank_first(b, D + 2), m = 0;
	size_t *ents = xmalloc((hi - lo + 1) * sizeof *ents);
	for (size_t i = lo; i < hi; i++)
		ents[i - lo] = i;
	qsort_r(ents, hi - lo, sizeof *ents, cmp_gsize, b);
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	size_t *pos = xmalloc(p.ncls * sizeof *pos), *neg = xmalloc(p.ncls * sizeof *neg);
	size_t *ends = xmalloc((S->nchains + 1) * sizeof *ends);
	size_t nends = witness_ends(S, D, ends);
	/* every entry is tried: those with a certificate go first */
	Separation *all_sep = xmalloc((hi - lo + 1) * sizeof *all_sep);
	for (size_t e = 0; e < hi - lo; e++) {
		bank_sig(b, bank_entry(b, ents[e]), sig);
		for (uint32_t c = 0; c < p.ncls; c++)
			pos[c] = neg[c] = SIZE_MAX;
		WordPair best = {SIZE_MAX, SIZE_MAX};
		for (size_t i = 0; i < p.n; i++) {
			size_t bit = p.bit[i];
			uint32_t c = cls_of[bit];
			size_t *slot = sig_bit(sig, bit) ? &pos[c] : &neg[c];
			if (*slot == SIZE_MAX)
				*slot = bit;
			if (pos[c] != SIZE_MAX && neg[c] != SIZE_MAX &&
			    (best.pos == SIZE_MAX ||
			     S->length[pos[c]] + S->length[neg[c]] <
				     S->length[best.pos] + S->length[best.neg]))
				best = (WordPair){pos[c], neg[c]};
		}
		if (best.pos == SIZE_MAX)
			continue;
		Separation *s = &all_sep[m++];
		s->entry = ents[e];
		s->pair = best;
		s->parikh = D == 1 && parikh_pair(S, order, keys, p.n, sig, &s->cert);
		s->witness = false;
		for (size_t w = 0; w + 1 < nends && !s->witness; w += 2) {
			bool x = sig_bit(sig, ends[w]), y = sig_bit(sig, ends[w + 1]);
			if (x != y) {
				s->witness = true;
				s->wpair = x ? (WordPair){ends[w], ends[w + 1]}
					     : (WordPair){ends[w + 1], ends[w]};
			}
		}
	}
	size_t kept = 0;
	for (int pass = 1; pass >= 0; pass--)
		for (size_t i = 0; i < m && kept < max; i++)
			if ((all_sep[i].parikh || all_sep[i].witness) == (pass == 1))
				out[kept++] = all_sep[i];
	free(all_sep);
	free(ends);
	m = kept;
	free(pos);
	free(neg);
	free(sig);
	free(ents);
	free(order);
	free(keys);
	free(cls_of);
	free(all);
	parts_free(&p);
	return m;
}
