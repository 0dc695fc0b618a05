/* search_cli.c -- shared options, samples and progress for search and
 * hierarchy. */
#include <config.h>

#include "cli/search_cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/parallel.h"
#include "search/indist.h"
#include "base/mem.h"
#include "base/share.h"
#include "core/print.h"
#include "search/blockref.h"
#include "search/verify.h"

void search_opts_init(SearchOpts *o)
{
	*o = (SearchOpts){.length = 10, .pairs = 16, .lo = 8, .hi = 20,
			  .seed = 1, .C = 1, .T = 2, .base = 4, .base1 = 32, .certify = 24, .rounds = 12, .verify_len = 14,
			  .decide_len = 16};
	limit_init(&o->lim);
	/* a default bound: the bank is cut to fit it (bank.h), and what
	 * still passes it stops the run with its rows printed */
	o->lim.max_memory = limit_default_memory();
	o->start = limit_now();
}

static void bank_progress(void *ctx, unsigned depth, size_t sigs)
{
	search_progress(ctx, "building the bank: depth %u, %zu signatures", depth,
			sigs);
}

void search_bank_options(SearchOpts *o, BankOptions *bo)
{
	unsigned cores = parallel_cores(); /* shared by tally-mpi's ranks */
	*bo = (BankOptions){.C = o->C, .counts = o->T, .base = o->base,
			    .base1 = o->base1,
			    .jobs = o->jobs ? o->jobs : cores,
			    .max_sigs = o->max_sigs,
			    .max_bytes = o->lim.max_memory / SEARCH_BANK_SHARE,
			    .limits = &o->lim,
			    .progress = bank_progress,
			    .progress_ctx = (void *)o};
}

/* The largest length <= want whose complete tree stays small. */
static unsigned tree_length(unsigned want, size_t nletters, size_t limit)
{
	size_t nodes = 1, level = 1;
	unsigned n = 0;
	while (n < want) {
		if (level > limit / nletters || nodes + level * nletters > limit)
			break;
		level *= nletters;
		nodes += level;
		n++;
	}
	return n;
}

IndistBounds search_bounds(const SearchOpts *o)
{
	return (IndistBounds){o->C, o->T, false};
}

/* The block lengths of certified pairs at depth d: the witness blocks
 * scaled by 5^(d-1) (deeper classes count further). */
static void cert_range(const SearchOpts *o, unsigned d, unsigned *lo, unsigned *hi)
{
	unsigned f = 1;
	for (unsigned i = 1; i < d; i++)
		f *= 5;
	*lo = o->lo * f;
	*hi = o->hi * f;
}

/* For each depth d in dmin..dmax (2..SEARCH_CERT_DEPTH): the first of
 * o->certify witness pairs with u in L_d that no formula of the class of
 * depth <= d tells apart (indist.h), appended to *out; the depths found
 * are listed in desc. */
static void certified_pairs(const SearchOpts *o, unsigned dmin, unsigned dmax,
			    SampleVec *out, Buf *desc)
{
	uint64_t rng = o->seed * 0x9e3779b97f4a7c15u + 17;
	unsigned blocks[SEARCH_CERT_DEPTH + 1];
	size_t found = 0;
	for (unsigned d = dmin < 2 ? 2 : dmin; d <= dmax && d <= SEARCH_CERT_DEPTH; d++) {
		unsigned lo, hi;
		cert_range(o, d, &lo, &hi);
		for (unsigned t = 0; t < o->certify; t++) {
			SampleWord w[2];
			sample_random_blocks(d, lo, hi, &rng, blocks);
			sample_witness_pair(blocks, d, w);
			unsigned got = indist_pair(w[0].w, w[0].len, w[1].w, w[1].len, 2,
						   d, search_bounds(o), NULL);
			if (got != INDIST_NONE) {
				free(w[0].w);
				free(w[1].w);
				continue;
			}
			VEC_PUSH(*out, w[0]);
			VEC_PUSH(*out, w[1]);
			buf_printf(desc, "%s%u", found++ ? ", " : " + certified pairs for "
				   "depth ", d);
			break;
		}
	}
}

Sample *search_sample(const SearchOpts *o, const SymTab *syms, const Sym *letters,
		      size_t nletters, unsigned dmin, unsigned dmax,
		      const SampleWord *extra, size_t nextra, bool fresh)
{
	unsigned n = tree_length(o->length + (fresh ? 2 : 0), nletters,
				 SEARCH_TREE_MAX);
	unsigned np = nletters >= 2 && dmax >= 1 ? o->pairs * (fresh ? 2 : 1) : 0;
	unsigned lo = o->lo + (fresh ? 2 : 0), hi = o->hi + (fresh ? 6 : 0);
	if (dmin < 1)
		dmin = 1;
	if (dmax < dmin)
		dmax = dmin;
	SampleWord *pw = np ? sample_witness_pairs(np, dmin, dmax, lo, hi,
						   o->seed + (fresh ? 1000 : 0))
			    : NULL;
	SampleVec all = {0};
	for (size_t i = 0; i < 2 * (size_t)np; i++)
		VEC_PUSH(all, pw[i]);
	Buf d = {0};
	if (np) {
		buf_printf(&d, "%u witness pairs u.s s s' s' / u.s s' s s' (u in L_%u",
			   np, dmin);
		if (dmax > dmin)
			buf_printf(&d, "..L_%u", dmax);
		buf_printf(&d, ", blocks %u..%u times 2^(d-1) for u in L_d, seed "
			   "%llu)", lo, hi,
			   (unsigned long long)o->seed + (fresh ? 1000 : 0));
	}
	size_t ncert = all.len;
	if (np && !fresh && o->certify)
		certified_pairs(o, dmin, dmax, &all, &d);
	ncert = all.len - ncert;
	for (size_t i = 0; i < nextra; i++)
		VEC_PUSH(all, extra[i]);
	if (nextra)
		buf_printf(&d, "%s%zu given words", np ? " + " : "", nextra);
	Sample *S = sample_build(syms, letters, nletters, n, all.data, all.len,
				 d.data ? d.data : "");
	buf_free(&d);
	for (size_t i = 0; i < ncert; i++)
		free(all.data[2 * (size_t)np + i].w);
	VEC_FREE(all);
	sample_words_free(pw, 2 * (size_t)np);
	return S;
}

/* The largest N <= want with the words of length 1..N at most limit
 * positions in all. */
static unsigned whole_length(unsigned want, size_t nletters, size_t limit)
{
	size_t total = 0, level = 1;
	unsigned n = 0;
	while (n < want) {
		if (level > limit / nletters)
			break;
		level *= nletters;
		if (total + level * (n + 1) > limit)
			break;
		total += level * (n + 1);
		n++;
	}
	return n;
}

Sample *search_sample_whole(const SearchOpts *o, const SymTab *syms,
			    const Sym *letters, size_t nletters, unsigned dmin,
			    unsigned dmax, const SampleWord *extra, size_t nextra,
			    bool fresh)
{
	unsigned n = whole_length(o->length + (fresh ? 2 : 0), nletters,
				  fresh ? 4 * SEARCH_TREE_MAX : SEARCH_TREE_MAX);
	unsigned np = nletters >= 2 && dmax >= 1 ? o->pairs * (fresh ? 2 : 1) : 0;
	unsigned lo = o->lo + (fresh ? 2 : 0), hi = o->hi + (fresh ? 6 : 0);
	if (dmin < 1)
		dmin = 1;
	if (dmax < dmin)
		dmax = dmin;
	/* pairs of words of L_d, d odd, and the same with the middle block's
	 * last letter and the next block's first swapped */
	unsigned dlo = 3, dhi = (dmax + 1) | 1;
	SampleWord *pw = xcalloc(2 * (size_t)np + 1, sizeof *pw);
	uint64_t rng = o->seed + (fresh ? 1000 : 0);
	unsigned blocks[64];
	for (unsigned i = 0; i < np; i++) {
		unsigned d = dlo + 2 * (i % ((dhi - dlo) / 2 + 1));
		unsigned f = 1u << ((d - 1) / 2 < 4 ? (d - 1) / 2 : 4);
		sample_random_blocks(d, lo * f, hi * f, &rng, blocks);
		sample_middle_pair(blocks, d, &pw[2 * i]);
	}
	SampleVec all = {0};
	for (size_t i = 0; i < 2 * (size_t)np; i++)
		VEC_PUSH(all, pw[i]);
	for (size_t i = 0; i < nextra; i++)
		VEC_PUSH(all, extra[i]);
	Buf d = {0};
	if (np)
		buf_printf(&d, "%u pairs of a word of L_d, d = %u..%u odd, and it "
			   "with the letters around the middle block's end swapped "
			   "(blocks %u..%u times 2^((d-1)/2), seed %llu)", np, dlo, dhi,
			   lo, hi, (unsigned long long)o->seed + (fresh ? 1000 : 0));
	if (nextra)
		buf_printf(&d, "%s%zu given words", np ? " + " : "", nextra);
	Sample *S = sample_build_whole(syms, letters, nletters, n, all.data,
				       all.len, d.data ? d.data : "");
	buf_free(&d);
	VEC_FREE(all);
	sample_words_free(pw, 2 * (size_t)np);
	return S;
}

Sample *search_exhaustive_sample(const SearchOpts *o, const SymTab *syms,
				 const Sym *letters, size_t nletters)
{
	unsigned n = tree_length(o->verify_len, nletters, SEARCH_EXH_MAX);
	return sample_build(syms, letters, nletters, n, NULL, 0, NULL);
}

/* ---- the counterexample-guided search ----------------------------- */

static void state_build(SearchState *ss)
{
	const SymTab *syms = store_syms(ss->st);
	if (ss->bank) {
		ss->bank_seconds += bank_seconds(ss->bank);
		ss->bank_cpu += bank_cpu_seconds(ss->bank);
		for (unsigned d = 0; d <= bank_depth(ss->bank); d++)
			ss->generated += bank_stats(ss->bank, d)->generated;
	}
	bank_free(ss->bank);
	sample_free(ss->S);
	ss->S = (ss->whole ? search_sample_whole : search_sample)(
		ss->o, syms, ss->letters, ss->nletters, ss->dmin, ss->dmax,
		ss->words.data, ss->words.len, false);
	ss->whole_n = ss->whole ? ss->S->whole_n : 0;
	BankOptions bo;
	search_bank_options(ss->o, &bo);
	ss->bank = bank_new(ss->S, ss->st, &bo);
}

void search_state_init(SearchState *ss, SearchOpts *o, Store *st,
		       const Sym *letters, size_t nletters, unsigned dmin,
		       unsigned dmax, const SampleWord *given, size_t ngiven,
		       bool labels, bool whole)
{
	*ss = (SearchState){.o = o, .st = st, .letters = letters,
			    .nletters = nletters, .dmin = dmin, .dmax = dmax,
			    .labels = labels, .whole = whole, .ngiven = ngiven};
	for (size_t i = 0; i < ngiven; i++) {
		SampleWord w = {xmalloc(given[i].len + 1), given[i].len};
		memcpy(w.w, given[i].w, given[i].len);
		VEC_PUSH(ss->words, w);
	}
	state_build(ss);
	if (!labels) {
		const SymTab *syms = store_syms(st);
		ss->fresh = (whole ? search_sample_whole : search_sample)(
			o, syms, letters, nletters, dmin, dmax, NULL, 0, true);
		ss->exh = search_exhaustive_sample(o, syms, letters, nletters);
	}
}

void search_state_free(SearchState *ss)
{
	bank_free(ss->bank);
	sample_free(ss->S);
	sample_free(ss->fresh);
	sample_free(ss->exh);
	for (size_t i = 0; i < ss->words.len; i++)
		free(ss->words.data[i].w);
	VEC_FREE(ss->words);
}

void solution_free(Solution *sol)
{
	verify_free(&sol->v);
	free(sol->failed);
}

/* Adds a copy of w unless the sample has it; true if added. */
static bool add_word(SearchState *ss, const uint8_t *w, size_t len)
{
	if (len <= ss->S->n || len > VERIFY_CEX_MAXLEN)
		return false; /* in the tree already */
	if (ss->whole && len <= ss->whole_n)
		return false; /* one of the short words */
	for (size_t k = 0; k < ss->words.len; k++)
		if (ss->words.data[k].len == len &&
		    memcmp(ss->words.data[k].w, w, len) == 0)
			return false;
	SampleWord c = {xmalloc(len + 1), len};
	memcpy(c.w, w, len);
	VEC_PUSH(ss->words, c);
	return true;
}

/* w with every run of two or more equal letters stretched: the i-th such
 * run of length r becomes r * m + i % 3 long.  Long runs are where
 * shallow formulas stop counting (the theory's witnesses have them); the
 * target labels the stretched word itself. */
static size_t pump(const SampleWord *w, unsigned m, uint8_t *out, size_t cap)
{
	size_t n = 0, runs = 0;
	for (size_t i = 0; i < w->len;) {
		size_t j = i;
		while (j < w->len && w->w[j] == w->w[i])
			j++;
		size_t r = j - i, len = r >= 2 ? r * m + runs++ % 3 : r;
		for (size_t k = 0; k < len; k++) {
			if (n == cap)
				return 0;
			out[n++] = w->w[i];
		}
		i = j;
	}
	return n;
}

enum { CEX_TAIL = 4 };

/* The counterexamples of v the sample lacks, and words made from each:
 * its runs stretched, and its prefix stretched with its last CEX_TAIL
 * letters as they are or with two neighbours swapped (the same letters
 * in another order: what shallow formulas confuse once the runs before
 * are long).  The target labels every word.  False when none is new. */
/* Two-sided: w stretched around two neighbours swapped near its middle
 * (a two-sided formula reads both sides of a position). */
static bool add_swapped_middles(SearchState *ss, const SampleWord *c,
				uint8_t *buf)
{
	static const unsigned stretch[] = {3, 8};
	bool added = false;
	size_t mid = c->len / 2, tried = 0;
	for (size_t off = 0; off < c->len && tried < 3; off++)
		for (int side = -1; side <= 1 && tried < 3; side += 2) {
			long p = (long)mid + side * (long)off;
			if ((side > 0 && off == 0) || p < 0 || (size_t)p + 1 >= c->len ||
			    c->w[p] == c->w[p + 1])
				continue;
			tried++;
			for (size_t s = 0; s < sizeof stretch / sizeof *stretch; s++) {
				SampleWord head = {c->w, (size_t)p};
				SampleWord rest = {c->w + p + 2, c->len - (size_t)p - 2};
				size_t n = pump(&head, stretch[s], buf, VERIFY_CEX_MAXLEN);
				if (!n && head.len)
					continue;
				buf[n++] = c->w[p + 1];
				buf[n++] = c->w[p];
				size_t m = pump(&rest, stretch[s], buf + n,
						VERIFY_CEX_MAXLEN - n);
				if (!m && rest.len)
					continue;
				added |= add_word(ss, buf, n + m);
			}
		}
	return added;
}

static bool add_counterexamples(SearchState *ss, const Verification *v)
{
	bool added = false;
	uint8_t *buf = xmalloc(VERIFY_CEX_MAXLEN + CEX_TAIL + 1);
	static const unsigned stretch[] = {3, 8};
	for (size_t i = 0; i < v->ncex; i++) {
		const SampleWord *c = &v->cex[i];
		added |= add_word(ss, c->w, c->len);
		if (ss->whole)
			added |= add_swapped_middles(ss, c, buf);
		if (c->len <= CEX_TAIL)
			continue;
		SampleWord head = {c->w, c->len - CEX_TAIL};
		const uint8_t *tail = c->w + head.len;
		for (size_t s = 0; s < sizeof stretch / sizeof *stretch; s++) {
			size_t n = pump(&head, stretch[s], buf, VERIFY_CEX_MAXLEN);
			if (!n)
				continue;
			for (int sw = -1; sw < CEX_TAIL - 1; sw++) {
				memcpy(buf + n, tail, CEX_TAIL);
				if (sw >= 0) {
					if (tail[sw] == tail[sw + 1])
						continue;
					buf[n + (size_t)sw] = tail[sw + 1];
					buf[n + (size_t)sw + 1] = tail[sw];
				}
				added |= add_word(ss, buf, n + CEX_TAIL);
			}
		}
	}
	free(buf);
	return added;
}

/* A shared search (share.h): rank 0 verifies -- the decision engine's
 * budgets run on its clock, and its explore is its own -- and every
 * rank takes its verdict, counterexamples and limit. */
static const char *const verify_kinds[] = {"sample only", "proof", "bound"};

static void verify_shared(const Share *sh, SearchState *ss, const Target *tg,
			  Node f, Verification *v)
{
	if (sh->rank == 0)
		verify_formula(tg, ss->st, f, ss->labels ? ss->S : ss->fresh,
			       ss->exh, ss->o->decide_len, &ss->o->lim, v);
	uint64_t h[11] = {v->ok, v->fresh_bad, v->exh_bad, v->exh_len,
			  v->exh_words, (uint64_t)(int64_t)v->decided, v->bound,
			  0, v->ncex, ss->o->lim.hit, ss->o->lim.memory};
	for (uint64_t k = 0; sh->rank == 0 && k < 3; k++)
		if (strcmp(v->kind, verify_kinds[k]) == 0)
			h[7] = k;
	sh->bcast(h, sizeof h);
	Buf b = {0};
	for (size_t i = 0; sh->rank == 0 && i < v->ncex; i++) {
		uint64_t len = v->cex[i].len;
		buf_append(&b, (const char *)&len, sizeof len);
		buf_append(&b, (const char *)v->cex[i].w, v->cex[i].len);
	}
	if (sh->rank == 0)
		buf_puts(&b, v->text);
	size_t len = b.len;
	char *all = share_bcast_bytes(sh, b.data, &len);
	free(b.data);
	if (sh->rank != 0) {
		*v = (Verification){.ok = h[0], .fresh_bad = h[1], .exh_bad = h[2],
				    .exh_len = (unsigned)h[3], .exh_words = h[4],
				    .decided = (int)(int64_t)h[5], .bound = h[6],
				    .kind = verify_kinds[h[7] % 3], .ncex = h[8]};
		size_t at = 0;
		for (size_t i = 0; i < v->ncex; i++) {
			uint64_t n;
			memcpy(&n, all + at, sizeof n);
			at += sizeof n;
			v->cex[i] = (SampleWord){xmalloc(n + 1), n};
			memcpy(v->cex[i].w, all + at, n);
			at += n;
		}
		v->text = xstrndup(all + at, len - at);
		ss->o->lim.hit = (LimitKind)h[9];
		ss->o->lim.memory = h[10];
	}
	free(all);
}

void search_verify(SearchState *ss, const Target *tg, Node f, Verification *v)
{
	if (share_job)
		verify_shared(share_job, ss, tg, f, v);
	else
		verify_formula(tg, ss->st, f, ss->labels ? ss->S : ss->fresh,
			       ss->exh, ss->o->decide_len, &ss->o->lim, v);
}

/* One round: search, then verify what was found; true when the round
 * gave counterexamples to search again with. */
static bool solve_round(SearchState *ss, const Target *tg, unsigned maxd,
		  const Word64 *care, const Word64 *label, Solution *out)
{
	if (ss->labels && ss->o->max_errors)
		search_run_noisy(ss->bank, ss->S, ss->st, care, label, maxd,
				 ss->o->max_errors, &out->r);
	else
		search_run(ss->bank, ss->S, ss->st, care, label, maxd, NULL, &out->r);
	out->r.cls = search_bounds(ss->o);
	out->r.cls.two_sided = out->r.two_sided = ss->whole;
	if (out->r.stop != BANK_OK || !out->r.found || !out->r.formula)
		return false;
	verify_free(&out->v);
	search_verify(ss, tg, out->r.formula, &out->v);
	out->have_v = true;
	if (out->v.ok || ss->labels || ss->o->lim.hit != LIMIT_NONE)
		return false;
	if (out->rounds >= ss->o->rounds) {
		out->exhausted = true;
		return false;
	}
	free(out->failed);
	out->failed = tl_print(ss->st, out->r.formula, SYNTAX_TL, NULL);
	out->failed_depth = out->r.depth;
	return add_counterexamples(ss, &out->v);
}

void search_solve(SearchState *ss, const Target *tg, unsigned maxd, Solution *out)
{
	memset(out, 0, sizeof *out);
	for (;;) {
		size_t nw = ss->S->nwords;
		Word64 *care = xmalloc(2 * nw * sizeof(Word64)), *label = care + nw;
		target_sig(tg, ss->S, ss->st, care, label);
		bool again = solve_round(ss, tg, maxd, care, label, out);
		if (!again) {
			/* the pairs of the refuted depths, on the last sample
			 * (whole words: against the two-sided class) */
			IndistBounds cls = search_bounds(ss->o);
			cls.two_sided = ss->whole;
			if (out->r.stop == BANK_OK && !out->r.noisy)
				search_certify(ss->bank, ss->S, care, label, cls,
					       &out->r);
			free(care);
			if (share_job) /* every rank knows of a limit */
				bank_stop_now(ss->bank);
			return;
		}
		free(care);
		out->rounds++;
		search_progress(ss->o, "%u rounds of counterexamples: searching again",
				out->rounds);
		state_build(ss);
	}
}

void search_progress(const SearchOpts *o, const char *fmt, ...)
{
	static double last;
	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	double now = limit_now();
	if (now - last < 0.1)
		return; /* ten updates a second are enough */
	last = now;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "\r\033[K[%.1fs] ", limit_now() - o->start);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

static const char *refining;

static void refine_line(void *ctx, unsigned level, size_t classes)
{
	search_progress(ctx, "%s: refining level %u (%zu classes below)",
			refining, level, classes);
}

void search_refine_progress(const SearchOpts *o, const char *what)
{
	refining = what;
	blockref_progress(what ? refine_line : NULL, (void *)o);
}

void search_progress_done(const SearchOpts *o)
{
	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

int search_limit_report(const SearchOpts *o, BankStop stop, const char *what)
{
	if (stop == BANK_CAP)
		return limit_fail("--max-signatures=%zu reached; %s", o->max_sigs,
				  what);
	return limit_report(&o->lim, what);
}

void search_class_brief(IndistBounds b, char *out, size_t n)
{
	snprintf(out, n, "constants <= %u, %u count%s per comparison%s", b.C,
		 b.T, b.T == 1 ? "" : "s", b.two_sided ? " (#[ ] or #>[ ])" : "");
}

void search_print_bounds(const SearchOpts *o, const Bank *b)
{
	char cls[200];
	indist_describe(search_bounds(o), cls, sizeof cls);
	printf("bounds: C = %u, T = %u: %s (every claim that no formula separates "
	       "two words is checked against this class)\n", o->C, o->T, cls);
	printf("search: %s\n", bank_grammar(b));
}

/* "u" (in) and "v" (out) */
static void print_pair(const Sample *S, const WordPair *p)
{
	char *u = sample_word_brief(S, p->pos), *v = sample_word_brief(S, p->neg);
	printf("\"%s\" (in) and \"%s\" (out)", u, v);
	free(u);
	free(v);
}

void search_print_refutations(const Sample *S, const SearchResult *r,
			      const char *indent)
{
	char cls[80];
	search_class_brief(r->cls, cls, sizeof cls);
	for (unsigned d = 0; d < r->tried; d++) {
		const Refutation *f = &r->refuted[d];
		printf("%sdepth %u: ", indent, d);
		if (r->noisy) {
			printf("the best Boolean combination of the %zu comparisons of "
			       "the search of depth <= %u gets %zu labelled words "
			       "wrong\n", f->natoms, d, f->wrong);
			continue;
		}
		const char *cut = f->cut ? "; the bank was cut at its memory "
				  "budget, smallest formulas kept" : "";
		if (!r->certified) {
			printf("no Boolean combination of the %zu comparisons of the "
			       "search of depth <= %u agrees on the sample (%s)%s\n",
			       f->natoms, d,
			       "its pairs were not checked: the search stopped", cut);
			continue;
		}
		if (f->npairs == 0) {
			printf("no Boolean combination of the %zu comparisons of the "
			       "search of depth <= %u agrees on the sample; no pair "
			       "proved indistinguishable within %s (%zu checked)%s\n",
			       f->natoms, d, cls, f->checked, cut);
			continue;
		}
		printf("within %s, no depth-<=%u formula separates ", cls, d);
		for (size_t i = 0; i < f->npairs; i++) {
			printf("%s", i == 0 ? "" : "; nor ");
			print_pair(S, &f->pairs[i]);
		}
		for (size_t i = 0; i < f->npairs && d == 1; i++)
			if (f->parikh[i]) {
				printf(" (");
				print_pair(S, &f->pairs[i]);
				printf(" have the same last letter and Parikh vector: no "
				       "depth-1 formula does, whatever its constants)");
				break;
			}
		printf("\n");
	}
}

json_t *search_json_refutations(const Sample *S, const SearchResult *r)
{
	json_t *arr = json_array();
	for (unsigned d = 0; d < r->tried; d++) {
		const Refutation *f = &r->refuted[d];
		json_t *o = json_object(), *pairs = json_array(), *pk = json_array();
		json_object_set_new(o, "depth", json_integer(d));
		json_object_set_new(o, "atoms", json_integer((json_int_t)f->natoms));
		json_object_set_new(o, "conflicting_classes",
				    json_integer((json_int_t)f->nconflict));
		json_object_set_new(o, "pairs_checked",
				    json_integer((json_int_t)f->checked));
		if (f->cut)
			json_object_set_new(o, "bank_cut", json_true());
		for (size_t i = 0; i < f->npairs; i++) {
			char *p = sample_word_text(S, f->pairs[i].pos);
			char *n = sample_word_text(S, f->pairs[i].neg);
			json_t *pr = json_array();
			json_array_append_new(pr, json_string(p));
			json_array_append_new(pr, json_string(n));
			json_array_append_new(pairs, pr);
			json_array_append_new(pk, json_boolean(f->parikh[i]));
			free(p);
			free(n);
		}
		json_object_set_new(o, "indistinguishable_pairs", pairs);
		json_object_set_new(o, "same_parikh", pk);
		json_array_append_new(arr, o);
	}
	return arr;
}

bool search_claim(SearchOpts *o, const Sample *S, const SearchResult *r,
		  bool found, int lower, DepthClaim *c)
{
	int e = -1;
	unsigned d = 0;
	WordPair p = {0, 0};
	/* a limit already reached would stop the re-check: the pairs are
	 * short, so it runs unbounded then */
	Limits *lim = o->lim.hit == LIMIT_NONE ? &o->lim : NULL;
	ClaimStatus st = claim_sample_lower(r, S, lower, lim, &e, &d, &p);
	*c = claim_make(found, r->depth, e > lower ? e : lower);
	if (st != CLAIM_DISAGREE)
		return true;
	char *u = sample_word_brief(S, p.pos), *v = sample_word_brief(S, p.neg);
	fprintf(stderr, "tally: internal error: the exact check finds no "
		"formula of depth <= %u separating \"%s\" and \"%s\", "
		"blockcheck finds one; no lower bound is claimed from it\n", d,
		u, v);
	free(u);
	free(v);
	*c = claim_make(found, r->depth, lower);
	return false;
}

void search_json_claim(json_t *o, const DepthClaim *c)
{
	json_object_set_new(o, "least_depth", claim_least(c)
			    ? json_integer(c->upper) : json_null());
	json_object_set_new(o, "depth_found", c->found
			    ? json_integer(c->upper) : json_null());
	json_object_set_new(o, "certified_depth", c->lower >= 0
			    ? json_integer(c->lower) : json_null());
}

void search_csv_claim(const DepthClaim *c)
{
	if (claim_least(c))
		printf("%u", c->upper);
	putchar(',');
	if (c->found)
		printf("%u", c->upper);
	putchar(',');
	if (c->lower >= 0)
		printf("%d", c->lower);
	putchar(',');
}

void search_csv_field(const char *s, bool last)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
	putchar(last ? '\n' : ',');
}
