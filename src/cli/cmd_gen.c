/* cmd_gen.c -- `tally gen`: the named families of families.h as formulas
 * (printed by `tally print`, so every --to format is available), and
 * labelled datasets of words for any formula, program or family
 * (gen_data.h). */
#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "gen/families.h"
#include "cli/family_hint.h"
#include "gen/gen_data.h"
#include "core/json.h"
#include "core/lower.h"
#include "base/limit.h"
#include "base/mem.h"
#include "base/parallel.h"
#include "core/prelude.h"
#include "core/alphabet.h"

static const char intro[] =
	"Usage: tally gen --list | --prelude\n"
	"       tally gen --family=NAME [--k=RANGE] [--to=FORMAT]\n"
	"       tally gen (-f FORMULA | -F FILE | -P PROGRAM | --family=NAME\n"
	"                 [--k=K]) [--words] --max-length=N [--min-length=N]\n"
	"                 [--sample=COUNT] [--split=SPEC] [OPTION]...\n"
	"Named families of languages and sequence tasks from the literature,\n"
	"as formulas; and labelled words of any formula, program or family:\n"
	"every word of the lengths, or a balanced, duplicate-free sample with\n"
	"hard non-members, splits by length and per-position labels (the\n"
	"output sequence of count-valued programs), with a leakage report on\n"
	"stderr.\n\n";

static const char outro[] =
	"\n"
	"Labels come from the evaluator, checked against the sampler's class\n"
	"and a family's membership function (written independently of the\n"
	"formula).  lk-predict is a task on prefixes of members of L_k: its\n"
	"words are those prefixes only.  A count-valued program (histogram,\n"
	"margin, count-a) has no classes: its words are uniform per length,\n"
	"its labels its values at every position, and the report gives their\n"
	"distribution.\n\n"
	"Examples:\n"
	"  tally gen --list\n"
	"  tally gen --family=lk --k=1..3\n"
	"  tally gen --family=dyck1 --to=crasp\n"
	"  tally gen --family=lk --k=2 --words --max-length=4\n"
	"  tally gen -f dyck1 --sample=10000 --min-length=50 --max-length=100\n"
	"  tally gen -f L_3 --sample=1000 --split=train:1..50,test:51..100 \\\n"
	"      --labels=position --format=jsonl --report=l3.json > l3.jsonl\n"
	"  tally gen --family=histogram --sample=1000 --max-length=20 \\\n"
	"      --format=jsonl --report=h.json > h.jsonl\n\n";

enum { GEN_MAX_K = 256, GEN_MAX_LENGTH = 100000000,
       GEN_MAX_SAMPLED = 1000000, GEN_MAX_SPLITS = 64 };

/* --k: lo -2 when not given, -1 when open ("..M"); hi -1 when open. */
typedef struct {
	long lo, hi;
} KRange;

/* --k=RANGE into the KRange ctx: "..M" leaves the low end to the
 * family. */
static int k_row(const Option *row, const char *arg)
{
	KRange *k = row->ctx;
	size_t lo, hi;
	if (!number_option_range(row->name, arg, 0, GEN_MAX_K, false, &lo, &hi))
		return EXIT_USAGE;
	k->lo = strncmp(arg, "..", 2) == 0 ? -1 : (long)lo;
	k->hi = hi == SIZE_MAX ? -1 : (long)hi;
	return EXIT_YES;
}

typedef struct {
	const Family *family;
	KRange k;
	const char *to;
	bool words, json, prelude, list;
	long min_length, max_length; /* max -1: not given */
	uint64_t sample;             /* 0: every word */
	uint64_t seed;
	const char *alphabet, *split, *report;
	unsigned ratio[2]; /* non-members, members */
	bool ratio_given;
	unsigned random_pct;
	unsigned jobs; /* --jobs, 0: every core */
	int labels, format; /* GenLabels, GenFormat */
	bool labels_given, format_given, quiet;
	size_t horizon;    /* 0: default */
	uint64_t max_states;
	Inputs in;
	Limits limits;
	const GenSink *sink;
} GenJob;

/* A family's alphabet as every command's JSON gives one: a list of
 * letters (a family's letters are one byte each). */
static json_t *family_alphabet_json(const Family *f)
{
	json_t *a = json_array();
	for (const char *c = f->alphabet; *c; c++)
		json_array_append_new(a, json_stringn(c, 1));
	return a;
}

static void list_families(bool json)
{
	for (size_t i = 0; i < family_count; i++) {
		const Family *f = &family_table[i];
		if (json) {
			json_t *o = json_envelope();
			json_object_set_new(o, "family", json_string(f->name));
			json_object_set_new(o, "alphabet",
					    family_alphabet_json(f));
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
static void list_prelude(bool json)
{
	for (const char *line = prelude_text(); *line;) {
		size_t len = strcspn(line, "\n");
		if (strncmp(line, "let ", 4) == 0) {
			const char *name = line + 4;
			int n = (int)strcspn(name, " =");
			if (json) {
				json_t *o = json_envelope();
				json_object_set_new(o, "name",
						    json_stringn(name, (size_t)n));
				json_emit(o);
			} else {
				printf("%.*s\n", n, name);
			}
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

/* A sequence family's program: `tally print` reads formulas only, so it
 * is loaded here with integer results allowed and printed as print
 * prints one input. */
static int print_program(const char *text, const char *to)
{
	Inputs in;
	inputs_init(&in);
	in.terms = true;
	inputs_option(&in, 'f', text);
	int status = EXIT_YES;
	if (!inputs_load(&in, false)) {
		status = inputs_failure(&in);
	} else {
		Lowering *lw = lower_new(in.store);
		fflush(stdout);
		if (!cmd_print_unit(stdout, in.store, lw, &in.units[0],
				    to ? to : "tl", false))
			status = EXIT_USAGE;
		fflush(stdout);
		lower_free(lw);
	}
	inputs_free(&in);
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
		int status = EXIT_YES;
		if (job->json) {
			json_t *o = json_envelope();
			json_object_set_new(o, "family", json_string(f->name));
			json_object_set_new(o, "k", f->kmin ? json_integer(k)
							    : json_null());
			json_object_set_new(o, "alphabet",
					    family_alphabet_json(f));
			json_object_set_new(o, "formula", json_string(text));
			json_emit(o);
		} else {
			status = f->values ? print_program(text, job->to)
					   : print_formula(text, job->to);
		}
		free(text);
		if (status != EXIT_YES)
			return status;
	}
	return EXIT_YES;
}

/* ---- dataset options ---------------------------------------------------- */

/* "M:N", each at most 1000, not both 0. */
static bool parse_ratio(const char *arg, unsigned ratio[2])
{
	uint64_t m, n;
	const char *colon = strchr(arg, ':');
	if (!colon || colon - arg > 8)
		return false;
	char head[9];
	memcpy(head, arg, (size_t)(colon - arg));
	head[colon - arg] = '\0';
	if (!number_parse_count(head, 1000, &m) ||
	    !number_parse_count(colon + 1, 1000, &n) || m + n == 0)
		return false;
	ratio[1] = (unsigned)m;
	ratio[0] = (unsigned)n;
	return true;
}

static bool name_ok(const char *s, size_t len)
{
	if (len == 0 || len >= GEN_SPLIT_NAME ||
	    !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-", s[i]))
			return false;
	return true;
}

/* One NAME:RANGE[:COUNT] of --split, text[0..len). */
static int parse_split(const char *text, size_t len, GenSplit *x)
{
	char buf[128];
	if (len >= sizeof buf)
		return status_usage_error("--split: '%.*s' is too long", (int)len,
				       text);
	memcpy(buf, text, len);
	buf[len] = '\0';
	char *range = strchr(buf, ':');
	if (!range || !name_ok(buf, (size_t)(range - buf)))
		return status_usage_error("--split: expected NAME:RANGE[:COUNT] "
			"with a NAME of letters, digits, _ and - starting with "
			"a letter, not '%s'", buf);
	*range++ = '\0';
	char *count = strchr(range, ':');
	if (count)
		*count++ = '\0';
	memset(x, 0, sizeof *x);
	memcpy(x->name, buf, strlen(buf) + 1); /* name_ok: it fits */
	if (!number_parse_range(range, &x->lo, &x->hi) || x->hi == SIZE_MAX)
		return status_usage_error("--split %s: expected a length range "
			"N..M or ..M, not '%s'", buf, range);
	if (count && (!number_parse_count(count, UINT64_MAX / 4, &x->count) ||
		      x->count == 0))
		return status_usage_error("--split %s: expected a positive count, "
				       "not '%s'", buf, count);
	return EXIT_YES;
}

static int parse_splits(const char *arg, GenSplit **out, size_t *n)
{
	*n = 0;
	*out = xcalloc(GEN_MAX_SPLITS, sizeof **out);
	for (const char *p = arg;;) {
		size_t len = strcspn(p, ",");
		if (*n == GEN_MAX_SPLITS)
			return status_usage_error("--split: more than %d splits",
					       GEN_MAX_SPLITS);
		int st = parse_split(p, len, &(*out)[*n]);
		if (st != EXIT_YES)
			return st;
		for (size_t i = 0; i < *n; i++)
			if (strcmp((*out)[i].name, (*out)[*n].name) == 0)
				return status_usage_error("--split: '%s' twice",
						       (*out)[i].name);
		++*n;
		if (!p[len])
			return EXIT_YES;
		p += len + 1;
	}
}

/* ---- options ------------------------------------------------------------ */

static bool wants_words(const GenJob *job)
{
	return job->words || job->in.nspecs || job->sample ||
	       job->max_length >= 0 || job->min_length || job->split ||
	       job->format_given || job->labels_given ||
	       job->report || job->alphabet || job->horizon;
}

/* The checks of the family and formula modes. */
static int validate_family(GenJob *job)
{
	const Family *f = job->family;
	bool has_k = job->k.lo != -2;
	if (job->in.nspecs)
		return status_usage_error("--family and -f/-F/-P exclude each "
				       "other");
	if (job->alphabet)
		return status_usage_error("a family has its own alphabet "
				       "(no --alphabet)");
	if (!f->kmin && has_k)
		return status_usage_error("family '%s' takes no --k", f->name);
	if (f->kmin && !has_k)
		return status_usage_error("family '%s' needs --k (k >= %ld)",
				       f->name, f->kmin);
	if (f->kmin) {
		if (job->k.lo < 0)
			job->k.lo = f->kmin;
		if (job->k.hi < 0)
			return status_usage_error("--k needs an upper bound");
		if (job->k.lo < f->kmin)
			return status_usage_error("family '%s' needs k >= %ld",
					       f->name, f->kmin);
	}
	if (wants_words(job) && job->to)
		return status_usage_error("--to prints formulas, not words");
	if (!wants_words(job) && job->to && job->json)
		return status_usage_error("--json prints the formula as TL text; "
				       "--to=%s is a text format", job->to);
	if (wants_words(job) && f->kmin && job->k.lo != job->k.hi)
		return status_usage_error("words take one value of --k");
	return EXIT_YES;
}

/* The checks of the words mode. */
static int validate_words(GenJob *job)
{
	if (!job->split && job->max_length < 0)
		return status_usage_error("words need --max-length (or --split)");
	if (job->split && (job->max_length >= 0 || job->min_length))
		return status_usage_error("--split gives the lengths: no "
				       "--min-length/--max-length");
	if (job->min_length > job->max_length && !job->split)
		return status_usage_error("--min-length exceeds --max-length");
	if (job->labels == GEN_LABELS_PREDICTION &&
	    job->format != GEN_FORMAT_JSONL)
		return status_usage_error("--labels=prediction writes sets of "
				       "letters: use --format=jsonl");
	return EXIT_YES;
}

static int family_row(const Option *row, const char *arg)
{
	const Family **f = row->ctx;
	*f = family_find(arg);
	return *f ? EXIT_YES : family_unknown(arg, "");
}

static int ratio_row(const Option *row, const char *arg)
{
	GenJob *job = row->ctx;
	job->ratio_given = true;
	return parse_ratio(arg, job->ratio)
		       ? EXIT_YES
		       : status_usage_error("--ratio: expected M:N (members to "
					    "non-members, each 0..1000, not both "
					    "0), not '%s'", arg);
}

/* ---- words -------------------------------------------------------------- */

/* The family's formula (and domain) as -f inputs; the texts are kept
 * until the end. */
static void family_inputs(GenJob *job, char **text)
{
	long k = job->family->kmin ? job->k.lo : 0;
	text[0] = job->family->formula(k);
	inputs_option(&job->in, 'f', text[0]);
	if (job->family->domain) {
		text[1] = job->family->domain(k);
		inputs_option(&job->in, 'f', text[1]);
	}
}

/* The splits: --split, or one covering --min-length..--max-length. */
static int make_splits(GenJob *job, GenSpec *sp)
{
	if (job->split) {
		int st = parse_splits(job->split, &sp->splits, &sp->nsplits);
		if (st != EXIT_YES)
			return st;
		sp->named_splits = true;
	} else {
		sp->splits = xcalloc(1, sizeof *sp->splits);
		sp->nsplits = 1;
		strcpy(sp->splits[0].name, "all");
		sp->splits[0].lo = (size_t)job->min_length;
		sp->splits[0].hi = (size_t)job->max_length;
	}
	bool counted = true;
	for (size_t i = 0; i < sp->nsplits; i++)
		counted &= sp->splits[i].count != 0;
	sp->every_word = !job->sample && !counted;
	if (sp->every_word && sp->named_splits)
		return status_usage_error("--split needs --sample or a count per "
				       "split");
	for (size_t i = 0; i < sp->nsplits && !sp->every_word; i++)
		if (sp->splits[i].hi > GEN_MAX_SAMPLED)
			return status_usage_error("sampled words of length above "
					       "%d", GEN_MAX_SAMPLED);
	return EXIT_YES;
}

static int check_spec(const GenJob *job, const GenSpec *sp)
{
	size_t maxlen = 0;
	for (size_t i = 0; i < sp->nsplits; i++) {
		if (sp->splits[i].hi > maxlen)
			maxlen = sp->splits[i].hi;
		if (sp->format == GEN_FORMAT_CR && sp->splits[i].lo == 0)
			return status_usage_error("--format=cr: the empty word has "
				"no line in .cr word files; use lengths from 1");
	}
	if (sp->labels == GEN_LABELS_PREDICTION && job->horizon &&
	    job->horizon < maxlen)
		return status_usage_error("--horizon=%zu is below the longest "
				       "words (%zu)", job->horizon, maxlen);
	for (size_t i = 0; i < sp->alpha->n; i++)
		if (strcmp(sym_name(sp->alpha->syms, sp->alpha->letters[i]),
			   GEN_EOS) == 0)
			return status_usage_error("a letter is named %s, the end "
					       "of the word", GEN_EOS);
	if (sp->alpha->n == 0)
		return status_usage_error("the alphabet is empty: give letters "
				       "with --alphabet");
	return EXIT_YES;
}

/* The class formula and the output read per position: a count-valued
 * program has no classes (every word is a member of true, drawn
 * uniformly) and its labels are its values, a sequence by default. */
static int sequence_output(const GenJob *job, GenSpec *sp, Node out)
{
	sp->integer = !store_is_bool(job->in.store, out);
	sp->labels = job->labels;
	sp->root = out;
	sp->output = NODE_NONE;
	if (sp->integer) {
		if (job->ratio_given)
			return status_usage_error("a count-valued program has no "
					       "classes (no --ratio): its words "
					       "are drawn uniformly per length");
		if (!job->labels_given)
			sp->labels = GEN_LABELS_SEQUENCE;
		if (sp->labels == GEN_LABELS_POSITION ||
		    sp->labels == GEN_LABELS_PREDICTION)
			return status_usage_error("--labels=%s needs a formula; a "
				"count-valued program's labels are its values "
				"(--labels=sequence or word)",
				sp->labels == GEN_LABELS_POSITION ? "position"
								  : "prediction");
		sp->root = store_make_true(job->in.store);
		sp->ratio[0] = 0;
		sp->ratio[1] = 1;
	}
	if (sp->integer || sp->labels == GEN_LABELS_SEQUENCE)
		sp->output = out;
	return EXIT_YES;
}

static int run_words(GenJob *job)
{
	char *text[2] = {NULL, NULL};
	GenSpec sp = {0};
	Alphabet alpha = {0};
	int st = validate_words(job);
	if (st != EXIT_YES)
		return st;
	if (job->family)
		family_inputs(job, text);
	if ((st = make_splits(job, &sp)) != EXIT_YES)
		goto done;
	job->in.terms = true; /* count-valued programs: labels are values */
	if (!inputs_load(&job->in, false)) {
		st = inputs_failure(&job->in);
		goto done;
	}
	size_t want = job->family && job->family->domain ? 2 : 1;
	if (job->in.nunits != want) {
		st = status_usage_error("gen takes one formula or program, not "
				     "%zu", job->in.nunits);
		goto done;
	}
	Node roots[2] = {job->in.units[0].output,
			 want == 2 ? job->in.units[1].output : NODE_NONE};
	alphabet_init_units(&alpha, job->in.store, roots, want, job->in.units,
			    want, job->family ? job->family->alphabet
					      : job->alphabet);
	sp.store = job->in.store;
	if ((st = sequence_output(job, &sp, roots[0])) != EXIT_YES)
		goto done;
	sp.domain = roots[1];
	sp.alpha = &alpha;
	sp.family = job->family;
	sp.k = job->family && job->family->kmin ? job->k.lo : 0;
	sp.sample = job->sample;
	if (!sp.integer) {
		sp.ratio[0] = job->ratio[0];
		sp.ratio[1] = job->ratio[1];
	}
	sp.random_pct = job->random_pct;
	sp.seed = job->seed;
	sp.format = job->format;
	sp.report = job->report;
	sp.quiet = job->quiet;
	sp.max_states = job->max_states;
	sp.jobs = job->jobs ? job->jobs : parallel_cores();
	sp.limits = &job->limits;
	sp.sink = job->sink;
	sp.source = job->family ? text[0] : job->in.specs[0].text;
	if ((st = check_spec(job, &sp)) != EXIT_YES)
		goto done;
	size_t maxlen = 0;
	for (size_t i = 0; i < sp.nsplits; i++)
		maxlen = sp.splits[i].hi > maxlen ? sp.splits[i].hi : maxlen;
	sp.horizon = job->horizon ? job->horizon : 2 * maxlen;
	st = gen_data_run(&sp);
done:
	alphabet_free(&alpha);
	free(sp.splits);
	free(text[0]);
	free(text[1]);
	return st;
}

static const char *const label_kinds[] = {"word", "position", "prediction",
					  "sequence", NULL};
static const char *const formats[] = {"tsv", "jsonl", "cr", NULL};

/* The option table of gen, into *job; EXIT_YES, OPTIONS_DONE or the
 * status after a message. */
static int parse(GenJob *job, int argc, char **argv)
{
	const Option rows[] = {
		CLI_INPUT_ROWS(&job->in),
		OPTION_TEXT_ROW("Families:\n"),
		OPTION_FLAG_ROW(0, "list", &job->list,
				"list the families: definition, parameter,\n"
				"alphabet and reference"),
		OPTION_CALL_ROW(0, "family", "NAME", family_row, &job->family,
				"the family (lk, lk-predict, ek, dyck1, ...)"),
		OPTION_FLAG_ROW(0, "prelude", &job->prelude,
				"list the names of the built-in prelude\n"
				"formulas (dyck1, L_2, ...: usable by name in\n"
				"every formula), one per line"),
		OPTION_CALL_ROW(0, "k", "RANGE", k_row, &job->k,
				"its parameter: K, K..M or ..M, at most 256\n"
				"(families without a parameter take none)"),
		{.name = "to", .kind = OPTION_STRING, .meta = "FORMAT",
		 .dest = &job->to, .choices = cmd_print_formats,
		 .help = "print the formulas in any format of\n"
			 "'tally print --to' (tl by default);\n"
			 "multi-line formats are separated by an\n"
			 "empty line"},
		OPTION_TEXT_ROW("Words (any of these, or -f/-F/-P, asks for "
				"words):\n"),
		OPTION_FLAG_ROW(0, "words", &job->words,
				"labelled words instead of formulas"),
		OPTION_COUNT_ROW('n', "max-length", "N", 0, GEN_MAX_LENGTH,
				 &job->max_length, "the longest words"),
		OPTION_COUNT_ROW(0, "min-length", "N", 0, GEN_MAX_LENGTH,
				 &job->min_length,
				 "the shortest words (default 0)"),
		OPTION_STRING_ROW(0, "alphabet", "LETTERS", &job->alphabet,
				  "letters besides the formula's (a,b,c or abc)"),
		OPTION_COUNT_ROW(0, "sample", "COUNT", 0, LONG_MAX, &job->sample,
				 "COUNT words in all (else every word of the\n"
				 "lengths, in shortlex order)"),
		OPTION_STRING_ROW(0, "split", "SPEC", &job->split,
				  "NAME:RANGE[:COUNT],... splits by length, each\n"
				  "balanced on its own, disjoint; COUNT words\n"
				  "(else an equal share of --sample)"),
		OPTION_CALL_ROW(0, "ratio", "M:N", ratio_row, job,
				"members to non-members at every length where\n"
				"both exist (default 1:1; lengths without\n"
				"both are left out and reported)"),
		OPTION_COUNT_ROW(0, "random", "PERCENT", 0, 100, &job->random_pct,
				 "non-members drawn uniformly (default 10); the\n"
				 "rest are mutated members (same length, and\n"
				 "where possible letter counts and last letter)"),
		OPTION_COUNT_ROW(0, "seed", "N", 0, LONG_MAX, &job->seed,
				 "the random seed (default 1): the same seed\n"
				 "gives the same bytes on every machine"),
		{.name = "labels", .kind = OPTION_CHOICE, .meta = "KIND",
		 .choices = label_kinds, .dest2 = &job->labels,
		 .given = &job->labels_given,
		 .help = "word (default): the verdict (a count-valued\n"
			 "program's value); position: the verdict of\n"
			 "every prefix; prediction: the letters that\n"
			 "may follow every prefix in a member (and\n"
			 GEN_EOS " when it is one); sequence (default for\n"
			 "a count-valued program): the output at every\n"
			 "position, as eval --per-position"},
		OPTION_COUNT_ROW(0, "horizon", "N", 0, LONG_MAX, &job->horizon,
				 "prediction: members up to length N (default\n"
				 "twice the longest word)"),
		{.name = "format", .kind = OPTION_CHOICE, .meta = "FORMAT",
		 .choices = formats, .dest2 = &job->format,
		 .given = &job->format_given,
		 .help = "tsv (default: WORD<TAB>LABEL...), jsonl, or\n"
			 "cr (the .cr interpreter's word files)"},
		OPTION_FLAG_ROW(0, "json", &job->json,
				"--format=jsonl for words; JSON objects for\n"
				"formulas, --list and --prelude"),
		OPTION_STRING_ROW(0, "report", "FILE", &job->report,
				  "write the leakage report as JSON"),
		OPTION_COUNT_ROW(0, "jobs", "N", 1, PARALLEL_MAX_JOBS, &job->jobs,
				 "threads labelling and writing the words\n"
				 "(default: every core; the same bytes for\n"
				 "any N)"),
		OPTION_FLAG_ROW('q', "quiet", &job->quiet,
				"no report summary and no progress bar on\n"
				"stderr"),
		OPTION_COUNT_ROW(0, "max-states", "N", 1, SIZE_MAX,
				 &job->max_states,
				 "bound the exact state graph (default 2000000;\n"
				 "beyond it, rejection sampling)"),
		CLI_LIMIT_ROWS(&job->limits),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	return options_parse(&table, argc, argv);
}

int cmd_gen(int argc, char **argv)
{
	return cmd_gen_into(argc, argv, NULL);
}

int cmd_gen_into(int argc, char **argv, const GenSink *sink)
{
	GenJob job = {.k = {-2, -2}, .max_length = -1, .seed = 1,
		      .ratio = {1, 1}, .random_pct = 10,
		      .max_states = 2000000, .sink = sink};
	inputs_init(&job.in);
	limit_init(&job.limits);
	int st = parse(&job, argc, argv);
	if (st != EXIT_YES) {
		st = st == OPTIONS_DONE ? EXIT_YES : st;
		goto done;
	}
	if (optind < argc) {
		st = status_usage_error("unexpected argument '%s'", argv[optind]);
	} else if (job.prelude) {
		list_prelude(job.json);
	} else if (job.list) {
		list_families(job.json);
	} else if (!job.family && !job.in.nspecs) {
		st = status_usage_error("--family=NAME, -f/-F/-P or --list is "
				     "required (see 'tally gen --help')");
	} else if (job.family && (st = validate_family(&job)) != EXIT_YES) {
		;
	} else if (!wants_words(&job)) {
		st = print_formulas(&job);
	} else {
		if (job.json && !job.format_given)
			job.format = GEN_FORMAT_JSONL;
		st = run_words(&job);
	}
done:
	inputs_free(&job.in);
	return st;
}
