/* cmd_eval.c -- `tally eval`: run formulas or programs on words. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/getopt_hint.h"
#include "cli/eval_file.h"
#include "cli/eval_jobs.h"
#include "cli/eval_values.h"
#include "core/cr_words.h"
#include "machine/eval.h"
#include "core/json.h"
#include "gen/labels.h"
#include "base/mem.h"
#include "base/parallel.h"
#include "machine/runeval.h"
#include "machine/seqeval.h"
#include "machine/trace.h"
#include "machine/trace_html.h"
#include "base/vec.h"
#include "core/word.h"

static const char intro[] =
	"Usage: tally eval [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM)...\n"
	"          [-w WORD]...\n"
	"Run formulas or C-RASP programs on words: one line per word,\n"
	"WORD<TAB>accept or WORD<TAB>reject (the empty word prints as the\n"
	"empty string), flushed per line.  Without -w, reads one word per\n"
	"line from stdin.  With several formulas (-f/-F/-P given more than\n"
	"once) each gets a verdict column, in the order given.\n\n";

static const char outro[] =
	"\n"
	"Semantics: positions are 1-based, counts #[..] inclusive; a word is\n"
	"accepted iff the formula holds at its last position; the empty word\n"
	"is judged at position 0 (letters false, counts 0).  A count-valued\n"
	"input (an integer term, a program of counts) prints its value at\n"
	"the last position instead of a verdict.\n"
	"Streaming: formulas without future counts #> (past-only, also with Y\n"
	"and MOD) are evaluated in one pass in memory independent of the word\n"
	"length (words of any length on stdin).  Formulas with #> take\n"
	"1 + (#> nesting) passes over the word: a file on stdin is read again\n"
	"(nothing kept; the first pass only counts letters when the innermost\n"
	"#> count letters only); from a pipe or -w the word is kept packed (2\n"
	"bits per symbol over two letters, at most 1 byte up to 255 letters),\n"
	"one pass fewer when the innermost #> count letters; --trace keeps\n"
	"4 bytes per symbol and 8 per subformula and position shown, --json\n"
	"the word's text.\n\n"
	"Examples:\n"
	"  printf '(()())\\n)(\\n\\n' | tally eval -f dyck1\n"
	"  tally eval -f \"#[Q_b] < #[Q_a]\" -w aab -w abb\n"
	"  tally eval --trace -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\" "
	"-w \"(())\"\n"
	"  tally eval -P prog.cr --tokens -w \"open close\"\n"
	"  tally eval -f histogram --per-position -w abbab\n"
	"  tally eval -P prog.cr --word-format=cr --open-alphabet < words.txt\n"
	"  tally eval -P prog.cr --word-format=cr --trace --html < words.txt "
	"> trace.html\n"
	"  tally eval --runs -f dyck1 -w \"(^100000000000000000000 )^100000000000000000000\"\n\n";

/* Longest word text held in memory for the echo; the rest of a longer
 * line goes to a temporary file, so that a result line is written whole
 * (word and verdict) or, after an error in the word, not at all. */
#define ECHO_MAX (64 * 1024)

typedef struct {
	Evaluator *ev;
	const Alphabet *alpha;
	Trace *trace;
	AcceptAt accept;
	bool json, html, buffered, echo;
	Buf page; /* --html: the word sections, printed at the end */
	size_t nwords, nrejected;
	size_t wlo, whi;
	VEC(Sym) word;
	size_t length; /* symbols of the current word (also when streaming) */
	Buf text;
	FILE *spill;   /* the echo beyond ECHO_MAX, or NULL */
	bool spilled, held_cr;
	bool *acc;
	size_t nroots;
	bool rejected;
	SeqEval *se;    /* sequence outputs (NULL: verdicts by ev) */
	EvalValues vals; /* with se: what it emitted for the word */
	unsigned jobs;   /* threads for a word judged in blocks */
	const char *direct; /* the echo, straight from the input, or NULL */
	size_t ndirect;
} Run;

static void on_letters(void *ctx, const Sym *s, size_t n)
{
	Run *r = ctx;
	r->length += n;
	if (r->buffered) {
		mem_grow((void **)&r->word.data, &r->word.cap, r->word.len + n,
			 sizeof *s);
		memcpy(r->word.data + r->word.len, s, n * sizeof *s);
		r->word.len += n;
	} else if (r->se) {
		for (size_t i = 0; i < n; i++)
			seqeval_push(r->se, s[i]);
	} else {
		eval_push_many(r->ev, s, n);
	}
}

/* A new word for the evaluator that streams. */
static void restart_eval(Run *r)
{
	if (r->se) {
		eval_values_clear(&r->vals);
		if (!r->buffered)
			seqeval_reset(r->se);
	} else if (!r->buffered) {
		eval_reset(r->ev);
	}
}

/* The verdicts (and, for sequence outputs, the values) of the word just
 * read. */
static void judge_word(Run *r)
{
	if (r->se) {
		if (r->buffered)
			seqeval_word(r->se, r->word.data, r->word.len);
		else
			seqeval_end(r->se);
		for (size_t i = 0; i < r->nroots; i++)
			r->acc[i] = eval_values_accepted(&r->vals, i);
	} else if (r->buffered) {
		eval_word(r->ev, r->word.data, r->word.len, r->acc);
	} else {
		for (size_t i = 0; i < r->nroots; i++)
			r->acc[i] = eval_accepts(r->ev, i);
	}
}

/* Runs of one-byte letters, straight to the evaluator (word.h). */
static size_t on_bytes(void *ctx, const unsigned char *b, size_t n,
		       const Sym *byte_sym)
{
	Run *r = ctx;
	size_t k = eval_push_bytes(r->ev, b, n, byte_sym);
	r->length += k;
	return k;
}

static void on_restart(void *ctx)
{
	Run *r = ctx;
	r->word.len = 0;
	r->length = 0;
	restart_eval(r);
}

/* Starts spilling the echo to a temporary file; false when none can be
 * made (the echo then stays in memory). */
static bool start_spill(Run *r)
{
	if (!r->spill && !(r->spill = tmpfile()))
		return false;
	if (r->text.len)
		fwrite(r->text.data, 1, r->text.len, r->spill);
	r->text.len = 0;
	r->spilled = true;
	return true;
}

static void on_text(void *ctx, const char *bytes, size_t n)
{
	Run *r = ctx;
	if (n == 0 || !r->echo)
		return;
	if (!r->spilled && !r->json && !r->trace && r->text.len + n > ECHO_MAX)
		start_spill(r);
	if (!r->spilled) {
		buf_append(&r->text, bytes, n);
		return;
	}
	/* A final CR belongs to the line ending, not to the word. */
	if (r->held_cr)
		fputc('\r', r->spill);
	r->held_cr = bytes[n - 1] == '\r';
	fwrite(bytes, 1, n - r->held_cr, r->spill);
}

/* Empties the spill file for the next line. */
static void reset_spill(Run *r)
{
	rewind(r->spill);
	if (ftruncate(fileno(r->spill), 0) != 0)
		clearerr(r->spill);
}

/* Writes the spilled echo to stdout. */
static void copy_spill(Run *r)
{
	char buf[1 << 16];
	size_t got;
	fflush(r->spill);
	rewind(r->spill);
	while ((got = fread(buf, 1, sizeof buf, r->spill)) > 0)
		fwrite(buf, 1, got, stdout);
}

/* Forgets the current line's echo (after it was printed, or an error). */
static void drop_echo(Run *r)
{
	r->text.len = 0;
	if (r->spilled)
		reset_spill(r);
	r->spilled = r->held_cr = false;
}

/* Writes a mapped line (judge_line) straight from the mapping: a copy
 * through a buffer first cost a third of a 10^8-letter run's CPU time,
 * to a file and to a pipe alike. */
static void echo_direct(const char *p, size_t n)
{
	fwrite(p, 1, n, stdout);
}

static bool on_end(void *ctx)
{
	Run *r = ctx;
	if (!r->spilled && r->text.len && r->text.data[r->text.len - 1] == '\r')
		r->text.len--;
	if (!r->buffered && !r->se && eval_too_long(r->ev)) {
		drop_echo(r);
		status_usage_error("a word is longer than the evaluator supports");
		return false;
	}
	judge_word(r);
	bool all = true;
	for (size_t i = 0; i < r->nroots; i++)
		all = all && r->acc[i];
	r->rejected |= !all;
	EvalTable *t = r->trace ? trace_table(r->trace, r->accept,
					      r->word.data, r->word.len,
					      r->wlo, r->whi)
				: NULL;
	if (r->html) {
		json_t *tj = trace_json(r->trace, t, r->word.data, r->word.len);
		trace_html_word(&r->page, tj, r->text.data ? r->text.data : "",
				r->text.len, r->acc, r->nroots);
		r->nwords++;
		r->nrejected += !all;
		json_decref(tj);
	} else if (r->json) {
		json_t *o = json_envelope();
		json_t *w = json_stringn(r->text.data ? r->text.data : "",
					 r->text.len);
		if (r->echo)
			json_object_set_new(o, "word", w ? w : json_null());
		else
			json_decref(w);
		json_object_set_new(o, "length", json_integer((json_int_t)r->length));
		json_object_set_new(o, "alphabet", json_letters(r->alpha->syms, r->alpha->letters, r->alpha->n));
		json_object_set_new(o, "accept_at",
				    json_string(eval_accept_name(r->accept)));
		/* a verdict only where every output is Boolean */
		bool verdict = !r->se || !r->vals.any_int;
		if (r->se)
			eval_values_json(&r->vals, o);
		if (verdict)
			json_object_set_new(o, "accepted", json_boolean(all));
		if (verdict && r->nroots > 1) {
			json_t *v = json_array();
			for (size_t i = 0; i < r->nroots; i++)
				json_array_append_new(v, json_boolean(r->acc[i]));
			json_object_set_new(o, "accepted_per_input", v);
		}
		if (t)
			json_object_set_new(o, "trace",
					    trace_json(r->trace, t, r->word.data,
						       r->word.len));
		json_emit(o);
	} else {
		if (r->direct)
			echo_direct(r->direct, r->ndirect);
		else if (r->spilled)
			copy_spill(r);
		else if (r->text.len)
			fwrite(r->text.data, 1, r->text.len, stdout);
		for (size_t i = 0; i < r->nroots; i++) {
			if (i || r->echo)
				putchar('\t');
			if (r->se)
				eval_values_print(&r->vals, i, stdout);
			else
				fputs(r->acc[i] ? "accept" : "reject", stdout);
		}
		putchar('\n');
		if (t) {
			trace_print(r->trace, t, r->word.data, r->word.len, stdout);
			putchar('\n');
		}
	}
	eval_table_free(t);
	fflush(stdout);
	drop_echo(r);
	r->word.len = 0;
	r->length = 0;
	restart_eval(r);
	return true;
}

/* A whole line of stdin for eval_jobs_read: judged in blocks when every
 * byte of it is a one-byte letter (and the formulas allow it), printed
 * as on_end prints any word. */
static int judge_line(void *ctx, const unsigned char *line, size_t n)
{
	Run *r = ctx;
	/* a final CR is the line ending's (on_end), not a letter */
	if (line[n - 1] == '\r' ||
	    !eval_push_word_jobs(r->ev, line, n, r->alpha->byte_sym, r->jobs))
		return 0;
	r->length = n;
	if (r->json)
		on_text(r, (const char *)line, n);
	else if (r->echo)
		r->direct = (const char *)line, r->ndirect = n;
	bool ok = on_end(r);
	r->direct = NULL;
	return ok ? 1 : -1;
}

/* Whether stdin goes to the block-parallel evaluator, and from which
 * line length: --jobs=N (N >= 2) every line, by default the lines of
 * at least EVAL_JOBS_WORD bytes of a file of at least EVAL_JOBS_FILE
 * bytes, with all cores; --jobs=1 those of any file, in order.  Only
 * Boolean verdicts of past-only formulas over one-character letters,
 * without --trace (which keeps the word). */
static size_t jobs_min_line(Run *r, const EvalOptions *opt)
{
	if (!r->ev || r->buffered || r->html || opt->tokens ||
	    opt->cr_words || !eval_streams(r->ev))
		return 0;
	/* --jobs=1: long words of a file read in order from the mapping,
	 * whose echo is then written from there, not spilled */
	if (opt->jobs == 1) {
		r->jobs = 1;
		return eval_jobs_file_size() ? EVAL_JOBS_WORD : 0;
	}
	if (opt->jobs) {
		r->jobs = opt->jobs;
		return 1;
	}
	if (eval_jobs_file_size() < EVAL_JOBS_FILE ||
	    (r->jobs = parallel_cores()) < 2)
		return 0;
	return EVAL_JOBS_WORD;
}

static bool stdin_taken(const Inputs *in)
{
	for (size_t i = 0; i < in->nspecs; i++)
		if (in->specs[i].kind != INPUT_FORMULA &&
		    strcmp(in->specs[i].text, "-") == 0)
			return true;
	return false;
}

static bool feed(WordReader *wr, CrWords *cw, const char *buf, size_t n)
{
	return cw ? cr_words_feed(cw, buf, n) : word_feed(wr, buf, n);
}

/* cw: the interpreter's line format in front of the reader, or NULL. */
static bool read_stdin(WordReader *wr, CrWords *cw)
{
	enum { CHUNK = 1 << 16 }; /* the reader works on it while it is in cache */
	char *buf = xmalloc(CHUNK);
	bool ok = true;
	for (;;) {
		size_t got;
		if (!eval_jobs_read_stdin(buf, CHUNK, &got)) {
			ok = false;
			break;
		}
		if (got == 0) {
			ok = cw ? cr_words_close(cw) : word_close(wr);
			break;
		}
		if (!feed(wr, cw, buf, got)) {
			ok = false;
			break;
		}
	}
	free(buf);
	return ok;
}

/* One run-length word: its verdicts, printed like any word. */
static bool runs_line(Run *r, RunEval *re, const char *text, size_t n)
{
	Runs w;
	runs_init(&w);
	char *err = NULL;
	bool ok = runs_parse(text, n, r->alpha, &w, &err) &&
		  runeval_word(re, &w, r->acc, &err);
	if (!ok) {
		status_usage_error("--runs: %s", err);
		free(err);
		runs_clear(&w);
		return false;
	}
	bool all = true;
	for (size_t i = 0; i < r->nroots; i++)
		all = all && r->acc[i];
	r->rejected |= !all;
	if (r->json) {
		json_t *o = json_envelope();
		json_object_set_new(o, "word", json_stringn(text, n));
		fmpz_t len;
		fmpz_init(len);
		runs_length(&w, len);
		json_object_set_new(o, "length", json_fmpz(len));
		fmpz_clear(len);
		json_object_set_new(o, "accept_at",
				    json_string(eval_accept_name(r->accept)));
		json_object_set_new(o, "accepted", json_boolean(all));
		json_emit(o);
	} else {
		if (r->echo)
			fwrite(text, 1, n, stdout);
		for (size_t i = 0; i < r->nroots; i++)
			printf(i || r->echo ? "\t%s" : "%s",
			       r->acc[i] ? "accept" : "reject");
		putchar('\n');
	}
	fflush(stdout);
	runs_clear(&w);
	return true;
}

/* --runs: the words given, or stdin lines, in run-length form. */
static bool eval_runs(Run *r, const Store *s, const Node *roots,
		      const char *const *words, size_t nwords)
{
	RunEval *re = runeval_new(s, roots, r->nroots, r->accept);
	bool ok = true;
	for (size_t i = 0; i < nwords && ok; i++)
		ok = runs_line(r, re, words[i], strlen(words[i]));
	if (nwords == 0) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t got;
		while (ok && (got = getline(&line, &cap, stdin)) >= 0) {
			size_t n = (size_t)got;
			while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
				n--;
			ok = runs_line(r, re, line, n);
		}
		free(line);
	}
	runeval_free(re);
	return ok;
}

int cmd_eval_words(Store *s, const Unit *units, size_t nunits,
		   const EvalOptions *opt, const char *const *words,
		   size_t nwords, Diag *d)
{
	Run run = {.accept = opt->accept, .json = opt->json, .html = opt->html,
		   .echo = !opt->no_echo, .wlo = opt->wlo, .whi = opt->whi};
	Alphabet alpha = {0};
	run.nroots = nunits;
	Node *roots = xmalloc((nunits ? nunits : 1) * sizeof *roots);
	for (size_t i = 0; i < nunits; i++)
		roots[i] = units[i].output;
	run.acc = xcalloc(nunits ? nunits : 1, sizeof *run.acc);
	alphabet_init_units(&alpha, s, roots, nunits, units, nunits,
			    opt->alphabet);
	if (opt->open_alphabet)
		alphabet_open(&alpha);
	run.alpha = &alpha;
	bool seq = opt->per_position || eval_values_any_int(s, roots, nunits);
	if (opt->runs && seq) {
		alphabet_free(&alpha);
		free(run.acc);
		free(roots);
		return status_usage_error("--runs judges Boolean outputs at the "
					  "last position, not sequence outputs "
					  "(count-valued or --per-position)");
	}
	if (opt->runs) {
		bool ok = !opt->trace ? eval_runs(&run, s, roots, words, nwords)
				      : (status_usage_error("--runs: no --trace (the "
						"trace has a column per letter)"), false);
		alphabet_free(&alpha);
		free(run.acc);
		free(roots);
		return !ok ? EXIT_USAGE : run.rejected ? EXIT_NO : EXIT_YES;
	}
	if (seq) {
		eval_values_init(&run.vals, s, roots, nunits, opt->per_position,
				 opt->json);
		run.se = seqeval_new(s, roots, nunits, run.accept,
				     eval_values_emit, &run.vals);
		seqeval_reset(run.se);
	} else {
		run.ev = eval_new(s, roots, nunits, run.accept);
	}
	if (opt->trace)
		run.trace = trace_new(s, units, nunits);
	/* the evaluator keeps what #> needs; the sequence evaluator does not */
	run.buffered = opt->trace || (seq && !seqeval_streams(run.se));
	WordSink sink = {&run, on_letters, on_restart, on_text, on_end};
	WordReader wr;
	word_reader_init(&wr, &alpha, opt->tokens || opt->cr_words, &sink, d);
	if (!run.buffered && run.ev) /* one-byte letters straight to the evaluator */
		word_reader_bytes(&wr, on_bytes);
	CrWords cw;
	cr_words_init(&cw, &wr);
	bool ok = true;
	for (size_t i = 0; i < nwords && ok; i++)
		ok = word_one(&wr, words[i], strlen(words[i]));
	size_t min_line = nwords ? 0 : jobs_min_line(&run, opt);
	/* #> over a file: passes that read the file again, not the word kept */
	bool passes = run.ev && !run.buffered && !eval_streams(run.ev) &&
		      !opt->cr_words && eval_file_usable(STDIN_FILENO);
	if (min_line)
		ok = eval_jobs_read(&wr, min_line, judge_line, &run);
	else if (nwords == 0 && passes)
		ok = eval_file_read(STDIN_FILENO, run.ev, &wr, &alpha,
				    opt->tokens, d);
	else if (nwords == 0)
		ok = read_stdin(&wr, opt->cr_words ? &cw : NULL);
	if (run.html && ok)
		trace_html_page(stdout, &run.page, run.nwords, run.nrejected);
	cr_words_free(&cw);
	word_reader_free(&wr);
	if (!ok)
		drop_echo(&run);
	if (run.spill)
		fclose(run.spill);
	eval_free(run.ev);
	if (seq) {
		seqeval_free(run.se);
		eval_values_free(&run.vals);
	}
	trace_free(run.trace);
	alphabet_free(&alpha);
	free(run.acc);
	free(roots);
	free(run.word.data);
	buf_free(&run.text);
	buf_free(&run.page);
	fflush(stdout);
	return !ok ? EXIT_USAGE : run.rejected ? EXIT_NO : EXIT_YES;
}

static const char *const word_formats[] = {"lines", "cr", NULL};

int cmd_eval(int argc, char **argv)
{
	Inputs in;
	inputs_init(&in);
	in.terms = true; /* count-valued programs print their values */
	EvalOptions eo = {.wlo = 0, .whi = SIZE_MAX};
	CliWords words = {0};
	bool check_labels = false;
	int word_format = 0; /* the index of word_formats */
	const Option rows[] = {
		CLI_INPUT_ROWS(&in),
		CLI_BATCH_ROW(&in),
		OPTION_TEXT_ROW("Words:\n"),
		CLI_WORD_ROW(&words, "a word (repeatable; '' or ε: the empty "
			     "word);\notherwise stdin lines"),
		OPTION_FLAG_ROW(0, "tokens", &eo.tokens,
				"words are whitespace-separated symbols (also\n"
				"automatic for a line containing whitespace)"),
		OPTION_STRING_ROW(0, "alphabet", "LETTERS", &eo.alphabet,
				  "allow these letters besides the formulas'\n"
				  "(a,b,c or abc)"),
		ACCEPT_AT_ROW(&eo.accept, "last (default: judge at the last "
			      "position) or\neos (at an appended end marker)"),
		OPTION_CHOICE_INDEX_ROW("word-format", "FMT", word_formats,
					&word_format,
					"lines (default: one word per line) or cr\n"
					"(the Python C-RASP interpreter's files: "
					"lines\nstarting with // and blank lines "
					"are skipped,\ntokens are separated by "
					"whitespace)"),
		OPTION_FLAG_ROW(0, "open-alphabet", &eo.open_alphabet,
				"allow letters no formula mentions (every\n"
				"letter test is false on them)"),
		OPTION_COUNT_ROW(0, "jobs", "N", 1, PARALLEL_MAX_JOBS, &eo.jobs,
				 "threads for a long word from stdin, read\n"
				 "in passes over blocks (default: every core\n"
				 "for words of 1 MiB in a file of 8 MiB;\n"
				 "--jobs=N: every word)"),
		OPTION_FLAG_ROW(0, "runs", &eo.runs,
				"words in run-length form (a^1000000 b^3 a),\n"
				"evaluated run by run in time independent of\n"
				"the run lengths"),
		OPTION_TEXT_ROW("Output:\n"),
		OPTION_FLAG_ROW(0, "trace", &eo.trace,
				"after each verdict, the value of every\n"
				"subformula (or definition) at every position"),
		{.name = "trace-window", .kind = OPTION_RANGE, .meta = "RANGE",
		 .lo = 0, .hi = SIZE_MAX, .dest = &eo.wlo, .dest2 = &eo.whi,
		 .width = sizeof eo.wlo, .given = &eo.trace,
		 .help = "only positions N, N..M, ..M or N.."},
		OPTION_FLAG_ROW(0, "html", &eo.html,
				"with --trace: one self-contained HTML page on\n"
				"stdout (a table per word, verdict on top, true\n"
				"cells marked) instead of text"),
		OPTION_FLAG_ROW(0, "json", &eo.json, "one JSON object per word"),
		OPTION_FLAG_ROW(0, "per-position", &eo.per_position,
				"every position's value (1/0, or a count),\n"
				"not only the last: WORD<TAB>v1 v2 ..."),
		OPTION_FLAG_ROW(0, "no-echo", &eo.no_echo,
				"print only the verdicts, not the word"),
		OPTION_FLAG_ROW(0, "check-labels", &check_labels,
				"stdin holds labelled words (tally gen's\n"
				"TSV, JSONL or .cr records): evaluate every\n"
				"label again, print the disagreements (exit 1)"),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	eo.cr_words = word_format == 1;
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	if (optind < argc) {
		status = status_usage_error("unexpected argument '%s' (words go "
					 "after -w)", argv[optind]);
		goto done;
	}
	for (size_t i = 0; i < words.len; i++)
		if (strchr(words.data[i], '\n')) {
			status = status_usage_error("-w: a word cannot contain a "
						 "newline");
			goto done;
		}
	if (eo.runs && eo.cr_words) {
		status = status_usage_error("--runs reads its own word format, not "
					 "--word-format=cr");
		goto done;
	}
	if (eo.html && (!eo.trace || eo.json)) {
		status = status_usage_error("--html goes with --trace (and not "
					 "with --json)");
		goto done;
	}
	if (in.nspecs == 0) {
		status = status_usage_error("no formula: give -f FORMULA, -F FILE "
					 "or -P PROGRAM");
		goto done;
	}
	if (!inputs_load(&in, false)) {
		status = inputs_failure(&in);
		goto done;
	}
	if (check_labels) {
		status = words.len || eo.trace || eo.json || eo.runs || eo.cr_words
			 ? status_usage_error("--check-labels reads labelled words "
					   "on stdin, with no other word option")
			 : labels_check(in.store, in.units, in.nunits,
					eo.alphabet, eo.accept, stdin, &in.diag);
		goto done;
	}
	if (words.len == 0 && (stdin_taken(&in) || isatty(STDIN_FILENO))) {
		status = status_usage_error("no words: give -w WORD or one word "
					 "per line on stdin");
		goto done;
	}
	status = cmd_eval_words(in.store, in.units, in.nunits, &eo, words.data,
				words.len, &in.diag);
done:
	VEC_FREE(words);
	inputs_free(&in);
	return status;
}
