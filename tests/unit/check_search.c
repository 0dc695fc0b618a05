/* check_search.c -- the search engine's signatures against the naive
 * reference evaluator (ref_eval.c), which shares no code with it:
 *  - every bank entry's signature (thresholds by shifts, chains,
 *    combinations, canonical polarity) equals the reference's value of its
 *    formula at every node of the sample;
 *  - tally enum's output is exactly one formula per distinct signature of
 *    a brute-force enumeration of every formula of the grammar within the
 *    bounds, without any merging; no two emitted formulas share a
 *    signature, and each emitted signature is the reference's.
 * The expected sets are computed here, from ref_eval, not from the code
 * under test. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "bank.h"
#include "enum.h"
#include "hierarchy.h"
#include "search.h"
#include "mem.h"
#include "randgen.h"
#include "ref_eval.h"
#include "sample.h"
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
 * target separates each reported pair while every count atom of depth
 * <= d and every letter (by the reference evaluator) gives both words the
 * same value; and the found formula has the least depth and matches. */
static bool ref_word(const Store *st, Node f, const Sample *S, size_t bit)
{
	uint8_t ix[256];
	Sym w[256];
	size_t len = sample_word(S, bit, ix);
	for (size_t j = 0; j < len; j++)
		w[j] = S->letters[ix[j]];
	return ref_accepts(st, f, w, len, false);
}

START_TEST(refutations_hold)
{
	unsigned k = (unsigned)_i + 2; /* L_2, L_3 */
	Store *st = store_new();
	Sym ab[2] = {sym_intern(store_syms(st), "a", 1), sym_intern(store_syms(st), "b", 1)};
	SampleWord *pairs = sample_witness_pairs(4, 1, k - 1, 5, 9, 3);
	Sample *S = sample_build(store_syms(st), ab, 2, 6, pairs, 8, "pairs");
	Node target = hierarchy_lk(st, ab[0], ab[1], k);
	Target tg = {.kind = TARGET_FORMULA, .node = target};
	Word64 *care = xmalloc(2 * S->nwords * sizeof(Word64)), *label = care + S->nwords;
	ck_assert(target_sig(&tg, S, st, care, label));
	BankOptions bo = {.C = 2, .counts = 2, .base = 8, .jobs = 1};
	Bank *b = bank_new(S, st, &bo);
	SearchResult r;
	search_run(b, S, st, care, label, k, &r);
	ck_assert(r.found);
	ck_assert_uint_eq(r.depth, k);
	ck_assert_uint_eq(r.tried, k);
	for (unsigned d = 0; d < r.tried; d++) {
		const Refutation *f = &r.refuted[d];
		ck_assert_uint_gt(f->npairs, 0);
		for (size_t p = 0; p < f->npairs; p++) {
			size_t pos = f->pairs[p].pos, neg = f->pairs[p].neg;
			ck_assert(ref_word(st, target, S, pos));
			ck_assert(!ref_word(st, target, S, neg));
			for (size_t x = 0; x < 2; x++) {
				Node q = store_make_letter(st, ab[x]);
				ck_assert(ref_word(st, q, S, pos) == ref_word(st, q, S, neg));
			}
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
	sample_words_free(pairs, 8);
	store_free(st);
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
	tcase_add_test(tc, sample_layout);
	tcase_add_loop_test(tc, refutations_hold, 0, 2);
	suite_add_tcase(su, tc);
	return su;
}
