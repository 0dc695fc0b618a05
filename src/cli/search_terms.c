/* search_terms.c -- `tally search` of a count-valued target t directly:
 * the smallest term of the least depth in the term grammar of terms.h
 * whose values equal t's at every prefix of the sample (issue 32).
 *
 * What is claimed, and how it is checked:
 *  - the term found: its values come from the sample's counts
 *    (terms.c); before it is printed the sequence evaluator compares it
 *    with t at every position of every word up to the verification
 *    length (seq_recheck, which shares nothing with the counts), and a
 *    disagreement on a word of the search sample itself is an internal
 *    error (exit 70);
 *  - its equality with t everywhere: the decision engine on "the two
 *    agreed at every position so far" (decide_seq.h), stated as a proof,
 *    a bound or nothing (evidence "proof", "bound", "sample only");
 *  - below its depth: only that no term of the grammar (within the
 *    sizes printed) agrees with t on the sample -- a fact about the
 *    search, not a lower bound of the logic; the thresholds
 *    (search_counts.c, text output) give the lower bound with pairs.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/status.h"
#include "cli/decide_seq.h"
#include "cli/search_cmd.h"
#include "core/json.h"
#include "core/print.h"
#include "core/alphabet.h"
#include "decide/decision.h"
#include "machine/runeval.h"
#include "search/term_eval.h"
#include "search/terms.h"

/* The grammar's bounds: terms of size <= 14 over formulas of size <= 6
 * (histogram is 6, a two-count margin 6). */
enum { TERM_MAX_SIZE = 14, TERM_BODY_SIZE = 6, TERM_SAMPLE_NODES = 4096 };

typedef struct {
	const int64_t *want;
	size_t n;
	Node found;
	unsigned depth, size;
} Match;

static bool on_term(void *ctx, Node t, unsigned depth, unsigned size,
		    const int64_t *vals)
{
	Match *m = ctx;
	if (memcmp(vals, m->want, m->n * sizeof *vals) != 0)
		return true;
	m->found = t;
	m->depth = depth;
	m->size = size;
	return false;
}

/* All words up to the longest length whose tree has at most
 * TERM_SAMPLE_NODES nodes, and at most max. */
static unsigned sample_length(size_t nletters, unsigned max)
{
	unsigned n = 0;
	for (size_t nodes = 1, level = 1; n < max; n++) {
		level *= nletters;
		if (nodes + level > TERM_SAMPLE_NODES)
			break;
		nodes += level;
	}
	return n;
}

typedef struct {
	const char *kind;   /* "proof", "bound", "sample only" */
	char method[32];    /* the decision method, or "" */
	size_t bound;       /* "bound": every word up to it */
	size_t checked;     /* every position of every word up to it */
	bool ok;            /* no disagreement found */
	char *bad;          /* else the word, and */
	size_t bad_pos;     /* its first failing position */
} TermCheck;

/* The found term u against t: the evaluator on short words, then the
 * decision engine.  Returns false on an internal error (a disagreement
 * inside the search sample, which agreed by the counts). */
static bool check_term(Store *st, Node u, Node t, const Alphabet *a,
		       unsigned n, unsigned verify_len, Limits *lim,
		       TermCheck *c)
{
	SeqQuestion q;
	Node out[2] = {u, t};
	static const char *const side[] = {"the term found", "the target"};
	memset(c, 0, sizeof *c);
	c->kind = "sample only";
	c->ok = true;
	if (!seq_question(&q, st, TASK_EQUIV, out, 2, 0, ACCEPT_LAST, side))
		return false;
	size_t len = seq_recheck_length(a->n, verify_len > n ? verify_len : n);
	Runs bad;
	runs_init(&bad);
	SeqSpot sp;
	seq_spot_init(&sp);
	c->checked = len;
	if (!seq_recheck(&q, a->letters, a->n, len, &bad, &sp)) {
		fmpz_t wn;
		fmpz_init(wn);
		runs_length(&bad, wn);
		bool inside = fmpz_cmp_ui(wn, n) <= 0;
		fmpz_clear(wn);
		c->bad = bad.n ? runs_format(&bad, store_syms(st), 200)
			       : xstrdup("ε");
		c->bad_pos = sp.pos;
		c->ok = false;
		runs_clear(&bad);
		seq_spot_clear(&sp);
		if (inside) {
			fprintf(stderr, "tally: internal error: the term's values "
				"from the sample's counts agree with the target, "
				"but the evaluator separates them on '%s' at "
				"position %zu\n", c->bad, c->bad_pos);
			return false;
		}
		return true;
	}
	runs_clear(&bad);
	Query qu = {.store = st, .alphabet = a->letters, .nletters = a->n,
		    .accept = ACCEPT_LAST, .limits = lim};
	seq_roots(&q, qu.root);
	Decision d;
	decision_run_all(&d, &qu, 2.0);
	if (d.check == DECISION_SOUND && d.res.status == MR_EQUIVALENT) {
		c->kind = "proof";
	} else if (d.check == DECISION_SOUND &&
		   (d.res.status == MR_BOUNDED || d.res.status == MR_LIMIT) &&
		   d.res.bound > len) {
		c->kind = "bound";
		c->bound = d.res.bound;
	} else if (d.check == DECISION_SOUND && d.res.status == MR_DIFFERENT) {
		size_t wn;
		Sym *w = runs_expand(&d.res.witness, 1ul << 20, &wn);
		if (w) {
			seq_first_failure(&q, w, wn, &sp);
			c->bad = d.res.witness.n
					 ? runs_format(&d.res.witness, store_syms(st), 200)
					 : xstrdup("ε");
			c->bad_pos = sp.pos;
			c->ok = !sp.found; /* no position fails: no claim */
			free(w);
		}
	}
	if (strcmp(c->kind, "sample only") != 0 || c->bad)
		snprintf(c->method, sizeof c->method, "%s",
			 d.method ? d.method : "none");
	seq_spot_clear(&sp);
	decision_free(&d);
	if (lim->hit == LIMIT_NONE && d.lim.hit != LIMIT_NONE)
		lim->hit = d.lim.hit;
	return true;
}

static void print_text(const char *target, unsigned own, const Sample *S,
		       const TermOptions *to, const Match *m, const TermCheck *c,
		       char *term)
{
	(void)own;
	printf("count-valued target, searched directly: %s\n", target);
	printf("term grammar: c, a #[psi] + c, a1 #[psi1] + a2 #[psi2] + c, "
	       "(Q_x ? u : v); |a| <= %u, |c| <= %u, terms of size <= %u over "
	       "formulas of size <= %u\n", to->max_coeff, to->max_const,
	       to->max_size, to->body_size);
	printf("term sample: %s\n", S->desc);
	if (m->found == NODE_NONE) {
		printf("term: not found up to depth %u (no term of the grammar "
		       "agrees with the target on the sample)\n", to->max_depth);
		return;
	}
	printf("term: %s\n", term);
	printf("term depth: %u (no term of the grammar of smaller depth agrees "
	       "on the sample)\n", m->depth);
	printf("term size: %u\n", m->size);
	if (!c->ok) {
		printf("term verified: DISAGREES at position %zu of %s (the "
		       "sample was too small)\n", c->bad_pos, c->bad);
		return;
	}
	printf("term verified: agrees at every position of every word of "
	       "length <= %zu", c->checked);
	if (strcmp(c->kind, "proof") == 0)
		printf("; tally equiv (%s) proves it equal at every position",
		       c->method);
	else if (strcmp(c->kind, "bound") == 0)
		printf("; tally equiv (%s): equal at every position up to "
		       "length %zu", c->method, c->bound);
	printf("; evidence: %s\n", c->kind);
}

static void print_json(const char *target, unsigned own, const Sample *S,
		       const TermOptions *to, const Match *m, const TermCheck *c,
		       char *term)
{
	json_t *o = json_envelope();
	json_object_set_new(o, "target", json_string(target));
	json_object_set_new(o, "target_kind", json_string("count"));
	json_object_set_new(o, "target_depth", json_integer(own));
	json_t *g = json_object();
	json_object_set_new(g, "max_const", json_integer(to->max_const));
	json_object_set_new(g, "max_coeff", json_integer(to->max_coeff));
	json_object_set_new(g, "max_size", json_integer(to->max_size));
	json_object_set_new(g, "body_size", json_integer(to->body_size));
	json_object_set_new(o, "grammar", g);
	json_t *sm = json_object();
	json_object_set_new(sm, "max_length", json_integer(S->n));
	json_object_set_new(sm, "positions", json_integer((json_int_t)S->npoints));
	json_object_set_new(o, "sample", sm);
	json_object_set_new(o, "found", json_boolean(m->found != NODE_NONE));
	json_object_set_new(o, "searched_up_to",
			    json_integer(m->found != NODE_NONE ? m->depth
							       : to->max_depth));
	if (m->found != NODE_NONE) {
		json_object_set_new(o, "term", json_string(term));
		json_object_set_new(o, "depth", json_integer(m->depth));
		json_object_set_new(o, "size", json_integer(m->size));
		json_t *v = json_object();
		json_object_set_new(v, "ok", json_boolean(c->ok));
		json_object_set_new(v, "checked_up_to",
				    json_integer((json_int_t)c->checked));
		json_object_set_new(v, "evidence", json_string(c->ok ? c->kind
								  : "disagrees"));
		if (c->method[0])
			json_object_set_new(v, "method", json_string(c->method));
		if (c->bound)
			json_object_set_new(v, "bound", json_integer((json_int_t)c->bound));
		if (c->bad) {
			json_object_set_new(v, "word", json_string(c->bad));
			json_object_set_new(v, "position",
					    json_integer((json_int_t)c->bad_pos));
		}
		json_object_set_new(o, "verified", v);
	}
	json_emit(o);
}

int search_terms_run(Search *s)
{
	Store *st = s->in.store;
	Node t = s->in.units[s->in.nunits - 1].output;
	if (store_flags(st, t) & FLAG_FUTURE)
		return status_usage_error("a count-valued target with future "
					  "counts (#>) is not searched");
	if (s->o.csv)
		return status_usage_error("a count-valued target is printed as "
					  "text or --json (no --csv)");
	Alphabet a;
	alphabet_init_units(&a, st, &t, 1, s->in.units, s->in.nunits,
			    s->alphabet);
	if (a.n == 0) {
		alphabet_free(&a);
		return status_usage_error("the target reads no letter: give "
					  "--alphabet");
	}
	unsigned n = sample_length(a.n, s->o.length);
	Sample *S = sample_build(store_syms(st), a.letters, a.n, n, NULL, 0, NULL);
	int64_t *want = xmalloc(S->nbits * sizeof *want);
	int status = EXIT_YES;
	if (!term_eval_sample(S, st, t, want)) {
		status = status_usage_error("the target's values exceed 64 bits "
					    "on the sample");
		goto out;
	}
	unsigned own = store_depth(st, t);
	TermOptions to = {.max_depth = own < s->maxd ? own : s->maxd,
			  .max_size = TERM_MAX_SIZE, .body_size = TERM_BODY_SIZE,
			  .max_const = s->o.C, .max_coeff = s->o.C,
			  .limits = &s->o.lim};
	Match m = {.want = want, .n = S->nbits};
	EnumStop stop = terms_run(&to, S, st, on_term, &m);
	TermCheck c = {.ok = true, .kind = "sample only"};
	if (m.found != NODE_NONE &&
	    !check_term(st, m.found, t, &a, n, s->o.verify_len, &s->o.lim, &c)) {
		status = EXIT_INTERNAL;
		free(c.bad);
		goto out;
	}
	char *target = tl_print_brief(st, t, SYNTAX_TL);
	char *term = m.found ? tl_print(st, m.found, SYNTAX_TL, NULL) : NULL;
	if (c.ok && strcmp(c.kind, "proof") == 0)
		s->proved_term = m.found;
	if (s->o.json)
		print_json(target, own, S, &to, &m, &c, term);
	else
		print_text(target, own, S, &to, &m, &c, term);
	fflush(stdout);
	if (stop == ENUM_TIME || stop == ENUM_MEMORY) {
		limit_report(&s->o.lim, "the term search");
		status = EXIT_LIMIT;
	} else if (m.found == NODE_NONE || !c.ok) {
		status = EXIT_NO;
	}
	free(target);
	free(term);
	free(c.bad);
out:
	free(want);
	sample_free(S);
	alphabet_free(&a);
	return status;
}
