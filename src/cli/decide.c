/* decide.c -- verdicts of `tally equiv` and `tally check` (see decide.h). */
#include <config.h>
#include "cli/decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "decide/chc.h"
#include "decide/crosscheck.h"
#include "decide/explore.h"
#include "cli/getopt_hint.h"
#include "core/json.h"
#include "base/mem.h"
#include "decide/mona.h"
#include "decide/method.h"
#include "decide/presburger.h"
#include "machine/runeval.h"
#include "machine/trace.h"
#include "decide/unary.h"
#include "core/word.h"

/* The default time budget of --method=auto without --max-length. */
#define DEFAULT_TIMEOUT 3.0
/* Memory explore may use unless --max-memory says otherwise. */
#define DEFAULT_MEMORY ((size_t)1 << 30)
/* Counterexamples up to this length print letter by letter, and get a
 * trace / JSON values. */
#define PLAIN_MAX 200

/* ---- the methods -------------------------------------------------------------- */

typedef struct {
	const char *name;
	MethodFn fn;    /* NULL: not built into this tally yet */
	bool complete;  /* decides every length: auto tries it first */
} Method;

/* One row per method.  A complete method answers NOT_APPLICABLE outside
 * its fragment, so auto simply tries the rows in order. */
static const Method methods[] = {
	{"presburger", presburger_decide, true},
	{"unary", unary_decide, true},
	{"mona", mona_decide, true},
	{"chc", chc_decide, true},
	{"explore", explore_decide, false},
};
enum { NMETHODS = sizeof methods / sizeof methods[0] };

static const Method *find_method(const char *name)
{
	for (size_t i = 0; i < NMETHODS; i++)
		if (strcmp(methods[i].name, name) == 0)
			return &methods[i];
	return NULL;
}

/* ---- options -------------------------------------------------------------------- */

void decide_options_init(DecideOptions *o)
{
	memset(o, 0, sizeof *o);
	limit_init(&o->lim);
	o->method = "auto";
	o->accept = ACCEPT_LAST;
}

const char *const decide_methods[] = {"auto", "explore", "presburger",
				      "chc", "mona", "unary", NULL};

/* ---- the alphabet ----------------------------------------------------------------- */

/* ---- running the methods ------------------------------------------------------ */

typedef struct {
	Inputs *in;
	DecideTask task;
	const DecideOptions *o;
	Node root[2];
	Alphabet alpha;
	Query q;
	Limits lim;      /* the user's, or the default budget */
	double complete_end; /* with --max-length but no --timeout: when
			      * the complete methods' default budget ends
			      * (0: no such budget) */
	bool user_limit; /* a limit the user gave bounds the search */
	MethodResult res;
	const char *method; /* the method the verdict rests on */
	bool accepted_by_first;
	char *note;          /* extra words for the method line, or NULL */
} Decision;

static void run_method(Decision *d, const Method *m, MethodResult *out)
{
	Query q = d->q;
	/* Explore polls the deadline (limit.c); the solvers behind the
	 * complete methods get the time left as their own budget. */
	if (m->complete && d->lim.timeout > 0) {
		q.timeout = limit_left(&d->lim);
		/* Complete methods leave explore half of the budget. */
		if (strcmp(d->o->method, "auto") == 0)
			q.timeout /= 2;
	} else if (m->complete && d->complete_end > 0) {
		/* A bounded question must end: explore answers it, the
		 * complete methods only get a few seconds to do better. */
		double left = d->complete_end - limit_now();
		q.timeout = left > 0.01 ? left : 0.01;
	}
	method_result_init(out);
	m->fn(&q, out);
}

/* Another method's witness may not be shortest, or not the first
 * shortest one in shortlex order: explore up to its length finds the
 * first shortest word (the same word whichever method found one). */
static void shorten(Decision *d)
{
	if (strcmp(d->method, "explore") == 0)
		return;
	fmpz_t len;
	fmpz_init(len);
	runs_length(&d->res.witness, len);
	if (fmpz_cmp_ui(len, 100000) <= 0) {
		MethodResult r;
		Query keep = d->q;
		d->q.max_length = fmpz_get_ui(len);
		/* A few seconds of its own at most (and the memory bound).
		 * The default budget is nobody's limit and may be spent by
		 * now (a loaded machine): the word printed must not depend
		 * on it.  A user's limit still bounds it. */
		Limits memory_only;
		limit_init(&memory_only);
		memory_only.max_memory = d->lim.max_memory;
		if (!d->user_limit)
			d->q.limits = &memory_only;
		if (!d->user_limit || d->lim.timeout <= 0)
			d->q.timeout = 5.0;
		run_method(d, find_method("explore"), &r);
		d->q = keep;
		if (r.status == MR_DIFFERENT) {
			runs_clear(&d->res.witness);
			d->res.witness = r.witness;
			runs_init(&r.witness);
			d->res.witness_shortest = true;
		} else if (!d->note) {
			d->note = xstrdup("the search for the first such word "
					  "in shortlex order stopped at a limit");
		}
		method_result_free(&r);
	}
	fmpz_clear(len);
}

static void decide(Decision *d)
{
	const DecideOptions *o = d->o;
	if (d->root[0] == d->root[1] && strcmp(o->method, "auto") == 0) {
		/* Hash-consing: equal nodes are the same formula. */
		d->method = "normalisation";
		d->res.status = MR_EQUIVALENT;
		d->res.certificate = xstrdup("both inputs normalise to the same "
					     "formula (one node of the store)\n");
		return;
	}
	if (strcmp(o->method, "auto") != 0) {
		const Method *m = find_method(o->method);
		d->method = m->name;
		run_method(d, m, &d->res);
		if (d->res.status == MR_DIFFERENT)
			shorten(d);
		return;
	}
	for (size_t i = 0; i < NMETHODS; i++) {
		const Method *m = &methods[i];
		if (!m->complete || !m->fn)
			continue;
		run_method(d, m, &d->res);
		d->method = m->name;
		if (d->res.status == MR_EQUIVALENT ||
		    d->res.status == MR_INTERNAL)
			return;
		if (d->res.status == MR_DIFFERENT) {
			shorten(d);
			return;
		}
		method_result_free(&d->res);
		if (limit_check(&d->lim))
			break;
	}
	d->method = "explore";
	run_method(d, find_method("explore"), &d->res);
}

/* Evaluates both roots on the witness, run by run: the verdict is
 * printed only when they really differ.  False after a message. */
static bool recheck(Decision *d)
{
	RunEval *re = runeval_new(d->in->store, d->root, 2, d->q.accept);
	bool acc[2];
	char *err = NULL;
	bool ok = runeval_word(re, &d->res.witness, acc, &err);
	runeval_free(re);
	if (!ok) {
		fprintf(stderr, "tally: error: cannot re-check the counterexample "
				"of method %s: %s\n", d->method, err);
		free(err);
		return false;
	}
	if (acc[0] == acc[1]) {
		fprintf(stderr, "tally: internal error: method %s gave a word "
				"on which both sides agree\n", d->method);
		return false;
	}
	d->accepted_by_first = acc[0];
	return true;
}

/* A word as people read it: the empty word is ε (JSON keeps ""). */
static char *word_text(const Decision *d, const Runs *w)
{
	return w->n ? runs_format(w, d->alpha.syms, PLAIN_MAX) : xstrdup("ε");
}

/* TALLY_INJECT_PROOF=1 (tests only, HACKING.md): the method's answer is
 * replaced by a proof, so that tests can see that a false one never
 * reaches the output. */
static void inject_fault(Decision *d)
{
	const char *f = getenv("TALLY_INJECT_PROOF");
	if (!f || strcmp(f, "1") != 0)
		return;
	method_result_free(&d->res);
	d->res.status = MR_EQUIVALENT;
}

/* A proof or a bounded answer is printed only when the evaluator agrees
 * on every short word (crosscheck.h): a method's encoding error must not
 * become a verdict.  False after an internal-error message naming the
 * word. */
static bool crosscheck(Decision *d)
{
	const MethodResult *r = &d->res;
	if (r->status == MR_INTERNAL) {
		fprintf(stderr, "tally: internal error: method %s: %s; no "
				"verdict is printed\n", d->method,
			r->reason ? r->reason : "its own check failed");
		return false;
	}
	bool bounded = r->status == MR_BOUNDED ||
		       (r->status == MR_LIMIT && !d->user_limit &&
			d->method && strcmp(d->method, "explore") == 0);
	if (r->status != MR_EQUIVALENT && !bounded)
		return true;
	size_t len = crosscheck_length(d->q.nletters, bounded ? r->bound : 0);
	if (bounded && r->bound < len)
		len = r->bound;
	Runs w;
	runs_init(&w);
	bool ok = crosscheck_words(&d->q, len, &w);
	if (!ok) {
		char *text = word_text(d, &w);
		fprintf(stderr, "tally: internal error: method %s claimed the "
				"sides agree%s, but evaluating them separates "
				"them on the word '%s'; no verdict is printed\n",
			d->method ? d->method : "none",
			bounded ? " on the words it checked" : "", text);
		free(text);
	}
	runs_clear(&w);
	return ok;
}

/* ---- printing ------------------------------------------------------------------- */

typedef enum { OUT_EQUAL, OUT_DIFFERENT, OUT_BOUNDED, OUT_UNKNOWN } Outcome;

static Outcome outcome(const Decision *d)
{
	switch (d->res.status) {
	case MR_EQUIVALENT: return OUT_EQUAL;
	case MR_DIFFERENT: return OUT_DIFFERENT;
	case MR_BOUNDED: return OUT_BOUNDED;
	/* Running out of the default budget is the normal end of an
	 * unbounded search: what it covered is a bounded answer. */
	case MR_LIMIT:
		/* Only explore's bound says which lengths were covered. */
		return !d->user_limit && strcmp(d->method, "explore") == 0
			       ? OUT_BOUNDED : OUT_UNKNOWN;
	default: return OUT_UNKNOWN;
	}
}

static int exit_status(const Decision *d, Outcome oc)
{
	bool sat = d->task == TASK_SAT;
	switch (oc) {
	case OUT_EQUAL: return sat ? EXIT_NO : EXIT_YES;
	case OUT_DIFFERENT: return sat ? EXIT_YES : EXIT_NO;
	case OUT_BOUNDED: return EXIT_UNKNOWN;
	default:
		return d->res.status == MR_LIMIT && d->user_limit ? EXIT_LIMIT
								   : EXIT_UNKNOWN;
	}
}

/* The first output line. */
static char *verdict_line(const Decision *d, Outcome oc)
{
	static const char *const words[][3] = {
		/* equal, different, bounded prefix */
		[TASK_EQUIV] = {"equivalent", "not equivalent", "equivalent"},
		[TASK_SAT] = {"unsatisfiable", "satisfiable", "unsatisfiable"},
		[TASK_VALID] = {"valid", "not valid", "valid"},
		[TASK_IMPLIES] = {"valid", "not valid", "valid"},
	};
	Buf b = {0};
	switch (oc) {
	case OUT_EQUAL: buf_puts(&b, words[d->task][0]); break;
	case OUT_DIFFERENT: buf_puts(&b, words[d->task][1]); break;
	case OUT_BOUNDED:
		buf_printf(&b, "%s up to length %zu", words[d->task][2],
			   d->res.bound);
		break;
	default: buf_puts(&b, "unknown"); break;
	}
	return buf_take(&b);
}

/* "explore (1234 states visited, every word up to length 40 checked)". */
static char *method_line(const Decision *d, Outcome oc)
{
	const MethodResult *r = &d->res;
	Buf b = {0};
	buf_puts(&b, d->method ? d->method : "none");
	Buf det = {0};
	buf_puts(&det, "");
	if (strcmp(d->method ? d->method : "", "explore") == 0) {
		const char *s = r->states == 1 ? "" : "s";
		if (r->status == MR_EQUIVALENT)
			buf_printf(&det, "%zu reachable state%s, all checked",
				   r->states, s);
		else
			buf_printf(&det, "%zu state%s visited, every word up to "
					 "length %zu checked",
				   r->states, s, r->bound);
	}
	if (r->reason)
		buf_printf(&det, "%s%s", det.len ? "; " : "", r->reason);
	if (oc == OUT_DIFFERENT && !r->witness_shortest)
		buf_printf(&det, "%sthe counterexample may not be a shortest one",
			   det.len ? "; " : "");
	if (d->note)
		buf_printf(&det, "%s%s", det.len ? "; " : "", d->note);
	if (det.len)
		buf_printf(&b, " (%s)", det.data);
	buf_free(&det);
	return buf_take(&b);
}

/* The units the trace shows, with their labels. */
static size_t trace_units(const Decision *d, const Unit **units,
			  const char **labels)
{
	units[0] = &d->in->units[0];
	bool two = d->task == TASK_EQUIV || d->task == TASK_IMPLIES;
	labels[0] = d->task == TASK_EQUIV ? "first" : "input";
	if (two) {
		units[1] = &d->in->units[1];
		labels[1] = d->task == TASK_EQUIV ? "second" : "implies";
	}
	return two ? 2 : 1;
}

static void print_trace(const Decision *d, const Sym *w, size_t n)
{
	const Unit *units[2];
	const char *labels[2];
	size_t nu = trace_units(d, units, labels);
	for (size_t i = 0; i < nu; i++) {
		Trace *tr = trace_new(d->in->store, units[i], 1);
		EvalTable *t = trace_table(tr, d->q.accept, w, n, 0, SIZE_MAX);
		printf("\n%s:\n", labels[i]);
		trace_print(tr, t, w, n, stdout);
		eval_table_free(t);
		trace_free(tr);
	}
}

static json_t *sides_json(const Decision *d, const Sym *w, size_t n)
{
	const Unit *units[2];
	const char *labels[2];
	size_t nu = trace_units(d, units, labels);
	json_t *arr = json_array();
	for (size_t i = 0; i < nu; i++) {
		Trace *tr = trace_new(d->in->store, units[i], 1);
		EvalTable *t = trace_table(tr, d->q.accept, w, n, 0, SIZE_MAX);
		json_t *o = json_object();
		json_object_set_new(o, "input", json_string(labels[i]));
		json_object_set_new(o, "trace", trace_json(tr, t, w, n));
		json_array_append_new(arr, o);
		eval_table_free(t);
		trace_free(tr);
	}
	return arr;
}

static const char *accepted_by(const Decision *d)
{
	return d->accepted_by_first ? "first" : "second";
}

static void print_json(const Decision *d, Outcome oc, const char *verdict,
		       const char *method)
{
	const MethodResult *r = &d->res;
	json_t *o = json_envelope();
	static const char *const cmd[] = {"equiv", "check --sat",
					  "check --valid", "check --implies"};
	json_object_set_new(o, "command", json_string(cmd[d->task]));
	const DecideRecord *rec = d->o->record;
	if (rec) {
		json_object_set_new(o, "input", json_integer((json_int_t)rec->index));
		json_object_set_new(o, "source", json_string(rec->source));
		if (rec->expected) {
			json_object_set_new(o, "expected",
					    json_string(rec->expected));
			json_object_set_new(o, "as_expected",
					    json_boolean(rec->result->as_expected));
		}
	}
	json_t *alpha = json_array();
	for (size_t i = 0; i < d->alpha.n; i++)
		json_array_append_new(
			alpha, json_string(sym_name(d->alpha.syms,
						    d->alpha.letters[i])));
	json_object_set_new(o, "alphabet", alpha);
	json_object_set_new(o, "accept_at",
			    json_string(eval_accept_name(d->q.accept)));
	json_object_set_new(o, "verdict", json_string(verdict));
	static const char *const outcome_names[] = {
		[OUT_EQUAL] = "proved", [OUT_DIFFERENT] = "refuted",
		[OUT_BOUNDED] = "bounded", [OUT_UNKNOWN] = "unknown"};
	/* The outcome is the question's (are they equivalent; is it valid,
	 * satisfiable; does F imply G): "proved" exactly when the exit
	 * status is 0, "refuted" when it is 1.  --sat is asked as "is it
	 * equivalent to false", so its two are the other way round. */
	Outcome asked = oc;
	if (d->task == TASK_SAT && (oc == OUT_EQUAL || oc == OUT_DIFFERENT))
		asked = oc == OUT_EQUAL ? OUT_DIFFERENT : OUT_EQUAL;
	json_object_set_new(o, "outcome", json_string(outcome_names[asked]));
	json_object_set_new(o, "method", json_string(d->method ? d->method : "none"));
	json_object_set_new(o, "method_line", json_string(method));
	json_object_set_new(o, "states", json_integer((json_int_t)r->states));
	if (oc == OUT_BOUNDED || r->status == MR_LIMIT ||
	    (oc == OUT_DIFFERENT && d->method && strcmp(d->method, "explore") == 0))
		json_object_set_new(o, "bound", json_integer((json_int_t)r->bound));
	if (oc == OUT_DIFFERENT) {
		json_t *ce = json_object();
		char *text = runs_format(&r->witness, d->alpha.syms, PLAIN_MAX);
		json_object_set_new(ce, "word", json_string(text));
		free(text);
		fmpz_t len;
		fmpz_init(len);
		runs_length(&r->witness, len);
		json_object_set_new(ce, "length", json_fmpz(len));
		fmpz_clear(len);
		json_object_set_new(ce, "accepted_by", json_string(accepted_by(d)));
		json_object_set_new(ce, "shortest",
				    json_boolean(r->witness_shortest));
		size_t n;
		Sym *w = runs_expand(&r->witness, PLAIN_MAX, &n);
		if (w)
			json_object_set_new(ce, "values", sides_json(d, w, n));
		free(w);
		json_object_set_new(o, d->task == TASK_SAT ? "witness"
							  : "counterexample", ce);
	}
	if (d->o->certificate)
		json_object_set_new(o, "certificate",
				    r->certificate ? json_string(r->certificate)
						   : json_null());
	if (r->reason)
		json_object_set_new(o, "reason", json_string(r->reason));
	json_emit(o);
}

/* Is the verdict the one a --pairs record expects (and the witness as
 * long as the expected one, when given)?  Unknown and bounded answers
 * are neither. */
static bool as_expected(const Decision *d, Outcome oc)
{
	const DecideRecord *rec = d->o->record;
	bool equal = strcmp(rec->expected, "equivalent") == 0;
	if (oc != (equal ? OUT_EQUAL : OUT_DIFFERENT))
		return false;
	if (equal || !rec->witness)
		return true;
	fmpz_t len;
	fmpz_init(len);
	runs_length(&d->res.witness, len);
	size_t want = strlen(rec->witness);
	bool ok = fmpz_cmp_ui(len, want) == 0;
	fmpz_clear(len);
	return ok;
}

/* One line per --pairs record: number, verdict, witness, method, and
 * what was expected. */
static void print_record(Decision *d, Outcome oc, const char *verdict,
			 const char *method)
{
	const DecideRecord *rec = d->o->record;
	printf("%zu\t%s", rec->index, verdict);
	if (oc == OUT_DIFFERENT) {
		char *text = word_text(d, &d->res.witness);
		if (d->task == TASK_EQUIV)
			printf("\tcounterexample: %s (accepted by %s)", text,
			       accepted_by(d));
		else
			printf("\t%s: %s", d->task == TASK_SAT ? "witness"
							      : "counterexample",
			       text);
		free(text);
	}
	printf("\tmethod: %s", method);
	if (rec->expected) {
		rec->result->as_expected = as_expected(d, oc);
		printf("\texpected: %s\t%s", rec->expected,
		       rec->result->as_expected ? "ok" : "NOT AS EXPECTED");
	}
	putchar('\n');
}

static void print_text(const Decision *d, Outcome oc, const char *verdict,
		       const char *method)
{
	const MethodResult *r = &d->res;
	puts(verdict);
	if (oc == OUT_DIFFERENT) {
		char *text = word_text(d, &r->witness);
		if (d->task == TASK_EQUIV)
			printf("counterexample: %s (accepted by %s)\n", text,
			       accepted_by(d));
		else
			printf("%s: %s\n",
			       d->task == TASK_SAT ? "witness" : "counterexample",
			       text);
		free(text);
	}
	printf("method: %s\n", method);
	if (d->o->certificate) {
		if (r->certificate)
			printf("certificate:\n%s%s", r->certificate,
			       r->certificate[0] &&
					       r->certificate[strlen(r->certificate) - 1] ==
						       '\n'
				       ? "" : "\n");
		else
			printf("certificate: none (%s)\n",
			       oc == OUT_EQUAL ? "the method gives none"
					       : "nothing was proved");
	}
	if (d->o->trace && oc == OUT_DIFFERENT) {
		size_t n;
		Sym *w = runs_expand(&r->witness, PLAIN_MAX, &n);
		if (w)
			print_trace(d, w, n);
		else
			printf("\n(no trace: the counterexample is longer than "
			       "%d letters)\n", PLAIN_MAX);
		free(w);
	}
}

/* ---- the entry point ------------------------------------------------------------- */

static const char *side_name(DecideTask task, size_t i)
{
	if (task == TASK_EQUIV)
		return i == 0 ? "the first input" : "the second input";
	return i == 0 ? "the input" : "the --implies formula";
}

static bool build_roots(Decision *d)
{
	Store *s = d->in->store;
	Node f = d->in->units[0].output;
	size_t need = d->task == TASK_EQUIV || d->task == TASK_IMPLIES ? 2 : 1;
	for (size_t i = 0; i < need; i++)
		if (d->in->units[i].output == NODE_NONE) {
			status_usage_error("%s defines no formula",
					side_name(d->task, i));
			return false;
		}
	switch (d->task) {
	case TASK_EQUIV:
		d->root[0] = f;
		d->root[1] = d->in->units[1].output;
		break;
	case TASK_SAT:
		d->root[0] = f;
		d->root[1] = store_make_false(s);
		break;
	case TASK_VALID:
		d->root[0] = f;
		d->root[1] = store_make_true(s);
		break;
	case TASK_IMPLIES:
		d->root[0] = store_make_and2(
			s, f, store_make_not(s, d->in->units[1].output));
		d->root[1] = store_make_false(s);
		break;
	}
	if (strcmp(d->o->method, "chc") == 0)
		for (size_t i = 0; i < need; i++)
			if (store_flags(s, d->in->units[i].output) & FLAG_FUTURE) {
				status_usage_error("%s uses future counts #>: method "
						"chc needs past-only formulas",
						side_name(d->task, i));
				return false;
			}
	return true;
}

/* The limits, armed before any work on the inputs (the alphabet of a
 * long program is work too). */
static void start_limits(Decision *d)
{
	const DecideOptions *o = d->o;
	d->lim = o->lim;
	d->user_limit = o->lim.timeout > 0 || o->max_states ||
			o->lim.max_memory;
	if (!d->lim.max_memory)
		d->lim.max_memory = DEFAULT_MEMORY;
	if (d->lim.timeout <= 0 && o->max_length &&
	    strcmp(o->method, "auto") == 0)
		d->complete_end = limit_now() + DEFAULT_TIMEOUT;
	if (d->lim.timeout <= 0 && !o->max_length) {
		d->lim.timeout = DEFAULT_TIMEOUT;
		/* The default budget is no user's limit: its end is a
		 * bounded answer, never the process's end. */
		d->lim.no_backstop = true;
	}
	limit_start(&d->lim);
}

static void build_query(Decision *d)
{
	const DecideOptions *o = d->o;
	size_t nunits = d->task == TASK_EQUIV || d->task == TASK_IMPLIES ? 2 : 1;
	alphabet_init_units(&d->alpha, d->in->store, d->root, 2, d->in->units,
			    nunits, o->alphabet);
	if (d->alpha.n == 0) {
		/* No letter anywhere: words still have lengths; any one
		 * letter stands for all. */
		alphabet_free(&d->alpha);
		alphabet_init(&d->alpha, d->in->store, NULL, 0, "a");
	}
	Query *q = &d->q;
	q->store = d->in->store;
	q->root[0] = d->root[0];
	q->root[1] = d->root[1];
	q->alphabet = d->alpha.letters;
	q->nletters = d->alpha.n;
	q->accept = o->accept;
	q->max_states = o->max_states;
	q->max_length = o->max_length;
	q->want_certificate = o->certificate;
	q->progress = !o->quiet;
	q->limits = &d->lim;
}

/* The limit message after the unknown verdict a user's limit caused:
 * which limit, and what was established before it. */
static void report_limit(const Decision *d)
{
	const char *m = d->method ? d->method : "none";
	char what[128];
	if (strcmp(m, "explore") == 0)
		snprintf(what, sizeof what, "every word up to length %zu "
			 "checked (%zu states)", d->res.bound, d->res.states);
	else
		snprintf(what, sizeof what, "method %s gave no verdict", m);
	/* A solver that stopped at the budget handed down from the user's
	 * --timeout ran out of the user's time, whatever its own reason. */
	Limits lim = d->lim;
	if (lim.hit == LIMIT_NONE && d->res.status == MR_LIMIT &&
	    d->user_limit && lim.timeout > 0 &&
	    limit_left(&lim) < 0.1 * lim.timeout)
		lim.hit = LIMIT_TIME;
	if (lim.hit != LIMIT_NONE)
		limit_report(&lim, what);
	else if (d->o->max_states && d->res.states > d->o->max_states)
		limit_fail("--max-states=%zu reached; %s", d->o->max_states, what);
	else
		limit_fail("%s; %s", d->res.reason ? d->res.reason
			   : "a limit was reached", what);
}

const char *decide_only_method;

int decide_run(Inputs *in, DecideTask task, const DecideOptions *o)
{
	if (decide_only_method && strcmp(o->method, decide_only_method) != 0)
		return status_usage_error("this program runs --method=%s only, not "
				       "%s (tally runs every method)",
				       decide_only_method, o->method);
	Decision d = {.in = in, .task = task, .o = o};
	method_result_init(&d.res);
	if (!build_roots(&d))
		return EXIT_USAGE;
	if (strcmp(o->method, "auto") != 0 && !find_method(o->method)->fn) {
		return status_usage_error("method %s is not built into this tally "
				       "yet (try --method=auto or explore)",
				       o->method);
	}
	start_limits(&d);
	build_query(&d);
	decide(&d);
	inject_fault(&d);
	int status;
	if ((d.res.status == MR_DIFFERENT && !recheck(&d)) ||
	    !crosscheck(&d)) {
		status = EXIT_INTERNAL;
	} else {
		Outcome oc = outcome(&d);
		char *verdict = verdict_line(&d, oc);
		char *method = method_line(&d, oc);
		if (o->record && o->record->expected)
			o->record->result->as_expected = as_expected(&d, oc);
		if (o->json)
			print_json(&d, oc, verdict, method);
		else if (o->record)
			print_record(&d, oc, verdict, method);
		else
			print_text(&d, oc, verdict, method);
		fflush(stdout);
		free(verdict);
		free(method);
		status = exit_status(&d, oc);
		if (status == EXIT_LIMIT)
			report_limit(&d);
	}
	limit_stop();
	method_result_free(&d.res);
	alphabet_free(&d.alpha);
	free(d.note);
	return status;
}
