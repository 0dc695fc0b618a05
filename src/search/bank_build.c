/* bank_build.c -- building the guarded inner bank layer by layer
 * (bank.h): depth 0, the comparisons of one and of two counts, the
 * guarded combinations and pairs, in blocks computed by threads and
 * inserted in a fixed order. */
#include <config.h>

#include "search/bank.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/limit.h"
#include "base/mem.h"
#include "search/bank_impl.h"

/* ---- parallel blocks ------------------------------------------------ */

typedef struct {
	void (*fn)(void *ctx, size_t lo, size_t hi);
	void *ctx;
	size_t lo, hi;
} Slice;

static void *run_slice(void *p)
{
	Slice *s = p;
	s->fn(s->ctx, s->lo, s->hi);
	return NULL;
}

/* fn over [0, n) split among the jobs; the calling thread takes a share. */
static void pfor(unsigned jobs, size_t n, void (*fn)(void *, size_t, size_t),
		 void *ctx)
{
	if (jobs <= 1 || n < 64) {
		fn(ctx, 0, n);
		return;
	}
	Slice sl[64];
	pthread_t th[64];
	if (jobs > 64)
		jobs = 64;
	for (unsigned j = 0; j < jobs; j++)
		sl[j] = (Slice){fn, ctx, n * j / jobs, n * (j + 1) / jobs};
	for (unsigned j = 1; j < jobs; j++)
		if (pthread_create(&th[j], NULL, run_slice, &sl[j]) != 0) {
			run_slice(&sl[j]); /* no thread: do it here */
			th[j] = 0;
		}
	run_slice(&sl[0]);
	for (unsigned j = 1; j < jobs; j++)
		if (th[j])
			pthread_join(th[j], NULL);
}

/* ---- depth 0 ---------------------------------------------------------- */

static void build_base(Bank *b)
{
	const Sample *S = b->S;
	size_t nw = S->nwords, A = S->nletters;
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	/* every set of letters (small alphabets), else single letters */
	unsigned top = A <= 6 ? 1u << A : 0;
	uint64_t key = 0;
	/* tiny: rank 0 makes them all */
	for (unsigned pass = 0; pass < 2 && (!b->sh || b->sh->rank == 0); pass++)
		for (unsigned mask = 0; mask < (A <= 6 ? top : A + 1); mask++) {
			unsigned m = A <= 6 ? mask : (mask ? 1u << (mask - 1) : 0);
			unsigned pc = (unsigned)__builtin_popcount(m);
			if ((pass == 0) != (pc <= 1))
				continue; /* letters first, then disjunctions */
			if (m == 0)
				memcpy(sig, S->valid, nw * sizeof(Word64));
			else
				memset(sig, 0, nw * sizeof(Word64));
			for (size_t x = 0; x < A && x < 8; x++)
				if (m >> x & 1)
					sig_or(sig, sig, S->letter + x * nw, nw);
			Cand c;
			bank_cand(S, sig, &c);
			bank_emit(b, key++, sig, &c, (Entry){.depth = 0,
				.gsize = pc ? 2 * pc - 1 : 1, .kind = ENTRY_BASE,
				.c = (int32_t)m});
		}
	free(sig);
	bank_share_flush(b, 0);
}

/* ---- atoms ------------------------------------------------------------ */

typedef struct {
	uint32_t entry;
	bool pol; /* count the negation */
	bool fut; /* towards the future (#>) */
} Arg;

/* The comparisons of one count per argument, in the order they are
 * inserted: >= c (c = 1..C), = c (c = 1..C), <= C; from C + 1 planes
 * (plane k: >= k + 1). */
static unsigned one_count_kinds(unsigned C) { return 2 * C + 1; }

static void one_count(unsigned C, unsigned k, uint8_t *rel, int32_t *c)
{
	if (k < C) {
		*rel = REL_GE;
		*c = (int32_t)k + 1;
	} else if (k < 2 * C) {
		*rel = REL_EQ;
		*c = (int32_t)(k - C) + 1;
	} else {
		*rel = REL_LE;
		*c = (int32_t)C;
	}
}

typedef struct {
	Bank *b;
	const Arg *args;
	Word64 *sigs; /* per arg: one_count_kinds(C) signatures */
	Cand *cands;
} AtomJob;

static void atom_slice(void *ctx, size_t lo, size_t hi)
{
	AtomJob *j = ctx;
	const Sample *S = j->b->S;
	size_t nw = S->nwords;
	unsigned C = j->b->o.C, K = one_count_kinds(C);
	Word64 *psi = xmalloc((C + 2) * nw * sizeof(Word64)), *planes = psi + nw;
	for (size_t i = lo; i < hi; i++) {
		const Entry *e = &j->b->e.data[j->args[i].entry];
		if (!bank_mine(j->b, e))
			continue; /* its owner's */
		bank_sig(j->b, e, psi);
		if (j->args[i].pol)
			sig_not(psi, psi, S->valid, nw);
		if (j->args[i].fut)
			sample_fthresholds(S, psi, C + 1, planes);
		else
			sample_thresholds(S, psi, C + 1, planes);
		Word64 *out = j->sigs + i * K * nw;
		for (unsigned k = 0; k < K; k++) {
			uint8_t rel;
			int32_t c;
			one_count(C, k, &rel, &c);
			Word64 *o = out + k * nw;
			if (rel == REL_GE) {
				memcpy(o, planes + (c - 1) * nw, nw * sizeof(Word64));
			} else if (rel == REL_EQ) {
				sig_not(o, planes + c * nw, S->valid, nw);
				sig_and(o, o, planes + (c - 1) * nw, nw);
			} else {
				sig_not(o, planes + c * nw, S->valid, nw);
			}
			bank_cand(S, o, &j->cands[i * K + k]);
		}
	}
	free(psi);
}

static int cmp_arg_size(const void *x, const void *y, void *ctx)
{
	const Bank *b = ctx;
	const Arg *p = x, *q = y;
	uint32_t sp = b->e.data[p->entry].gsize + p->pol;
	uint32_t sq = b->e.data[q->entry].gsize + q->pol;
	if (sp != sq)
		return sp < sq ? -1 : 1;
	if (p->entry != q->entry)
		return p->entry < q->entry ? -1 : 1;
	if (p->pol != q->pol)
		return (int)p->pol - (int)q->pol;
	return (int)p->fut - (int)q->fut;
}

enum { PIN_BATCH = 64 };

/* Collective: copies of the arguments' signatures on every rank. */
static void pin_args(Bank *b, const Arg *args, size_t n)
{
	size_t *idx = xmalloc((n + 1) * sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = args[i].entry;
	bank_pin(b, idx, n);
	free(idx);
}

/* Both polarities of the entries [lo, hi) whose count is not always 0,
 * smallest first, at most max of them (0: all); distinct counts only
 * when `distinct` (the root is never counted, so psi and psi | root
 * count alike). */
static Arg *count_args_of(Bank *b, size_t lo, size_t hi, size_t max,
			  bool distinct, size_t *n)
{
	int dirs = b->S->whole ? 2 : 1;
	Arg *args = xmalloc(4 * (hi - lo + 1) * sizeof *args);
	size_t nw = b->S->nwords, m = 0;
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	for (size_t i = lo; i < hi; i++)
		for (int pol = 0; pol < 2; pol++)
			for (int fut = 0; fut < dirs; fut++)
				args[m++] = (Arg){(uint32_t)i, pol != 0, fut != 0};
	/* smallest first, so that the smaller of two arguments with equal
	 * counts stays */
	qsort_r(args, m, sizeof *args, cmp_arg_size, b);
	SigSet *seen[2] = {distinct ? sigset_new(nw) : NULL,
			   distinct ? sigset_new(nw) : NULL};
	*n = 0;
	for (size_t k = 0; k < m && (!max || *n < max); k++) {
		const Entry *e = &b->e.data[args[k].entry];
		if (b->sh && !distinct) { /* no signature needed */
			if (e->nz >> args[k].pol & 1)
				args[(*n)++] = args[k];
			continue;
		}
		if (b->sh && k % PIN_BATCH == 0)
			pin_args(b, args + k, m - k < PIN_BATCH ? m - k : PIN_BATCH);
		bank_sig(b, e, sig);
		if (args[k].pol)
			sig_not(sig, sig, b->S->valid, nw);
		sig[0] &= ~(Word64)1; /* the root is never counted */
		Word64 any = 0;
		for (size_t w = 0; w < nw; w++)
			any |= sig[w];
		if (!any)
			continue;
		if (seen[args[k].fut]) {
			bool fresh;
			sigset_insert(seen[args[k].fut], sig, &fresh);
			if (!fresh)
				continue;
		}
		args[(*n)++] = args[k];
	}
	sigset_free(seen[0]);
	sigset_free(seen[1]);
	free(sig);
	return args;
}

/* Count arguments of depth d: every depth-(d-1) entry. */
static Arg *count_args(Bank *b, unsigned d, size_t *n)
{
	return count_args_of(b, b->first[d - 1], b->first[d], 0, false, n);
}

static BankStop build_atoms(Bank *b, unsigned d)
{
	size_t nargs, nw = b->S->nwords;
	unsigned C = b->o.C, K = one_count_kinds(C);
	Arg *args = count_args(b, d, &nargs);
	Word64 *sigs = xmalloc((size_t)BLOCK * K * nw * sizeof(Word64));
	Cand *cands = xmalloc((size_t)BLOCK * K * sizeof(Cand));
	BankStop stop = BANK_OK;
	for (size_t lo = 0; lo < nargs && stop == BANK_OK; lo += BLOCK) {
		size_t n = nargs - lo < BLOCK ? nargs - lo : BLOCK;
		AtomJob job = {b, args + lo, sigs, cands};
		pfor(b->o.jobs, n, atom_slice, &job);
		for (size_t i = 0; i < n; i++)
			for (unsigned k = 0; k < K && bank_mine(b,
					&b->e.data[args[lo + i].entry]); k++) {
				const Arg *a = &args[lo + i];
				Entry e = {.depth = d,
					   .gsize = b->e.data[a->entry].gsize + a->pol + 2,
					   .kind = ENTRY_ATOM, .child = a->entry,
					   .pol = a->pol, .fut = a->fut};
				one_count(C, k, &e.rel, &e.c);
				bank_emit(b, i * K + k, sigs + (i * K + k) * nw,
				     &cands[i * K + k], e);
			}
		bank_share_flush(b, d);
		stop = bank_block_end(b);
	}
	free(args);
	free(sigs);
	free(cands);
	return stop;
}

/* ---- comparisons of two counts ------------------------------------------ */

/* a1 #[p1] + a2 #[p2] REL c: a1 in 1..C, a2 in [-C, C] less 0; per
 * pair and coefficients, >= c and = c for c in [-C, C] and <= C
 * (the other relations are negations). */
typedef struct {
	uint32_t i, j;  /* arguments */
	uint32_t size;
} Pair;

static unsigned two_coefs(unsigned C) { return 2 * C * C; }
static unsigned two_kinds(unsigned C) { return 4 * C + 3; }

static void two_coef(unsigned C, unsigned k, int *a1, int *a2)
{
	*a1 = (int)(k / (2 * C)) + 1;
	int r = (int)(k % (2 * C));
	*a2 = r < (int)C ? r + 1 : -(r - (int)C + 1);
}

static void two_kind(unsigned C, unsigned k, uint8_t *rel, int32_t *c)
{
	int n = 2 * (int)C + 1;
	if ((int)k < n) {
		*rel = REL_GE;
		*c = (int32_t)k - (int32_t)C;
	} else if ((int)k < 2 * n) {
		*rel = REL_EQ;
		*c = (int32_t)k - n - (int32_t)C;
	} else {
		*rel = REL_LE;
		*c = (int32_t)C;
	}
}

typedef struct {
	Bank *b;
	const Pair *pairs;
	int32_t *const *cnt; /* per argument */
	Word64 *sigs;        /* per pair: coefs * kinds signatures */
	Cand *cands;
	size_t first;        /* the block's first pair (the deal) */
} TwoJob;

static void two_slice(void *ctx, size_t lo, size_t hi)
{
	TwoJob *j = ctx;
	const Sample *S = j->b->S;
	const Share *sh = j->b->sh;
	size_t nw = S->nwords;
	unsigned C = j->b->o.C, NC = two_coefs(C), NK = two_kinds(C);
	int nb = 2 * (int)C + 3; /* values clamped to [-C-1, C+1] */
	Word64 *bucket = xmalloc((size_t)nb * nw * sizeof(Word64));
	for (size_t p = lo; p < hi; p++) {
		if (sh && (j->first + p) % (size_t)sh->size != (size_t)sh->rank)
			continue; /* dealt to another rank */
		const int32_t *x = j->cnt[j->pairs[p].i], *y = j->cnt[j->pairs[p].j];
		for (unsigned k = 0; k < NC; k++) {
			int a1, a2;
			two_coef(C, k, &a1, &a2);
			memset(bucket, 0, (size_t)nb * nw * sizeof(Word64));
			for (size_t w = 0; w < nw; w++)
				for (Word64 v = S->valid[w]; v; v &= v - 1) {
					size_t bit = w * 64 + (size_t)__builtin_ctzll(v);
					int64_t z = (int64_t)a1 * x[bit] + (int64_t)a2 * y[bit];
					if (z < -(int64_t)C - 1)
						z = -(int64_t)C - 1;
					if (z > (int64_t)C + 1)
						z = (int64_t)C + 1;
					sig_set(bucket + (size_t)(z + C + 1) * nw, bit);
				}
			Word64 *out = j->sigs + (p * NC + k) * NK * nw;
			for (unsigned q = 0; q < NK; q++) {
				uint8_t rel;
				int32_t c;
				two_kind(C, q, &rel, &c);
				Word64 *o = out + q * nw;
				memset(o, 0, nw * sizeof(Word64));
				for (int v = -(int)C - 1; v <= (int)C + 1; v++)
					if (rel == REL_GE ? v >= c : rel == REL_LE ? v <= c : v == c)
						sig_or(o, o, bucket + (size_t)(v + C + 1) * nw, nw);
				bank_cand(S, o, &j->cands[(p * NC + k) * NK + q]);
			}
		}
	}
	free(bucket);
}

static int cmp_pair(const void *x, const void *y)
{
	const Pair *p = x, *q = y;
	if (p->size != q->size)
		return p->size < q->size ? -1 : 1;
	if (p->i != q->i)
		return p->i < q->i ? -1 : 1;
	return p->j < q->j ? -1 : p->j > q->j;
}

size_t bank_base_at(const BankOptions *o, unsigned k, unsigned d)
{
	return k == 0 ? 0 : k == 1 && d == 2 && o->base1 ? o->base1 : o->base;
}

/* The arguments of two-count comparisons of depth d: the smallest
 * entries of each depth below (bank_base_at), both polarities, distinct
 * counts. */
static Arg *two_args(Bank *b, unsigned d, size_t *n, size_t *first_top)
{
	VEC(Arg) all = {0};
	*first_top = 0;
	for (unsigned k = 0; k < d; k++) {
		size_t m;
		Arg *a = count_args_of(b, b->first[k], b->first[k + 1],
				       bank_base_at(&b->o, k, d), true, &m);
		if (k == d - 1)
			*first_top = all.len;
		for (size_t i = 0; i < m; i++)
			VEC_PUSH(all, a[i]);
		free(a);
	}
	*n = all.len;
	return all.data;
}

static BankStop build_twos(Bank *b, unsigned d)
{
	const Sample *S = b->S;
	size_t nargs, top, nw = S->nwords;
	Arg *args = two_args(b, d, &nargs, &top);
	pin_args(b, args, nargs); /* every rank counts them all */
	int32_t **cnt = xcalloc(nargs + 1, sizeof *cnt);
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	for (size_t i = 0; i < nargs; i++) {
		bank_sig(b, &b->e.data[args[i].entry], sig);
		if (args[i].pol)
			sig_not(sig, sig, S->valid, nw);
		cnt[i] = xmalloc(S->nbits * sizeof(int32_t));
		if (args[i].fut)
			sample_fcounts(S, sig, cnt[i]);
		else
			sample_counts(S, sig, cnt[i]);
	}
	free(sig);
	/* pairs with one argument of depth d - 1 (psi and !psi too: the
	 * root is never counted, so #[!Q_a] can be #[Q_b]) */
	VEC(Pair) pairs = {0};
	for (size_t j = top; j < nargs; j++)
		for (size_t i = 0; i < j; i++) {
			uint32_t size = b->e.data[args[i].entry].gsize + args[i].pol +
					b->e.data[args[j].entry].gsize + args[j].pol;
			Pair p = {(uint32_t)i, (uint32_t)j, size};
			VEC_PUSH(pairs, p);
		}
	if (pairs.len > 1) /* an empty VEC's data is NULL */
		qsort(pairs.data, pairs.len, sizeof *pairs.data, cmp_pair);
	unsigned C = b->o.C, NC = two_coefs(C), NK = two_kinds(C);
	size_t per = (size_t)NC * NK, block = (size_t)(1 << 22) / (per * nw + 1) + 1;
	Word64 *sigs = xmalloc(block * per * nw * sizeof(Word64));
	Cand *cands = xmalloc(block * per * sizeof(Cand));
	BankStop stop = BANK_OK;
	for (size_t lo = 0; lo < pairs.len && stop == BANK_OK; lo += block) {
		size_t n = pairs.len - lo < block ? pairs.len - lo : block;
		TwoJob job = {b, pairs.data + lo, cnt, sigs, cands, lo};
		pfor(b->o.jobs, n, two_slice, &job);
		for (size_t p = 0; p < n; p++) {
			bank_share_flush_part(b, d, p);
			if (b->sh && (lo + p) % (size_t)b->sh->size !=
					     (size_t)b->sh->rank)
				continue;
			const Arg *x = &args[pairs.data[lo + p].i];
			const Arg *y = &args[pairs.data[lo + p].j];
			for (unsigned k = 0; k < NC; k++) {
				int a1, a2;
				two_coef(C, k, &a1, &a2);
				for (unsigned q = 0; q < NK; q++) {
					Entry e = {.depth = d, .kind = ENTRY_LIN,
						   .child = x->entry, .pol = x->pol,
						   .fut = x->fut, .child2 = y->entry,
						   .pol2 = y->pol, .fut2 = y->fut,
						   .a1 = (int8_t)a1, .a2 = (int8_t)a2,
						   .gsize = pairs.data[lo + p].size + 3 +
							    (a1 != 1) + (abs(a2) != 1)};
					two_kind(C, q, &e.rel, &e.c);
					size_t at = (p * NC + k) * NK + q;
					bank_emit(b, at, sigs + at * nw, &cands[at], e);
				}
			}
		}
		bank_share_flush(b, d);
		stop = bank_block_end(b);
	}
	for (size_t i = 0; i < nargs; i++)
		free(cnt[i]);
	free(cnt);
	free(args);
	VEC_FREE(pairs);
	free(sigs);
	free(cands);
	return stop;
}

/* ---- guarded combinations --------------------------------------------- */

enum { VARIANTS = 4 }; /* Q&a, Q&!a, Q|a, Q|!a */

typedef struct {
	Bank *b;
	size_t first; /* the atoms' entries start here */
	Word64 *sigs; /* per atom: A * VARIANTS signatures */
	Cand *cands;
} ComboJob;

static void combo_slice(void *ctx, size_t lo, size_t hi)
{
	ComboJob *j = ctx;
	const Sample *S = j->b->S;
	size_t nw = S->nwords, A = S->nletters;
	Word64 *a = xmalloc(2 * nw * sizeof(Word64)), *na = a + nw;
	for (size_t i = lo; i < hi; i++) {
		if (!bank_mine(j->b, &j->b->e.data[j->first + i]))
			continue; /* its owner's */
		bank_sig(j->b, &j->b->e.data[j->first + i], a);
		sig_not(na, a, S->valid, nw);
		for (size_t x = 0; x < A; x++) {
			const Word64 *q = S->letter + x * nw;
			size_t k = (i * A + x) * VARIANTS;
			Word64 *out = j->sigs + k * nw;
			sig_and(out, q, a, nw);
			sig_and(out + nw, q, na, nw);
			sig_or(out + 2 * nw, q, a, nw);
			sig_or(out + 3 * nw, q, na, nw);
			for (int v = 0; v < VARIANTS; v++)
				bank_cand(S, out + v * nw, &j->cands[k + v]);
		}

	}
	free(a);
}

static BankStop build_combos(Bank *b, unsigned d, size_t lo_atom, size_t hi_atom)
{
	size_t nw = b->S->nwords, A = b->S->nletters;
	size_t per = A * VARIANTS;
	Word64 *sigs = xmalloc((size_t)BLOCK * per * nw * sizeof(Word64));
	Cand *cands = xmalloc((size_t)BLOCK * per * sizeof(Cand));
	BankStop stop = BANK_OK;
	for (size_t lo = lo_atom; lo < hi_atom && stop == BANK_OK; lo += BLOCK) {
		size_t n = hi_atom - lo < BLOCK ? hi_atom - lo : BLOCK;
		ComboJob job = {b, lo, sigs, cands};
		pfor(b->o.jobs, n, combo_slice, &job);
		for (size_t i = 0; i < n; i++) {
			for (size_t o = 0; o < per && bank_mine(b, &b->e.data[lo + i]);
			     o++) {
				/* variant-major: every letter's Q & a first */
				size_t k = (o % A) * VARIANTS + o / A;
				int v = (int)(k % VARIANTS);
				bank_emit(b, i * per + o, sigs + (i * per + k) * nw,
				     &cands[i * per + k],
				       (Entry){.depth = d,
					       .gsize = b->e.data[lo + i].gsize + 2 + (v & 1),
					       .kind = ENTRY_COMBO, .child = (uint32_t)(lo + i),
					       .x = (uint8_t)(k / VARIANTS), .y = (uint8_t)v});
			}
			bank_share_flush_part(b, d, i + 1);
		}
		bank_share_flush(b, d);
		stop = bank_block_end(b);
	}
	free(sigs);
	free(cands);
	return stop;
}

/* An existence test #[e] >= 1 of a letter or a guarded entry: the
 * pieces of a subsequence test, first in line for the pairs. */
static bool existence(const Bank *b, size_t i)
{
	const Entry *e = &b->e.data[i];
	if (e->kind != ENTRY_ATOM || e->rel != REL_GE || e->c != 1 || e->pol)
		return false;
	EntryKind k = b->e.data[e->child].kind;
	return k == ENTRY_BASE || k == ENTRY_COMBO || k == ENTRY_PAIR;
}

static int cmp_entry_size(const void *x, const void *y, void *ctx)
{
	const Bank *b = ctx;
	size_t p = *(const size_t *)x, q = *(const size_t *)y;
	bool ep = existence(b, p), eq = existence(b, q);
	if (ep != eq)
		return ep ? -1 : 1;
	uint32_t sp = b->e.data[p].gsize, sq = b->e.data[q].gsize;
	if (sp != sq)
		return sp < sq ? -1 : 1;
	return p < q ? -1 : p > q;
}

/* Q_x & l1 & l2 for the BANK_PAIRS smallest comparisons of the layer,
 * every polarity (whole-word samples only). */
static BankStop build_pairs(Bank *b, unsigned d, size_t lo_atom, size_t hi_atom)
{
	const Sample *S = b->S;
	size_t nw = S->nwords, n = hi_atom - lo_atom;
	size_t *at = xmalloc((n + 1) * sizeof *at);
	for (size_t i = 0; i < n; i++)
		at[i] = lo_atom + i;
	qsort_r(at, n, sizeof *at, cmp_entry_size, b);
	if (n > BANK_PAIRS)
		n = BANK_PAIRS;
	bank_pin(b, at, n);
	Word64 *x = xmalloc(3 * nw * sizeof(Word64)), *y = x + nw, *t = y + nw;
	uint64_t key = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			for (unsigned v = 0; v < 4; v++)
				for (size_t c = 0; c < S->nletters; c++, key++) {
					if (b->sh && key % (uint64_t)b->sh->size !=
							     (uint64_t)b->sh->rank)
						continue; /* dealt to another rank */
					bank_sig(b, &b->e.data[at[i]], x);
					bank_sig(b, &b->e.data[at[j]], y);
					if (v & 1)
						sig_not(x, x, S->valid, nw);
					if (v & 2)
						sig_not(y, y, S->valid, nw);
					sig_and(t, x, y, nw);
					sig_and(t, t, S->letter + c * nw, nw);
					Cand cd;
					bank_cand(S, t, &cd);
					bank_emit(b, key, t, &cd, (Entry){.depth = d,
						.gsize = b->e.data[at[i]].gsize +
							 b->e.data[at[j]].gsize + 3 + (v & 1) +
							 (v >> 1),
						.kind = ENTRY_PAIR, .child = (uint32_t)at[i],
						.child2 = (uint32_t)at[j], .x = (uint8_t)c,
						.y = (uint8_t)v});
				}
	free(x);
	free(at);
	bank_share_flush(b, d);
	return bank_block_end(b);
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static BankStop build(Bank *b, unsigned d, bool full);

static BankStop timed_build(Bank *b, unsigned d, bool full)
{
	double t0 = limit_now(), c0 = cpu_now();
	BankStop stop = build(b, d, full);
	b->seconds += limit_now() - t0;
	b->cpu += cpu_now() - c0;
	return stop;
}

BankStop bank_build(Bank *b, unsigned d) { return timed_build(b, d, false); }
BankStop bank_build_full(Bank *b, unsigned d) { return timed_build(b, d, true); }

static BankStop build(Bank *b, unsigned d, bool full)
{
	if (d > MAXD)
		d = MAXD;
	if (b->built < 0) {
		b->first[0] = 0;
		build_base(b);
		b->first[1] = b->e.len;
		b->built = 0;
	}
	for (unsigned nd = (unsigned)b->built + 1; nd <= d; nd++) {
		if (!b->top_atoms) {
			bank_part_start(b);
			BankStop stop = bank_part_end(b, nd, build_atoms(b, nd));
			if (stop == BANK_OK && b->o.counts >= 2) {
				bank_part_start(b);
				stop = bank_part_end(b, nd, build_twos(b, nd));
			}
			if (stop != BANK_OK)
				return stop;
			b->first[nd + 1] = b->e.len;
			b->top_atoms = true;
			if (b->sh)
				b->sh->layer("bank, its comparisons", nd,
					     sigset_count(b->set));
		}
		if (nd == d && !full)
			break;
		size_t atoms_end = b->first[nd + 1];
		bank_part_start(b);
		BankStop stop = bank_part_end(b, nd, build_combos(b, nd,
						b->first[nd], atoms_end));
		if (stop == BANK_OK && b->S->whole) {
			bank_part_start(b);
			stop = bank_part_end(b, nd, build_pairs(b, nd,
						b->first[nd], atoms_end));
		}
		b->first[nd + 1] = b->e.len;
		if (stop != BANK_OK)
			return stop;
		b->built = (int)nd;
		b->top_atoms = false;
		if (b->sh)
			b->sh->layer("bank, complete", nd, sigset_count(b->set));
	}
	return BANK_OK;
}
