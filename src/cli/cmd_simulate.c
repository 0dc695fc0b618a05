/* cmd_simulate.c -- `tally simulate`: run a compiled transformer
 * bit-exactly, optionally against the formula it came from. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/breakdown_cli.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "machine/echo.h"
#include "machine/eval.h"
#include "transformer/fixed.h"
#include "core/json.h"
#include "base/limit.h"
#include "base/mem.h"
#include "transformer/model.h"
#include "transformer/pe.h"
#include "transformer/seqref.h"
#include "transformer/sim.h"
#include "transformer/simcheck.h"
#include "base/vec.h"
#include "core/word.h"

static const char intro[] =
	"Usage: tally simulate [OPTION]... [MODEL]\n"
	"Run a transformer written by tally compile (MODEL, or stdin) on\n"
	"words, bit-exactly under a chosen number semantics: BOS is prepended,\n"
	"attention is future-masked, and a word is accepted iff the output at\n"
	"its last position is > 0.  Prints WORD<TAB>accept|reject per word.\n\n";

static const char outro[] =
	"\n"
	"Exit status of --check-against-formula and --find-breakdown: 0\n"
	"agreement, 1 a disagreeing word (printed), 4 a limit (the words\n"
	"compared so far are stated); of --periodicity: 0 periodic up to the\n"
	"limit, 1 a break.\n\n"
	"Examples:\n"
	"  tally compile -f dyck1 | tally simulate --check-against-formula "
	"--max-length 12\n"
	"  tally compile -f majority | tally simulate -w aab -w abb\n"
	"  tally compile -f majority | tally simulate --trace -w aba\n"
	"  tally simulate --periodicity=710 --dim=2\n"
	"  tally compile --precision=10,4 -f majority | tally simulate\n"
	"    --semantics=rounded-sums,ieee=bf16 --find-breakdown --max-length 100\n"
	"    --plot=breakdown.svg\n\n";

/* Whether stdin holds more than blanks (those read are JSON blanks). */
static bool stdin_has_text(void)
{
	int c;
	while ((c = getc(stdin)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		;
	if (c == EOF)
		return false;
	ungetc(c, stdin);
	return true;
}

/* Where the model comes from, in every message that is about it. */
static const char model_sources[] =
	"tally simulate reads the model (the JSON that tally compile writes) "
	"from MODEL, -m/--model=FILE or standard input";

static bool read_model(const char *path, Model *m)
{
	bool from_stdin = strcmp(path, "-") == 0;
	if (from_stdin && !stdin_has_text()) {
		status_usage_error("no model: standard input is empty; %s",
				model_sources);
		return false;
	}
	json_error_t jerr;
	json_t *j = from_stdin ? json_loadf(stdin, JSON_DECODE_ANY |
							  JSON_REJECT_DUPLICATES,
					    &jerr)
			       : json_load_file(path, JSON_REJECT_DUPLICATES,
						&jerr);
	if (!j) {
		const char *why = strchr(jerr.text, ':');
		if (!from_stdin && jerr.line < 1) /* not opened */
			status_usage_error("cannot open model '%s'%s", path,
					why ? why : "");
		else if (from_stdin)
			status_usage_error("stdin: %s (line %d); %s",
					jerr.text, jerr.line, model_sources);
		else
			status_usage_error("%s: %s (line %d)", path, jerr.text,
					jerr.line);
		return false;
	}
	char *err = NULL;
	bool ok = model_from_json(j, m, &err);
	json_decref(j);
	if (!ok) {
		status_usage_error("%s: %s", from_stdin ? "stdin" : path, err);
		free(err);
	}
	return ok;
}

/* The exhaustive check refuses more words than this (hours of work). */
#define MAX_WORDS 1e9

static bool too_many_words(size_t sigma, size_t maxlen)
{
	double total = 0, p = 1;
	for (size_t k = 0; k <= maxlen && total <= MAX_WORDS; k++, p *= sigma)
		total += p;
	return total > MAX_WORDS;
}

/* Words run letter by letter as they are read: a word never has to fit
 * in memory (its echo spills to a file), only --trace keeps its tokens. */
typedef struct {
	SimCheck *sc;
	Readout readout;    /* the model's: a sequence unless accept */
	Buf values;         /* a sequence readout's, as text */
	json_t *jvalues;    /* the same for --json */
	VEC(uint32_t) word; /* --trace */
	Echo echo;
	bool trace, rejected, json;
	bool stopped; /* a limit was reached in the current word */
	size_t done;  /* words whose verdict was printed */
} Run;

/* The output at the position just pushed, in the readout's terms. */
static void add_value(Run *r)
{
	double v = simcheck_output(r->sc);
	char *text = seqref_text(r->readout, v);
	buf_printf(&r->values, "%s%s", r->values.len ? " " : "", text);
	if (r->json)
		json_array_append_new(r->jvalues,
				      r->readout == READOUT_RATIO
					      ? json_string(text)
					      : json_integer((json_int_t)v));
	free(text);
}

static void clear_values(Run *r)
{
	r->values.len = 0;
	if (r->values.data)
		r->values.data[0] = '\0';
	if (r->jvalues)
		json_array_clear(r->jvalues);
}

static void on_letters(void *ctx, const Sym *s, size_t n)
{
	Run *r = ctx;
	for (size_t i = 0; i < n && !r->stopped; i++) {
		uint32_t t = simcheck_token(r->sc, s[i]);
		if (r->trace)
			VEC_PUSH(r->word, t);
		r->stopped = !simcheck_push(r->sc, t);
		if (r->readout != READOUT_ACCEPT && !r->stopped)
			add_value(r);
	}
}

static void on_restart(void *ctx)
{
	Run *r = ctx;
	r->word.len = 0;
	clear_values(r);
	simcheck_begin(r->sc);
}

static void on_text(void *ctx, const char *bytes, size_t n)
{
	echo_add(&((Run *)ctx)->echo, bytes, n);
}

/* --json: {"command": "simulate", "word", "accepted"}; the word is
 * held in memory for the object. */
static void json_verdict(Run *r, bool acc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (mem) {
		echo_write(&r->echo, mem);
		fclose(mem);
	}
	json_t *o = json_envelope();
	json_t *w = text ? json_stringn(text, len) : NULL;
	json_object_set_new(o, "word", w ? w : json_null());
	if (!readout_counts(r->readout))
		json_object_set_new(o, "accepted", json_boolean(acc));
	if (r->readout != READOUT_ACCEPT)
		json_object_set_new(o, "values", json_copy(r->jvalues));
	json_emit(o);
	free(text);
}

static bool on_end(void *ctx)
{
	Run *r = ctx;
	if (r->stopped) {
		echo_drop(&r->echo);
		return false;
	}
	bool acc = simcheck_accepts(r->sc);
	/* a sequence is an answer, not a verdict: exit 0 */
	r->rejected |= !acc && r->readout == READOUT_ACCEPT;
	if (r->json) {
		json_verdict(r, acc);
	} else {
		echo_write(&r->echo, stdout);
		printf("\t%s\n", r->readout != READOUT_ACCEPT
					  ? (r->values.data ? r->values.data : "")
				  : acc ? "accept" : "reject");
	}
	if (r->trace) {
		simcheck_trace(r->sc, r->word.data, r->word.len, stdout);
		putchar('\n');
	}
	fflush(stdout);
	echo_drop(&r->echo);
	r->word.len = 0;
	clear_values(r);
	r->done++;
	simcheck_begin(r->sc);
	return true;
}

/* The angles of a model: its features' and its RoPE heads', each once. */
static size_t model_angles(const Model *m, Angle **out)
{
	VEC(Angle) a = {0};
	for (size_t f = 0; f < m->nfeats; f++)
		VEC_PUSH(a, m->feats[f].angle);
	for (size_t l = 0; l < m->nlayers; l++)
		for (size_t h = 0; h < m->layers[l].nheads; h++)
			for (size_t k = 0; k < m->layers[l].heads[h].nrope; k++)
				VEC_PUSH(a, m->layers[l].heads[h].rope[k]);
	size_t n = 0;
	for (size_t i = 0; i < a.len; i++) {
		bool seen = false;
		for (size_t j = 0; j < n && !seen; j++)
			seen = memcmp(&a.data[i], &a.data[j], sizeof(Angle)) == 0;
		if (!seen)
			a.data[n++] = a.data[i];
	}
	*out = a.data;
	return n;
}

/* --periodicity: one line per angle, then the first break; exit 0 when
 * every angle repeats up to the limit, 1 otherwise. */
static int periodicity(const Semantics *sem, const Angle *a, size_t n,
		       uint64_t period, uint64_t limit)
{
	uint64_t first = limit + 1;
	printf("periodicity %llu under %s", (unsigned long long)period,
	       semantics_name(sem));
	if (sem->kind != SEM_IEEE)
		printf(" in F_{%d,%d}", sem->p, sem->s);
	printf(", positions 0..%llu:\n", (unsigned long long)limit);
	for (size_t i = 0; i < n; i++) {
		uint64_t b;
		uint64_t k = pe_breaks(sem, &a[i], period, limit, &b);
		char *t = angle_text(&a[i]);
		if (b > limit)
			printf("  %s: periodic\n", t);
		else
			printf("  %s: first break at position %llu (%llu of "
			       "%llu positions differ)\n",
			       t, (unsigned long long)b, (unsigned long long)k,
			       (unsigned long long)limit + 1);
		free(t);
		if (b < first)
			first = b;
	}
	if (n == 0)
		printf("  (no sinusoidal or RoPE angle)\n");
	if (first > limit) {
		printf("periodic: every rounded rotation repeats after %llu "
		       "positions up to position %llu\n",
		       (unsigned long long)period, (unsigned long long)limit);
		return EXIT_YES;
	}
	printf("first break at position %llu\n", (unsigned long long)first);
	return EXIT_NO;
}

static bool feed_stdin(WordReader *wr, const Run *run)
{
	char buf[1 << 16];
	size_t got;
	while (!run->stopped && (got = fread(buf, 1, sizeof buf, stdin)) > 0)
		if (!word_feed(wr, buf, got))
			return false;
	return !run->stopped && word_close(wr);
}

/* The words of -w or stdin: exit status. */
static int run_words(SimCheck *sc, const Model *m, const char *const *words,
		     size_t nwords, bool trace, bool check, bool json,
		     Limits *limits)
{
	if (!trace)
		simcheck_streaming(sc);
	Run run = {.sc = sc, .readout = m->readout, .trace = trace,
		   .json = json, .jvalues = json_array()};
	WordSink sink = {&run, on_letters, on_restart, on_text, on_end};
	WordReader wr;
	word_reader_init(&wr, simcheck_alphabet(sc), false, &sink,
			 simcheck_diag(sc));
	simcheck_begin(sc);
	bool ok = true;
	for (size_t i = 0; i < nwords && ok; i++)
		ok = word_one(&wr, words[i], strlen(words[i]));
	if (nwords == 0)
		ok = feed_stdin(&wr, &run);
	word_reader_free(&wr);
	VEC_FREE(run.word);
	buf_free(&run.values);
	json_decref(run.jvalues);
	echo_free(&run.echo);
	if (run.stopped) {
		char done[64];
		snprintf(done, sizeof done, "%zu word%s run", run.done,
			 run.done == 1 ? "" : "s");
		return limit_report(limits, done);
	}
	if (!ok)
		return EXIT_USAGE;
	if (check)
		return EXIT_YES;
	return run.rejected ? EXIT_NO : EXIT_YES;
}

/* --semantics: one, or a list for --find-breakdown. */
typedef struct {
	Semantics list[BREAKDOWN_MAX_SEMANTICS];
	size_t n;
} SemanticsList;

static int semantics_row(const Option *row, const char *arg)
{
	SemanticsList *l = row->ctx;
	return simcheck_semantics_list(arg, l->list, BREAKDOWN_MAX_SEMANTICS,
				       &l->n) ? EXIT_YES : EXIT_USAGE;
}

int cmd_simulate(int argc, char **argv)
{
	SemanticsList sems = {{{.kind = SEM_KNEEDEEP}}, 1};
	const char *path = NULL, *plot = NULL;
	CliWords words = {0};
	bool trace = false, check = false, breakdown = false, json = false;
	size_t maxstates = 10000000, maxlen = 8, nrandom = 0, rlen = 1000, seed = 1;
	size_t period = 0, dim = 0;
	bool maxlen_given = false;
	int pp = 16, ps = 8;
	Model m = {0};
	bool have_model = false;
	SimCheck *sc = NULL;
	Limits limits;
	limit_init(&limits);
	const Option rows[] = {
		OPTION_TEXT_ROW("Model and semantics:\n"),
		OPTION_STRING_ROW('m', "model", "FILE", &path,
				  "the model (default: the MODEL operand, else\n"
				  "stdin)"),
		{.name = "semantics", .kind = OPTION_CALL, .meta = "SEM",
		 .call = semantics_row, .ctx = &sems, .choices = cli_semantics,
		 .help = "kneedeep (default: F_{p,s}, floor rounding\n"
			 "with saturation everywhere but the two exact\n"
			 "attention sums), rounded-sums (those sums\n"
			 "rounded too, after each addition, BOS first\n"
			 "then positions 1..i), ieee=fp32|bf16|fp16\n"
			 "(round to nearest even with subnormals, sums\n"
			 "accumulated in the format in the same order);\n"
			 "with --find-breakdown a list SEM,SEM,..."},
		OPTION_TEXT_ROW("Words:\n"),
		CLI_WORD_ROW(&words, "a word (repeatable; '' or ε: the empty "
			     "word);\notherwise stdin lines when the model "
			     "comes\nfrom a file"),
		OPTION_FLAG_ROW(0, "json", &json,
				"one JSON object per word (word, accepted),\n"
				"per check or per semantics of\n"
				"--find-breakdown; not with --trace or\n"
				"--periodicity"),
		OPTION_FLAG_ROW(0, "trace", &trace,
				"after each verdict, the residual stream per\n"
				"layer and position next to the formula's "
				"values"),
		OPTION_TEXT_ROW("Checks against the formula stored in the model "
				"(tally's evaluator):\n"),
		OPTION_FLAG_ROW(0, "check-against-formula", &check,
				"compare on every word up to\n"
				"--max-length (and on --random words); reports\n"
				"agreement or the shortest disagreeing word"),
		{.name = "max-length", .kind = OPTION_COUNT, .meta = "N",
		 .lo = 0, .hi = 100000000, .dest = &maxlen,
		 .width = sizeof maxlen, .given = &maxlen_given,
		 .help = "longest word of the exhaustive check (default 8)"},
		OPTION_COUNT_ROW(0, "random", "K", 0, 1000000, &nrandom,
				 "also K random words of --random-length "
				 "letters,\nevery prefix compared"),
		OPTION_COUNT_ROW(0, "random-length", "N", 0, 100000000, &rlen,
				 "length of the random words (default 1000)"),
		OPTION_COUNT_ROW(0, "seed", "N", 0, SIZE_MAX, &seed,
				 "seed of the random words (default 1)"),
		OPTION_FLAG_ROW(0, "find-breakdown", &breakdown,
				"the shortest word on which --semantics\n"
				"disagrees with kneedeep (breadth-first over\n"
				"the pairs of attention states, up to\n"
				"--max-length, default 8), confirmed against\n"
				"the formula; with --json one record per\n"
				"semantics"),
		OPTION_STRING_ROW(0, "plot", "FILE", &plot,
				  "with --find-breakdown: an SVG chart in FILE "
				  "of\nthe first disagreement length per "
				  "semantics\nand precision (none found: said, "
				  "not drawn)"),
		OPTION_COUNT_ROW(0, "max-states", "N", 0, 1000000000, &maxstates,
				 "give up (exit 4) beyond N states (default\n"
				 "10000000)"),
		OPTION_TEXT_ROW("Positional encodings:\n"),
		OPTION_COUNT_ROW(0, "periodicity", "M", 1, (size_t)1 << 40, &period,
				 "the RoPE periodicity check: for every angle\n"
				 "of the model (sinusoidal features, RoPE\n"
				 "heads), the first position i <= --max-length\n"
				 "(default 10000) at which the rounded cos and\n"
				 "sin of (i+M) theta differ from those of i "
				 "theta"),
		OPTION_COUNT_ROW(0, "dim", "D", 2, 1 << 16, &dim,
				 "check the standard frequencies\n"
				 "10000^(-2k/D), k < D/2, instead of a model"),
		CLI_PRECISION_ROW(&pp, &ps, "F_{P,S} for --dim (default 16,8)"),
		OPTION_HELP_ROW,
		CLI_LIMIT_ROWS(&limits),
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	Semantics sem = sems.list[0];
	size_t nsem = sems.n;
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	if (period && !maxlen_given)
		maxlen = 10000;
	if ((nsem > 1 || plot) && !breakdown) {
		status = status_usage_error("%s", nsem > 1 ? "--semantics: a list is "
					 "for --find-breakdown" : "--plot draws "
					 "the records of --find-breakdown");
		goto done;
	}
	if (plot && !*plot) {
		status = status_usage_error("--plot needs a file name");
		goto done;
	}
	if (period && dim) {
		VEC(Angle) a = {0};
		for (size_t k = 0; k < dim / 2; k++)
			VEC_PUSH(a, ((Angle){.standard = true, .base = 10000,
					     .k = (uint32_t)k,
					     .d = (uint32_t)dim}));
		sem.p = pp;
		sem.s = ps;
		status = periodicity(&sem, a.data, a.len, period, maxlen);
		VEC_FREE(a);
		goto done;
	}
	if (optind < argc && !path)
		path = argv[optind++];
	if (optind < argc) {
		status = status_usage_error("unexpected argument '%s'", argv[optind]);
		goto done;
	}
	if (!path)
		path = "-";
	if (strcmp(path, "-") == 0 && isatty(STDIN_FILENO)) {
		status = status_usage_error("no model: give MODEL or pipe tally "
					 "compile into tally simulate");
		goto done;
	}
	limit_start(&limits); /* a large model takes time to read */
	if (!read_model(path, &m))
		goto usage;
	have_model = true;
	if (period) {
		Angle *a;
		size_t n = model_angles(&m, &a);
		if (sem.kind != SEM_IEEE) {
			sem.p = m.p;
			sem.s = m.s;
		}
		status = periodicity(&sem, a, n, period, maxlen);
		free(a);
		goto done;
	}
	if (limits.max_memory && sim_estimate(&m) > limits.max_memory) {
		status = limit_fail("--max-memory reached before the first "
				    "letter: the model takes about %zu MiB to "
				    "simulate (limit %zu MiB)",
				    sim_estimate(&m) >> 20,
				    limits.max_memory >> 20);
		goto done;
	}
	char *err = NULL;
	sc = simcheck_new(&m, &sem, check || trace || breakdown, &err);
	if (!sc) {
		status = status_usage_error("%s: %s",
					 strcmp(path, "-") ? path : "stdin", err);
		free(err);
		goto done;
	}
	simcheck_limits(sc, &limits);
	if (breakdown && readout_counts(m.readout)) {
		status = status_usage_error("--find-breakdown compares verdicts, "
					 "and this model's output is a %s "
					 "readout of a count: check its values "
					 "with --check-against-formula",
					 readout_name(m.readout));
		goto done;
	}
	if (breakdown) {
		BreakdownRun br = {&m, strcmp(path, "-") ? path : "stdin", sems.list,
				   nsem, maxlen, maxstates, json, plot, &limits};
		status = breakdown_cli_run(&br, sc);
		goto done;
	}
	if (check && too_many_words(m.nletters, maxlen)) {
		status = status_usage_error("--max-length %zu: more than %.0f words "
					 "over %zu letters; lower it (or use "
					 "--random)",
					 maxlen, MAX_WORDS, m.nletters);
		goto done;
	}
	if (json && (trace || period)) {
		status = status_usage_error("--json writes the verdicts of words, "
					 "the checks' and --find-breakdown's "
					 "records (not --trace or --period)");
		goto done;
	}
	if (check) {
		status = simcheck_all(sc, maxlen, stdout, json);
		if (status == EXIT_YES && nrandom)
			status = simcheck_random(sc, nrandom, rlen, seed, stdout,
						 json);
		if (words.len == 0)
			goto done;
	}
	if (words.len == 0 && strcmp(path, "-") == 0) {
		status = status_usage_error("no words: give -w WORD (the model is "
					 "on stdin), or --check-against-formula");
		goto done;
	}
	{
		int st = run_words(sc, &m, words.data, words.len, trace, check,
				   json, &limits);
		if (!check || st != EXIT_YES)
			status = st;
	}
	goto done;
usage:
	status = EXIT_USAGE;
done:
	simcheck_free(sc);
	if (have_model)
		model_free(&m);
	VEC_FREE(words);
	return status;
}
