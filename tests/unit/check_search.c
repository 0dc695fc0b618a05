/* check_search.c -- the search engine's signatures against the naive
 * reference evaluator (ref_eval.c), which shares no code with it:
 *  - every bank entry's signature (thresholds by shifts, chains,
 *    combinations, canonical polarity) equals the reference's value of its
 *    formula at every node of the sample;
 *  - tally enum's output is exactly one formula per distinct signature of
 *    a brute-force enumeration of every formula of the grammar within the
 *    bounds, without any merging; no two emitted formulas share a
 *    signature, and each emitted signature is the reference's;
 *  - the exact check of indistinguishability (indist.c) against an
 *    enumeration of every comparison of the class on small sets of words
 *    (and its separating formulas against the reference evaluator);
 *  - every pair that tally hierarchy --k=1..4 and tally search
 *    --separate=1|2 print as indistinguishable, against a plain
 *    reference implementation of the class written here.
 * The expected sets are computed here, not from the code under test. */
#include <config.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "search/bank.h"
#include "search/enum.h"
#include "cli/commands.h"
#include "search/hierarchy.h"
#include "search/indist.h"
#include "search/search.h"
#include "base/mem.h"
#include "fixture.h"
#include "randgen.h"
#include "base/splitmix.h"
#include "ref_eval.h"
#include "search/sample.h"
#include "suites.h"

/* ---- words up to n in shortlex order, as Sym arrays -------------------- */

typedef struct {
	Sym *letters;
	size_t A;
	unsigned n;
	size_t count;   /* words of length <= n */
	uint8_t **w;    /* letter indices */
	size_t *len;
} Words;

static void words_init(Words *W, Sym *letters, size_t A, unsigned n)
{
	W->letters = letters;
	W->A = A;
	W->n = n;
	size_t total = 0, p = 1;
	for (unsigned L = 0; L <= n; L++, p *= A)
		total += p;
	W->count = total;
	W->w = xcalloc(total, sizeof *W->w);
	W->len = xcalloc(total, sizeof *W->len);
	size_t k = 0;
	p = 1;
	for (unsigned L = 0; L <= n; L++, p *= A)
		for (size_t v = 0; v < p; v++, k++) {
			W->w[k] = xmalloc(L + 1);
			W->len[k] = L;
			size_t x = v;
			for (unsigned i = L; i > 0; i--, x /= A)
				W->w[k][i - 1] = (uint8_t)(x % A);
		}
}

static void words_free(Words *W)
{
	for (size_t k = 0; k < W->count; k++)
		free(W->w[k]);
	free(W->w);
	free(W->len);
}

/* The reference's verdicts on every word, as a '0'/'1' string. */
static char *ref_sig(const Store *st, Node f, const Words *W)
{
	char *s = xmalloc(W->count + 1);
	Sym buf[64];
	for (size_t k = 0; k < W->count; k++) {
		for (size_t i = 0; i < W->len[k]; i++)
			buf[i] = W->letters[W->w[k][i]];
		s[k] = ref_accepts(st, f, buf, W->len[k], false) ? '1' : '0';
	}
	s[W->count] = '\0';
	return s;
}

/* The enumerator's signature read at the same words. */
static char *sample_sig(const Sample *S, const Word64 *sig, const Words *W)
{
	char *s = xmalloc(W->count + 1);
	for (size_t k = 0; k < W->count; k++)
		s[k] = sig_bit(sig, sample_node(S, W->w[k], W->len[k])) ? '1' : '0';
	s[W->count] = '\0';
	return s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Distinct strings of an array (sorted in place). */
static size_t distinct(char **v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_str);
	size_t d = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			d++;
	return d;
}

/* ---- the brute force: every formula of the grammar, no merging --------- */

enum { BD = 3, BS = 8 };

typedef struct {
	Node *n;
	size_t len, cap;
} List;

static void push_unique(List *l, Node x)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->n[i] == x)
			return; /* the same node: the same formula */
	mem_grow((void **)&l->n, &l->cap, l->len + 1, sizeof *l->n);
	l->n[l->len++] = x;
}

static Node scaled(Store *st, int a, Node psi)
{
	fmpz_t c;
	fmpz_init_set_si(c, a);
	Node t = store_make_scale(st, c, store_make_count(st, psi));
	fmpz_clear(c);
	return t;
}

/* F[d][s]: the formulas of depth exactly d and size exactly s, as the
 * grammar of enum.h defines them (ordered operands, equal operands too). */
static void brute(Store *st, const Sym *letters, size_t A, const EnumOptions *o,
		  List F[BD + 1][BS + 1])
{
	for (size_t x = 0; x < A; x++)
		push_unique(&F[0][1], store_make_letter(st, letters[x]));
	push_unique(&F[0][1], store_make_true(st));
	for (unsigned m = 2; m <= o->max_mod; m++)
		for (unsigned r = 0; r < m; r++)
			push_unique(&F[0][1], store_make_mod(st, m, r));
	int K = (int)o->max_const, M = (int)o->max_coeff;
	for (unsigned d = 0; d <= o->max_depth; d++)
		for (unsigned s = 1; s <= o->max_size; s++) {
			List *out = &F[d][s];
			if (s >= 2)
				for (size_t i = 0; i < F[d][s - 1].len; i++) {
					push_unique(out, store_make_not(st, F[d][s - 1].n[i]));
					if (o->prev)
						push_unique(out, store_make_prev(st, F[d][s - 1].n[i]));
				}
			for (unsigned s1 = 1; s1 + 2 <= s; s1++)
				for (unsigned d1 = 0; d1 <= d; d1++)
					for (unsigned d2 = 0; d2 <= d; d2++) {
						if (d1 != d && d2 != d)
							continue;
						List *l1 = &F[d1][s1], *l2 = &F[d2][s - 1 - s1];
						for (size_t i = 0; i < l1->len; i++)
							for (size_t j = 0; j < l2->len; j++) {
								push_unique(out, store_make_and2(st, l1->n[i], l2->n[j]));
								push_unique(out, store_make_or2(st, l1->n[i], l2->n[j]));
							}
					}
			if (d == 0)
				continue;
			if (s >= 3)
				for (size_t i = 0; i < F[d - 1][s - 2].len; i++)
					for (int c = 1; c <= K; c++)
						push_unique(out, store_make_cmp(st, REL_GE,
							store_make_count(st, F[d - 1][s - 2].n[i]),
							store_make_const_si(st, c)));
			for (unsigned s1 = 1; s1 + 4 <= s; s1++)
				for (unsigned d1 = 0; d1 < d; d1++)
					for (unsigned d2 = 0; d2 < d; d2++) {
						if (d1 != d - 1 && d2 != d - 1)
							continue;
						List *l1 = &F[d1][s1], *l2 = &F[d2][s - 3 - s1];
						for (size_t i = 0; i < l1->len; i++)
							for (size_t j = 0; j < l2->len; j++)
								for (int a1 = -M; a1 <= M; a1++)
									for (int a2 = -M; a2 <= M; a2++)
										for (int c = -K; c <= K; c++) {
											if (!a1 || !a2)
												continue;
											push_unique(out, store_make_cmp(st, REL_GE,
												store_make_add2(st,
													scaled(st, a1, l1->n[i]),
													scaled(st, a2, l2->n[j])),
												store_make_const_si(st, c)));
										}
					}
		}
}

typedef struct {
	const Store *st;
	const Sample *S;
	const Words *W;
	char **sigs;
	size_t n, cap;
} Emitted;

static bool collect(void *ctx, Node f, unsigned depth, unsigned size, const Word64 *sig)
{
	Emitted *e = ctx;
	char *mine = sample_sig(e->S, sig, e->W);
	char *ref = ref_sig(e->st, f, e->W);
	ck_assert_msg(strcmp(mine, ref) == 0, "emitted signature differs from the reference");
	ck_assert_uint_eq(store_depth(e->st, f) <= depth, 1);
	free(ref);
	mem_grow((void **)&e->sigs, &e->cap, e->n + 1, sizeof *e->sigs);
	e->sigs[e->n++] = mine;
	return true;
}

typedef struct {
	const char *alphabet;
	unsigned n;
	EnumOptions o;
} EnumCase;

static const EnumCase enum_cases[] = {
	{"ab", 4, {.max_depth = 1, .max_size = 5, .max_const = 1, .max_coeff = 1}},
	{"ab", 3, {.max_depth = 2, .max_size = 5, .max_const = 2, .max_coeff = 1}},
	{"a", 5, {.max_depth = 2, .max_size = 6, .max_const = 2, .max_coeff = 2,
		  .max_mod = 2, .prev = true}},
	{"ab", 3, {.max_depth = 1, .max_size = 6, .max_const = 1, .max_coeff = 1,
		   .prev = true}},
};

START_TEST(enum_matches_brute_force)
{
	const EnumCase *c = &enum_cases[_i];
	Store *st = store_new();
	Sym letters[4];
	size_t A = strlen(c->alphabet);
	for (size_t x = 0; x < A; x++)
		letters[x] = sym_intern(store_syms(st), c->alphabet + x, 1);
	Words W;
	words_init(&W, letters, A, c->n);
	List F[BD + 1][BS + 1];
	memset(F, 0, sizeof F);
	brute(st, letters, A, &c->o, F);
	size_t total = 0;
	for (unsigned d = 0; d <= c->o.max_depth; d++)
		for (unsigned s = 1; s <= c->o.max_size; s++)
			total += F[d][s].len;
	char **all = xcalloc(total + 1, sizeof *all);
	size_t k = 0;
	for (unsigned d = 0; d <= c->o.max_depth; d++)
		for (unsigned s = 1; s <= c->o.max_size; s++)
			for (size_t i = 0; i < F[d][s].len; i++)
				all[k++] = ref_sig(st, F[d][s].n[i], &W);
	size_t want = distinct(all, total);

	Sample *S = sample_build(store_syms(st), letters, A, c->n, NULL, 0, NULL);
	Emitted em = {st, S, &W, NULL, 0, 0};
	EnumLayer *layers = xcalloc((c->o.max_depth + 1) * (c->o.max_size + 1), sizeof *layers);
	ck_assert_int_eq(enum_run(&c->o, S, st, collect, &em, layers), ENUM_DONE);
	ck_assert_uint_eq(distinct(em.sigs, em.n), em.n); /* no shared signature */
	ck_assert_msg(em.n == want, "case %d: enum emitted %zu formulas, brute force "
		      "(%zu formulas) has %zu distinct signatures", _i, em.n, total, want);
	for (size_t i = 0; i < total; i++)
		free(all[i]);
	free(all);
	for (size_t i = 0; i < em.n; i++)
		free(em.sigs[i]);
	free(em.sigs);
	free(layers);
	for (unsigned d = 0; d <= BD; d++)
		for (unsigned s = 0; s <= BS; s++)
			free(F[d][s].n);
	sample_free(S);
	words_free(&W);
	store_free(st);
}
END_TEST

/* ---- the bank ------------------------------------------------------------ */

START_TEST(bank_matches_reference)
{
	Store *st = store_new();
	Sym letters[2] = {sym_intern(store_syms(st), "a", 1), sym_intern(store_syms(st), "b", 1)};
	SampleWord *pairs = sample_witness_pairs(4, 1, 2, 3, 6, 7);
	Sample *S = sample_build(store_syms(st), letters, 2, 4, pairs, 8, "pairs");
	BankOptions bo = {.C = 2, .counts = 2, .base = 8, .jobs = 2};
	Bank *b = bank_new(S, st, &bo);
	ck_assert_int_eq(bank_build(b, 2), BANK_OK);
	Word64 *sig = xmalloc(S->nwords * sizeof(Word64));
	Sym *w = xmalloc((S->nbits + 1) * sizeof *w);
	uint8_t *ix = xmalloc(S->nbits + 1);
	unsigned stride = 7 / test_multiplier() + 1;
	size_t checked = 0;
	for (size_t i = 0; i < bank_count(b); i++) {
		const Entry *e = bank_entry(b, i);
		if (e->depth == 2 && i % stride)
			continue;
		Node f = bank_node(b, i);
		ck_assert_uint_eq(store_depth(st, f), e->depth);
		bank_sig(b, e, sig);
		for (size_t bit = 0; bit < S->nbits; bit++) {
			if (!sig_bit(S->valid, bit))
				continue;
			size_t len = sample_word(S, bit, ix);
			for (size_t j = 0; j < len; j++)
				w[j] = letters[ix[j]];
			ck_assert_msg(sig_bit(sig, bit) == ref_accepts(st, f, w, len, false),
				      "entry %zu at node %zu", i, bit);
		}
		checked++;
	}
	ck_assert_uint_gt(checked, 100);
	free(sig);
	free(w);
	free(ix);
	bank_free(b);
	sample_free(S);
	sample_words_free(pairs, 8);
	store_free(st);
}
END_TEST

/* A memory budget cuts the bank, smallest first: every layer below the
 * first cut one is the uncut bank's, the cut one's entries are a prefix
 * of the uncut one's (same recipes, same order), and its estimate stays
 * within the budget plus one block of candidates per part. */
START_TEST(bank_cut_keeps_smallest)
{
	Store *st = store_new();
	Sym letters[2] = {sym_intern(store_syms(st), "a", 1), sym_intern(store_syms(st), "b", 1)};
	SampleWord *pairs = sample_witness_pairs(4, 1, 2, 3, 6, 7);
	Sample *S = sample_build(store_syms(st), letters, 2, 6, pairs, 8, "pairs");
	BankOptions bo = {.C = 1, .counts = 2, .base = 4, .jobs = 1};
	Bank *full = bank_new(S, st, &bo);
	ck_assert_int_eq(bank_build(full, 4), BANK_OK);
	ck_assert(!bank_cut(full, 4));
	/* a budget of a fifth of what the whole needs, but more than the
	 * parts' floor for the small depths */
	size_t need = bank_estimate(full);
	bo.max_bytes = need / 5;
	Bank *cut = bank_new(S, st, &bo);
	ck_assert_int_eq(bank_build(cut, 4), BANK_OK);
	ck_assert_msg(bank_cut(cut, 4), "full %zu entries, cut %zu", bank_count(full), bank_count(cut));
	unsigned first = 0;
	while (!bank_cut(cut, first))
		first++;
	ck_assert_uint_ge(first, 1);
	ck_assert_uint_lt(bank_count(cut), bank_count(full));
	size_t lo = bank_first(cut, first);
	ck_assert_uint_eq(lo, bank_first(full, first));
	for (size_t i = 0; i < lo; i++)
		ck_assert_int_eq(bank_entry(cut, i)->kind, bank_entry(full, i)->kind);
	/* per part (the comparisons of one count, of two): the cut layer's
	 * entries are the first ones of the uncut layer's, in its order */
	size_t hi = bank_first(cut, first + 1), fhi = bank_first(full, first + 1);
	for (EntryKind k = ENTRY_ATOM; k <= ENTRY_LIN; k++) {
		size_t j = lo, kept = 0;
		for (size_t i = lo; i < hi; i++) {
			const Entry *x = bank_entry(cut, i);
			if (x->kind != k)
				continue;
			while (j < fhi && bank_entry(full, j)->kind != k)
				j++;
			ck_assert_uint_lt(j, fhi);
			const Entry *y = bank_entry(full, j++);
			ck_assert_uint_eq(x->child, y->child);
			ck_assert_uint_eq(x->child2, y->child2);
			ck_assert_int_eq(x->c, y->c);
			ck_assert_uint_eq(x->rel, y->rel);
			ck_assert_int_eq(x->a1, y->a1);
			ck_assert_int_eq(x->a2, y->a2);
			kept++;
		}
		ck_assert_uint_gt(kept, 0);
	}
	bank_free(cut);
	bank_free(full);
	sample_free(S);
	sample_words_free(pairs, 8);
	store_free(st);
}
END_TEST

/* sample_word inverts sample_node (chains may repeat a prefix another
 * chain holds, so the converse holds up to such duplicates). */
START_TEST(sample_layout)
{
	Store *st = store_new();
	Sym letters[3] = {sym_intern(store_syms(st), "a", 1), sym_intern(store_syms(st), "b", 1),
			  sym_intern(store_syms(st), "c", 1)};
	for (size_t A = 1; A <= 3; A++) {
		SampleWord *pairs = A >= 2 ? sample_witness_pairs(3, 1, 3, 2, 9, 5) : NULL;
		Sample *S = sample_build(store_syms(st), letters, A, 7 - (unsigned)A, pairs,
					 pairs ? 6 : 0, "pairs");
		uint8_t w[128];
		size_t seen = 0;
		for (size_t bit = 0; bit < S->nbits; bit++) {
			if (!sig_bit(S->valid, bit))
				continue;
			size_t len = sample_word(S, bit, w);
			uint8_t back[128];
			size_t node = sample_node(S, w, len);
			ck_assert_uint_eq(sample_word(S, node, back), len);
			ck_assert(memcmp(back, w, len) == 0);
			ck_assert_uint_eq(S->length[node], len);
			seen++;
		}
		ck_assert_uint_eq(seen, S->npoints);
		sample_free(S);
		sample_words_free(pairs, 6);
	}
	store_free(st);
}
END_TEST

/* The bounded negative evidence is real: for every refuted depth d, the
 * target separates each reported pair while every comparison of the bank
 * of depth <= d and every letter (by the reference evaluator) gives both
 * words the same value, and the plain reference finds no formula of the
 * class that separates them; the found formula has the least depth and
 * matches. */
static bool ref_word(const Store *st, Node f, const Sample *S, size_t bit)
{
	uint8_t ix[256];
	Sym w[256];
	size_t len = sample_word(S, bit, ix);
	for (size_t j = 0; j < len; j++)
		w[j] = S->letters[ix[j]];
	return ref_accepts(st, f, w, len, false);
}

static unsigned ref_depth(const char *u, const char *v, unsigned maxd, long C);

START_TEST(refutations_hold)
{
	unsigned k = (unsigned)_i + 2; /* L_2, L_3 */
	Store *st = store_new();
	Sym ab[2] = {sym_intern(store_syms(st), "a", 1), sym_intern(store_syms(st), "b", 1)};
	/* four witness pairs, and one more with u in L_(k-1) that the exact
	 * check proves no formula of depth k - 1 separates (without it a
	 * shallower bank formula may imitate L_k on so small a sample) */
	SampleWord *pairs = sample_witness_pairs(5, 1, k - 1, 5, 9, 3);
	uint64_t rng = 99;
	unsigned blocks[4];
	for (int t = 0;; t++) {
		ck_assert_int_lt(t, 200);
		free(pairs[8].w);
		free(pairs[9].w);
		sample_random_blocks(k - 1, 20, 60, &rng, blocks);
		sample_witness_pair(blocks, k - 1, &pairs[8]);
		if (indist_pair(pairs[8].w, pairs[8].len, pairs[9].w, pairs[9].len, 2,
				k - 1, (IndistBounds){2, 2, false}, NULL) == INDIST_NONE)
			break;
	}
	Sample *S = sample_build(store_syms(st), ab, 2, 6, pairs, 10, "pairs");
	Node target = hierarchy_lk(st, ab[0], ab[1], k);
	Target tg = {.kind = TARGET_FORMULA, .node = target};
	Word64 *care = xmalloc(2 * S->nwords * sizeof(Word64)), *label = care + S->nwords;
	ck_assert(target_sig(&tg, S, st, care, label));
	BankOptions bo = {.C = 2, .counts = 2, .base = 8, .jobs = 1};
	Bank *b = bank_new(S, st, &bo);
	SearchResult r;
	IndistBounds cls = {2, 2, false};
	search_run(b, S, st, care, label, k, &cls, &r);
	ck_assert(r.found);
	ck_assert_uint_eq(r.depth, k);
	ck_assert_uint_eq(r.tried, k);
	for (unsigned d = 0; d < r.tried; d++) {
		const Refutation *f = &r.refuted[d];
		if (d <= 1) /* a pair with the same Parikh vector exists */
			ck_assert_uint_gt(f->npairs, 0);
		for (size_t p = 0; p < f->npairs; p++) {
			size_t pos = f->pairs[p].pos, neg = f->pairs[p].neg;
			ck_assert(ref_word(st, target, S, pos));
			ck_assert(!ref_word(st, target, S, neg));
			for (size_t x = 0; x < 2; x++) {
				Node q = store_make_letter(st, ab[x]);
				ck_assert(ref_word(st, q, S, pos) == ref_word(st, q, S, neg));
			}
			char *u = sample_word_text(S, pos), *v = sample_word_text(S, neg);
			ck_assert_msg(ref_depth(u, v, d, 2) > d, "'%s' / '%s' at depth %u",
				      u, v, d);
			free(u);
			free(v);
			for (size_t i = 0; i < bank_first(b, d + 1); i++) {
				EntryKind kind = bank_entry(b, i)->kind;
				if (kind != ENTRY_ATOM && kind != ENTRY_LIN)
					continue;
				Node a = bank_node(b, i);
				ck_assert_msg(ref_word(st, a, S, pos) == ref_word(st, a, S, neg),
					      "depth %u: an atom separates a reported pair", d);
			}
		}
	}
	/* the formula matches the target at every sample node */
	for (size_t bit = 0; bit < S->nbits; bit++)
		if (sig_bit(S->valid, bit))
			ck_assert(ref_word(st, r.formula, S, bit) == ref_word(st, target, S, bit));
	ck_assert_uint_eq(store_depth(st, r.formula), k);
	free(care);
	bank_free(b);
	sample_free(S);
	sample_words_free(pairs, 10);
	store_free(st);
}
END_TEST

/* ---- indist: every atom enumerated ------------------------------------ */

/* The positions of a few short words (their distinct prefixes, at most
 * 64) as strings; a comparison's value at a position counts its
 * nonempty prefixes by walking the string. */
enum { BF_MAXP = 64, BF_MAXCLS = 6 };

typedef struct {
	char pos[BF_MAXP][16];
	size_t n;
	int cls[BF_MAXP];
} BfSet;

static size_t bf_add(BfSet *b, const char *w, size_t len)
{
	for (size_t i = 0; i < b->n; i++)
		if (strlen(b->pos[i]) == len && strncmp(b->pos[i], w, len) == 0)
			return i;
	ck_assert_uint_lt(b->n, BF_MAXP);
	memcpy(b->pos[b->n], w, len);
	b->pos[b->n][len] = '\0';
	return b->n++;
}

static size_t bf_index(const BfSet *b, const char *w, size_t len)
{
	for (size_t i = 0; i < b->n; i++)
		if (strlen(b->pos[i]) == len && strncmp(b->pos[i], w, len) == 0)
			return i;
	return SIZE_MAX;
}

static bool bf_rel(long z, int rel, long c)
{
	switch (rel) {
	case 0: return z < c;
	case 1: return z <= c;
	case 2: return z == c;
	case 3: return z != c;
	case 4: return z >= c;
	default: return z > c;
	}
}

/* The next level: the classes split by every comparison sum_i a_i
 * #[S_i] ~ c, S_i any union of classes, |a_i|, |c| <= C, t <= T (T
 * <= 2).  False when there are too many classes to enumerate. */
static bool bf_level(BfSet *b, unsigned C, unsigned T)
{
	int r = 0;
	for (size_t i = 0; i < b->n; i++)
		if (b->cls[i] + 1 > r)
			r = b->cls[i] + 1;
	if (r > BF_MAXCLS)
		return false;
	size_t nsub = (size_t)1 << r;
	/* counts of every union at every position */
	long *cnt = xcalloc(nsub * b->n, sizeof *cnt);
	for (size_t s = 0; s < nsub; s++)
		for (size_t p = 0; p < b->n; p++)
			for (size_t L = 1; L <= strlen(b->pos[p]); L++) {
				size_t q = bf_index(b, b->pos[p], L);
				if (s >> b->cls[q] & 1)
					cnt[s * b->n + p]++;
			}
	uint64_t part[BF_MAXP]; /* the classes as masks */
	size_t np = 0;
	for (int c = 0; c < r; c++) {
		uint64_t m = 0;
		for (size_t p = 0; p < b->n; p++)
			if (b->cls[p] == c)
				m |= (uint64_t)1 << p;
		if (m)
			part[np++] = m;
	}
	int iC = (int)C;
	for (size_t s1 = 0; s1 < nsub; s1++)
		for (size_t s2 = 0; s2 < (T >= 2 ? nsub : 1); s2++)
			for (int a1 = -iC; a1 <= iC; a1++)
				for (int a2 = (T >= 2 ? -iC : 0); a2 <= (T >= 2 ? iC : 0); a2++)
					for (int c = -iC; c <= iC; c++)
						for (int rel = 0; rel < 6; rel++) {
							uint64_t m = 0;
							for (size_t p = 0; p < b->n; p++)
								if (bf_rel(a1 * cnt[s1 * b->n + p] +
									   a2 * cnt[s2 * b->n + p],
									   rel, c))
									m |= (uint64_t)1 << p;
							size_t k = np;
							for (size_t i = 0; i < k; i++)
								if ((part[i] & m) && (part[i] & ~m)) {
									part[np++] = part[i] & ~m;
									part[i] &= m;
								}
						}
	for (size_t i = 0; i < np; i++)
		for (size_t p = 0; p < b->n; p++)
			if (part[i] >> p & 1)
				b->cls[p] = (int)i;
	free(cnt);
	return true;
}

typedef struct {
	const char *letters;
	unsigned C, T;
} BfCase;

static const BfCase bf_cases[] = {
	{"ab", 1, 2}, {"ab", 1, 1}, {"ab", 2, 2}, {"abc", 1, 2}, {"ab", 2, 1},
};

START_TEST(indist_matches_enumeration)
{
	const BfCase *bc = &bf_cases[_i % 5];
	uint64_t rng = 1234 + (uint64_t)_i;
	size_t A = strlen(bc->letters);
	Store *st = store_new();
	Sym letters[3];
	for (size_t x = 0; x < A; x++)
		letters[x] = sym_intern(store_syms(st), bc->letters + x, 1);
	unsigned rounds = 6 * test_multiplier(), pairs = 0;
	for (unsigned round = 0; round < rounds; round++) {
		/* three words of length 0..6, sharing prefixes often */
		char w[3][8];
		size_t len[3];
		for (int i = 0; i < 3; i++) {
			len[i] = (size_t)(splitmix64_next(&rng) % 7);
			for (size_t k = 0; k < len[i]; k++)
				w[i][k] = bc->letters[splitmix64_next(&rng) % A];
			if (i && splitmix64_next(&rng) % 2) { /* share a prefix */
				size_t keep = len[0] < len[i] ? len[0] : len[i];
				memcpy(w[i], w[0], keep / 2 + 1 < keep ? keep / 2 + 1 : keep);
			}
			w[i][len[i]] = '\0';
		}
		BfSet bf = {.n = 0};
		for (int i = 0; i < 3; i++)
			for (size_t L = 0; L <= len[i]; L++)
				bf_add(&bf, w[i], L);
		for (size_t p = 0; p < bf.n; p++) {
			size_t L = strlen(bf.pos[p]);
			bf.cls[p] = L ? (int)(strchr(bc->letters, bf.pos[p][L - 1]) -
					      bc->letters) : (int)A;
		}
		/* the engine, tracking */
		uint8_t ix[3][8];
		const uint8_t *wp[3];
		for (int i = 0; i < 3; i++) {
			for (size_t k = 0; k < len[i]; k++)
				ix[i][k] = (uint8_t)(strchr(bc->letters, w[i][k]) - bc->letters);
			wp[i] = ix[i];
		}
		Indist *x = indist_new(wp, len, 3, A, (IndistBounds){bc->C, bc->T, false}, true);
		int prev[BF_MAXP];
		for (unsigned d = 0; d <= 3; d++) {
			if (d > 0) {
				memcpy(prev, bf.cls, sizeof prev);
				if (!bf_level(&bf, bc->C, bc->T))
					break;
			}
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 3; j++) {
					size_t pi = bf_index(&bf, w[i], len[i]);
					size_t pj = bf_index(&bf, w[j], len[j]);
					bool apart = bf.cls[pi] != bf.cls[pj];
					bool before = d > 0 && prev[pi] != prev[pj];
					unsigned got = indist_depth(x, (size_t)i, (size_t)j, d, NULL);
					ck_assert(indist_exact(x));
					ck_assert_msg(apart == (got != INDIST_NONE),
						      "'%s' and '%s' at depth %u (C %u, T %u): "
						      "enumeration %s, indist %u", w[i], w[j], d,
						      bc->C, bc->T, apart ? "apart" : "together", got);
					if (!apart || before || d == 0)
						continue;
					ck_assert_uint_eq(got, d);
					/* the rebuilt formula separates them (reference) */
					Node f = indist_separator(x, st, letters, (size_t)i,
								  (size_t)j, d);
					ck_assert(f != NODE_NONE);
					ck_assert_uint_le(store_depth(st, f), d);
					Sym s1[8], s2[8];
					for (size_t k = 0; k < len[i]; k++)
						s1[k] = letters[ix[i][k]];
					for (size_t k = 0; k < len[j]; k++)
						s2[k] = letters[ix[j][k]];
					ck_assert(ref_accepts(st, f, s1, len[i], false));
					ck_assert(!ref_accepts(st, f, s2, len[j], false));
					pairs++;
				}
		}
		indist_free(x);
	}
	ck_assert_uint_gt(pairs, 0);
	store_free(st);
}
END_TEST

/* ---- the printed pairs, checked by a plain reference ------------------ */

/* A plain implementation of the definition of indist.h for two words:
 * positions are prefixes; the classes of a level are found by comparing
 * each position with its parent, then with the first position of each
 * class of its class below; two positions are apart when, for some
 * coefficients a1, a2 (t <= 2) and weights b_K in {0, a1, a2, a1 + a2},
 * X = sum b_K n_K(p) and Y = sum b_K n_K(q) differ with [min, max]
 * meeting [-C, C].  The reachable (X, X - Y) are a plain boolean table,
 * class by class. */
typedef struct {
	size_t n;        /* positions */
	size_t *parent;  /* SIZE_MAX for the empty word */
	int *letter;     /* -1 for the empty word */
	size_t ends[2];
} RefTree;

/* The shifts from the classes whose counts agree (X and Y move
 * together): a boolean table over [-B, B], kept for the last counts
 * seen per pair of coefficients (consecutive positions of a run have the
 * same). */
typedef struct {
	long *key;
	size_t nkey;
	long B;
	uint8_t *tab;
} RefShift;

static RefShift ref_shift[64];

static const uint8_t *ref_shifts(int tuple, const long *w, const long *x,
				 const long *y, size_t r, long C, long *B)
{
	RefShift *rs = &ref_shift[tuple];
	size_t n = 0;
	long *key = xmalloc((2 * r + 1) * sizeof *key), sum = 0;
	for (size_t k = 0; k < r; k++)
		if (x[k] == y[k] && x[k]) {
			key[n++] = (long)k;
			key[n++] = x[k];
			sum += x[k];
		}
	if (rs->tab && rs->nkey == n && memcmp(rs->key, key, n * sizeof *key) == 0) {
		free(key);
		*B = rs->B;
		return rs->tab;
	}
	free(rs->key);
	free(rs->tab);
	rs->key = key;
	rs->nkey = n;
	rs->B = 2 * C * sum;
	size_t W = (size_t)(2 * rs->B + 1);
	uint8_t *t = xcalloc(W, 1), *u = xmalloc(W);
	t[rs->B] = 1;
	for (size_t i = 0; i < n; i += 2) {
		memset(u, 0, W);
		for (size_t j = 0; j < W; j++)
			if (t[j])
				for (int v = 0; v < 4; v++)
					u[(long)j + w[v] * key[i + 1]] = 1;
		uint8_t *sw = t;
		t = u;
		u = sw;
	}
	free(u);
	rs->tab = t;
	*B = rs->B;
	return t;
}

static bool ref_apart(const long *x, const long *y, size_t r, long C)
{
	long sx = 0, sd = 0;
	for (size_t k = 0; k < r; k++)
		if (x[k] != y[k]) {
			sx += x[k];
			sd += labs(x[k] - y[k]);
		}
	long B = 2 * C * sx, D = 2 * C * sd;
	size_t W = (size_t)(2 * B + 1), H = (size_t)(2 * D + 1);
	uint8_t *t = xmalloc(W * H), *u = xmalloc(W * H);
	bool apart = false;
	int tuple = 0;
	for (long a1 = -C; a1 <= C && !apart; a1++)
		for (long a2 = -C; a2 <= C && !apart; a2++, tuple++) {
			long w[4] = {0, a1, a2, a1 + a2}, Bs;
			const uint8_t *sh = ref_shifts(tuple, w, x, y, r, C, &Bs);
			memset(t, 0, W * H);
			t[(size_t)D * W + (size_t)B] = 1;
			for (size_t k = 0; k < r; k++) {
				if (x[k] == y[k])
					continue;
				memset(u, 0, W * H);
				for (size_t h = 0; h < H; h++)
					for (size_t i = 0; i < W; i++) {
						if (!t[h * W + i])
							continue;
						for (int v = 0; v < 4; v++) {
							long ni = (long)i + w[v] * x[k];
							long nh = (long)h + w[v] * (x[k] - y[k]);
							u[(size_t)nh * W + (size_t)ni] = 1;
						}
					}
				uint8_t *sw = t;
				t = u;
				u = sw;
			}
			/* X = X1 + s, Y = X - delta */
			for (size_t h = 0; h < H && !apart; h++) {
				long delta = (long)h - D;
				if (delta == 0)
					continue;
				for (size_t i = 0; i < W && !apart; i++) {
					if (!t[h * W + i])
						continue;
					for (long s = -Bs; s <= Bs && !apart; s++) {
						if (!sh[s + Bs])
							continue;
						long X = (long)i - B + s, Y = X - delta;
						long lo = X < Y ? X : Y, hi = X < Y ? Y : X;
						apart = lo <= C && hi >= -C;
					}
				}
			}
		}
	free(t);
	free(u);
	return apart;
}

/* The least depth <= maxd separating the two words' ends, or maxd + 1. */
static unsigned ref_depth(const char *u, const char *v, unsigned maxd, long C)
{
	size_t lu = strlen(u), lv = strlen(v), m = 0;
	while (m < lu && m < lv && u[m] == v[m])
		m++;
	RefTree t = {.n = 1 + lu + (lv - m)};
	t.parent = xmalloc(t.n * sizeof *t.parent);
	t.letter = xmalloc(t.n * sizeof *t.letter);
	t.parent[0] = SIZE_MAX;
	t.letter[0] = -1;
	for (size_t i = 1; i <= lu; i++) {
		t.parent[i] = i - 1;
		t.letter[i] = u[i - 1];
	}
	for (size_t i = m; i < lv; i++) {
		size_t p = 1 + lu + (i - m);
		t.parent[p] = i == m ? m : p - 1;
		t.letter[p] = v[i];
	}
	t.ends[0] = lu;
	t.ends[1] = lv > m ? lu + (lv - m) : lv;
	int *cls = xmalloc(t.n * sizeof *cls), *next = xmalloc(t.n * sizeof *next);
	for (size_t p = 0; p < t.n; p++)
		cls[p] = t.letter[p] < 0 ? 1000 : t.letter[p];
	unsigned d = 0;
	while (cls[t.ends[0]] == cls[t.ends[1]] && d < maxd) {
		d++;
		/* number the classes 0..r-1 and count them along the tree */
		int r = 0, *num = xcalloc(1001, sizeof *num);
		for (size_t p = 0; p < t.n; p++)
			if (!num[cls[p]])
				num[cls[p]] = ++r;
		long *cnt = xcalloc(t.n * (size_t)r, sizeof *cnt);
		for (size_t p = 1; p < t.n; p++) {
			memcpy(cnt + p * (size_t)r, cnt + t.parent[p] * (size_t)r,
			       (size_t)r * sizeof *cnt);
			cnt[p * (size_t)r + (size_t)(num[cls[p]] - 1)]++;
		}
		size_t *first = xmalloc(t.n * sizeof *first); /* per new class */
		int nn = 0;
		for (size_t p = 0; p < t.n; p++) {
			next[p] = -1;
			size_t q = t.parent[p];
			if (q != SIZE_MAX && cls[q] == cls[p] &&
			    !ref_apart(cnt + p * (size_t)r, cnt + q * (size_t)r, (size_t)r, C))
				next[p] = next[q];
			for (int k = 0; k < nn && next[p] < 0; k++)
				if (cls[first[k]] == cls[p] &&
				    !ref_apart(cnt + p * (size_t)r, cnt + first[k] * (size_t)r,
					       (size_t)r, C))
					next[p] = k;
			if (next[p] < 0) {
				first[nn] = p;
				next[p] = nn++;
			}
		}
		memcpy(cls, next, t.n * sizeof *cls);
		free(first);
		free(cnt);
		free(num);
	}
	unsigned out = cls[t.ends[0]] == cls[t.ends[1]] ? maxd + 1 : d;
	free(cls);
	free(next);
	free(t.parent);
	free(t.letter);
	return out;
}

/* "a^216 b^80 aa" written out (the lower-bound pairs print runs). */
static char *expand_runs(const char *s)
{
	size_t cap = 64, n = 0;
	char *out = xmalloc(cap);
	while (*s) {
		if (*s == ' ') {
			s++;
			continue;
		}
		char c = *s++;
		unsigned long r = 1;
		if (*s == '^')
			r = strtoul(s + 1, (char **)&s, 10);
		for (unsigned long i = 0; i < r; i++) {
			if (n + 2 > cap)
				out = xrealloc(out, cap *= 2);
			out[n++] = c;
		}
	}
	out[n] = '\0';
	return out;
}

/* Runs of a word over {a, b}, 0 when it does not start with a. */
static unsigned runs_from_a(const char *w)
{
	if (*w != 'a')
		return 0;
	unsigned r = 1;
	for (size_t i = 1; w[i]; i++)
		r += w[i] != w[i - 1];
	return r;
}

/* A row's lower-bound pair (built as runs, checked by blockref and
 * blockcheck) against the reference too, when short; its words' labels
 * by a count of runs (prediction: u has m runs from a, v fewer). */
static size_t check_lower(json_t *o)
{
	json_t *pr = json_object_get(o, "lower_bound_pair");
	if (!pr)
		return 0;
	unsigned d = (unsigned)json_integer_value(json_object_get(o, "certified_depth"));
	unsigned k = (unsigned)json_integer_value(json_object_get(o, "k"));
	char *u = expand_runs(json_string_value(json_array_get(pr, 0)));
	char *v = expand_runs(json_string_value(json_array_get(pr, 1)));
	ck_assert_uint_eq(runs_from_a(u), k);
	if (strcmp(json_string_value(json_object_get(o, "task")), "predict") == 0) {
		unsigned rv = runs_from_a(v);
		ck_assert_msg(rv >= 1 && rv < k, "P_%u: '%s' is not a prefix of a "
			      "member outside L_%u", k, v, k);
	} else {
		ck_assert_uint_ne(runs_from_a(v), k);
	}
	size_t checked = 0;
	if (strlen(u) <= 400 && d <= 3) {
		ck_assert_msg(ref_depth(u, v, d, 1) > d, "lower-bound pair '%s' / "
			      "'%s' separated at depth <= %u", u, v, d);
		checked = 1;
	}
	free(u);
	free(v);
	return checked;
}

/* Every pair the JSON lines of a command print as indistinguishable at a
 * depth: the reference must agree (C = 1, T = 2, the defaults). */
static size_t check_printed(const char *text, bool separate)
{
	size_t checked = 0;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		json_error_t err;
		json_t *o = json_loadb(line, n, 0, &err);
		ck_assert_msg(o != NULL, "bad JSON line: %.*s", (int)n, line);
		if (separate) {
			json_t *pr = json_object_get(o, "indistinguishable_pair");
			unsigned d = (unsigned)json_integer_value(json_object_get(o, "depth")) - 1;
			const char *u = json_string_value(json_array_get(pr, 0));
			const char *v = json_string_value(json_array_get(pr, 1));
			ck_assert_msg(ref_depth(u, v, d, 1) > d, "'%s' / '%s' separated "
				      "at depth <= %u", u, v, d);
			checked++;
		}
		checked += check_lower(o);
		json_t *ref = json_object_get(o, "refuted");
		for (size_t i = 0; ref && i < json_array_size(ref); i++) {
			json_t *e = json_array_get(ref, i);
			unsigned d = (unsigned)json_integer_value(json_object_get(e, "depth"));
			json_t *ps = json_object_get(e, "indistinguishable_pairs");
			for (size_t k = 0; k < json_array_size(ps); k++) {
				const char *u = json_string_value(json_array_get(json_array_get(ps, k), 0));
				const char *v = json_string_value(json_array_get(json_array_get(ps, k), 1));
				ck_assert_msg(ref_depth(u, v, d, 1) > d, "'%s' / '%s' separated "
					      "at depth <= %u", u, v, d);
				checked++;
			}
		}
		json_decref(o);
		line += n + (nl != NULL);
	}
	return checked;
}

/* The formulas a row above --search-depth takes, against the reference
 * evaluator and a count of runs written here: L_k's own formula and
 * hierarchy_member on every word up to length 10; the prediction task's
 * formula on every nonempty prefix of a member of L_m up to length 11,
 * at depth m - 2; for odd m = 2k - 1 the two-sided formula of D_k, at
 * depth k, on every word up to length 11. */
START_TEST(theory_formulas_hold)
{
	Store *st = store_new();
	Sym ab[2] = {sym_intern(store_syms(st), "a", 1), sym_intern(store_syms(st), "b", 1)};
	Words W;
	words_init(&W, ab, 2, 11);
	Sym sw[16];
	char cw[16];
	for (unsigned m = 1; m <= 7; m++) {
		Node lk = hierarchy_lk(st, ab[0], ab[1], m);
		Node pf = m >= 3 ? hierarchy_predict_formula(st, ab[0], ab[1], m) : NODE_NONE;
		Node dk = m % 2 ? hierarchy_dk_formula(st, ab[0], ab[1], (m + 1) / 2)
			       : NODE_NONE;
		if (m >= 3)
			ck_assert_uint_eq(store_depth(st, pf), m - 2);
		if (m % 2)
			ck_assert_uint_eq(store_depth(st, dk), (m + 1) / 2);
		for (size_t i = 0; i < W.count; i++) {
			size_t n = W.len[i];
			for (size_t j = 0; j < n; j++) {
				sw[j] = ab[W.w[i][j]];
				cw[j] = W.w[i][j] ? 'b' : 'a';
			}
			cw[n] = '\0';
			unsigned r = runs_from_a(cw);
			if (n <= 10) {
				ck_assert(hierarchy_member(W.w[i], n, m) == (r == m));
				ck_assert(ref_accepts(st, lk, sw, n, false) == (r == m));
			}
			if (m >= 3 && r >= 1 && r <= m)
				ck_assert_msg(ref_accepts(st, pf, sw, n, false) == (r == m),
					      "P_%u on '%s'", m, cw);
			if (m % 2)
				ck_assert_msg(ref_accepts(st, dk, sw, n, false) == (r == m),
					      "D_%u on '%s'", (m + 1) / 2, cw);
		}
	}
	words_free(&W);
	store_free(st);
}
END_TEST

START_TEST(printed_pairs_hold)
{
	char *h[] = {"tally hierarchy", "--k=1..4", "--json", "--quiet",
		     "--decide-length=0", "--verify-length=8", NULL};
	char *s1[] = {"tally search", "--separate=1", "--alphabet=ab", "--json",
		      "--quiet", NULL};
	char *s2[] = {"tally search", "--separate=2", "--alphabet=ab", "--json",
		      "--quiet", NULL};
	/* the prediction task's pairs, and rows not searched */
	char *p[] = {"tally hierarchy", "--task=predict", "--k=3..6",
		     "--search-depth=2", "--json", "--quiet", "--decide-length=0",
		     "--verify-length=8", NULL};
	char *(*argvs[4])[] = {&h, &s1, &s2, &p};
	int (*cmds[4])(int, char **) = {cmd_hierarchy, cmd_search, cmd_search,
					cmd_hierarchy};
	char *out = fixture_run_command(cmds[_i], *argvs[_i], NULL);
	ck_assert_uint_gt(check_printed(out, _i == 1 || _i == 2), 0);
	free(out);
}
END_TEST

Suite *search_suite(void)
{
	Suite *su = suite_create("search");
	TCase *tc = tcase_create("enum");
	tcase_set_timeout(tc, 300 * test_multiplier());
	tcase_add_loop_test(tc, enum_matches_brute_force, 0,
			    (int)(sizeof enum_cases / sizeof enum_cases[0]));
	suite_add_tcase(su, tc);
	tc = tcase_create("bank");
	tcase_set_timeout(tc, 300 * test_multiplier());
	tcase_add_test(tc, bank_matches_reference);
	tcase_add_test(tc, bank_cut_keeps_smallest);
	tcase_add_test(tc, sample_layout);
	tcase_add_loop_test(tc, refutations_hold, 0, 2);
	suite_add_tcase(su, tc);
	tc = tcase_create("indist");
	tcase_set_timeout(tc, 300 * test_multiplier());
	tcase_add_loop_test(tc, indist_matches_enumeration, 0, 10);
	tcase_add_loop_test(tc, printed_pairs_hold, 0, 4);
	tcase_add_test(tc, theory_formulas_hold);
	suite_add_tcase(su, tc);
	return su;
}
