/* search.c -- the run of the search: depth by depth, build the bank, test
 * the depth, extract the formula of the first depth that passes (search.h).
 *
 * One loop serves exact and noisy labels; a Fit says how a depth is
 * judged: exactly by the partition test (parts.h), or by the majority
 * label of each class against an error budget. */
#include <config.h>

#include "search/search.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "search/atoms.h"
#include "search/extract.h"
#include "search/parts.h"

/* How a depth is judged.  Exact: the target must be a function of the
 * atoms, the pairs of a refuted depth certified against *cls when set.
 * Noisy: the majority labels of the classes (fixed) may get at most
 * max_errors words wrong. */
typedef struct {
	bool noisy;
	const IndistBounds *cls; /* exact */
	size_t max_errors;       /* noisy */
	Word64 *fixed;           /* noisy: the majority labels of the depth */
} Fit;

void search_certify(Bank *b, const Sample *S, const Word64 *care,
		    const Word64 *label, IndistBounds cls, SearchResult *r)
{
	r->cls = cls;
	r->certified = true;
	for (unsigned d = 0; d < r->tried && d <= bank_depth(b); d++) {
		Atoms a;
		atoms_collect(b, S, d, true, &a);
		bool cut = r->refuted[d].cut;
		parts_test(&a, S, care, label, &cls, d, bank_limits(b),
			   &r->refuted[d]);
		r->refuted[d].cut = cut;
		atoms_free(&a);
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
	parts_split_all(&p, a);
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

/* Does depth d pass?  Fills r->refuted[d] (and, noisy, the minorities'
 * words while they are the answer's). */
static bool fits(const Fit *f, Bank *b, const Atoms *a, const Sample *S,
		 const Word64 *care, const Word64 *label, unsigned d,
		 SearchResult *r)
{
	if (!f->noisy)
		return parts_test(a, S, care, label, f->cls, d, bank_limits(b),
				  &r->refuted[d]);
	size_t wrong = majority(a, S, care, label, f->fixed, r);
	r->refuted[d].natoms = a->n;
	r->refuted[d].wrong = wrong;
	if (wrong <= f->max_errors)
		return true;
	r->nerrors = 0;
	return false;
}

/* The formula of the depth that passed: noisy, the majority labels
 * fitted exactly, or a smaller formula that gets at most max_errors
 * wrong. */
static void answer(const Fit *f, Bank *b, const Sample *S, Store *st,
		   Atoms *a, const Word64 *care, const Word64 *label,
		   SearchResult *r)
{
	if (!f->noisy) {
		extract_formula(b, S, st, a, care, label, r);
		return;
	}
	extract_formula(b, S, st, a, care, f->fixed, r);
	extract_tolerant(b, S, st, a, care, label, f->max_errors, r);
}

/* When the bank's budget is tight: the pairs the atoms leave together
 * that the target labels differently (a few per class) become the
 * bank's focus for the next depth (bank.h). */
static void set_focus(Bank *b, const Atoms *a, const Sample *S,
		      const Word64 *care, const Word64 *label)
{
	if (!bank_tight(b))
		return;
	Parts p;
	parts_init(&p, S, care, label);
	parts_split_all(&p, a);
	parts_drop_pure(&p);
	size_t *pos = xmalloc(BANK_FOCUS_MAX * sizeof *pos);
	size_t *neg = xmalloc(BANK_FOCUS_MAX * sizeof *neg), n = 0;
	/* each class's first point of each label, paired with the others
	 * of the other label, up to 8 a class */
	size_t *first[2] = {xmalloc((p.ncls + 1) * sizeof(size_t)),
			    xmalloc((p.ncls + 1) * sizeof(size_t))};
	uint32_t *used = xcalloc(p.ncls + 1, sizeof *used);
	for (uint32_t c = 0; c < p.ncls; c++)
		first[0][c] = first[1][c] = SIZE_MAX;
	for (size_t i = 0; i < p.n; i++)
		if (first[p.lab[i]][p.cls[i]] == SIZE_MAX)
			first[p.lab[i]][p.cls[i]] = p.bit[i];
	for (size_t i = 0; i < p.n && n < BANK_FOCUS_MAX; i++) {
		uint32_t c = p.cls[i];
		size_t other = first[!p.lab[i]][c];
		if (other == SIZE_MAX || used[c] >= 8)
			continue;
		used[c]++;
		pos[n] = p.lab[i] ? p.bit[i] : other;
		neg[n++] = p.lab[i] ? other : p.bit[i];
	}
	bank_set_focus(b, pos, neg, n);
	free(first[0]);
	free(first[1]);
	free(used);
	free(pos);
	free(neg);
	parts_free(&p);
}

static void run(Bank *b, const Sample *S, Store *st, const Word64 *care,
		const Word64 *label, unsigned maxd, const Fit *f, SearchResult *r)
{
	if (maxd > SEARCH_MAXD)
		maxd = SEARCH_MAXD;
	for (unsigned d = 0; d <= maxd; d++) {
		BankStop stop = bank_build(b, d);
		if (stop != BANK_OK && bank_depth(b) < d) {
			r->stop = stop;
			return;
		}
		Atoms a;
		atoms_collect(b, S, d, true, &a);
		if (fits(f, b, &a, S, care, label, d, r)) {
			r->found = true;
			r->depth = d;
			answer(f, b, S, st, &a, care, label, r);
			atoms_free(&a);
			/* A formula whose extraction a limit cut short is no
			 * answer; the least depth is. */
			if ((r->stop = bank_stop_now(b)) != BANK_OK)
				r->formula = NODE_NONE;
			else if (f->noisy)
				noisy_errors(S, st, care, label, r);
			return;
		}
		r->tried = d + 1;
		r->refuted[d].cut = bank_cut(b, d);
		if (!f->noisy)
			set_focus(b, &a, S, care, label);
		atoms_free(&a);
		if ((r->stop = bank_stop_now(b)) != BANK_OK)
			return;
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
	Fit f = {.noisy = false, .cls = cls};
	run(b, S, st, care, label, maxd, &f, r);
}

void search_run_noisy(Bank *b, const Sample *S, Store *st, const Word64 *care,
		      const Word64 *label, unsigned maxd, size_t max_errors,
		      SearchResult *r)
{
	memset(r, 0, sizeof *r);
	r->noisy = true;
	Fit f = {.noisy = true, .max_errors = max_errors,
		 .fixed = xmalloc(S->nwords * sizeof(Word64))};
	run(b, S, st, care, label, maxd, &f, r);
	free(f.fixed);
}
