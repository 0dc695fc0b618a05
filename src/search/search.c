/* search.c -- targets on a sample, the partition test, greedy atom
 * choice, the small enumeration, separation. */
#include <config.h>

#include "search/search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/share.h"
#include "base/vec.h"

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

/* On a whole-word sample: words are judged at the ends of their chains. */
static bool target_whole(const Target *t, const Sample *S, const Store *st,
			 Word64 *care, Word64 *label)
{
	if (t->kind == TARGET_FORMULA)
		sample_eval(S, st, t->node, label);
	for (size_t c = 0; c < S->nchains; c++) {
		const SampleWord *w = &S->chains[c].word;
		size_t end = sample_chain_end(S, c);
		if (t->kind == TARGET_FORMULA) {
			sig_set(care, end);
			sig_set(care, 0); /* the empty word, at the root */
		} else if (t->kind == TARGET_PREDICT) {
			size_t k = blocks(w->w, w->len);
			if (k == SIZE_MAX || k > t->m)
				continue;
			sig_set(care, end);
			if (k == t->m)
				sig_set(label, end);
		} else {
			for (size_t i = 0; i < t->nwords; i++)
				if (t->words[i].len == w->len &&
				    memcmp(t->words[i].w, w->w, w->len) == 0) {
					sig_set(care, end);
					if (t->labels[i])
						sig_set(label, end);
				}
		}
	}
	for (size_t i = 0; i < S->nwords; i++)
		label[i] &= care[i];
	return true;
}

bool target_sig(const Target *t, const Sample *S, const Store *st,
		Word64 *care, Word64 *label)
{
	size_t nw = S->nwords;
	memset(care, 0, nw * sizeof(Word64));
	memset(label, 0, nw * sizeof(Word64));
	if (S->whole)
		return target_whole(t, S, st, care, label);
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

void search_target_shape(const Store *st, Node f, TargetShape *out)
{
	*out = (TargetShape){store_depth(st, f), 0, 0, NULL};
	unsigned flags = store_flags(st, f);
	if (flags & FLAG_FUTURE)
		out->outside = SEARCH_OUTSIDE_FUTURE;
	else if (flags & FLAG_PREV)
		out->outside = "it uses Y";
	else if (flags & FLAG_MOD)
		out->outside = "it uses MOD";
	unsigned char *mark = store_reachable(st, &f, 1);
	for (Node n = 1; n <= f; n++) {
		if (!mark[n])
			continue;
		Op op = store_op(st, n);
		if (op == OP_ITE || op == OP_MIN || op == OP_MAX) {
			if (!out->outside)
				out->outside = "it uses ?:, min or max";
			continue;
		}
		if (op != OP_CMP)
			continue;
		Linear l;
		store_linear(st, store_kid(st, n, 0), &l);
		if (l.n > out->T)
			out->T = (unsigned)l.n;
		fmpz_t m;
		fmpz_init(m);
		for (size_t i = 0; i <= l.n; i++) {
			fmpz_abs(m, i < l.n ? l.coefs + i : l.constant);
			unsigned v = fmpz_cmp_ui(m, 1000) > 0 ? 1000
							      : (unsigned)fmpz_get_ui(m);
			if (v > out->C)
				out->C = v;
		}
		fmpz_clear(m);
		store_linear_free(&l);
	}
	free(mark);
}

/* ---- atoms ------------------------------------------------------------ */

/* The letters and the count atoms of depth <= d, as borrowed canonical
 * signatures (polarity does not matter for a partition), with their
 * entries (SIZE_MAX + x for letter x).  In a bank shared over processes
 * (share.h) every rank lists every atom, but computes with those it owns
 * (mine: the letters on rank 0) and has the signatures of those and of
 * the ones pinned (atoms_pin); sig is NULL for the others. */
typedef struct {
	const Word64 **sig;
	size_t *entry;
	size_t n;
	bool *mine; /* NULL: one process, all */
	const Share *sh; /* the bank's (NULL: one process) */
} Atoms;

static void collect_atoms_if(const Bank *b, const Sample *S, unsigned d,
			     bool with_diff, Atoms *a)
{
	size_t hi = bank_first(b, d + 1);
	a->sig = xmalloc((S->nletters + hi) * sizeof *a->sig);
	a->entry = xmalloc((S->nletters + hi) * sizeof *a->entry);
	a->n = 0;
	const Share *sh = bank_share(b);
	a->sh = sh;
	a->mine = sh ? xmalloc(S->nletters + hi + 1) : NULL;
	for (size_t x = 0; x < S->nletters; x++) {
		if (sh)
			a->mine[a->n] = sh->rank == 0;
		a->sig[a->n] = S->letter + x * S->nwords;
		a->entry[a->n++] = SIZE_MAX - x;
	}
	for (size_t i = 0; i < hi; i++) {
		const Entry *e = bank_entry(b, i);
		if ((e->kind != ENTRY_ATOM && e->kind != ENTRY_LIN) ||
		    (!with_diff && e->linear))
			continue;
		if (sh)
			a->mine[a->n] = bank_mine(b, e);
		a->sig[a->n] = bank_canonical(b, e);
		a->entry[a->n++] = i;
	}
}

static bool atom_mine(const Atoms *a, size_t i)
{
	return !a->mine || a->mine[i];
}

/* Collective (shared bank): the signatures of atoms idx[0..n) on every
 * rank. */
static void atoms_pin(Bank *b, Atoms *a, const size_t *idx, size_t n)
{
	if (!bank_share(b))
		return;
	size_t *ent = xmalloc((n + 1) * sizeof *ent), m = 0;
	for (size_t i = 0; i < n; i++)
		if (a->entry[idx[i]] < bank_count(b))
			ent[m++] = a->entry[idx[i]];
	bank_pin(b, ent, m);
	for (size_t i = 0; i < n; i++)
		if (a->entry[idx[i]] < bank_count(b))
			a->sig[idx[i]] = bank_canonical(b, bank_entry(b,
							a->entry[idx[i]]));
	free(ent);
}

static void collect_atoms(const Bank *b, const Sample *S, unsigned d, Atoms *a)
{
	collect_atoms_if(b, S, d, true, a);
}

static void atoms_free(Atoms *a)
{
	free(a->sig);
	free(a->entry);
	free(a->mine);
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

/* ---- the partition over processes (a shared bank) ---------------------- */

/* Each point's class becomes its pair (class, c[i]), numbered by first
 * point; a point with c[i] == UINT32_MAX is dead (in a pure class). */
static void refine(Parts *p, const uint32_t *c, bool *dead)
{
	size_t cap = 64;
	while (cap < 4 * (p->n + 1))
		cap *= 2;
	uint64_t *key = xmalloc(cap * sizeof *key);
	uint32_t *val = xmalloc(cap * sizeof *val), next = 0;
	memset(key, 0xff, cap * sizeof *key);
	for (size_t i = 0; i < p->n; i++) {
		if (dead[i] || c[i] == UINT32_MAX) {
			dead[i] = true;
			continue;
		}
		uint64_t k = (uint64_t)p->cls[i] << 32 | c[i];
		size_t h = (size_t)((k * 0x9e3779b97f4a7c15u) >> 17) & (cap - 1);
		while (key[h] != UINT64_MAX && key[h] != k)
			h = (h + 1) & (cap - 1);
		if (key[h] == UINT64_MAX) {
			key[h] = k;
			val[h] = next++;
		}
		p->cls[i] = val[h];
	}
	p->ncls = next;
	free(key);
	free(val);
}

/* The partition of p's points by the atoms of every rank: each rank
 * splits by its own, and the ranks' classes are met.  The classes, and
 * their numbers (by first point), are those of one process splitting by
 * every atom; with drop, only the classes that mix labels stay (a class
 * pure for one rank's atoms is pure for all of them). */
static void parts_shared(Parts *p, const Atoms *a, bool drop)
{
	size_t n0 = p->n;
	if (n0 == 0)
		return;
	size_t *bit0 = xmalloc(n0 * sizeof *bit0);
	bool *lab0 = xmalloc(n0);
	memcpy(bit0, p->bit, n0 * sizeof *bit0);
	memcpy(lab0, p->lab, n0);
	if (drop)
		drop_pure(p);
	size_t done = 0;
	for (size_t i = 0; i < a->n && p->n > 0; i++) {
		if (!atom_mine(a, i))
			continue;
		split(p, a->sig[i]);
		if (drop && ++done % 16 == 0)
			drop_pure(p);
	}
	if (drop)
		drop_pure(p);
	uint32_t *loc = xmalloc(n0 * sizeof *loc);
	for (size_t j = 0, i = 0; j < n0; j++)
		loc[j] = i < p->n && p->bit[i] == bit0[j] ? p->cls[i++] : UINT32_MAX;
	size_t total;
	uint32_t *all = a->sh->allgather(loc, n0 * sizeof *loc, &total);
	free(loc);
	memcpy(p->bit, bit0, n0 * sizeof *bit0);
	memcpy(p->lab, lab0, n0);
	memset(p->cls, 0, n0 * sizeof *p->cls);
	p->n = n0;
	p->ncls = 1;
	bool *dead = xcalloc(n0, 1);
	for (int r = 0; r < a->sh->size; r++)
		refine(p, all + (size_t)r * n0, dead);
	size_t m = 0;
	for (size_t i = 0; i < n0; i++)
		if (!dead[i]) {
			p->bit[m] = p->bit[i];
			p->lab[m] = p->lab[i];
			p->cls[m++] = p->cls[i];
		}
	p->n = m;
	if (drop)
		drop_pure(p);
	free(dead);
	free(all);
	free(bit0);
	free(lab0);
}

/* Splits p by every atom (no classes dropped). */
static void split_all(Parts *p, const Atoms *a)
{
	if (a->sh) {
		parts_shared(p, a, false);
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		split(p, a->sig[i]);
}

/* ---- certified pairs ------------------------------------------------- */

typedef struct {
	size_t pos, neg, len;
} Cand2;

typedef VEC(Cand2) Cands;

static int cmp_cand2(const void *x, const void *y)
{
	const Cand2 *p = x, *q = y;
	if (p->len != q->len)
		return p->len < q->len ? -1 : 1;
	if (p->pos != q->pos)
		return p->pos < q->pos ? -1 : 1;
	return p->neg < q->neg ? -1 : p->neg > q->neg;
}

enum { CERT_CLASSES = 256, CERT_SHORT = 3, CERT_TRIES = 96 };

/* Ends of chains (where the witness pairs lie), flagged per bit. */
static bool *chain_ends(const Sample *S)
{
	bool *end = xcalloc(S->nbits + 1, 1);
	for (size_t c = 0; c < S->nchains; c++)
		end[S->chains[c].first + (S->chains[c].word.len - S->n - 1)] = true;
	return end;
}

typedef struct {
	size_t bit[2][CERT_SHORT]; /* by label, shortest first */
	size_t n[2];
} Shortest;

static void keep_short(Shortest *sh, int lab, size_t bit, const Sample *S)
{
	size_t *arr = sh->bit[lab];
	size_t k = sh->n[lab] < CERT_SHORT ? sh->n[lab]++ : CERT_SHORT;
	while (k > 0 && S->length[arr[k - 1]] > S->length[bit]) {
		if (k < CERT_SHORT)
			arr[k] = arr[k - 1];
		k--;
	}
	if (k < CERT_SHORT)
		arr[k] = bit;
}

/* Candidates of the classes below CERT_CLASSES, in one pass: in each
 * class its CERT_SHORT shortest words of either label paired, and its
 * ends of chains paired across labels; sorted by length, each pair
 * once. */
static void all_candidates(const Parts *p, const Sample *S, const bool *end,
			   Cands *out)
{
	uint32_t nc = p->ncls < CERT_CLASSES ? p->ncls : CERT_CLASSES;
	Shortest *sh = xcalloc(nc + 1, sizeof *sh);
	VEC(size_t) ends = {0};
	for (size_t i = 0; i < p->n; i++) {
		if (p->cls[i] >= nc)
			continue;
		keep_short(&sh[p->cls[i]], p->lab[i], p->bit[i], S);
		if (end[p->bit[i]])
			VEC_PUSH(ends, i);
	}
	for (uint32_t c = 0; c < nc; c++)
		for (size_t i = 0; i < sh[c].n[1]; i++)
			for (size_t j = 0; j < sh[c].n[0]; j++) {
				size_t x = sh[c].bit[1][i], y = sh[c].bit[0][j];
				Cand2 cd = {x, y, S->length[x] + S->length[y]};
				VEC_PUSH(*out, cd);
			}
	for (size_t i = 0; i < ends.len; i++)
		for (size_t j = 0; j < ends.len; j++) {
			size_t x = ends.data[i], y = ends.data[j];
			if (p->cls[x] != p->cls[y] || !p->lab[x] || p->lab[y])
				continue;
			Cand2 cd = {p->bit[x], p->bit[y],
				    S->length[p->bit[x]] + S->length[p->bit[y]]};
			VEC_PUSH(*out, cd);
		}
	VEC_FREE(ends);
	free(sh);
	if (out->len) /* (no array at all when there is no candidate) */
		qsort(out->data, out->len, sizeof *out->data, cmp_cand2);
	size_t m = 0;
	for (size_t i = 0; i < out->len; i++)
		if (m == 0 || out->data[i].pos != out->data[m - 1].pos ||
		    out->data[i].neg != out->data[m - 1].neg)
			out->data[m++] = out->data[i];
	out->len = m;
}

/* Pairs of the conflicting classes that no formula of F_d(cls) tells
 * apart, shortest first (up to SEARCH_PAIRS, after at most CERT_TRIES
 * checks). */
static void certify(const Parts *p, const Sample *S, unsigned d,
		    IndistBounds cls, Limits *lim, Refutation *r)
{
	Cands cands = {0};
	bool *end = chain_ends(S);
	all_candidates(p, S, end, &cands);
	free(end);
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	r->npairs = 0;
	r->checked = 0;
	for (size_t i = 0; i < cands.len && r->checked < CERT_TRIES &&
			   r->npairs < SEARCH_PAIRS; i++) {
		if (limit_poll(lim))
			break;
		size_t ul = sample_word(S, cands.data[i].pos, u);
		size_t vl = sample_word(S, cands.data[i].neg, v);
		r->checked++;
		if (indist_pair(u, ul, v, vl, S->nletters, d, cls, lim) != INDIST_NONE)
			continue;
		r->pairs[r->npairs] = (WordPair){cands.data[i].pos, cands.data[i].neg};
		r->parikh[r->npairs++] = indist_parikh(u, ul, v, vl, S->nletters);
	}
	free(u);
	free(v);
	VEC_FREE(cands);
}

/* Is the target a Boolean function of the atoms on the care set?  When
 * not, the conflicting classes are counted and, with `cert`, their
 * candidate pairs certified against the class at depth d. */
static bool partition_test(const Atoms *a, const Sample *S, const Word64 *care,
			   const Word64 *label, const IndistBounds *cert,
			   unsigned d, Limits *lim, Refutation *r)
{
	Parts p;
	parts_init(&p, S, care, label);
	if (a->sh) {
		parts_shared(&p, a, true);
	} else {
		drop_pure(&p);
		for (size_t i = 0; i < a->n && p.n > 0; i++) {
			split(&p, a->sig[i]);
			if (i % 16 == 15 || i + 1 == a->n)
				drop_pure(&p);
		}
	}
	bool ok = p.n == 0;
	r->natoms = a->n;
	r->nconflict = p.ncls;
	r->npairs = 0;
	if (!ok && cert) {
		/* rank 0 checks the pairs (exact, polled: a limit there must
		 * not make the ranks differ) and tells the others */
		if (!a->sh || a->sh->rank == 0)
			certify(&p, S, d, *cert, lim, r);
		if (a->sh)
			a->sh->bcast(r, sizeof *r);
	}
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
			if (!atom_mine(a, i))
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

/* The literals (an atom or its negation) that miss at most tol of the
 * positive points, smallest first, at most PAIR_MAX of them. */
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

static Lit *literals(Bank *b, const Sample *S, Store *st, Atoms *a,
		     const Word64 *pos, size_t tol, size_t *n)
{
	size_t nw = S->nwords, m = 0;
	uint64_t *code = xmalloc(2 * (a->n + 1) * sizeof *code);
	Word64 *x = xmalloc(nw * sizeof(Word64));
	for (size_t i = 0; i < a->n; i++) {
		if (!atom_mine(a, i))
			continue;
		atom_sig(b, S, a, i, x);
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
				store_size(st, atom_node(b, S, st, a->entry[i]))};
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

static Node pair_conjunction(Bank *b, const Sample *S, Store *st, Atoms *a,
			     const Word64 *pos, const Word64 *neg)
{
	size_t nw = S->nwords, n = 0;
	Lit *lits = literals(b, S, st, a, pos, 0, &n);
	Word64 *x = xmalloc(nw * sizeof(Word64));
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
		atom_sig(b, S, a, lits[i].atom, x);
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
			l[k] = atom_node(b, S, st, a->entry[lits[idx[k]].atom]);
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

/* Prefers formulas without difference atoms (simpler, and in the
 * threshold fragment that MONA decides) when those atoms give a small
 * formula; else all atoms. */
static void extract(Bank *b, const Sample *S, Store *st, Atoms *a,
		    const Word64 *care, const Word64 *label, SearchResult *r)
{
	Atoms plain;
	Refutation unused;
	Node small = NODE_NONE, dnf = NODE_NONE;
	collect_atoms_if(b, S, r->depth, false, &plain);
	if (plain.n < a->n &&
	    partition_test(&plain, S, care, label, NULL, 0, NULL, &unused))
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

void search_certify(Bank *b, const Sample *S, const Word64 *care,
		    const Word64 *label, IndistBounds cls, SearchResult *r)
{
	r->cls = cls;
	r->certified = true;
	for (unsigned d = 0; d < r->tried && d <= bank_depth(b); d++) {
		Atoms a;
		collect_atoms(b, S, d, &a);
		partition_test(&a, S, care, label, &cls, d, bank_limits(b),
			       &r->refuted[d]);
		atoms_free(&a);
	}
}

void search_run(Bank *b, const Sample *S, Store *st, const Word64 *care,
		const Word64 *label, unsigned maxd, const IndistBounds *cls,
		SearchResult *r)
{
	memset(r, 0, sizeof *r);
	if (cls) {
		r->cls = *cls;
		r->certified = true;
	}
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
		bool ok = partition_test(&a, S, care, label, cls, d, bank_limits(b),
					 &r->refuted[d]);
		if (ok) {
			r->found = true;
			r->depth = d;
			extract(b, S, st, &a, care, label, r);
			atoms_free(&a);
			/* A formula whose extraction a limit cut short is no
			 * answer; the least depth is. */
			if ((r->stop = bank_stop_now(b)) != BANK_OK)
				r->formula = NODE_NONE;
			return;
		}
		r->tried = d + 1;
		atoms_free(&a);
		if ((r->stop = bank_stop_now(b)) != BANK_OK)
			return;
	}
}

/* The majority label of each class of the partition by the atoms (ties:
 * in) into out; the words of the minorities into r->errors; their
 * number. */
static size_t majority(const Atoms *a, const Sample *S, const Word64 *care,
		       const Word64 *label, Word64 *out, SearchResult *r)
{
	Parts p;
	parts_init(&p, S, care, label);
	split_all(&p, a);
	memset(p.npos, 0, p.ncls * sizeof *p.npos);
	memset(p.nneg, 0, p.ncls * sizeof *p.nneg);
	for (size_t i = 0; i < p.n; i++)
		(p.lab[i] ? p.npos : p.nneg)[p.cls[i]]++;
	memcpy(out, label, S->nwords * sizeof(Word64));
	size_t wrong = 0;
	r->nerrors = 0;
	for (size_t i = 0; i < p.n; i++) {
		bool maj = p.npos[p.cls[i]] >= p.nneg[p.cls[i]];
		if (p.lab[i] == maj)
			continue;
		wrong++;
		if (r->nerrors < SEARCH_ERRORS_MAX)
			r->errors[r->nerrors++] = p.bit[i];
		out[p.bit[i] >> 6] ^= (Word64)1 << (p.bit[i] & 63);
	}
	parts_free(&p);
	return wrong;
}

/* The labelled words r->formula gets wrong, by the evaluator. */
static void noisy_errors(const Sample *S, const Store *st, const Word64 *care,
			 const Word64 *label, SearchResult *r)
{
	Word64 *sig = xmalloc(S->nwords * sizeof(Word64));
	r->nerrors = 0;
	if (sample_eval(S, st, r->formula, sig))
		for (size_t w = 0; w < S->nwords; w++)
			for (Word64 d = (sig[w] ^ label[w]) & care[w]; d; d &= d - 1)
				if (r->nerrors < SEARCH_ERRORS_MAX)
					r->errors[r->nerrors++] =
						w * 64 + (size_t)__builtin_ctzll(d);
	free(sig);
}

void search_run_noisy(Bank *b, const Sample *S, Store *st, const Word64 *care,
		      const Word64 *label, unsigned maxd, size_t max_errors,
		      SearchResult *r)
{
	memset(r, 0, sizeof *r);
	r->noisy = true;
	if (maxd > SEARCH_MAXD)
		maxd = SEARCH_MAXD;
	Word64 *fixed = xmalloc(S->nwords * sizeof(Word64));
	for (unsigned d = 0; d <= maxd; d++) {
		BankStop stop = bank_build(b, d);
		if (stop != BANK_OK && bank_depth(b) < d) {
			r->stop = stop;
			break;
		}
		Atoms a;
		collect_atoms(b, S, d, &a);
		size_t wrong = majority(&a, S, care, label, fixed, r);
		r->refuted[d].natoms = a.n;
		r->refuted[d].wrong = wrong;
		if (wrong <= max_errors) {
			r->found = true;
			r->depth = d;
			/* the majority labels fitted exactly, or a smaller
			 * formula that gets at most max_errors wrong */
			extract(b, S, st, &a, care, fixed, r);
			Word64 *pos = xmalloc(2 * S->nwords * sizeof(Word64));
			Word64 *neg = pos + S->nwords;
			sig_and(pos, care, label, S->nwords);
			sig_not(neg, label, care, S->nwords);
			Node t = tolerant_pair(b, S, st, &a, pos, neg, max_errors);
			Node u = tolerant_pair(b, S, st, &a, neg, pos, max_errors);
			if (u)
				t = smaller(st, t, store_make_not(st, u));
			if (t && smaller(st, r->formula, t) == t) {
				r->formula = t;
				r->large = false;
			}
			free(pos);
			atoms_free(&a);
			if ((r->stop = bank_stop_now(b)) != BANK_OK)
				r->formula = NODE_NONE;
			else
				noisy_errors(S, st, care, label, r);
			break;
		}
		r->nerrors = 0;
		r->tried = d + 1;
		atoms_free(&a);
		if ((r->stop = bank_stop_now(b)) != BANK_OK)
			break;
	}
	free(fixed);
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

/* The verdicts of the exact check, per pair of bits (a small cache: the
 * same pairs come back for many entries). */
typedef struct {
	size_t *key; /* 2 per slot, SIZE_MAX empty */
	int8_t *val; /* 1 certified, 0 not */
	size_t n, cap;
} PairCache;

static size_t cache_slot(const PairCache *c, size_t x, size_t y)
{
	size_t h = (x * 0x9e3779b97f4a7c15u) ^ (y + 0x632be59bd9b4e019u);
	for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1))
		if (c->key[2 * i] == SIZE_MAX ||
		    (c->key[2 * i] == x && c->key[2 * i + 1] == y))
			return i;
}

static void cache_grow(PairCache *c)
{
	PairCache old = *c;
	c->cap = old.cap ? 2 * old.cap : 256;
	c->key = xmalloc(2 * c->cap * sizeof *c->key);
	c->val = xmalloc(c->cap);
	for (size_t i = 0; i < 2 * c->cap; i++)
		c->key[i] = SIZE_MAX;
	for (size_t i = 0; i < old.cap; i++)
		if (old.key[2 * i] != SIZE_MAX) {
			size_t k = cache_slot(c, old.key[2 * i], old.key[2 * i + 1]);
			c->key[2 * k] = old.key[2 * i];
			c->key[2 * k + 1] = old.key[2 * i + 1];
			c->val[k] = old.val[i];
		}
	free(old.key);
	free(old.val);
}

/* Whether no formula of F_D(cls) separates the words of bits x and y
 * (-1: not decided, the budget of checks is spent). */
static int certified(const Sample *S, PairCache *c, size_t x, size_t y,
		     unsigned D, IndistBounds cls, size_t *left, Limits *lim)
{
	if (x > y) {
		size_t t = x;
		x = y;
		y = t;
	}
	if (2 * (c->n + 1) > c->cap)
		cache_grow(c);
	size_t k = cache_slot(c, x, y);
	if (c->key[2 * k] != SIZE_MAX)
		return c->val[k];
	if (*left == 0 || limit_poll(lim))
		return -1;
	(*left)--;
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	size_t ul = sample_word(S, x, u), vl = sample_word(S, y, v);
	c->val[k] = indist_pair(u, ul, v, vl, S->nletters, D, cls, lim) == INDIST_NONE;
	c->key[2 * k] = x;
	c->key[2 * k + 1] = y;
	c->n++;
	free(u);
	free(v);
	return c->val[k];
}

static bool same_parikh(const Sample *S, size_t x, size_t y)
{
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	size_t ul = sample_word(S, x, u), vl = sample_word(S, y, v);
	bool same = indist_parikh(u, ul, v, vl, S->nletters);
	free(u);
	free(v);
	return same;
}

enum { SEP_PER_ENTRY = 8, SEP_CHUNK = 64 };

/* A certified pair that sig separates within one class of the depth-<=D
 * partition: the candidates of all_candidates with the entry's values
 * as labels, Parikh-equal ones first at D = 1. */
static bool separated_pair(const Sample *S, Parts *p, const bool *end,
			   const Word64 *sig, unsigned D, IndistBounds cls,
			   PairCache *cache,
			   size_t *left, Limits *lim, Separation *out)
{
	for (size_t i = 0; i < p->n; i++)
		p->lab[i] = sig_bit(sig, p->bit[i]);
	Cands cands = {0};
	all_candidates(p, S, end, &cands);
	bool found = false;
	for (int pass = D == 1 ? 0 : 1; pass < 2 && !found; pass++)
		for (size_t i = 0, n = 0; i < cands.len && n < SEP_PER_ENTRY && !found;
		     i++) {
			size_t x = cands.data[i].pos, y = cands.data[i].neg;
			bool pk = D == 1 && same_parikh(S, x, y);
			if (pass == 0 && !pk)
				continue;
			n++;
			if (!pk && certified(S, cache, x, y, D, cls, left, lim) != 1)
				continue;
			out->pair = (WordPair){x, y};
			out->parikh = pk;
			found = true;
		}
	VEC_FREE(cands);
	return found;
}

size_t search_separate(Bank *b, const Sample *S, unsigned D, IndistBounds cls,
		       size_t max, size_t tries, Separation *out)
{
	size_t nw = S->nwords;
	if (bank_build_full(b, D + 1) != BANK_OK && bank_depth(b) < D + 1)
		return 0;
	/* the partition of the sample by the depth-<=D comparisons */
	Atoms a;
	collect_atoms(b, S, D, &a);
	Parts p;
	parts_init(&p, S, S->valid, S->valid);
	split_all(&p, &a);
	atoms_free(&a);
	size_t lo = bank_first(b, D + 1), hi = bank_first(b, D + 2), m = 0;
	size_t *ents = xmalloc((hi - lo + 1) * sizeof *ents);
	for (size_t i = lo; i < hi; i++)
		ents[i - lo] = i;
	qsort_r(ents, hi - lo, sizeof *ents, cmp_gsize, b);
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	PairCache cache = {0};
	size_t left = tries;
	bool *end = chain_ends(S), stopped = false;
	const Share *sh = bank_share(b);
	/* shared bank: the entries in chunks, their signatures pinned on
	 * every rank; rank 0 checks them and tells the others */
	for (size_t e = 0; e < hi - lo && m < max && left > 0 && !stopped;) {
		size_t upto = hi - lo;
		if (sh) {
			upto = e + SEP_CHUNK < upto ? e + SEP_CHUNK : upto;
			bank_pin(b, ents + e, upto - e);
		}
		for (; (!sh || sh->rank == 0) && e < upto && m < max && left > 0; e++) {
			if ((stopped = limit_poll(bank_limits(b))))
				break;
			bank_sig(b, bank_entry(b, ents[e]), sig);
			out[m].entry = ents[e];
			if (separated_pair(S, &p, end, sig, D, cls, &cache, &left,
					   bank_limits(b), &out[m]))
				m++;
		}
		if (sh) {
			uint64_t at[4] = {upto, m, left, stopped};
			sh->bcast(at, sizeof at);
			e = (size_t)at[0];
			m = (size_t)at[1];
			left = (size_t)at[2];
			stopped = at[3];
			sh->bcast(out, m * sizeof *out);
		}
	}
	if (sh)
		bank_stop_now(b); /* every rank knows of a limit */
	free(end);
	free(cache.key);
	free(cache.val);
	free(sig);
	free(ents);
	parts_free(&p);
	return m;
}
