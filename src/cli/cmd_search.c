/* cmd_search.c -- `tally search`: the least depth at which a formula
 * agrees with a target on a sample, with bounded negative evidence for
 * every shallower depth; or (--separate) the smallest languages of depth
 * D + 1 that no depth-<=D formula matches on the sample.  This file
 * reads the options and the target and sends it on: a Boolean target to
 * search_run.c, a count to search_counts.c, the other kinds of target to
 * their search_*.c. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "search/hierarchy.h"
#include "search/outside.h"
#include "gen/families.h"
#include "cli/family_hint.h"
#include "search/seqtask.h"
#include "base/mem.h"
#include "base/vec.h"
#include "cli/search_cmd.h"
#include "search/holdout.h"
#include "search/verify.h"

static const char intro[] =
	"Usage: tally search [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM |\n"
	"          --family=NAME | --positive=FILE --negative=FILE | --separate=D)\n"
	"Find the least depth at which a formula agrees with the target on the\n"
	"sample and verify the smallest one found there (a fresh sample, every\n"
	"word up to a length, the decision engine); while it fails, add the\n"
	"words where it differs to the sample and search again.  'least depth'\n"
	"is printed only for a verified formula.  For every shallower depth,\n"
	"print pairs the target separates that no formula of that depth within\n"
	"the class (constants <= C, T counts per comparison) tells apart, as\n"
	"an exact check shows.  With --separate=D, list the smallest\n"
	"depth-(D+1) formulas of the search that separate such a pair.  A\n"
	"count-valued target t is searched directly: the smallest term of the\n"
	"least depth in a term grammar equal to t on the sample, checked by\n"
	"the evaluator and the decision engine (text or --json); in text also\n"
	"through its thresholds t >= k (k = -1..2), whose least depths bound\n"
	"its depth from below.  --family=copy|reverse|sort: why no program\n"
	"computes the task, as far as a pair of words shows.\n\n"
	;

static const char examples[] =
	"\n"
	"Examples:\n"
	"  tally search -f first_a\n"
	"  tally search --family=lk --k=3\n"
	"  tally search --separate=1 --alphabet=ab --max-formulas=3\n\n"
	"Exit status 0: found and verified (--separate: something found);\n"
	"1: no verified formula up to --max-depth (the target's own depth).\n";

/* ---- the target ----------------------------------------------------------- */

static int set_target(Search *s)
{
	Store *st = s->in.store;
	search_labelled_alphabet(s, s->alphabet);
	if (s->pos || s->neg) {
		if (!s->pos || !s->neg)
			return status_usage_error("--positive and --negative go together");
		return search_labelled_target(s);
	}
	if (s->family && (strcmp(s->family, "lk") == 0 ||
			  strcmp(s->family, "lk-predict") == 0)) {
		bool predict = s->family[2] != '\0';
		if (s->k == 0 || (predict && s->k < 3) || s->k > 12)
			return status_usage_error("--family=%s needs --k in %d..12", s->family,
					       predict ? 3 : 1);
		Sym a = sym_intern(store_syms(st), "a", 1), b = sym_intern(store_syms(st), "b", 1);
		free(s->letters); /* a and b first, then --alphabet's others */
		s->letters = xcalloc(2, sizeof *s->letters);
		s->letters[0] = a;
		s->letters[1] = b;
		s->nletters = 2;
		search_labelled_alphabet(s, s->alphabet);
		char buf[64];
		snprintf(buf, sizeof buf, "%s %zu", predict ? "prediction task of L_" : "L_", s->k);
		if (predict) {
			s->tg = (Target){.kind = TARGET_PREDICT, .m = (unsigned)s->k};
			snprintf(buf, sizeof buf, "the prediction task of L_%zu", s->k);
			s->target_text = xstrdup(buf);
			return EXIT_YES;
		}
		return search_formula_target(s, hierarchy_lk(st, a, b, (unsigned)s->k));
	}
	if (s->in.nunits == 0 || s->in.units[s->in.nunits - 1].output == NODE_NONE)
		return status_usage_error("no target: give -f, -F, -P, --family, "
				       "--positive/--negative or --separate");
	if (s->family_alphabet)
		search_labelled_alphabet(s, s->family_alphabet);
	if (search_counts_target(s))
		return EXIT_YES; /* search_counts_run sets each threshold's */
	return search_formula_target(s, s->in.units[s->in.nunits - 1].output);
}

/* A count-valued target: directly in the term grammar (search_terms.c)
 * and, in text, through its thresholds (search_counts.c), whose least
 * depths bound its depth from below.  A term proved equal to the target
 * stands in for it there: the same function, so the same thresholds,
 * and its depth the upper bound.  0 when the thresholds settle it. */
static int search_counts(Search *s)
{
	s->proved_term = NODE_NONE;
	int direct = search_terms_run(s);
	if (s->o.json || direct == EXIT_USAGE || direct == EXIT_INTERNAL)
		return direct;
	printf("\n");
	Unit *u = &s->in.units[s->in.nunits - 1];
	if (s->proved_term != NODE_NONE && s->proved_term != u->output) {
		printf("(the thresholds below are those of the term found, "
		       "proved equal to the target)\n");
		u->output = s->proved_term;
	}
	return search_counts_run(s);
}


/* ---- options ---------------------------------------------------------------- */

/* --target-formula=F: the same as -f F. */
static int target_row(const Option *row, const char *arg)
{
	inputs_option(row->ctx, 'f', arg);
	return EXIT_YES;
}

static int parse(Search *s, int argc, char **argv)
{
	const Option rows[] = {
		CLI_INPUT_ROWS(&s->in),
		OPTION_TEXT_ROW("Target:\n"),
		OPTION_CALL_ROW(0, "target-formula", "F", target_row, &s->in,
				"the target formula (the same as -f F)"),
		OPTION_STRING_ROW(0, "family", "NAME", &s->family,
				  "a family of tally gen (lk, lk-predict, ek,\n"
				  "... with --k; tally gen --list), or one\n"
				  "outside the logic by its membership: parity,\n"
				  "mod3, dyck2 (a certified pair per depth; also\n"
				  "-f parity, -f MOD3, -f Dyck-2); or a sequence\n"
				  "task copy, reverse, sort (why no program\n"
				  "computes it)"),
		OPTION_COUNT_ROW(0, "k", "K", 0, SIZE_MAX, &s->k,
				 "the k of --family=lk / lk-predict"),
		OPTION_STRING_ROW(0, "positive", "FILE", &s->pos,
				  "words the target accepts, one per line"),
		OPTION_STRING_ROW(0, "negative", "FILE", &s->neg,
				  "words it rejects (both files together)"),
		OPTION_COUNT_ROW(0, "separate", "D", 0, 5, &s->separate,
				 "no target: separate depth D+1 from depth <= D"),
		OPTION_COUNT_ROW(0, "max-formulas", "N", 1, 100000, &s->count,
				 "with --separate: how many formulas (default 10)"),
		OPTION_STRING_ROW(0, "alphabet", "LETTERS", &s->alphabet,
				  "letters besides the target's (default ab for\n"
				  "--separate)"),
		OPTION_COUNT_ROW(0, "max-depth", "D", 0, 8, &s->maxd,
				 "the deepest depth searched (default 5; a target\n"
				 "formula's own depth when smaller)"),
		OPTION_FLAG_ROW(0, "two-sided", &s->whole,
				"search formulas with future counts #> too,\n"
				"on whole words (implied by a target with #>)"),
		OPTION_COUNT_ROW(0, "holdout", "PERCENT", 0, 90, &s->holdout,
				 "labelled words: the share kept out of the\n"
				 "search to judge the formula on (default 20;\n"
				 "0: none)"),
		OPTION_COUNT_ROW(0, "max-errors", "N", 0, 1000000, &s->o.max_errors,
				 "labelled words: the least depth whose best\n"
				 "formula gets at most N words wrong (listed)"),
		SEARCH_CLI_ROWS(&s->o),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, examples);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES)
		return status;
	if (s->o.max_errors && !s->pos)
		return status_usage_error("--max-errors goes with --positive and "
				       "--negative (labelled words)");
	/* -f parity, -f MOD3, -f Dyck-2: a family outside the logic by the
	 * name a user types (no formula has these names) */
	if (!s->family && s->in.nspecs == 1 &&
	    s->in.specs[0].kind == INPUT_FORMULA &&
	    outside_lookup(s->in.specs[0].text)) {
		s->family = outside_lookup(s->in.specs[0].text)->name;
		s->in.nspecs = 0;
	}
	if (s->family && outside_lookup(s->family))
		s->family = outside_lookup(s->family)->name;
	if (s->family && (outside_find(s->family) || seqtask_find(s->family))) {
		if (optind < argc)
			return status_usage_error("unexpected argument '%s'", argv[optind]);
		return EXIT_YES; /* a membership function: search_outside_run */
	}
	if (s->family && strcmp(s->family, "lk") != 0 &&
	    strcmp(s->family, "lk-predict") != 0) {
		/* a family of tally gen (its formula and alphabet); a prelude
		 * name is -f NAME, never read silently in its place */
		const Family *fam = family_find(s->family);
		if (!fam)
			return family_unknown(s->family,
					      "; a prelude formula is -f NAME");
		if (fam && fam->in_domain)
			return status_usage_error("--family=%s is a task on part of the "
					       "words; only lk-predict is supported",
					       s->family);
		if (fam && fam->kmin > 0 && (long)s->k < fam->kmin)
			return status_usage_error("--family=%s needs --k >= %ld", s->family,
					       fam->kmin);
		s->family_text = fam->formula(fam->kmin > 0 ? (long)s->k : 0);
		s->family_alphabet = fam->alphabet;
		inputs_option(&s->in, 'f', s->family_text);
	}
	if (s->in.nspecs == 0) { /* --family=lk, labels or --separate */
		if (optind < argc)
			return status_usage_error("unexpected argument '%s'", argv[optind]);
		return EXIT_YES;
	}
	return cli_load_inputs(&s->in, argc, argv, false);
}

int cmd_search(int argc, char **argv)
{
	Search s = {.separate = -1, .count = 10, .maxd = 5,
		    .holdout = HOLDOUT_PERCENT};
	search_opts_init(&s.o);
	inputs_init(&s.in);
	s.in.terms = true; /* a count-valued target (search_counts.c) */
	int status = parse(&s, argc, argv);
	if (status == EXIT_YES) {
		limit_start(&s.o.lim);
		if (s.family && outside_find(s.family)) {
			status = search_outside_run(&s, outside_find(s.family));
		} else if (s.family && seqtask_find(s.family)) {
			status = search_seqtask_run(&s, seqtask_find(s.family));
		} else if (s.separate >= 0) {
			search_labelled_alphabet(&s, s.alphabet);
			status = search_separating_run(&s);
		} else {
			status = set_target(&s);
			if (status == EXIT_YES && search_counts_target(&s))
				status = search_counts(&s);
			else if (status == EXIT_YES)
				status = search_run_target(&s);
		}
	}
	if (status < 0)
		status = EXIT_YES;
	for (size_t i = 0; i < s.words.len; i++)
		free(s.words.data[i].w);
	VEC_FREE(s.words);
	VEC_FREE(s.labels);
	VEC_FREE(s.train);
	VEC_FREE(s.train_labels);
	holdout_free(&s.hold);
	free(s.letters);
	free(s.target_text);
	free(s.family_text);
	inputs_free(&s.in);
	return status;
}
