/* cmd_gen.c -- `tally gen`: the named families of families.h, as formulas
 * (printed by `tally print`, so every --to format is available) or as
 * labelled words from the families' own membership functions. */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "families.h"
#include "family_hint.h"
#include "json.h"
#include "mem.h"
#include "prelude.h"

static const char help[] =
	"Usage: tally gen --list | --prelude\n"
	"       tally gen --family=NAME [--k=RANGE] [--to=FORMAT]\n"
	"       tally gen --family=NAME [--k=K] --words --max-length=N\n"
	"                 [--min-length=N] [--sample=COUNT --seed=N]\n"
	"Named families of languages from the literature: their defining\n"
	"formulas, one per parameter value, or words labelled by a membership\n"
	"function written independently of the formula.\n\n"
	"Families:\n"
	"      --list             list the families: definition, parameter,\n"
	"                         alphabet and reference\n"
	"      --family=NAME      the family (lk, lk-predict, ek, dyck1, ...)\n"
	"      --prelude          list the names of the built-in prelude\n"
	"                         formulas (dyck1, L_2, ...: usable by name in\n"
	"                         every formula), one per line\n"
	"      --k=RANGE          its parameter: K, K..M or ..M, at most 256\n"
	"                         (families without a parameter take none)\n"
	"Formulas:\n"
	"      --to=FORMAT        any format of 'tally print --to' (tl by\n"
	"                         default); multi-line formats (crasp,\n"
	"                         crasp-paper, tl-core, dot) are separated by\n"
	"                         an empty line\n"
	"Words:\n"
	"      --words            print WORD<TAB>1 or WORD<TAB>0 (member or\n"
	"                         not) instead of formulas; one parameter value\n"
	"  -n, --max-length=N     the longest words (at most 10^8)\n"
	"      --min-length=N     the shortest words (default 0)\n"
	"      --sample=COUNT     COUNT random words instead of all of them:\n"
	"                         random members and near misses (one swap of\n"
	"                         neighbours or one changed letter), lengths\n"
	"                         uniform in the range\n"
	"      --seed=N           the random seed (default 1): the same seed\n"
	"                         gives the same words\n"
	"Output:\n"
	"      --json             one JSON object per family or word\n"
	"  -h, --help             show this help and exit\n\n"
	"All words up to the length are listed in shortlex order over the\n"
	"family's alphabet.  lk-predict is a task on prefixes of members of\n"
	"L_k: its words are those prefixes only.\n\n"
	"Examples:\n"
	"  tally gen --list\n"
	"  tally gen --family=lk --k=1..3\n"
	"  tally gen --family=dyck1 --to=crasp\n"
	"  tally gen --family=lk --k=2 --words --max-length=4\n"
	"  tally gen --family=lk --k=3 --words --sample=5 --min-length=20 "
	"--max-length=40\n\n";

enum { GEN_MAX_K = 256, GEN_MAX_LENGTH = 100000000 };

enum {
	OPT_LIST = OPT__COMMAND_BASE,
	OPT_PRELUDE,
	OPT_FAMILY,
	OPT_K,
	OPT_WORDS,
	OPT_MIN_LENGTH,
	OPT_SAMPLE,
	OPT_SEED,
};

/* --k: lo -2 when not given, -1 when open ("..M"); hi -1 when open. */
typedef struct {
	long lo, hi;
} KRange;

/* RANGE (cli_parse_range) into a KRange. */
static bool parse_k(const char *arg, KRange *k)
{
	size_t lo, hi;
	if (!cli_parse_range(arg, &lo, &hi) || lo > LONG_MAX ||
	    (hi != SIZE_MAX && hi > LONG_MAX))
		return false;
	k->lo = strncmp(arg, "..", 2) == 0 ? -1 : (long)lo;
	k->hi = hi == SIZE_MAX ? -1 : (long)hi;
	return true;
}

typedef struct {
	const Family *family;
	KRange k;
	const char *to;
	bool words, json, prelude;
	long min_length, max_length; /* max -1: not given */
	long sample;                 /* 0: every word */
	uint64_t seed;
} GenJob;

static void list_families(bool json)
{
	for (size_t i = 0; i < family_count; i++) {
		const Family *f = &family_table[i];
		if (json) {
			json_t *o = json_envelope();
			json_object_set_new(o, "family", json_string(f->name));
			json_object_set_new(o, "alphabet",
					    json_string(f->alphabet));
			json_object_set_new(o, "k_min",
					    f->kmin ? json_integer(f->kmin)
						    : json_null());
			json_object_set_new(o, "definition",
					    json_string(f->definition));
			json_object_set_new(o, "reference",
					    json_string(f->reference));
			json_emit(o);
			continue;
		}
		printf("%-16s %s\n", f->name, f->definition);
		printf("%-16s alphabet %s", "", f->alphabet);
		if (f->kmin)
			printf(", k >= %ld", f->kmin);
		printf("; %s\n", f->reference);
	}
}

/* The names the prelude defines: its lines "let NAME = ...". */
static void list_prelude(void)
{
	for (const char *line = prelude_text(); *line;) {
		size_t len = strcspn(line, "\n");
		if (strncmp(line, "let ", 4) == 0) {
			const char *name = line + 4;
			printf("%.*s\n", (int)strcspn(name, " ="), name);
		}
		line += len + (line[len] == '\n');
	}
}

/* One formula through `tally print`, so that every format is the same as
 * there. */
static int print_formula(const char *text, const char *to)
{
	char arg0[] = "tally gen", f[] = "-f";
	char *to_arg = NULL;
	char *args[5] = {arg0, f, (char *)text, NULL, NULL};
	int n = 3;
	if (to) {
		to_arg = xmalloc(strlen(to) + 6);
		sprintf(to_arg, "--to=%s", to);
		args[n++] = to_arg;
	}
	fflush(stdout);
	optind = 0; /* getopt starts afresh */
	int status = cmd_print(n, args);
	fflush(stdout);
	free(to_arg);
	return status;
}

static bool multi_line(const char *to)
{
	static const char *const formats[] = {"crasp", "crasp-paper",
					      "tl-core", "dot"};
	for (size_t i = 0; to && i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(to, formats[i]) == 0)
			return true;
	return false;
}

static int print_formulas(const GenJob *job)
{
	const Family *f = job->family;
	long lo = f->kmin ? job->k.lo : 0, hi = f->kmin ? job->k.hi : 0;
	for (long k = lo; k <= hi; k++) {
		if (k > lo && multi_line(job->to))
			putchar('\n');
		char *text = f->formula(k);
		int status = print_formula(text, job->to);
		free(text);
		if (status != EXIT_YES)
			return status;
	}
	return EXIT_YES;
}

static void put_word(const GenJob *job, const char *w, size_t n, long k)
{
	bool label = job->family->member(w, n, k);
	if (!job->json) {
		fwrite(w, 1, n, stdout);
		printf("\t%d\n", label);
		return;
	}
	json_t *o = json_envelope();
	json_object_set_new(o, "family", json_string(job->family->name));
	if (job->family->kmin)
		json_object_set_new(o, "k", json_integer(k));
	json_object_set_new(o, "word", json_stringn(w, n));
	json_object_set_new(o, "label", json_integer(label));
	json_emit(o);
}

static bool in_domain(const Family *f, const char *w, size_t n, long k)
{
	return !f->in_domain || f->in_domain(w, n, k);
}

/* Every word of each length, in shortlex order (an odometer over the
 * alphabet's positions). */
static void all_words(const GenJob *job, long k)
{
	const char *alpha = job->family->alphabet;
	size_t m = strlen(alpha);
	size_t max = (size_t)job->max_length;
	char *w = xmalloc(max + 1);
	size_t *digit = xcalloc(max + 1, sizeof *digit);
	for (size_t n = (size_t)job->min_length; n <= max; n++) {
		memset(digit, 0, n * sizeof *digit);
		for (;;) {
			for (size_t i = 0; i < n; i++)
				w[i] = alpha[digit[i]];
			if (in_domain(job->family, w, n, k))
				put_word(job, w, n, k);
			size_t i = n;
			while (i > 0 && ++digit[i - 1] == m)
				digit[--i] = 0;
			if (i == 0)
				break;
		}
	}
	free(digit);
	free(w);
}

/* A near miss: swap two different neighbours (same letter counts) or,
 * when there are none or by chance, change one letter. */
static void mutate(char *w, size_t n, const char *alpha, FamilyRng *r)
{
	if (n == 0)
		return;
	if (n > 1 && family_rng_below(r, 2) == 0) {
		size_t start = family_rng_below(r, n - 1);
		for (size_t t = 0; t < n - 1; t++) {
			size_t i = (start + t) % (n - 1);
			if (w[i] != w[i + 1]) {
				char c = w[i];
				w[i] = w[i + 1];
				w[i + 1] = c;
				return;
			}
		}
	}
	size_t i = family_rng_below(r, n), m = strlen(alpha);
	char c = alpha[family_rng_below(r, m - 1)];
	w[i] = c == w[i] ? alpha[m - 1] : c; /* a different letter */
}

static bool random_word(const GenJob *job, char *w, size_t n, long k,
			bool near_miss, FamilyRng *r)
{
	const Family *f = job->family;
	/* a few tries: a near miss may leave the domain (lk-predict) */
	for (int tries = 0; tries < 100; tries++) {
		if (!f->positive(w, n, k, r)) {
			size_t m = strlen(f->alphabet);
			for (size_t i = 0; i < n; i++)
				w[i] = f->alphabet[family_rng_below(r, m)];
		} else if (near_miss) {
			mutate(w, n, f->alphabet, r);
		}
		if (in_domain(f, w, n, k))
			return true;
	}
	return false;
}

/* Random members and near misses, alternately, labelled by membership. */
static void sample_words(const GenJob *job, long k)
{
	FamilyRng r = {job->seed};
	size_t max = (size_t)job->max_length;
	char *w = xmalloc(max + 1);
	uint64_t span = (uint64_t)(job->max_length - job->min_length) + 1;
	for (long i = 0; i < job->sample; i++) {
		size_t n = (size_t)job->min_length + family_rng_below(&r, span);
		if (random_word(job, w, n, k, i % 2 == 1, &r))
			put_word(job, w, n, k);
	}
	free(w);
}

static bool parse_count(const char *s, long *out)
{
	uint64_t v;
	if (!cli_parse_count(s, LONG_MAX, &v))
		return false;
	*out = (long)v;
	return true;
}
/* The checks that need every option. */
static int validate(GenJob *job)
{
	const Family *f = job->family;
	bool has_k = job->k.lo != -2;
	if (!f->kmin && has_k)
		return cli_usage_error("family '%s' takes no --k", f->name);
	if (f->kmin && !has_k)
		return cli_usage_error("family '%s' needs --k (k >= %ld)",
				       f->name, f->kmin);
	if (f->kmin) {
		if (job->k.lo < 0)
			job->k.lo = f->kmin;
		if (job->k.hi < 0)
			return cli_usage_error("--k needs an upper bound");
		if (job->k.lo < f->kmin)
			return cli_usage_error("family '%s' needs k >= %ld",
					       f->name, f->kmin);
		/* two nesting levels per k; the parser stops at 1000 */
		if (job->k.hi > GEN_MAX_K)
			return cli_usage_error("--k above %d", GEN_MAX_K);
	}
	if (!job->words) {
		if (job->max_length >= 0 || job->sample || job->min_length)
			return cli_usage_error("length and sample options "
					       "need --words");
		return EXIT_YES;
	}
	if (job->to)
		return cli_usage_error("--to prints formulas, not --words");
	if (f->kmin && job->k.lo != job->k.hi)
		return cli_usage_error("--words takes one value of --k");
	if (job->max_length < 0)
		return cli_usage_error("--words needs --max-length");
	if (job->max_length > GEN_MAX_LENGTH)
		return cli_usage_error("--max-length above %d", GEN_MAX_LENGTH);
	if (job->min_length > job->max_length)
		return cli_usage_error("--min-length exceeds --max-length");
	return EXIT_YES;
}

static int option(GenJob *job, int opt, const char *arg, bool *list)
{
	long v;
	switch (opt) {
	case OPT_LIST:
		*list = true;
		return EXIT_YES;
	case OPT_PRELUDE:
		job->prelude = true;
		return EXIT_YES;
	case OPT_FAMILY: {
		job->family = family_find(arg);
		if (job->family)
			return EXIT_YES;
		char *hint = family_hint(arg);
		int st = cli_usage_error("unknown family '%s'%s (see 'tally gen "
					 "--list')", arg, hint);
		free(hint);
		return st;
	}
	case OPT_K:
		return parse_k(arg, &job->k)
			       ? EXIT_YES
			       : cli_usage_error("bad --k '%s' (expected K, "
						 "K..M or ..M)", arg);
	case OPT_TO:
		job->to = arg;
		return EXIT_YES;
	case OPT_WORDS:
		job->words = true;
		return EXIT_YES;
	case OPT_JSON:
		job->json = true;
		return EXIT_YES;
	case 'n':
	case OPT_MIN_LENGTH:
	case OPT_SAMPLE:
	case OPT_SEED:
		if (!parse_count(arg, &v))
			return cli_usage_error("expected a number, found '%s'",
					       arg);
		if (opt == 'n')
			job->max_length = v;
		else if (opt == OPT_MIN_LENGTH)
			job->min_length = v;
		else if (opt == OPT_SAMPLE)
			job->sample = v;
		else
			job->seed = (uint64_t)v;
		return EXIT_YES;
	default:
		return EXIT_USAGE;
	}
}

int cmd_gen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"list", no_argument, NULL, OPT_LIST},
		{"prelude", no_argument, NULL, OPT_PRELUDE},
		{"family", required_argument, NULL, OPT_FAMILY},
		{"k", required_argument, NULL, OPT_K},
		{"to", required_argument, NULL, OPT_TO},
		{"words", no_argument, NULL, OPT_WORDS},
		{"max-length", required_argument, NULL, 'n'},
		{"min-length", required_argument, NULL, OPT_MIN_LENGTH},
		{"sample", required_argument, NULL, OPT_SAMPLE},
		{"seed", required_argument, NULL, OPT_SEED},
		{"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	GenJob job = {NULL, {-2, -2}, NULL, false, false, false, 0, -1, 0, 1};
	bool list = false;
	int opt;
	while ((opt = getopt_long(argc, argv, "n:h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(help);
			return EXIT_YES;
		}
		int status = option(&job, opt, optarg, &list);
		if (status != EXIT_YES)
			return status;
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (job.prelude) {
		list_prelude();
		return EXIT_YES;
	}
	if (list) {
		list_families(job.json);
		return EXIT_YES;
	}
	if (!job.family)
		return cli_usage_error("--family=NAME or --list is required "
				       "(see 'tally gen --help')");
	int status = validate(&job);
	if (status != EXIT_YES)
		return status;
	if (!job.words)
		return print_formulas(&job);
	long k = job.family->kmin ? job.k.lo : 0;
	if (job.sample)
		sample_words(&job, k);
	else
		all_words(&job, k);
	return EXIT_YES;
}
