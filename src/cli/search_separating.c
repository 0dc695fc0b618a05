/* search_separating.c -- tally search --separate (see search_cmd.h). */
#include <config.h>
#include "cli/search_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/vec.h"
#include "cli/commands.h"
#include "cli/search_cli.h"
#include "core/json.h"
#include "core/prelude.h"
#include "core/print.h"
#include "core/alphabet.h"
#include "search/holdout.h"
#include "search/indist.h"

/* Pairs checked in all before giving up. */
enum { SEPARATE_TRIES = 2000 };

/* The prelude's names whose language equals sig on the sample. */
static char *prelude_name(Search *s, const Sample *S, const Word64 *sig)
{
	const char *text = prelude_text();
	Word64 *p = xmalloc(S->nwords * sizeof(Word64));
	char *found = NULL;
	for (const char *l = text; l && *l && !found; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "let ", 4) != 0)
			continue;
		size_t n = strcspn(l + 4, " =");
		Sym name = sym_intern(store_syms(s->in.store), l + 4, n);
		const Def *d = scope_lookup(s->in.scope, name);
		if (!d || !store_is_bool(s->in.store, d->node))
			continue;
		size_t nl;
		Sym *ls = store_letters(s->in.store, d->node, &nl);
		bool inside = nl > 0;
		for (size_t i = 0; i < nl && inside; i++) {
			inside = false;
			for (size_t x = 0; x < S->nletters; x++)
				inside |= S->letters[x] == ls[i];
		}
		free(ls);
		if (inside && sample_eval(S, s->in.store, d->node, p) &&
		    memcmp(p, sig, S->nwords * sizeof(Word64)) == 0)
			found = xstrndup(l + 4, n);
	}
	free(p);
	return found;
}

/* What separates a pair that the class C, T cannot at depth <= D: the
 * least constant C' in C+1..C+SEPARATE_MORE_C with a depth-<=D formula
 * that does (a constants effect), or none (0). */
enum { SEPARATE_MORE_C = 8 };

static unsigned constant_effect(const Search *s, const Sample *S,
				const WordPair *p, unsigned D, unsigned *depth)
{
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	size_t nu = sample_word(S, p->pos, u), nv = sample_word(S, p->neg, v);
	unsigned found = 0;
	for (unsigned c = s->o.C + 1; c <= s->o.C + SEPARATE_MORE_C &&
	     c <= INDIST_MAX_C && !found; c++) {
		IndistBounds b = {c, s->o.T, false};
		unsigned e = indist_pair(u, nu, v, nv, S->nletters, D, b, NULL);
		if (e <= D) {
			found = c;
			*depth = e;
		}
	}
	free(u);
	free(v);
	return found;
}

static void print_separation(Search *s, const Sample *S, Bank *b, const Separation *sp,
			     size_t i, IndistBounds cls_checked)
{
	Word64 *sig = xmalloc(S->nwords * sizeof(Word64));
	bank_sig(b, bank_entry(b, sp->entry), sig);
	char *name = prelude_name(s, S, sig);
	free(sig);
	Node n = bank_node(b, sp->entry);
	char *f = tl_print(s->in.store, n, SYNTAX_TL, NULL);
	unsigned long long size = store_size(s->in.store, n);
	char cls[80];
	search_class_brief(cls_checked, cls, sizeof cls);
	unsigned D = (unsigned)s->separate, ce = 0, cdepth = 0;
	bool depth_effect = cls_checked.C > s->o.C;
	if (!depth_effect)
		ce = constant_effect(s, S, &sp->pair, D, &cdepth);
	if (s->o.json || s->o.csv) {
		char *w1 = sample_word_text(S, sp->pair.pos);
		char *w2 = sample_word_text(S, sp->pair.neg);
		if (s->o.json) {
			json_t *o = json_envelope();
			json_object_set_new(o, "depth", json_integer((json_int_t)s->separate + 1));
			json_object_set_new(o, "formula", json_string(f));
			json_object_set_new(o, "size", json_integer((json_int_t)size));
			json_object_set_new(o, "prelude_name", name ? json_string(name) : json_null());
			json_t *pr = json_array();
			json_array_append_new(pr, json_string(w1));
			json_array_append_new(pr, json_string(w2));
			json_object_set_new(o, "indistinguishable_pair", pr);
			json_object_set_new(o, "same_parikh", json_boolean(sp->parikh));
			json_object_set_new(o, "effect", json_string(
				depth_effect ? "depth" : ce ? "constant" : "unknown"));
			json_object_set_new(o, "checked_const",
					    json_integer(cls_checked.C));
			json_object_set_new(o, "separating_const",
					    ce ? json_integer(ce) : json_null());
			json_object_set_new(o, "sample", json_string(S->desc));
			json_object_set_new(o, "max_const", json_integer(s->o.C));
			json_object_set_new(o, "counts", json_integer(s->o.T));
			json_emit(o);
		} else {
			if (i == 0)
				puts("depth,size,prelude_name,accepted,rejected,"
				     "same_parikh,formula");
			printf("%ld,%llu,%s,", s->separate + 1, size, name ? name : "");
			search_csv_field(w1, false);
			search_csv_field(w2, false);
			printf("%s,", sp->parikh ? "yes" : "no");
			search_csv_field(f, true);
		}
		free(w1);
		free(w2);
	} else {
		char *w1 = sample_word_brief(S, sp->pair.pos);
		char *w2 = sample_word_brief(S, sp->pair.neg);
		printf("%zu. %s  (depth %ld, size %llu%s%s)\n", i + 1, f, s->separate + 1,
		       size, name ? "; on the sample: " : "", name ? name : "");
		printf("   accepts \"%s\", rejects \"%s\": within %s, no depth-<=%ld "
		       "formula separates them\n", w1, w2, cls, s->separate);
		if (depth_effect)
			printf("   a depth effect: not explained by the constant %u "
			       "(the pair was checked with it)\n", cls_checked.C);
		else if (ce)
			printf("   a constants effect: within constants <= %u a "
			       "depth-%u formula separates them\n", ce, cdepth);
		else
			printf("   not separated at depth <= %u with constants up to "
			       "%u either\n", D, s->o.C + SEPARATE_MORE_C);
		if (sp->parikh)
			printf("   (the same last letter and Parikh vector: no depth-1 "
			       "formula separates them, whatever its constants)\n");
		free(w1);
		free(w2);
	}
	free(f);
	free(name);
}

int search_separating_run(Search *s)
{
	Store *st = s->in.store;
	if (s->nletters == 0)
		search_labelled_alphabet(s, "ab");
	unsigned D = (unsigned)s->separate;
	Sample *S = search_sample(&s->o, store_syms(st), s->letters, s->nletters, 1,
				  D ? D : 1, NULL, 0, false);
	BankOptions bo;
	search_bank_options(&s->o, &bo);
	Bank *b = bank_new(S, st, &bo);
	search_progress(&s->o, "building the bank to depth %u", D + 1);
	Separation *out = xcalloc(s->count + 1, sizeof *out);
	/* pairs the constant C + 1 cannot separate at depth D either first:
	 * what separates them is the depth, not a constant */
	IndistBounds cls = search_bounds(&s->o), wider = cls;
	if (wider.C < INDIST_MAX_C)
		wider.C++;
	size_t n = search_separate(b, S, D, wider, s->count, SEPARATE_TRIES, out);
	IndistBounds used = wider;
	if (n == 0 && s->o.lim.hit == LIMIT_NONE) {
		n = search_separate(b, S, D, cls, s->count, SEPARATE_TRIES, out);
		used = cls;
	}
	search_progress_done(&s->o);
	bool stopped = bank_depth(b) < D + 1 || s->o.lim.hit != LIMIT_NONE;
	if (!s->o.json && !s->o.csv) {
		printf("depth-%u formulas separating pairs that no depth-<=%u formula "
		       "within C = %u, T = %u separates; each pair %s\n", D + 1, D,
		       s->o.C, s->o.T, used.C > cls.C
		       ? "also checked with the constant C + 1 (a depth effect)"
		       : "checked with larger constants (the constant C + 1 "
			 "separates every pair found: a constants effect)");
		printf("sample: %s\n", S->desc);
		search_print_bounds(&s->o, b);
	}
	for (size_t i = 0; i < n; i++)
		print_separation(s, S, b, &out[i], i, used);
	if (n == 0 && !s->o.json && !s->o.csv && !stopped)
		printf("none found: no depth-%u formula of the search separates a "
		       "pair of the sample that the class cannot (%d pairs checked "
		       "at most)\n", D + 1, SEPARATE_TRIES);
	fflush(stdout);
	int status = n ? EXIT_YES : EXIT_NO;
	if (stopped) {
		char what[80];
		snprintf(what, sizeof what, "%zu separations printed", n);
		status = s->o.lim.hit != LIMIT_NONE
				 ? limit_report(&s->o.lim, what)
				 : search_limit_report(&s->o, BANK_CAP, what);
	}
	free(out);
	bank_free(b);
	sample_free(S);
	return status;
}
