/* decision.c -- the decision engine (see decision.h). */
#include <config.h>
#include "decide/decision.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "decide/chc.h"
#include "decide/crosscheck.h"
#include "decide/explore.h"
#include "decide/mona.h"
#include "decide/portfolio.h"
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
 * its fragment, so auto simply runs every row (portfolio.h); when two
 * answer in the same instant, the earlier row is the one named. */
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
	d->own_timer = true;
}

/* ---- running the methods ------------------------------------------------------ */

/* The time a complete method may take: what is left of the deadline, or
 * with a length bound but no timeout, of the complete methods' default
 * budget (0: none). */
static double complete_end(const Decision *d)
{
	if (d->lim.timeout > 0)
		return d->lim.started + d->lim.timeout;
	return d->complete_end;
}

static void run_method(Decision *d, const Method *m, MethodResult *out)
{
	Query q = d->q;
	/* Explore polls the deadline (limit.c); the solvers behind the
	 * complete methods get the time left as their own budget. */
	double end = complete_end(d);
	if (m->complete && end > 0) {
		double left = end - limit_now();
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

/* ---- the portfolio ------------------------------------------------------------- */

/* Every row side by side: the complete methods until their end, explore
 * until the deadline (its Limits) or, in search's verification, its own
 * timeout. */
static void arms_of(const Decision *d, double end, double explore_timeout,
		    PortfolioArm *arms)
{
	double now = limit_now();
	for (size_t i = 0; i < NMETHODS; i++) {
		const Method *m = &methods[i];
		arms[i] = (PortfolioArm){.name = m->name, .fn = m->fn};
		if (m->complete) {
			arms[i].end = end;
			arms[i].timeout = end > 0 ? end - now : 0;
			if (end > 0 && arms[i].timeout < 0.01)
				arms[i].timeout = 0.01;
		} else {
			arms[i].timeout = explore_timeout;
			arms[i].end = d->lim.timeout > 0
				? d->lim.started + d->lim.timeout
				: explore_timeout > 0 ? now + explore_timeout : 0;
		}
	}
}

/* The outcome the decision rests on: the first definite answer in table
 * order, else explore's, else a method's error, else the first answer
 * of any kind. */
static size_t chosen(const ArmOutcome *out)
{
	size_t pick = NMETHODS;
	for (size_t i = 0; i < NMETHODS && pick == NMETHODS; i++)
		if (out[i].state == ARM_ANSWERED &&
		    portfolio_definite(out[i].res.status))
			pick = i;
	for (size_t i = 0; i < NMETHODS && pick == NMETHODS; i++)
		if (out[i].state == ARM_ANSWERED && !methods[i].complete)
			pick = i;
	for (size_t i = 0; i < NMETHODS && pick == NMETHODS; i++)
		if (out[i].state == ARM_FAILED ||
		    (out[i].state == ARM_ANSWERED &&
		     out[i].res.status == MR_INTERNAL))
			pick = i;
	for (size_t i = 0; i < NMETHODS && pick == NMETHODS; i++)
		if (out[i].state == ARM_ANSWERED)
			pick = i;
	return pick;
}

/* What the arms other than the chosen one say against it: an opposite
 * definite answer (.other), errors (.arm_fault). */
static void compare(Decision *d, const ArmOutcome *out, size_t pick)
{
	Buf faults = {0};
	for (size_t i = 0; i < NMETHODS; i++) {
		const ArmOutcome *o = &out[i];
		if (i == pick)
			continue;
		if (o->state == ARM_ANSWERED && portfolio_definite(o->res.status) &&
		    o->res.status != d->res.status && !d->other)
			d->other = methods[i].name;
		if (o->state == ARM_FAILED)
			buf_printf(&faults, "%s\n", o->failure);
		else if (o->state == ARM_ANSWERED && o->res.status == MR_INTERNAL)
			buf_printf(&faults, "method %s: %s\n", methods[i].name,
				   o->res.reason ? o->res.reason
						 : "its own check failed");
	}
	d->arm_fault = faults.len ? buf_take(&faults) : NULL;
	buf_free(&faults);
}

static void run_portfolio(Decision *d, double end, double explore_timeout)
{
	PortfolioArm arms[NMETHODS];
	ArmOutcome out[NMETHODS];
	arms_of(d, end, explore_timeout, arms);
	portfolio_run(&d->q, arms, NMETHODS, out);
	size_t pick = chosen(out);
	if (pick == NMETHODS) {
		/* Every arm was stopped at its end, or interrupted: which
		 * limit it was is the deadline's. */
		limit_check(&d->lim);
		d->method = "explore";
		d->res.status = MR_LIMIT;
		d->res.reason = xstrdup("no method answered before the deadline");
	} else if (out[pick].state == ARM_FAILED) {
		d->method = methods[pick].name;
		d->res.status = MR_INTERNAL;
		d->res.reason = xstrdup(out[pick].failure);
	} else {
		d->method = methods[pick].name;
		d->res = out[pick].res;
		method_result_init(&out[pick].res);
		d->lim.hit = out[pick].hit;
		d->lim.memory = out[pick].memory;
		/* The arm's limit ended the work: no backstop is needed. */
		if (d->lim.hit != LIMIT_NONE && d->own_timer)
			limit_stop();
	}
	compare(d, out, pick);
	for (size_t i = 0; i < NMETHODS; i++)
		arm_outcome_free(&out[i]);
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
	run_portfolio(d, complete_end(d), 0);
	if (d->res.status == MR_DIFFERENT && !d->other)
		shorten(d);
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

static void check(Decision *d)
{
	inject_fault(d);
	if (d->other)
		d->check = DECISION_DISAGREE;
	else
		d->check = d->res.status == MR_DIFFERENT ? recheck(d)
							 : crosscheck(d);
}

void decision_run(Decision *d, const Query *q)
{
	d->q = *q;
	decide(d);
	check(d);
}

void decision_run_all(Decision *d, const Query *q, double budget)
{
	memset(d, 0, sizeof *d);
	d->asked = "auto";
	method_result_init(&d->res);
	runs_init(&d->fault_word);
	d->q = *q;
	double end = limit_now() + budget;
	if (q->limits && q->limits->timeout > 0) {
		double user = q->limits->started + q->limits->timeout;
		if (user < end)
			end = user;
	}
	run_portfolio(d, end, end - limit_now());
	/* The caller evaluates every short word itself (verify.c): only a
	 * witness and the methods' agreement are checked here. */
	if (d->other)
		d->check = DECISION_DISAGREE;
	else if (d->res.status == MR_INTERNAL)
		d->check = DECISION_METHOD_FAILED;
	else
		d->check = d->res.status == MR_DIFFERENT ? recheck(d)
							 : DECISION_SOUND;
}

void decision_free(Decision *d)
{
	if (d->own_timer)
		limit_stop();
	free(d->arm_fault);
	method_result_free(&d->res);
	free(d->note);
	free(d->fault);
	runs_clear(&d->fault_word);
}
