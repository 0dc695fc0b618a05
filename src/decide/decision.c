/* decision.c -- the decision engine (see decision.h). */
#include <config.h>
#include "decide/decision.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "decide/chc.h"
#include "decide/crosscheck.h"
#include "decide/explore.h"
#include "decide/mona.h"
#include "decide/presburger.h"
#include "decide/unary.h"
#include "machine/runeval.h"

/* The default time budget of auto without a length bound. */
#define DEFAULT_TIMEOUT 3.0
/* Memory explore may use unless the caller says otherwise. */
#define DEFAULT_MEMORY ((size_t)1 << 30)

/* ---- the methods -------------------------------------------------------------- */

typedef struct {
	const char *name;
	MethodFn fn;
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

bool decision_method_exists(const char *name)
{
	return find_method(name) != NULL;
}

void decision_method(const char *name, const Query *q, MethodResult *out)
{
	method_result_init(out);
	find_method(name)->fn(q, out);
}

/* ---- the budget ------------------------------------------------------------------ */

static bool is_auto(const Decision *d)
{
	return strcmp(d->asked, "auto") == 0;
}

void decision_start(Decision *d, const char *asked, const Limits *user,
		    size_t max_length, size_t max_states)
{
	memset(d, 0, sizeof *d);
	d->asked = asked;
	method_result_init(&d->res);
	runs_init(&d->fault_word);
	d->lim = *user;
	d->user_limit = user->timeout > 0 || max_states || user->max_memory;
	if (!d->lim.max_memory)
		d->lim.max_memory = DEFAULT_MEMORY;
	if (d->lim.timeout <= 0 && max_length && is_auto(d))
		d->complete_end = limit_now() + DEFAULT_TIMEOUT;
	if (d->lim.timeout <= 0 && !max_length) {
		d->lim.timeout = DEFAULT_TIMEOUT;
		/* The default budget is no user's limit: its end is a
		 * bounded answer, never the process's end. */
		d->lim.no_backstop = true;
	}
	limit_start(&d->lim);
}

/* ---- running the methods ------------------------------------------------------ */

static void run_method(Decision *d, const Method *m, MethodResult *out)
{
	Query q = d->q;
	/* Explore polls the deadline (limit.c); the solvers behind the
	 * complete methods get the time left as their own budget. */
	if (m->complete && d->lim.timeout > 0) {
		q.timeout = limit_left(&d->lim);
		/* Complete methods leave explore half of the budget. */
		if (is_auto(d))
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

/* The complete methods in table order, then explore. */
static void run_auto(Decision *d)
{
	for (size_t i = 0; i < NMETHODS; i++) {
		const Method *m = &methods[i];
		if (!m->complete)
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

static void decide(Decision *d)
{
	if (d->q.root[0] == d->q.root[1] && is_auto(d)) {
		/* Hash-consing: equal nodes are the same formula. */
		d->method = "normalisation";
		d->res.status = MR_EQUIVALENT;
		d->res.certificate = xstrdup("both inputs normalise to the same "
					     "formula (one node of the store)\n");
		return;
	}
	if (!is_auto(d)) {
		const Method *m = find_method(d->asked);
		d->method = m->name;
		run_method(d, m, &d->res);
		if (d->res.status == MR_DIFFERENT)
			shorten(d);
		return;
	}
	run_auto(d);
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

/* ---- the second path ------------------------------------------------------------ */

/* Evaluates both roots on the witness, run by run: the sides must
 * really differ there. */
static DecisionCheck recheck(Decision *d)
{
	RunEval *re = runeval_new(d->q.store, d->q.root, 2, d->q.accept);
	bool acc[2];
	bool ok = runeval_word(re, &d->res.witness, acc, &d->fault);
	runeval_free(re);
	if (!ok)
		return DECISION_NO_RECHECK;
	if (acc[0] == acc[1])
		return DECISION_AGREEING_WORD;
	d->accepted_by_first = acc[0];
	return DECISION_SOUND;
}

bool decision_bounded(const Decision *d)
{
	return d->res.status == MR_BOUNDED ||
	       (d->res.status == MR_LIMIT && !d->user_limit && d->method &&
		strcmp(d->method, "explore") == 0);
}

/* A proof or a bounded answer stands only when the evaluator agrees on
 * every short word (crosscheck.h): a method's encoding error must not
 * become a verdict. */
static DecisionCheck crosscheck(Decision *d)
{
	const MethodResult *r = &d->res;
	if (r->status == MR_INTERNAL)
		return DECISION_METHOD_FAILED;
	bool bounded = decision_bounded(d);
	if (r->status != MR_EQUIVALENT && !bounded)
		return DECISION_SOUND;
	size_t len = crosscheck_length(d->q.nletters, bounded ? r->bound : 0);
	if (bounded && r->bound < len)
		len = r->bound;
	if (crosscheck_words(&d->q, len, &d->fault_word))
		return DECISION_SOUND;
	return bounded ? DECISION_FALSE_BOUND : DECISION_FALSE_PROOF;
}

void decision_run(Decision *d, const Query *q)
{
	d->q = *q;
	decide(d);
	inject_fault(d);
	d->check = d->res.status == MR_DIFFERENT ? recheck(d) : crosscheck(d);
}

void decision_free(Decision *d)
{
	limit_stop();
	method_result_free(&d->res);
	free(d->note);
	free(d->fault);
	runs_clear(&d->fault_word);
}
