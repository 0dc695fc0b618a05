/* cmd_enum.c -- `tally enum`: formulas by depth and size, one per
 * signature on a stated sample. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "search/enum.h"
#include "search/term_eval.h"
#include "search/terms.h"
#include "core/json.h"
#include "base/mem.h"
#include "core/print.h"
#include "cli/search_cli.h"
#include "core/alphabet.h"

static const char intro[] =
	"Usage: tally enum [OPTION]...\n"
	"Print every formula of the grammar below bottom up by depth, then size,\n"
	"one per signature (its truth value at every prefix of the sample's\n"
	"words): the smallest formula of the least depth for each behaviour on\n"
	"the sample.  Grammar: Q_x, true, !, &, |, and at depth d >= 1\n"
	"#[psi] >= c and a1 #[psi1] + a2 #[psi2] >= c over formulas of depth\n"
	"< d; Y and MOD only when asked.  Size: 1 per letter, true, MOD,\n"
	"connective and comparison, plus 1 per count.\n"
	"With --terms, count-valued terms instead, one per behaviour (their\n"
	"values at every prefix): c, a #[psi] + c, a1 #[psi1] + a2 #[psi2] + c\n"
	"and (Q_x ? u : v) with u, v a constant or a #[psi] + c, over the\n"
	"formulas above of size <= --body-size (tally-enum(1)).\n\n";

static const char examples[] =
	"\n"
	"Examples:\n"
	"  tally enum --depth=0 --size=..3\n"
	"  tally enum --depth=1 --size=..5 --format='%d %s %h %f' --stats\n"
	"  tally enum --alphabet=a --depth=0..2 --size=..6 --with-mod=2\n"
	"  tally enum --terms --depth=1 --size=..7\n\n";

typedef struct {
	SearchOpts o;
	EnumOptions eo;
	const char *alphabet, *format;
	size_t dlo, dhi, slo, shi;
	size_t max_depth;     /* --max-depth=D: --depth=0..D */
	bool stats, check, bad;
	bool terms;           /* --terms: count-valued terms */
	size_t body_size;     /* --body-size */
	int64_t *vals;        /* --terms --check: the evaluator's values */
	size_t count, emitted;
	Store *st;
	const Sample *S;
	Word64 *tmp;
} Enum;

/* One emitted formula or term (what: "formula" or "term"). */
static bool print_one(Enum *e, const char *what, Node f, unsigned depth,
		      unsigned size, uint64_t h)
{
	if (depth < e->dlo || depth > e->dhi || size < e->slo)
		return true;
	e->emitted++;
	char *t = tl_print(e->st, f, SYNTAX_TL, NULL);
	if (e->o.csv) {
		if (e->emitted == 1)
			printf("depth,size,signature_hash,%s\n", what);
		printf("%u,%u,%016llx,", depth, size, (unsigned long long)h);
		search_csv_field(t, true);
	} else if (e->o.json) {
		json_t *o = json_envelope();
		json_object_set_new(o, what, json_string(t));
		json_object_set_new(o, "depth", json_integer(depth));
		json_object_set_new(o, "size", json_integer(size));
		char hex[17];
		snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
		json_object_set_new(o, "signature_hash", json_string(hex));
		json_emit(o);
	} else {
		for (const char *p = e->format; *p; p++) {
			if (*p != '%' || !p[1]) {
				putchar(*p);
				continue;
			}
			switch (*++p) {
			case 'f': fputs(t, stdout); break;
			case 'd': printf("%u", depth); break;
			case 's': printf("%u", size); break;
			case 'h': printf("%016llx", (unsigned long long)h); break;
			case 'n': printf("%zu", e->emitted); break;
			case '%': putchar('%'); break;
			default: putchar('%'); putchar(*p); break;
			}
		}
		putchar('\n');
	}
	free(t);
	if (e->emitted % 1000 == 0)
		search_progress(&e->o, "%zu %ss (depth %u, size %u)", e->emitted,
				what, depth, size);
	return !e->count || e->emitted < e->count;
}

static bool on_formula(void *ctx, Node f, unsigned depth, unsigned size,
		       const Word64 *sig)
{
	Enum *e = ctx;
	if (e->check) {
		if (!sample_eval_positions(e->S, e->st, f, e->tmp) ||
		    memcmp(e->tmp, sig, e->S->nwords * sizeof(Word64)) != 0) {
			char *t = tl_print(e->st, f, SYNTAX_TL, NULL);
			fprintf(stderr, "tally: internal error: the signature of %s "
				"differs from the evaluator's\n", t);
			free(t);
			e->bad = true;
			return false;
		}
	}
	return print_one(e, "formula", f, depth, size,
			 sig_hash(sig, e->S->nwords));
}

/* --terms: a term's values checked against the evaluator's (--check). */
static bool on_term(void *ctx, Node t, unsigned depth, unsigned size,
		    const int64_t *vals)
{
	Enum *e = ctx;
	size_t n = e->S->nbits;
	if (e->check && (!term_eval_sample(e->S, e->st, t, e->vals) ||
			 memcmp(e->vals, vals, n * sizeof *vals) != 0)) {
		char *s = tl_print(e->st, t, SYNTAX_TL, NULL);
		fprintf(stderr, "tally: internal error: the values of %s differ "
			"from the evaluator's\n", s);
		free(s);
		e->bad = true;
		return false;
	}
	return print_one(e, "term", t, depth, size,
			 sig_hash((const Word64 *)vals, n));
}

static void print_stats(const Enum *e, const EnumLayer *layers)
{
	for (unsigned d = 0; d <= e->eo.max_depth; d++)
		for (unsigned s = 1; s <= e->eo.max_size; s++) {
			const EnumLayer *l = &layers[d * (e->eo.max_size + 1) + s];
			if (!l->generated)
				continue;
			if (e->o.json) {
				json_t *o = json_envelope();
				json_t *st = json_object();
				json_object_set_new(st, "depth", json_integer(d));
				json_object_set_new(st, "size", json_integer(s));
				json_object_set_new(st, "generated", json_integer((json_int_t)l->generated));
				json_object_set_new(st, "merged", json_integer((json_int_t)l->merged));
				json_object_set_new(st, "kept", json_integer((json_int_t)l->kept));
				json_object_set_new(st, "emitted", json_integer((json_int_t)l->emitted));
				json_object_set_new(o, "stats", st);
				json_emit(o);
			} else {
				fprintf(stderr, "depth %u size %u: generated %llu, merged %llu, "
					"kept %llu, emitted %llu\n", d, s,
					(unsigned long long)l->generated,
					(unsigned long long)l->merged,
					(unsigned long long)l->kept,
					(unsigned long long)l->emitted);
			}
		}
}

static int parse(Enum *e, int argc, char **argv)
{
	const Option rows[] = {
		OPTION_TEXT_ROW("Grammar:\n"),
		OPTION_STRING_ROW(0, "alphabet", "LETTERS", &e->alphabet,
				  "the letters (default ab)"),
		OPTION_RANGE_ROW("depth", "RANGE", 0, 6, true, &e->dlo, &e->dhi,
				 "depths printed (default 0..1)"),
		OPTION_COUNT_ROW(0, "max-depth", "D", 0, 6, &e->max_depth,
				 "the same as --depth=0..D (search's name)"),
		OPTION_RANGE_ROW("size", "RANGE", 0, 40, true, &e->slo, &e->shi,
				 "sizes printed (default ..6)"),
		SEARCH_MAXCONST_ROW(&e->o, "constants: c = 1..C alone, |c| <= C "
				    "with two\ncounts (default 1)"),
		OPTION_COUNT_ROW(0, "max-coeff", "M", 1, 16, &e->eo.max_coeff,
				 "coefficients 1..M in absolute value (default 1)"),
		OPTION_FLAG_ROW(0, "with-y", &e->eo.prev,
				"the previous-position operator Y"),
		OPTION_COUNT_ROW(0, "with-mod", "M", 2, 16, &e->eo.max_mod,
				 "MOD(m, r) atoms for m = 2..M"),
		OPTION_FLAG_ROW(0, "terms", &e->terms,
				"count-valued terms instead of formulas\n"
				"(--size bounds the term)"),
		OPTION_COUNT_ROW(0, "body-size", "S", 1, 40, &e->body_size,
				 "--terms: the formulas under counts have\n"
				 "size <= S (default 4)"),
		OPTION_FLAG_ROW(0, "with-future", &e->eo.future,
				"future counts #> too; the sample is then of\n"
				"whole words (each its own chain: a position's\n"
				"future is its word's), length 1..N"),
		OPTION_TEXT_ROW("Sample:\n"),
		SEARCH_LENGTH_ROW(&e->o, "all words of length <= N (default 6)"),
		SEARCH_PAIRS_ROW(&e->o, "witness pairs (default 0; see tally search)"),
		SEARCH_BLOCKS_ROW(&e->o, "their block lengths (default 8..20)"),
		SEARCH_SEED_ROW(&e->o, "for the block lengths (default 1)"),
		OPTION_TEXT_ROW("Output:\n"),
		OPTION_STRING_ROW(0, "format", "FMT", &e->format,
				  "per formula: %f formula, %d depth, %s size,\n"
				  "%h signature hash, %n number, %% (default %f)"),
		OPTION_FLAG_ROW(0, "stats", &e->stats,
				"per layer (depth, size): generated, merged,\n"
				"kept, emitted (on stderr; JSON: objects)"),
		OPTION_COUNT_ROW(0, "max-formulas", "N", 0, SIZE_MAX, &e->count,
				 "stop after N formulas"),
		OPTION_FLAG_ROW(0, "check", &e->check,
				"recompute every printed formula's signature\n"
				"with the evaluator (an internal error if any\n"
				"differs)"),
		OPTION_FLAG_ROW(0, "json", &e->o.json, "one JSON object per formula"),
		SEARCH_CSV_ROW(&e->o, "depth,size,signature_hash,formula lines"),
		SEARCH_QUIET_ROW(&e->o, "no progress line"),
		OPTION_HELP_ROW,
		CLI_LIMIT_ROWS(&e->o.lim),
	};
	const OptionTable table = OPTION_TABLE(intro, rows, examples);
	int status = options_parse(&table, argc, argv);
	if (status == EXIT_YES && optind < argc)
		return status_usage_error("unexpected argument '%s'", argv[optind]);
	return status;
}

int cmd_enum(int argc, char **argv)
{
	Enum e = {.format = "%f", .dlo = 0, .dhi = 1, .slo = 0, .shi = 6,
		  .max_depth = SIZE_MAX, .body_size = 4};
	search_opts_init(&e.o);
	e.o.lim.max_memory = 0; /* enum's bound is the user's only */
	e.o.length = 6;
	e.o.pairs = 0;
	e.o.C = 1;
	e.eo.max_coeff = 1;
	int status = parse(&e, argc, argv);
	if (status != EXIT_YES)
		return status < 0 ? EXIT_YES : status;
	if (e.max_depth != SIZE_MAX) {
		e.dlo = 0;
		e.dhi = e.max_depth;
	}
	e.st = store_new();
	Alphabet alpha;
	alphabet_init(&alpha, e.st, NULL, 0, e.alphabet ? e.alphabet : "ab");
	if (alpha.n == 0 || alpha.n > 255) {
		alphabet_free(&alpha);
		store_free(e.st);
		return status_usage_error("--alphabet needs 1..255 letters");
	}
	if (e.terms && (e.eo.future || e.eo.prev || e.eo.max_mod)) {
		alphabet_free(&alpha);
		store_free(e.st);
		return status_usage_error("--terms takes none of --with-future, "
					  "--with-y, --with-mod");
	}
	/* future counts read the rest of the word: every word its own
	 * chain (the words of length 1..N) */
	Sample *S = e.eo.future
			    ? sample_build_whole(store_syms(e.st), alpha.letters, alpha.n,
						 e.o.length, NULL, 0, NULL)
			    : search_sample(&e.o, store_syms(e.st), alpha.letters, alpha.n,
					    1, 2, NULL, 0, false);
	alphabet_free(&alpha);
	e.S = S;
	e.tmp = xmalloc(S->nwords * sizeof(Word64));
	e.eo.max_depth = (unsigned)e.dhi;
	e.eo.max_size = (unsigned)e.shi;
	e.eo.max_const = e.o.C;
	e.eo.limits = &e.o.lim;
	if (!e.o.json)
		fprintf(stderr, "# sample: %s\n", S->desc);
	EnumLayer *layers = xcalloc((e.eo.max_depth + 1) * (e.eo.max_size + 1), sizeof *layers);
	limit_start(&e.o.lim);
	EnumStop stop;
	if (e.terms) {
		TermOptions to = {.max_depth = e.eo.max_depth, .max_size = e.eo.max_size,
				  .body_size = (unsigned)e.body_size,
				  .max_const = e.eo.max_const,
				  .max_coeff = e.eo.max_coeff, .dedupe = true,
				  .limits = &e.o.lim};
		e.vals = xmalloc(S->nbits * sizeof *e.vals);
		stop = terms_run(&to, S, e.st, on_term, &e);
		free(e.vals);
	} else {
		stop = enum_run(&e.eo, S, e.st, on_formula, &e, layers);
	}
	fflush(stdout);
	search_progress_done(&e.o);
	if (e.stats && !e.terms)
		print_stats(&e, layers);
	status = e.bad ? EXIT_INTERNAL
		 : stop == ENUM_TIME || stop == ENUM_MEMORY ? EXIT_LIMIT : EXIT_YES;
	if (stop == ENUM_TIME || stop == ENUM_MEMORY) {
		char what[64];
		snprintf(what, sizeof what, "%zu %s printed", e.emitted,
			 e.terms ? "terms" : "formulas");
		limit_report(&e.o.lim, what);
	}
	free(layers);
	free(e.tmp);
	sample_free(S);
	store_free(e.st);
	return status;
}
