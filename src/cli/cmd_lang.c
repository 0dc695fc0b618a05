/* cmd_lang.c -- `tally lang`: the accepted words up to a length, in
 * shortlex order, by a depth-first walk over the tree of all words. */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/getopt_hint.h"
#include "cli/commands.h"
#include "machine/eval.h"
#include "core/json.h"
#include "machine/lang_count.h"
#include "base/limit.h"
#include "base/mem.h"
#include "core/alphabet.h"

static const char intro[] =
	"Usage: tally lang [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM)\n"
	"          --max-length=N\n"
	"List every accepted word of length <= N, one per line, in shortlex\n"
	"order: by length, then by alphabet order (as given with --alphabet,\n"
	"the formula's other letters after them, sorted).  Letters are\n"
	"concatenated, or separated by spaces when some letter is longer than\n"
	"one character.\n\n";

static const char outro[] =
	"\n"
	"Method: the walk extends the evaluator's state one letter at a time\n"
	"(cost proportional to the formula per word), for formulas without #>.\n"
	"Formulas with future counts #> evaluate each word whole.  A job of\n"
	"more than 10^8 words is announced on stderr before it starts.\n"
	"--count of a formula without #> counts prefixes per machine state\n"
	"instead (exact, any size; each length printed when complete).\n\n"
	"Examples:\n"
	"  tally lang -f \"1 <= #[Q_b & 1 <= #[Q_a]] & "
	"!(1 <= #[Q_a & 1 <= #[Q_b]])\" \\\n"
	"      --max-length 4 --alphabet=ab\n"
	"  tally lang -f dyck1 --max-length 6\n"
	"  tally lang -f majority --max-length 12 --count\n\n";

typedef struct {
	Evaluator *ev;
	const Alphabet *alpha;
	AcceptAt accept;
	bool count, json, spaced;
	json_t *alpha_json; /* the alphabet, for every JSON record */
	Sym *syms;        /* the current word */
	uint64_t *counts; /* accepted words per length */
	Limits *limits;
} Lang;

static void print_word(const Lang *lg, size_t d)
{
	if (lg->json) {
		Buf b = {0};
		buf_puts(&b, "");
		for (size_t i = 0; i < d; i++) {
			if (i && lg->spaced)
				buf_putc(&b, ' ');
			buf_puts(&b, sym_name(lg->alpha->syms, lg->syms[i]));
		}
		json_t *o = json_envelope();
		json_t *w = json_string(b.data);
		json_object_set_new(o, "word", w ? w : json_null());
		json_object_set(o, "alphabet", lg->alpha_json);
		json_object_set_new(o, "length", json_integer((json_int_t)d));
		json_emit(o);
		buf_free(&b);
		return;
	}
	for (size_t i = 0; i < d; i++) {
		if (i && lg->spaced)
			putchar(' ');
		fputs(sym_name(lg->alpha->syms, lg->syms[i]), stdout);
	}
	putchar('\n');
}

static void visit(Lang *lg, size_t d)
{
	bool acc;
	if (eval_streams(lg->ev))
		acc = eval_accepts(lg->ev, 0);
	else
		eval_word(lg->ev, lg->syms, d, &acc);
	if (!acc)
		return;
	lg->counts[d]++;
	if (!lg->count)
		print_word(lg, d);
}

/* Depth-first over the words of length <= limit; visits all of them, or
 * only those of length exactly limit.  False when a limit stopped it. */
static bool walk(Lang *lg, size_t limit, bool only_at_limit,
		 EvalSnapshot **snaps, uint32_t *next)
{
	bool streams = eval_streams(lg->ev);
	size_t na = lg->alpha->n, d = 0;
	bool at = true; /* the evaluator's state is snaps[d] */
	if (streams) {
		eval_reset(lg->ev);
		eval_save_to(lg->ev, snaps[0]);
	}
	if (!only_at_limit || limit == 0)
		visit(lg, 0);
	next[0] = 0;
	for (;;) {
		if (limit_poll(lg->limits))
			return false;
		if (d == limit || next[d] == na) {
			if (d == 0)
				break;
			d--;
			at = false;
			continue;
		}
		uint32_t a = next[d]++;
		lg->syms[d] = lg->alpha->letters[a];
		if (streams) {
			if (!at)
				eval_restore(lg->ev, snaps[d]);
			eval_push(lg->ev, lg->syms[d]);
		}
		d++;
		if (!only_at_limit || d == limit)
			visit(lg, d);
		at = d < limit;
		if (at) {
			if (streams)
				eval_save_to(lg->ev, snaps[d]);
			next[d] = 0;
		}
	}
	return true;
}

/* Words of length <= n over k letters, saturating at UINT64_MAX. */
static uint64_t job_words(size_t k, size_t n)
{
	uint64_t total = 1, power = 1;
	for (size_t l = 1; l <= n; l++) {
		if (k && power > UINT64_MAX / k)
			return UINT64_MAX;
		power *= k;
		if (total > UINT64_MAX - power)
			return UINT64_MAX;
		total += power;
	}
	return total;
}

/* A huge job is announced before it starts, with what bounds it. */
static void announce(const Lang *lg, size_t maxlen)
{
	uint64_t words = job_words(lg->alpha->n, maxlen);
	if (words <= 100000000u)
		return;
	if (words == UINT64_MAX)
		fprintf(stderr, "tally: note: lang visits more than 1.8e19 words "
				"(%zu letters, lengths 0..%zu)", lg->alpha->n, maxlen);
	else
		fprintf(stderr, "tally: note: lang visits %.3g words (%zu letters, "
				"lengths 0..%zu)", (double)words, lg->alpha->n,
			maxlen);
	fprintf(stderr, "%s\n", lg->limits->timeout > 0 ? ""
				 : "; bound it with --timeout=SECONDS");
}

/* Runs the walks; false (after a message) when a limit stopped them. */
static bool walk_all(Lang *lg, size_t maxlen, EvalSnapshot **snaps,
		     uint32_t *next)
{
	/* One walk gives every length at once; listing in shortlex order
	 * with two or more letters deepens the limit one length at a time. */
	if (lg->count || lg->alpha->n <= 1) {
		if (walk(lg, maxlen, false, snaps, next))
			return true;
		fflush(stdout);
		limit_report(lg->limits, "the listing is incomplete");
		return false;
	}
	for (size_t l = 0; l <= maxlen; l++) {
		if (walk(lg, l, true, snaps, next))
			continue;
		fflush(stdout);
		char what[64];
		if (l == 0)
			snprintf(what, sizeof what, "no length is complete");
		else
			snprintf(what, sizeof what, "lengths 0..%zu are complete",
				 l - 1);
		limit_report(lg->limits, what);
		return false;
	}
	return true;
}

bool cmd_lang_length(const char *s, size_t *out)
{
	uint64_t v;
	if (!number_parse_count(s, LANG_MAX_LENGTH, &v))
		return false;
	*out = (size_t)v;
	return true;
}

/* --count of a past-only formula: exact counts per length over merged
 * states, each line printed as soon as its length is complete. */
typedef struct {
	bool json;
	json_t *counts;
} CountOut;

static void emit_count(size_t len, const fmpz_t n, void *arg)
{
	CountOut *co = arg;
	if (co->json) {
		json_array_append_new(co->counts, json_fmpz(n));
		return;
	}
	printf("%zu\t", len);
	fmpz_fprint(stdout, n);
	putchar('\n');
	fflush(stdout);
}

static int count_states(Store *s, Node root, const Alphabet *alpha,
			const LangOptions *opt, Limits *lim)
{
	CountOut co = {.json = opt->json, .counts = json_array()};
	limit_start(lim);
	bool ok = lang_count(s, root, alpha, opt->accept, opt->max_length,
			     lim, emit_count, &co);
	if (co.json) {
		json_t *o = json_envelope();
		json_object_set_new(o, "alphabet", json_letters(alpha->syms, alpha->letters, alpha->n));
		json_object_set_new(o, "accept_at",
				    json_string(eval_accept_name(opt->accept)));
		json_object_set_new(o, "max_length",
				    json_integer((json_int_t)opt->max_length));
		json_object_set_new(o, "complete", json_boolean(ok));
		json_object_set_new(o, "counts", co.counts);
		json_emit(o);
	} else {
		json_decref(co.counts);
	}
	fflush(stdout);
	if (ok)
		return EXIT_YES;
	size_t done = co.json ? json_array_size(co.counts) : 0;
	char what[96];
	if (co.json)
		snprintf(what, sizeof what, "lengths 0..%zu are counted", done - 1);
	else
		snprintf(what, sizeof what, "the lengths printed are complete");
	limit_report(lim, what);
	return EXIT_LIMIT;
}

int cmd_lang_list(Store *s, Node root, const LangOptions *opt)
{
	Lang lg = {.accept = opt->accept, .count = opt->count, .json = opt->json,
		   .limits = opt->limits};
	Limits none;
	if (!lg.limits) {
		limit_init(&none);
		lg.limits = &none;
	}
	Alphabet alpha = {0};
	size_t maxlen = opt->max_length;
	alphabet_init_with(&alpha, s, &root, 1, opt->letters, opt->nletters,
			   opt->alphabet);
	lg.alpha = &alpha;
	lg.spaced = alphabet_spaced(&alpha);
	lg.ev = eval_new(s, &root, 1, lg.accept);
	/* The words are over this alphabet: said first, on stderr, so that
	 * stdout stays a list of words that eval and search --positive
	 * read (the REPL's transcript has it on stdout; JSON records carry
	 * it as "alphabet"). */
	if (!lg.json) {
		fflush(stdout);
		letters_print_line(opt->alphabet_stdout ? stdout : stderr,
				   alpha.syms, alpha.letters, alpha.n);
	} else {
		lg.alpha_json = json_letters(alpha.syms, alpha.letters, alpha.n);
	}
	if (lg.count && eval_streams(lg.ev)) {
		eval_free(lg.ev);
		int st = count_states(s, root, &alpha, opt, lg.limits);
		json_decref(lg.alpha_json);
		alphabet_free(&alpha);
		return st;
	}
	lg.syms = xcalloc(maxlen + 1, sizeof *lg.syms);
	lg.counts = xcalloc(maxlen + 1, sizeof *lg.counts);
	uint32_t *next = xcalloc(maxlen + 1, sizeof *next);
	EvalSnapshot **snaps = xcalloc(maxlen + 1, sizeof *snaps);
	if (eval_streams(lg.ev))
		for (size_t d = 0; d <= maxlen; d++)
			snaps[d] = eval_snapshot_new(lg.ev);
	announce(&lg, maxlen);
	limit_start(lg.limits);
	int status = EXIT_YES;
	if (!walk_all(&lg, maxlen, snaps, next))
		status = EXIT_LIMIT;
	else if (lg.count && lg.json) {
		json_t *o = json_envelope(), *c = json_array();
		for (size_t d = 0; d <= maxlen; d++)
			json_array_append_new(c, json_integer((json_int_t)lg.counts[d]));
		json_object_set(o, "alphabet", lg.alpha_json);
		json_object_set_new(o, "accept_at",
				    json_string(eval_accept_name(lg.accept)));
		json_object_set_new(o, "max_length", json_integer((json_int_t)maxlen));
		json_object_set_new(o, "counts", c);
		json_emit(o);
	} else if (lg.count) {
		for (size_t d = 0; d <= maxlen; d++)
			printf("%zu\t%llu\n", d, (unsigned long long)lg.counts[d]);
	}
	fflush(stdout);
	for (size_t d = 0; d <= maxlen; d++)
		eval_snapshot_free(snaps[d]);
	free(snaps);
	free(next);
	free(lg.syms);
	free(lg.counts);
	eval_free(lg.ev);
	json_decref(lg.alpha_json);
	alphabet_free(&alpha);
	return status;
}

int cmd_lang(int argc, char **argv)
{
	Inputs in;
	inputs_init(&in);
	Limits limits;
	limit_init(&limits);
	LangOptions lo = {.limits = &limits};
	bool have_len = false;
	const Option rows[] = {
		CLI_INPUT_ROWS(&in),
		OPTION_TEXT_ROW("Language:\n"),
		{.name = "max-length", .letter = 'n', .kind = OPTION_COUNT,
		 .meta = "N", .lo = 0, .hi = LANG_MAX_LENGTH,
		 .dest = &lo.max_length, .width = sizeof lo.max_length,
		 .given = &have_len, .help = "the longest words listed (required)"},
		OPTION_STRING_ROW(0, "alphabet", "LETTERS", &lo.alphabet,
				  "letters besides the formula's (a,b,c or abc)"),
		ACCEPT_AT_ROW(&lo.accept, "last (default) or eos (an appended end "
			      "marker)"),
		OPTION_TEXT_ROW("Output:\n"),
		OPTION_FLAG_ROW(0, "count", &lo.count,
				"print only LENGTH<TAB>COUNT for each length"),
		OPTION_FLAG_ROW(0, "json", &lo.json,
				"one JSON object per word (with --count: one\n"
				"object with the counts)"),
		CLI_LIMIT_ROWS(&limits),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	if (!have_len) {
		status = status_usage_error("lang needs --max-length=N");
		goto done;
	}
	status = cli_load_inputs(&in, argc, argv, false);
	if (status != EXIT_YES)
		goto done;
	if (in.nunits != 1) {
		status = status_usage_error("lang takes one formula or program, "
					 "not %zu", in.nunits);
		goto done;
	}
	lo.letters = in.units[0].letters;
	lo.nletters = in.units[0].nletters;
	status = cmd_lang_list(in.store, in.units[0].output, &lo);
done:
	inputs_free(&in);
	return status;
}
