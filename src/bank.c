/* bank.c -- building the guarded inner bank layer by layer. */
#include <config.h>

#include "bank.h"

#include "limit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mem.h"
#include "vec.h"

enum { MAXD = 15, BLOCK = 2048 };

struct Bank {
	const Sample *S;
	Store *st;
	BankOptions o;
	SigSet *set;
	VEC(Entry) e;
	size_t first[MAXD + 2];
	int built; /* depths 0..built complete; -1 before depth 0 */
	LayerStats stats[MAXD + 1];
	double seconds; /* wall time spent in bank_build */
	double cpu;     /* CPU time of all threads spent there */
	char grammar[320];
};

Bank *bank_new(const Sample *S, Store *st, const BankOptions *opt)
{
	Bank *b = xcalloc(1, sizeof *b);
	b->S = S;
	b->st = st;
	b->o = *opt;
	if (b->o.jobs == 0)
		b->o.jobs = 1;
	b->set = sigset_new(S->nwords);
	b->built = -1;
	snprintf(b->grammar, sizeof b->grammar,
		 "guarded inner grammar: #[psi] >= c with c <= %u, psi an "
		 "entry of the layer below or its negation%s; Q_x & atom, "
		 "Q_x | atom (both polarities)",
		 b->o.C, b->o.diff ? "; #[Q_x] - #[Q_y] >= c at depth 1" : "");
	return b;
}

void bank_free(Bank *b)
{
	if (!b)
		return;
	sigset_free(b->set);
	VEC_FREE(b->e);
	free(b);
}

unsigned bank_depth(const Bank *b) { return b->built < 0 ? 0 : (unsigned)b->built; }
size_t bank_count(const Bank *b) { return b->first[b->built + 1]; }
const Entry *bank_entry(const Bank *b, size_t i) { return &b->e.data[i]; }
size_t bank_first(const Bank *b, unsigned d) { return b->first[d]; }
const LayerStats *bank_stats(const Bank *b, unsigned d) { return &b->stats[d]; }
const char *bank_grammar(const Bank *b) { return b->grammar; }

size_t bank_bytes(const Bank *b)
{
	return sigset_bytes(b->set) + b->e.cap * sizeof(Entry) +
	       store_node_count(b->st) * 64;
}

const Word64 *bank_canonical(const Bank *b, const Entry *e)
{
	return sigset_get(b->set, e->sig);
}

void bank_sig(const Bank *b, const Entry *e, Word64 *out)
{
	const Word64 *c = bank_canonical(b, e);
	if (e->neg)
		sig_not(out, c, b->S->valid, b->S->nwords);
	else
		memcpy(out, c, b->S->nwords * sizeof(Word64));
}

/* One candidate's signature, made canonical, with its hash. */
typedef struct {
	uint64_t hash;
	bool neg;
} Cand;

static void finish(const Sample *S, Word64 *sig, Cand *c)
{
	c->neg = sig_canonical(sig, S->valid, S->nwords);
	c->hash = sig_hash(sig, S->nwords);
}

/* Inserts a candidate; a fresh one becomes an entry (a recipe: its node
 * is built on first use). */
static bool insert(Bank *b, const Word64 *sig, const Cand *c, Entry e)
{
	bool fresh;
	size_t i = sigset_insert_hashed(b->set, sig, c->hash, &fresh);
	b->stats[e.depth].generated++;
	if (!fresh)
		return false;
	b->stats[e.depth].kept++;
	e.uses_diff = e.kind == ENTRY_DIFF ||
		      ((e.kind == ENTRY_ATOM || e.kind == ENTRY_COMBO) &&
		       b->e.data[e.child].uses_diff);
	e.node = NODE_NONE;
	e.sig = (uint32_t)i;
	e.neg = c->neg;
	VEC_PUSH(b->e, e);
	return true;
}

static Node letter(Bank *b, size_t x)
{
	return store_make_letter(b->st, b->S->letters[x]);
}

static Node count_of(Bank *b, Node f) { return store_make_count(b->st, f); }

static Node build_node(Bank *b, const Entry *e)
{
	Store *st = b->st;
	switch (e->kind) {
	case ENTRY_BASE: {
		if (e->c == 0)
			return store_make_true(st);
		Node kids[8];
		size_t n = 0;
		for (size_t x = 0; x < b->S->nletters && x < 8; x++)
			if (e->c >> x & 1)
				kids[n++] = letter(b, x);
		return store_make_or(st, kids, n);
	}
	case ENTRY_ATOM: {
		Node psi = bank_node(b, e->child);
		if (e->pol)
			psi = store_make_not(st, psi);
		return store_make_cmp(st, REL_GE, count_of(b, psi),
				      store_make_const_si(st, e->c));
	}
	case ENTRY_DIFF:
		return store_make_cmp(st, REL_GE,
				      store_make_sub(st, count_of(b, letter(b, e->x)),
						     count_of(b, letter(b, e->y))),
				      store_make_const_si(st, e->c));
	case ENTRY_COMBO: {
		Node at = bank_node(b, e->child);
		if (e->y & 1)
			at = store_make_not(st, at);
		Node q = letter(b, e->x);
		return e->y < 2 ? store_make_and2(st, q, at) : store_make_or2(st, q, at);
	}
	}
	return NODE_NONE;
}

Node bank_node(Bank *b, size_t i)
{
	/* children have smaller indices: the recursion is as deep as the
	 * formula's depth times two */
	if (b->e.data[i].node == NODE_NONE) {
		Entry e = b->e.data[i];
		b->e.data[i].node = build_node(b, &e);
	}
	return b->e.data[i].node;
}

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

BankStop bank_limit_stop(Limits *lim)
{
	if (!limit_check(lim))
		return BANK_OK;
	return lim->hit == LIMIT_TIME ? BANK_TIME : BANK_MEMORY;
}

static BankStop limits(const Bank *b)
{
	if (b->o.progress && b->built >= 0)
		b->o.progress(b->o.progress_ctx, (unsigned)b->built + 1,
			      sigset_count(b->set));
	if (b->o.max_sigs && sigset_count(b->set) >= b->o.max_sigs)
		return BANK_CAP;
	return bank_limit_stop(b->o.limits);
}

/* ---- depth 0 ---------------------------------------------------------- */

static void build_base(Bank *b)
{
	const Sample *S = b->S;
	size_t nw = S->nwords, A = S->nletters;
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	/* every set of letters (small alphabets), else single letters */
	unsigned top = A <= 6 ? 1u << A : 0;
	for (unsigned pass = 0; pass < 2; pass++)
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
			finish(S, sig, &c);
			insert(b, sig, &c, (Entry){.depth = 0,
				.gsize = pc ? 2 * pc - 1 : 1, .kind = ENTRY_BASE,
				.c = (int32_t)m});
		}
	free(sig);
}

/* ---- atoms ------------------------------------------------------------ */

typedef struct {
	uint32_t entry;
	bool pol; /* count the negation */
} Arg;

typedef struct {
	Bank *b;
	const Arg *args;
	Word64 *sigs; /* per arg: C planes */
	Cand *cands;
} AtomJob;

static void atom_slice(void *ctx, size_t lo, size_t hi)
{
	AtomJob *j = ctx;
	const Sample *S = j->b->S;
	size_t nw = S->nwords;
	unsigned C = j->b->o.C;
	Word64 *psi = xmalloc(nw * sizeof(Word64));
	for (size_t i = lo; i < hi; i++) {
		const Entry *e = &j->b->e.data[j->args[i].entry];
		bank_sig(j->b, e, psi);
		if (j->args[i].pol)
			sig_not(psi, psi, S->valid, nw);
		Word64 *planes = j->sigs + i * C * nw;
		sample_thresholds(S, psi, C, planes);
		for (unsigned c = 0; c < C; c++)
			finish(S, planes + c * nw, &j->cands[i * C + c]);
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
	return (int)p->pol - (int)q->pol;
}

/* Count arguments of depth d: both polarities of every depth-(d-1)
 * entry whose count is not always 0, smallest first. */
static Arg *count_args(Bank *b, unsigned d, size_t *n)
{
	size_t lo = b->first[d - 1], hi = b->first[d];
	Arg *args = xmalloc(2 * (hi - lo + 1) * sizeof *args);
	size_t nw = b->S->nwords;
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	*n = 0;
	for (size_t i = lo; i < hi; i++)
		for (int pol = 0; pol < 2; pol++) {
			bank_sig(b, &b->e.data[i], sig);
			if (pol)
				sig_not(sig, sig, b->S->valid, nw);
			sig[0] &= ~(Word64)1; /* the root is never counted */
			Word64 any = 0;
			for (size_t k = 0; k < nw; k++)
				any |= sig[k];
			if (!any)
				continue;
			args[(*n)++] = (Arg){(uint32_t)i, pol != 0};
		}
	free(sig);
	qsort_r(args, *n, sizeof *args, cmp_arg_size, b);
	return args;
}

static BankStop build_atoms(Bank *b, unsigned d)
{
	size_t nargs, nw = b->S->nwords;
	unsigned C = b->o.C;
	Arg *args = count_args(b, d, &nargs);
	Word64 *sigs = xmalloc((size_t)BLOCK * C * nw * sizeof(Word64));
	Cand *cands = xmalloc((size_t)BLOCK * C * sizeof(Cand));
	BankStop stop = BANK_OK;
	for (size_t lo = 0; lo < nargs && stop == BANK_OK; lo += BLOCK) {
		size_t n = nargs - lo < BLOCK ? nargs - lo : BLOCK;
		AtomJob job = {b, args + lo, sigs, cands};
		pfor(b->o.jobs, n, atom_slice, &job);
		for (size_t i = 0; i < n; i++)
			for (unsigned c = 0; c < C; c++) {
				const Arg *a = &args[lo + i];
				insert(b, sigs + (i * C + c) * nw, &cands[i * C + c],
				       (Entry){.depth = d,
					       .gsize = b->e.data[a->entry].gsize + a->pol + 2,
					       .kind = ENTRY_ATOM, .child = a->entry,
					       .c = (int32_t)c + 1, .pol = a->pol});
			}
		stop = limits(b);
	}
	free(args);
	free(sigs);
	free(cands);
	return stop;
}

/* ---- differences of letter counts (depth 1) --------------------------- */

static void build_diffs(Bank *b)
{
	const Sample *S = b->S;
	size_t nw = S->nwords, A = S->nletters;
	int32_t *cnt = xmalloc(A * S->nbits * sizeof *cnt);
	for (size_t x = 0; x < A; x++)
		sample_counts(S, S->letter + x * nw, cnt + x * S->nbits);
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	int C = (int)b->o.C;
	for (int ac = 0; ac <= C; ac++) /* smaller |c| first */
		for (int sgn = 1; sgn >= -1; sgn -= 2) {
			if (ac == 0 && sgn < 0)
				continue;
			for (size_t x = 0; x < A; x++)
				for (size_t y = 0; y < A; y++) {
					if (x == y)
						continue;
					int c = sgn * ac;
					memset(sig, 0, nw * sizeof(Word64));
					for (size_t i = 0; i < S->nbits; i++)
						if (sig_bit(S->valid, i) &&
						    cnt[x * S->nbits + i] -
								    cnt[y * S->nbits + i] >=
							    c)
							sig_set(sig, i);
					Cand cd;
					finish(S, sig, &cd);
					insert(b, sig, &cd, (Entry){.depth = 1, .gsize = 5,
						.kind = ENTRY_DIFF, .c = c,
						.x = (uint8_t)x, .y = (uint8_t)y});
				}
		}
	free(sig);
	free(cnt);
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
				finish(S, out + v * nw, &j->cands[k + v]);
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
		for (size_t i = 0; i < n; i++)
			for (size_t o = 0; o < per; o++) {
				/* variant-major: every letter's Q & a first */
				size_t k = (o % A) * VARIANTS + o / A;
				int v = (int)(k % VARIANTS);
				insert(b, sigs + (i * per + k) * nw, &cands[i * per + k],
				       (Entry){.depth = d,
					       .gsize = b->e.data[lo + i].gsize + 2 + (v & 1),
					       .kind = ENTRY_COMBO, .child = (uint32_t)(lo + i),
					       .x = (uint8_t)(k / VARIANTS), .y = (uint8_t)v});
			}
		stop = limits(b);
	}
	free(sigs);
	free(cands);
	return stop;
}

double bank_seconds(const Bank *b) { return b->seconds; }
Limits *bank_limits(const Bank *b) { return b->o.limits; }
double bank_cpu_seconds(const Bank *b) { return b->cpu; }

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static BankStop build(Bank *b, unsigned d);

BankStop bank_build(Bank *b, unsigned d)
{
	double t0 = limit_now(), c0 = cpu_now();
	BankStop stop = build(b, d);
	b->seconds += limit_now() - t0;
	b->cpu += cpu_now() - c0;
	return stop;
}

static BankStop build(Bank *b, unsigned d)
{
	if (d > MAXD)
		d = MAXD;
	if (b->built < 0) {
		b->first[0] = 0;
		build_base(b);
		b->first[1] = b->e.len;
		b->built = 0;
	}
	while ((unsigned)b->built < d) {
		unsigned nd = (unsigned)b->built + 1;
		BankStop stop = build_atoms(b, nd);
		if (stop == BANK_OK && nd == 1 && b->o.diff)
			build_diffs(b);
		size_t atoms_end = b->e.len;
		if (stop == BANK_OK)
			stop = build_combos(b, nd, b->first[nd], atoms_end);
		if (stop != BANK_OK)
			return stop;
		b->first[nd + 1] = b->e.len;
		b->built = (int)nd;
	}
	return BANK_OK;
}
