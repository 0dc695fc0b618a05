/* simcheck.c -- the simulator next to the evaluator (see simcheck.h):
 * the model's labels parsed, the pair made and fed; the checks are
 * simcheck_checks.c's, the trace simcheck_trace.c's. */
#include <config.h>
#include "transformer/simcheck_state.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/status.h"
#include "core/prelude.h"
#include "core/unit.h"

void simcheck_limits(SimCheck *sc, Limits *lim)
{
	sc->limits = lim;
}

bool simcheck_semantics_option(const char *arg, Semantics *out)
{
	if (semantics_parse(arg, out))
		return true;
	status_usage_error("--semantics: expected kneedeep, rounded-sums or "
			"ieee=fp32|bf16|fp16, not '%s'",
			arg);
	return false;
}

bool simcheck_semantics_list(const char *arg, Semantics *out, size_t max,
			     size_t *n)
{
	char *copy = xstrdup(arg), *save = NULL;
	bool ok = true;
	*n = 0;
	for (char *t = strtok_r(copy, ",", &save); t && ok;
	     t = strtok_r(NULL, ",", &save)) {
		if (*n == max) {
			status_usage_error("--semantics: at most %zu semantics", max);
			ok = false;
		} else
			ok = simcheck_semantics_option(t, &out[(*n)++]);
	}
	if (ok && *n == 0)
		ok = simcheck_semantics_option(arg, out);
	free(copy);
	return ok;
}

/* The reason of the first diagnostic captured ("expected ..."). */
static char *reason(const Buf *cap)
{
	const char *t = cap->data ? cap->data : "";
	const char *e = strstr(t, "error: ");
	t = e ? e + 7 : t;
	size_t n = strcspn(t, "\n");
	return xstrndup(t, n);
}

/* Parses a formula the model carries (its "formula", a component's or a
 * count's label), named by its field; NODE_NONE with *err on failure.
 * The Source is kept (Defs of `let`s point into it). */
static Node parse_label(SimCheck *sc, Scope *scope, const char *field,
			const char *text, bool terms, char **err)
{
	Buf cap = {0};
	Diag d = {.capture = &cap};
	Source *src = source_new(field, text, strlen(text));
	mem_grow((void **)&sc->sources, &sc->sources_cap, sc->nsources + 1,
		 sizeof *sc->sources);
	sc->sources[sc->nsources++] = src;
	Unit u = {.terms = terms};
	Node n = tl_parse(scope, &d, src, &u) ? u.output : NODE_NONE;
	unit_free(&u);
	if (n == NODE_NONE) {
		char *why = cap.len ? reason(&cap) : xstrdup("no formula");
		Buf b = {0};
		buf_printf(&b, "%s: \"%.40s%s\" is not a TL formula: %s", field,
			   text, strlen(text) > 40 ? "..." : "", why);
		*err = buf_take(&b);
		free(why);
	}
	buf_free(&cap);
	return n;
}

/* A scratch scope over the prelude, for the model's own names. */
static Scope *label_scope(SimCheck *sc)
{
	Scope *l = scope_new(sc->store);
	scope_set_fallback(l, scope_fallback(sc->scope), false);
	return l;
}

/* The labels of the components and counts, in component order: a label
 * may name a Boolean component before it ("c7", as tally compile writes
 * a large subformula). */
static bool parse_components(SimCheck *sc, char **err)
{
	const Model *m = sc->m;
	Scope *scope = label_scope(sc);
	SymTab *syms = store_syms(sc->store);
	sc->comp_node = xcalloc(m->d, sizeof *sc->comp_node);
	sc->count_node = xcalloc(m->d, sizeof *sc->count_node);
	char field[96];
	bool ok = true;
	for (uint32_t c = 0; c < m->d && ok; c++) {
		const Component *cp = &m->comps[c];
		if (cp->formula) {
			snprintf(field, sizeof field, "components[%u].formula", c);
			sc->comp_node[c] = parse_label(sc, scope, field,
						       cp->formula, false, err);
			ok = sc->comp_node[c] != NODE_NONE;
		}
		if (ok && cp->kind == COMP_BOOL && cp->formula) {
			int len = snprintf(field, sizeof field, "c%u", c);
			Def def = {.name = sym_intern(syms, field, (size_t)len),
				   .node = sc->comp_node[c]};
			scope_define(scope, &def);
		}
		if (cp->kind == COMP_HEAD)
			sc->count_node[c] = xcalloc(cp->ncounts + 1, sizeof(Node));
		for (size_t k = 0; ok && k < cp->ncounts; k++) {
			snprintf(field, sizeof field,
				 "components[%u].counts[%zu].formula", c, k);
			sc->count_node[c][k] = parse_label(sc, scope, field,
							   cp->counts[k].formula,
							   false, err);
			ok = sc->count_node[c][k] != NODE_NONE;
		}
	}
	scope_free(scope);
	return ok;
}

/* Every parsed label, the formula first. */
Node *simcheck_labels(const SimCheck *sc, size_t *n)
{
	const Model *m = sc->m;
	VEC(Node) v = {0};
	if (sc->root)
		VEC_PUSH(v, sc->root);
	for (uint32_t c = 0; c < m->d; c++) {
		if (sc->comp_node[c])
			VEC_PUSH(v, sc->comp_node[c]);
		for (size_t k = 0; k < m->comps[c].ncounts; k++)
			VEC_PUSH(v, sc->count_node[c][k]);
	}
	*n = v.len;
	return v.data;
}

/* A letter of node n that is not the model's, or SYM_NONE. */
static Sym foreign_letter(const SimCheck *sc, Node n)
{
	size_t nl;
	Sym *ls = store_letters_of(sc->store, &n, 1, &nl), out = SYM_NONE;
	for (size_t i = 0; i < nl && out == SYM_NONE; i++)
		if (!simcheck_token(sc, ls[i]))
			out = ls[i];
	free(ls);
	return out;
}

/* The first label (the formula, then component by component) that
 * mentions a letter outside the alphabet, named by its field. */
static char *stray_letter(const SimCheck *sc)
{
	const Model *m = sc->m;
	Buf b = {0};
	Sym l = sc->root ? foreign_letter(sc, sc->root) : SYM_NONE;
	if (l != SYM_NONE)
		buf_puts(&b, "formula");
	for (uint32_t c = 0; c < m->d && l == SYM_NONE; c++) {
		if (sc->comp_node[c] &&
		    (l = foreign_letter(sc, sc->comp_node[c])) != SYM_NONE)
			buf_printf(&b, "components[%u].formula", c);
		for (size_t k = 0; k < m->comps[c].ncounts && l == SYM_NONE; k++)
			if ((l = foreign_letter(sc, sc->count_node[c][k])) !=
			    SYM_NONE)
				buf_printf(&b, "components[%u].counts[%zu]."
					       "formula", c, k);
	}
	assert(l != SYM_NONE); /* the alphabet has a letter too many */
	buf_printf(&b, ": the letter '%s' is not in the model's alphabet",
		   sym_name(store_syms(sc->store), l));
	return buf_take(&b);
}

/* Parses the model's labels and builds its alphabet: false with *err
 * when a label does not parse or mentions a letter the model lacks. */
static bool read_labels(SimCheck *sc, bool with_formula, char **err)
{
	const Model *m = sc->m;
	if (m->formula) {
		Scope *scope = label_scope(sc);
		/* a count readout carries an integer term */
		sc->root = parse_label(sc, scope, "formula", m->formula,
				       readout_counts(m->readout), err);
		scope_free(scope);
		if (!sc->root)
			return false;
	} else if (with_formula) {
		*err = xstrdup("the model carries no formula (its \"formula\" "
			       "field) to check against");
		return false;
	}
	if (!parse_components(sc, err))
		return false;
	sc->sym_of = xcalloc(m->nletters + 1, sizeof *sc->sym_of);
	SymTab *syms = store_syms(sc->store);
	for (size_t t = 1; t <= m->nletters; t++) {
		sc->sym_of[t] = sym_intern(syms, m->alphabet[t - 1],
					   strlen(m->alphabet[t - 1]));
		if (sc->sym_of[t] >= sc->ntoken_of)
			sc->ntoken_of = (size_t)sc->sym_of[t] + 1;
	}
	sc->token_of = xcalloc(sc->ntoken_of ? sc->ntoken_of : 1,
			       sizeof *sc->token_of);
	for (uint32_t t = 1; t <= m->nletters; t++)
		sc->token_of[sc->sym_of[t]] = t;
	size_t n;
	Node *roots = simcheck_labels(sc, &n);
	/* the model's letters as extras: never split like an --alphabet */
	alphabet_init_with(&sc->alpha, sc->store, roots, n, sc->sym_of + 1,
			   m->nletters, NULL);
	sc->alpha.given = true; /* no "add letters with --alphabet" */
	free(roots);
	if (sc->alpha.n != m->nletters) {
		*err = stray_letter(sc);
		return false;
	}
	return true;
}

SimCheck *simcheck_new(const Model *m, const Semantics *sem,
		       bool with_formula, char **err)
{
	SimCheck *sc = xcalloc(1, sizeof *sc);
	sc->m = m;
	sc->sem = *sem;
	sc->store = store_new();
	sc->scope = prelude_scope_new(sc->store);
	sc->diag.out = stderr;
	if (!read_labels(sc, with_formula, err)) {
		simcheck_free(sc);
		return NULL;
	}
	if (with_formula && readout_counts(m->readout)) {
		sc->ref = seqref_new(sc->store, sc->root, m);
		if (!sc->ref) {
			*err = xstrdup("formula: has future counts (#>), which a "
				       "future-masked transformer cannot compute");
			simcheck_free(sc);
			return NULL;
		}
	} else if (with_formula) {
		sc->ev = eval_new(sc->store, &sc->root, 1, ACCEPT_LAST);
		if (!eval_streams(sc->ev)) {
			*err = xstrdup("formula: has future counts (#>), which a "
				       "future-masked transformer cannot compute");
			simcheck_free(sc);
			return NULL;
		}
	}
	sc->sim = sim_new(m, sem);
	return sc;
}

void simcheck_free(SimCheck *sc)
{
	if (!sc)
		return;
	sim_free(sc->sim);
	eval_free(sc->ev);
	seqref_free(sc->ref);
	VEC_FREE(sc->syms);
	alphabet_free(&sc->alpha);
	if (sc->count_node)
		for (uint32_t c = 0; c < sc->m->d; c++)
			free(sc->count_node[c]);
	free(sc->count_node);
	free(sc->comp_node);
	free(sc->sym_of);
	free(sc->token_of);
	for (size_t i = 0; i < sc->nsources; i++)
		source_free(sc->sources[i]);
	free(sc->sources);
	scope_free(sc->scope);
	store_free(sc->store);
	free(sc);
}

const Alphabet *simcheck_alphabet(SimCheck *sc)
{
	return &sc->alpha;
}

Diag *simcheck_diag(SimCheck *sc)
{
	return &sc->diag;
}

uint32_t simcheck_token(const SimCheck *sc, Sym letter)
{
	return letter < sc->ntoken_of ? sc->token_of[letter] : 0;
}

void simcheck_streaming(SimCheck *sc)
{
	sim_set_streaming(sc->sim, true);
}

bool simcheck_run(SimCheck *sc, const uint32_t *w, size_t n)
{
	sim_reset(sc->sim);
	for (size_t i = 0; i < n; i++)
		sim_push(sc->sim, w[i]);
	return sim_accepts(sc->sim);
}

void simcheck_begin(SimCheck *sc)
{
	sim_reset(sc->sim);
}

bool simcheck_push(SimCheck *sc, uint32_t token)
{
	if (limit_poll(sc->limits))
		return false;
	sim_push(sc->sim, token);
	/* the history grew (a doubling): look at the memory now, not in
	 * 4096 polls, since a position may be large */
	size_t held = sim_history_bytes(sc->sim);
	if (held != sc->held) {
		sc->held = held;
		return !limit_check(sc->limits);
	}
	return true;
}

bool simcheck_accepts(SimCheck *sc)
{
	return sim_accepts(sc->sim);
}

double simcheck_output(SimCheck *sc)
{
	return sim_output(sc->sim);
}

bool simcheck_formula(SimCheck *sc, const uint32_t *w, size_t n)
{
	assert(sc->ev); /* a Boolean readout */
	eval_reset(sc->ev);
	for (size_t i = 0; i < n; i++)
		eval_push(sc->ev, sc->sym_of[w[i]]);
	return eval_accepts(sc->ev, 0);
}
