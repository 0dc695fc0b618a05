/* decide.c -- the face of `tally equiv` and `tally check`: options, the
 * question built from the inputs, verdict lines and exit statuses (see
 * decide.h; the engine is decide/decision.h). */
#include <config.h>
#include "cli/decide.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "cli/getopt_hint.h"
#include "core/json.h"
#include "core/alphabet.h"
#include "cli/decide_seq.h"
#include "decide/decision.h"
#include "machine/runeval.h"
#include "machine/trace.h"

/* Counterexamples up to this length print letter by letter, and get a
 * trace / JSON values. */
#define PLAIN_MAX 200
/* A sequence question's counterexample is evaluated position by position
 * (its first failing position found) up to this length. */
#define SEQ_SPOT_MAX ((unsigned long)1 << 20)

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

/* ---- one run ----------------------------------------------------------------------- */

/* One question of equiv or check: the inputs, the Query built from them,
 * and the engine's Decision. */
typedef struct {
	Inputs *in;
	DecideTask task;
	const DecideOptions *o;
	Node root[2];
	Alphabet alpha;
	Query q;
	Decision d;
	bool seq;       /* a question about sequences (decide_seq.h) */
	SeqQuestion sq; /* with seq: the question */
	SeqSpot spot;   /* with seq: where the counterexample fails first
			 * (spot.found false: longer than SEQ_SPOT_MAX) */
} Verdict;

/* How many inputs the task reads: two for equiv and --implies. */
static size_t task_inputs(DecideTask task)
{
	return task == TASK_EQUIV || task == TASK_IMPLIES ? 2 : 1;
}

/* A word as people read it: the empty word is ε (JSON keeps ""). */
static char *word_text(const Verdict *v, const Runs *w)
{
	return w->n ? runs_format(w, v->alpha.syms, PLAIN_MAX) : xstrdup("ε");
}

/* ---- printing ------------------------------------------------------------------- */

typedef enum { OUT_EQUAL, OUT_DIFFERENT, OUT_BOUNDED, OUT_UNKNOWN } Outcome;

static Outcome outcome(const Verdict *v)
{
	switch (v->d.res.status) {
	case MR_EQUIVALENT: return OUT_EQUAL;
	case MR_DIFFERENT: return OUT_DIFFERENT;
	case MR_BOUNDED: return OUT_BOUNDED;
	/* Running out of the default budget is the normal end of an
	 * unbounded search: what it covered is a bounded answer. */
	case MR_LIMIT:
		/* Only explore's bound says which lengths were covered. */
		return decision_bounded(&v->d) ? OUT_BOUNDED : OUT_UNKNOWN;
	default: return OUT_UNKNOWN;
	}
}

static int exit_status(const Verdict *v, Outcome oc)
{
	bool sat = v->task == TASK_SAT;
	switch (oc) {
	case OUT_EQUAL: return sat ? EXIT_NO : EXIT_YES;
	case OUT_DIFFERENT: return sat ? EXIT_YES : EXIT_NO;
	case OUT_BOUNDED: return EXIT_UNKNOWN;
	default:
		return v->d.res.status == MR_LIMIT && v->d.user_limit ? EXIT_LIMIT
								   : EXIT_UNKNOWN;
	}
}

/* The first output line. */
static char *verdict_line(const Verdict *v, Outcome oc)
{
	static const char *const words[][3] = {
		/* equal, different, bounded prefix */
		[TASK_EQUIV] = {"equivalent", "not equivalent", "equivalent"},
		[TASK_SAT] = {"unsatisfiable", "satisfiable", "unsatisfiable"},
		[TASK_VALID] = {"valid", "not valid", "valid"},
		[TASK_IMPLIES] = {"valid", "not valid", "valid"},
		[TASK_NONNEG] = {"valid", "not valid", "valid"},
		[TASK_BOUNDED] = {"valid", "not valid", "valid"},
	};
	Buf b = {0};
	switch (oc) {
	case OUT_EQUAL: buf_puts(&b, words[v->task][0]); break;
	case OUT_DIFFERENT: buf_puts(&b, words[v->task][1]); break;
	case OUT_BOUNDED:
		buf_printf(&b, "%s up to length %zu", words[v->task][2],
			   v->d.res.bound);
		break;
	default: buf_puts(&b, "unknown"); break;
	}
	return buf_take(&b);
}

/* "explore (1234 states visited, every word up to length 40 checked)". */
static char *method_line(const Verdict *v, Outcome oc)
{
	const MethodResult *r = &v->d.res;
	Buf b = {0};
	buf_puts(&b, v->d.method ? v->d.method : "none");
	Buf det = {0};
	buf_puts(&det, "");
	if (strcmp(v->d.method ? v->d.method : "", "explore") == 0) {
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
	if (v->d.note)
		buf_printf(&det, "%s%s", det.len ? "; " : "", v->d.note);
	if (det.len)
		buf_printf(&b, " (%s)", det.data);
	buf_free(&det);
	return buf_take(&b);
}

/* The units the trace shows, with their labels. */
static size_t trace_units(const Verdict *v, const Unit **units,
			  const char **labels)
{
	units[0] = &v->in->units[0];
	bool two = task_inputs(v->task) == 2;
	labels[0] = v->task == TASK_EQUIV ? "first" : "input";
	if (two) {
		units[1] = &v->in->units[1];
		labels[1] = v->task == TASK_EQUIV ? "second" : "implies";
	}
	return two ? 2 : 1;
}

static void print_trace(const Verdict *v, const Sym *w, size_t n)
{
	const Unit *units[2];
	const char *labels[2];
	size_t nu = trace_units(v, units, labels);
	for (size_t i = 0; i < nu; i++) {
		Trace *tr = trace_new(v->in->store, units[i], 1);
		EvalTable *t = trace_table(tr, v->q.accept, w, n, 0, SIZE_MAX);
		printf("\n%s:\n", labels[i]);
		trace_print(tr, t, w, n, stdout);
		eval_table_free(t);
		trace_free(tr);
	}
}

static json_t *sides_json(const Verdict *v, const Sym *w, size_t n)
{
	const Unit *units[2];
	const char *labels[2];
	size_t nu = trace_units(v, units, labels);
	json_t *arr = json_array();
	for (size_t i = 0; i < nu; i++) {
		Trace *tr = trace_new(v->in->store, units[i], 1);
		EvalTable *t = trace_table(tr, v->q.accept, w, n, 0, SIZE_MAX);
		json_t *o = json_object();
		json_object_set_new(o, "input", json_string(labels[i]));
		json_object_set_new(o, "trace", trace_json(tr, t, w, n));
		json_array_append_new(arr, o);
		eval_table_free(t);
		trace_free(tr);
	}
	return arr;
}

static const char *accepted_by(const Verdict *v)
{
	return v->d.accepted_by_first ? "first" : "second";
}

/* What the counterexample line says after the word, or NULL: which side
 * accepts it, or for sequences the first position where the question's
 * property fails and the values there. */
static char *word_note(const Verdict *v)
{
	static const char *const equiv[] = {"first", "second"};
	static const char *const implies[] = {"input", "implies"};
	static const char *const one[] = {"value"};
	if (v->seq && v->spot.found)
		return seq_spot_text(&v->sq, &v->spot,
				     v->task == TASK_EQUIV ? equiv
				     : v->task == TASK_IMPLIES ? implies : one);
	Buf b = {0};
	if (v->seq)
		buf_printf(&b, "position not computed: longer than %lu letters",
			   SEQ_SPOT_MAX);
	else if (v->task == TASK_EQUIV)
		buf_printf(&b, "accepted by %s", accepted_by(v));
	else
		return NULL;
	return buf_take(&b);
}

/* The word line: "counterexample: W (NOTE)" or "witness: W". */
static void print_word_line(const Verdict *v, const char *sep)
{
	char *text = word_text(v, &v->d.res.witness);
	char *note = word_note(v);
	printf("%s%s: %s", sep, v->task == TASK_SAT ? "witness"
					      : "counterexample", text);
	if (note)
		printf(" (%s)", note);
	free(note);
	free(text);
}

/* The counterexample's first failing position as JSON: "position" and
 * the outputs' values there, labelled as in "values". */
static void spot_json(const Verdict *v, json_t *ce)
{
	if (!v->spot.found)
		return;
	const Unit *units[2];
	const char *labels[2];
	trace_units(v, units, labels);
	json_object_set_new(ce, "position", json_integer((json_int_t)v->spot.pos));
	json_t *arr = json_array();
	for (size_t r = 0; r < v->sq.nout; r++) {
		json_t *o = json_object();
		json_object_set_new(o, "input", json_string(labels[r]));
		json_object_set_new(o, "value", v->sq.is_int
				    ? json_fmpz(v->spot.value[r])
				    : json_boolean(!fmpz_is_zero(v->spot.value[r])));
		json_array_append_new(arr, o);
	}
	json_object_set_new(ce, "at_position", arr);
}

static void print_json(const Verdict *v, Outcome oc, const char *verdict,
		       const char *method)
{
	const MethodResult *r = &v->d.res;
	json_t *o = json_envelope();
	static const char *const cmd[] = {
		"equiv", "check --sat", "check --valid", "check --implies",
		"check --nonneg", "check --bounded"};
	json_object_set_new(o, "command", json_string(cmd[v->task]));
	if (v->seq)
		json_object_set_new(o, "per_position", json_true());
	if (v->task == TASK_BOUNDED) {
		fmpz_t k; /* a string of digits from 2^53 on, as counts are */
		fmpz_init_set_ui(k, v->o->bound);
		json_object_set_new(o, "bounded_by", json_fmpz(k));
		fmpz_clear(k);
	}
	const DecideRecord *rec = v->o->record;
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
	json_t *alpha = json_letters(v->alpha.syms, v->alpha.letters, v->alpha.n);
	json_object_set_new(o, "alphabet", alpha);
	json_object_set_new(o, "accept_at",
			    json_string(eval_accept_name(v->q.accept)));
	json_object_set_new(o, "verdict", json_string(verdict));
	static const char *const outcome_names[] = {
		[OUT_EQUAL] = "proved", [OUT_DIFFERENT] = "refuted",
		[OUT_BOUNDED] = "bounded", [OUT_UNKNOWN] = "unknown"};
	/* The outcome is the question's (are they equivalent; is it valid,
	 * satisfiable; does F imply G): "proved" exactly when the exit
	 * status is 0, "refuted" when it is 1.  --sat is asked as "is it
	 * equivalent to false", so its two are the other way round. */
	Outcome asked = oc;
	if (v->task == TASK_SAT && (oc == OUT_EQUAL || oc == OUT_DIFFERENT))
		asked = oc == OUT_EQUAL ? OUT_DIFFERENT : OUT_EQUAL;
	json_object_set_new(o, "outcome", json_string(outcome_names[asked]));
	json_object_set_new(o, "method", json_string(v->d.method ? v->d.method : "none"));
	json_object_set_new(o, "method_line", json_string(method));
	json_object_set_new(o, "states", json_integer((json_int_t)r->states));
	if (oc == OUT_BOUNDED || r->status == MR_LIMIT ||
	    (oc == OUT_DIFFERENT && v->d.method && strcmp(v->d.method, "explore") == 0))
		json_object_set_new(o, "bound", json_integer((json_int_t)r->bound));
	if (oc == OUT_DIFFERENT) {
		json_t *ce = json_object();
		char *text = runs_format(&r->witness, v->alpha.syms, PLAIN_MAX);
		json_object_set_new(ce, "word", json_string(text));
		free(text);
		fmpz_t len;
		fmpz_init(len);
		runs_length(&r->witness, len);
		json_object_set_new(ce, "length", json_fmpz(len));
		fmpz_clear(len);
		if (v->seq)
			spot_json(v, ce);
		else
			json_object_set_new(ce, "accepted_by",
					    json_string(accepted_by(v)));
		json_object_set_new(ce, "shortest",
				    json_boolean(r->witness_shortest));
		size_t n;
		Sym *w = runs_expand(&r->witness, PLAIN_MAX, &n);
		if (w)
			json_object_set_new(ce, "values", sides_json(v, w, n));
		free(w);
		json_object_set_new(o, v->task == TASK_SAT ? "witness"
							  : "counterexample", ce);
	}
	if (v->o->certificate)
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
static bool as_expected(const Verdict *v, Outcome oc)
{
	const DecideRecord *rec = v->o->record;
	bool equal = strcmp(rec->expected, "equivalent") == 0;
	if (oc != (equal ? OUT_EQUAL : OUT_DIFFERENT))
		return false;
	if (equal || !rec->witness)
		return true;
	fmpz_t len;
	fmpz_init(len);
	runs_length(&v->d.res.witness, len);
	size_t want = strlen(rec->witness);
	bool ok = fmpz_cmp_ui(len, want) == 0;
	fmpz_clear(len);
	return ok;
}

/* One line per --pairs record: number, verdict, witness, method, and
 * what was expected. */
static void print_record(const Verdict *v, Outcome oc, const char *verdict,
			 const char *method)
{
	const DecideRecord *rec = v->o->record;
	printf("%zu\t%s", rec->index, verdict);
	if (oc == OUT_DIFFERENT)
		print_word_line(v, "\t");
	printf("\tmethod: %s", method);
	if (rec->expected) {
		rec->result->as_expected = as_expected(v, oc);
		printf("\texpected: %s\t%s", rec->expected,
		       rec->result->as_expected ? "ok" : "NOT AS EXPECTED");
	}
	putchar('\n');
}

static void print_text(const Verdict *v, Outcome oc, const char *verdict,
		       const char *method)
{
	const MethodResult *r = &v->d.res;
	puts(verdict);
	if (oc == OUT_DIFFERENT) {
		print_word_line(v, "");
		putchar('\n');
	}
	printf("method: %s\n", method);
	letters_print_line(stdout, v->alpha.syms, v->alpha.letters, v->alpha.n);
	if (v->o->certificate) {
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
	if (v->o->trace && oc == OUT_DIFFERENT) {
		size_t n;
		Sym *w = runs_expand(&r->witness, PLAIN_MAX, &n);
		if (w)
			print_trace(v, w, n);
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

/* The roots of a question about the judged position (languages):
 * satisfiability, validity and implication as equivalence. */
static void plain_roots(Verdict *v)
{
	Store *s = v->in->store;
	Node f = v->in->units[0].output;
	switch (v->task) {
	case TASK_EQUIV:
		v->root[0] = f;
		v->root[1] = v->in->units[1].output;
		break;
	case TASK_SAT:
		v->root[0] = f;
		v->root[1] = store_make_false(s);
		break;
	case TASK_VALID:
		v->root[0] = f;
		v->root[1] = store_make_true(s);
		break;
	case TASK_IMPLIES:
		v->root[0] = store_make_and2(
			s, f, store_make_not(s, v->in->units[1].output));
		v->root[1] = store_make_false(s);
		break;
	case TASK_NONNEG: /* sequence questions (seq_wanted) */
	case TASK_BOUNDED:
		assert(!"a sequence question");
		break;
	}
}

static bool build_roots(Verdict *v)
{
	Store *s = v->in->store;
	size_t need = task_inputs(v->task);
	Node out[2] = {NODE_NONE, NODE_NONE};
	for (size_t i = 0; i < need; i++) {
		out[i] = v->in->units[i].output;
		if (out[i] == NODE_NONE) {
			status_usage_error("%s defines no formula",
					side_name(v->task, i));
			return false;
		}
	}
	v->seq = seq_wanted(s, out, need, v->task, v->o->per_position);
	if (v->seq) {
		const char *side[2] = {side_name(v->task, 0),
				       side_name(v->task, 1)};
		if (!seq_question(&v->sq, s, v->task, out, need, v->o->bound,
				  v->o->accept, side))
			return false;
		seq_roots(&v->sq, v->root);
	} else {
		plain_roots(v);
	}
	if (strcmp(v->o->method, "chc") == 0)
		for (size_t i = 0; i < need; i++)
			if (store_flags(s, out[i]) & FLAG_FUTURE) {
				status_usage_error("%s uses future counts #>: method "
						"chc needs past-only formulas",
						side_name(v->task, i));
				return false;
			}
	return true;
}

static void build_query(Verdict *v)
{
	const DecideOptions *o = v->o;
	size_t nunits = task_inputs(v->task);
	alphabet_init_units(&v->alpha, v->in->store, v->root, 2, v->in->units,
			    nunits, o->alphabet);
	if (v->alpha.n == 0) {
		/* No letter anywhere: words still have lengths; any one
		 * letter stands for all. */
		alphabet_free(&v->alpha);
		alphabet_init(&v->alpha, v->in->store, NULL, 0, "a");
	}
	Query *q = &v->q;
	q->store = v->in->store;
	q->root[0] = v->root[0];
	q->root[1] = v->root[1];
	q->alphabet = v->alpha.letters;
	q->nletters = v->alpha.n;
	q->accept = o->accept;
	q->max_states = o->max_states;
	q->max_length = o->max_length;
	q->want_certificate = o->certificate;
	q->progress = !o->quiet;
	q->limits = &v->d.lim;
}

/* The internal error of an answer the second path refuted (decision.h):
 * the evidence, never the claim. */
static void report_fault(const Verdict *v)
{
	const Decision *d = &v->d;
	switch (d->check) {
	case DECISION_NO_RECHECK:
		fprintf(stderr, "tally: error: cannot re-check the counterexample "
				"of method %s: %s\n", d->method, d->fault);
		break;
	case DECISION_AGREEING_WORD:
		fprintf(stderr, "tally: internal error: method %s gave a word "
				"on which both sides agree\n", d->method);
		break;
	case DECISION_METHOD_FAILED:
		fprintf(stderr, "tally: internal error: method %s: %s; no "
				"verdict is printed\n", d->method,
			d->res.reason ? d->res.reason : "its own check failed");
		break;
	case DECISION_FALSE_PROOF:
	case DECISION_FALSE_BOUND: {
		char *text = word_text(v, &d->fault_word);
		fprintf(stderr, "tally: internal error: method %s claimed the "
				"sides agree%s, but evaluating them separates "
				"them on the word '%s'; no verdict is printed\n",
			d->method ? d->method : "none",
			d->check == DECISION_FALSE_BOUND
				? " on the words it checked" : "", text);
		free(text);
		break;
	}
	case DECISION_DISAGREE:
		fprintf(stderr, "tally: internal error: methods %s and %s gave "
				"opposite answers; no verdict is printed\n",
			d->method, d->other);
		break;
	case DECISION_SOUND:
		break;
	}
}

/* The second path of a sequence question (decide_seq.h), after the
 * engine's own checks: the counterexample's first failing position, or
 * every position of every short word for a proof or bounded answer.
 * False (an internal error reported) when the sequences contradict the
 * answer. */
static bool confirm_seq(Verdict *v)
{
	Outcome oc = outcome(v);
	Runs bad;
	runs_init(&bad);
	bool ok = true;
	if (oc == OUT_DIFFERENT) {
		size_t n;
		Sym *w = runs_expand(&v->d.res.witness, SEQ_SPOT_MAX, &n);
		if (w)
			seq_first_failure(&v->sq, w, n, &v->spot);
		ok = !w || v->spot.found;
		free(w);
	} else if (oc == OUT_EQUAL || oc == OUT_BOUNDED) {
		size_t len = seq_recheck_length(v->alpha.n, v->o->max_length);
		if (oc == OUT_BOUNDED && v->d.res.bound < len)
			len = v->d.res.bound;
		ok = seq_recheck(&v->sq, v->alpha.letters, v->alpha.n, len,
				 &bad, &v->spot);
	}
	if (!ok) {
		bool proof = oc != OUT_DIFFERENT;
		char *text = word_text(v, proof ? &bad : &v->d.res.witness);
		if (proof)
			fprintf(stderr, "tally: internal error: method %s answered "
					"through the reduction that the outputs "
					"agree%s, but evaluating the sequences "
					"separates them on the word '%s' at "
					"position %zu; no verdict is printed\n",
				v->d.method ? v->d.method : "none",
				oc == OUT_BOUNDED ? " on the words it checked" : "",
				text, v->spot.pos);
		else
			fprintf(stderr, "tally: internal error: method %s gave the "
					"word '%s', but evaluating the sequences "
					"finds no position of it where the "
					"question fails; no verdict is printed\n",
				v->d.method ? v->d.method : "none", text);
		free(text);
	}
	runs_clear(&bad);
	return ok;
}

/* The portfolio's methods that failed while another answered: said, so
 * that a method's error is never silent (decision.h). */
static void report_arm_faults(const Verdict *v)
{
	const char *f = v->d.arm_fault;
	while (f && *f) {
		const char *nl = strchr(f, '\n');
		int n = nl ? (int)(nl - f) : (int)strlen(f);
		fprintf(stderr, "tally: warning: %.*s; the answer rests on "
				"method %s\n", n, f, v->d.method);
		f += n + (nl != NULL);
	}
}

/* The limit message after the unknown verdict a user's limit caused:
 * which limit, and what was established before it. */
static void report_limit(const Verdict *v)
{
	const char *m = v->d.method ? v->d.method : "none";
	char what[128];
	if (strcmp(m, "explore") == 0)
		snprintf(what, sizeof what, "every word up to length %zu "
			 "checked (%zu states)", v->d.res.bound, v->d.res.states);
	else
		snprintf(what, sizeof what, "method %s gave no verdict", m);
	/* A solver that stopped at the budget handed down from the user's
	 * --timeout ran out of the user's time, whatever its own reason. */
	Limits lim = v->d.lim;
	if (lim.hit == LIMIT_NONE && v->d.res.status == MR_LIMIT &&
	    v->d.user_limit && lim.timeout > 0 &&
	    limit_left(&lim) < 0.1 * lim.timeout)
		lim.hit = LIMIT_TIME;
	if (lim.hit != LIMIT_NONE)
		limit_report(&lim, what);
	else if (v->o->max_states && v->d.res.states > v->o->max_states)
		limit_fail("--max-states=%zu reached; %s", v->o->max_states, what);
	else
		limit_fail("%s; %s", v->d.res.reason ? v->d.res.reason
			   : "a limit was reached", what);
}

const char *decide_only_method;

/* The verdict of a sound decision, printed; returns the exit status. */
static int print_verdict(const Verdict *v)
{
	const DecideOptions *o = v->o;
	Outcome oc = outcome(v);
	char *verdict = verdict_line(v, oc);
	char *method = method_line(v, oc);
	if (o->record && o->record->expected)
		o->record->result->as_expected = as_expected(v, oc);
	if (o->json)
		print_json(v, oc, verdict, method);
	else if (o->record)
		print_record(v, oc, verdict, method);
	else
		print_text(v, oc, verdict, method);
	fflush(stdout);
	free(verdict);
	free(method);
	int status = exit_status(v, oc);
	if (status == EXIT_LIMIT)
		report_limit(v);
	return status;
}

int decide_run(Inputs *in, DecideTask task, const DecideOptions *o)
{
	if (decide_only_method && strcmp(o->method, decide_only_method) != 0)
		return status_usage_error("this program runs --method=%s only, not "
				       "%s (tally runs every method)",
				       decide_only_method, o->method);
	Verdict v = {.in = in, .task = task, .o = o};
	seq_spot_init(&v.spot);
	if (!build_roots(&v)) {
		seq_spot_clear(&v.spot);
		return EXIT_USAGE;
	}
	decision_start(&v.d, o->method, &o->lim, o->max_length, o->max_states);
	build_query(&v);
	decision_run(&v.d, &v.q);
	report_arm_faults(&v);
	int status;
	if (v.d.check != DECISION_SOUND) {
		report_fault(&v);
		status = EXIT_INTERNAL;
	} else if (v.seq && !confirm_seq(&v)) {
		status = EXIT_INTERNAL;
	} else {
		status = print_verdict(&v);
	}
	decision_free(&v.d);
	alphabet_free(&v.alpha);
	seq_spot_clear(&v.spot);
	return status;
}

int decide_run_record(Inputs *in, DecideTask task, const DecideOptions *o,
		      size_t index, const char *source)
{
	Buf why = {0};
	Buf *before = status_capture(&why);
	int status = decide_run(in, task, o);
	status_capture(before);
	if (status == EXIT_USAGE)
		cli_record_error(index, source, why.len ? why.data
				 : "not decided", o->json);
	buf_free(&why);
	return status;
}
