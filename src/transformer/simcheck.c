/* simcheck.c -- the simulator next to the evaluator (see simcheck.h). */
#include <config.h>
#include "transformer/simcheck.h"

#include "base/limit.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/status.h"
#include "core/prelude.h"
#include "machine/eval.h"
#include "core/json.h"
#include "core/parse.h"
#include "core/unit.h"
#include "base/mem.h"
#include "base/splitmix.h"
#include "transformer/breakdown.h"
#include "transformer/seqref.h"
#include "transformer/sim.h"
#include "base/vec.h"

struct SimCheck {
	const Model *m;
	Semantics sem;
	Sim *sim;
	Store *store;       /* the model's formulas */
	Scope *scope;       /* over the prelude */
	Diag diag;
	Source **sources;   /* of the labels (Defs of `let`s point into them) */
	size_t nsources, sources_cap;
	Node root;
	Evaluator *ev;      /* the verdicts (accept, per_position) */
	SeqRef *ref;        /* the values (class, ratio readouts) */
	VEC(Sym) syms;      /* a prefix's letters, for ref */
	Alphabet alpha;
	Sym *sym_of;        /* by token (0 unused) */
	uint32_t *token_of; /* by Sym up to ntoken_of (0: not a letter) */
	size_t ntoken_of;
	Node *comp_node;    /* by component: its parsed formula, or 0 */
	Node **count_node;  /* by component: parsed count arguments */
	Limits *limits;     /* the user's, or NULL */
	size_t held;        /* the simulator's history at the last look */
};

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
static Node *labels(const SimCheck *sc, size_t *n)
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
	Node *roots = labels(sc, &n);
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

/* ---- checks ------------------------------------------------------------- */

typedef struct {
	SimCheck *sc;
	size_t limit;
	uint32_t *word;
	EvalSnapshot **snap;
	Mismatch *out;
} Walk;

/* The model's output at the prefix w[0..len) (the simulator's last
 * position) next to the formula's: the verdicts, or with a count readout
 * the values bit for bit (into *model and *want). */
static bool agrees(SimCheck *sc, const uint32_t *w, size_t len,
		   double *model, double *want)
{
	if (!sc->ref) {
		*model = sim_accepts(sc->sim);
		*want = eval_accepts(sc->ev, 0);
		return *model == *want;
	}
	sc->syms.len = 0;
	for (size_t i = 0; i < len; i++)
		VEC_PUSH(sc->syms, sc->sym_of[w[i]]);
	*model = sim_output(sc->sim);
	*want = seqref_want(sc->ref, sc->syms.data, len);
	return *model == *want;
}

static void record(Walk *w, size_t len, double model, double want)
{
	Mismatch *mm = w->out;
	mm->found = true;
	mm->length = len;
	mm->model_accepts = model > 0;
	mm->model_value = model;
	mm->want_value = want;
	mm->word = xrealloc(mm->word, (len ? len : 1) * sizeof *mm->word);
	memcpy(mm->word, w->word, len * sizeof *mm->word);
	/* only shorter disagreements from now on */
	w->limit = len ? len - 1 : 0;
}

static void walk(Walk *w, size_t len)
{
	SimCheck *sc = w->sc;
	if (w->out->stopped || (w->out->stopped = limit_poll(sc->limits)))
		return;
	w->out->words++;
	double model, want;
	if (!agrees(sc, w->word, len, &model, &want)) {
		record(w, len, model, want);
		return;
	}
	if (len >= w->limit)
		return;
	if (sc->ev)
		eval_save_to(sc->ev, w->snap[len]);
	for (uint32_t t = 1; t <= sc->m->nletters && len < w->limit; t++) {
		w->word[len] = t;
		sim_push(sc->sim, t);
		if (sc->ev)
			eval_push(sc->ev, sc->sym_of[t]);
		walk(w, len + 1);
		sim_pop(sc->sim);
		if (sc->ev)
			eval_restore(sc->ev, w->snap[len]);
	}
}

void simcheck_exhaustive(SimCheck *sc, size_t maxlen, Mismatch *out)
{
	memset(out, 0, sizeof *out);
	Walk w = {sc, maxlen, xcalloc(maxlen + 1, sizeof *w.word),
		  xcalloc(maxlen + 1, sizeof *w.snap), out};
	for (size_t i = 0; i <= maxlen && sc->ev; i++)
		w.snap[i] = eval_snapshot_new(sc->ev);
	sim_reset(sc->sim);
	if (sc->ev)
		eval_reset(sc->ev);
	walk(&w, 0);
	for (size_t i = 0; i <= maxlen && sc->ev; i++)
		eval_snapshot_free(w.snap[i]);
	free(w.snap);
	free(w.word);
}

void simcheck_sample(SimCheck *sc, size_t k, size_t len, uint64_t seed,
		     Mismatch *out)
{
	memset(out, 0, sizeof *out);
	uint32_t *word = xcalloc(len ? len : 1, sizeof *word);
	uint64_t st = seed;
	for (size_t r = 0; r < k && !out->found && !out->stopped &&
			   sc->m->nletters; r++) {
		sim_reset(sc->sim);
		if (sc->ev)
			eval_reset(sc->ev);
		for (size_t i = 0; i < len && !out->found; i++) {
			if ((out->stopped = limit_poll(sc->limits)))
				break;
			word[i] = 1 + (uint32_t)(splitmix64_next(&st) % sc->m->nletters);
			sim_push(sc->sim, word[i]);
			if (sc->ev)
				eval_push(sc->ev, sc->sym_of[word[i]]);
			out->words++;
			double model, want;
			if (!agrees(sc, word, i + 1, &model, &want)) {
				Walk w = {.word = word, .out = out};
				record(&w, i + 1, model, want);
			}
		}
	}
	free(word);
}

/* Words longer than 40 letters print run-length encoded: "b^128 a^128";
 * letters as words write them (word_put_letter: ε alone is the empty
 * word). */
static void print_word(const SimCheck *sc, const uint32_t *w, size_t n,
		       FILE *out)
{
	bool spaced = n > 40;
	for (size_t t = 0; t < sc->m->nletters; t++)
		spaced |= !word_single_char(sc->m->alphabet[t]) ||
			  !word_plain_letter(sc->m->alphabet[t]);
	Buf b = {0};
	buf_puts(&b, n == 0 ? "ε" : "");
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (n > 40 && j < n && w[j] == w[i])
			j++;
		if (spaced && i)
			buf_putc(&b, ' ');
		word_put_letter(&b, sc->m->alphabet[w[i] - 1]);
		if (j > i + 1)
			buf_printf(&b, "^%zu", j - i);
		i = j > i ? j : i + 1;
	}
	fputs(b.data, out);
	buf_free(&b);
}

static char *word_text(const SimCheck *sc, const uint32_t *w, size_t n);

/* --json: the check's record ("agreement", "disagreement" or "limit"). */
static void report_json(SimCheck *sc, const Mismatch *mm, const char *what)
{
	json_t *o = json_envelope();
	json_object_set_new(o, "check", json_string(what));
	json_object_set_new(o, "semantics",
			    json_string(semantics_name(&sc->sem)));
	json_object_set_new(o, "result",
			    json_string(mm->found     ? "disagreement"
					: mm->stopped ? "limit"
						      : "agreement"));
	json_object_set_new(o, "compared", json_size(mm->words));
	if (mm->found) {
		char *text = word_text(sc, mm->word, mm->length);
		json_object_set_new(o, "length", json_size(mm->length));
		json_object_set_new(o, "word", json_string(mm->length ? text : ""));
		json_object_set_new(o, "transformer_accepts",
				    json_boolean(mm->model_accepts));
		if (sc->ref) { /* the values, exact text */
			Readout r = sc->m->readout;
			char *a = seqref_text(r, mm->model_value);
			char *b = seqref_text(r, mm->want_value);
			json_object_set_new(o, "transformer_output", json_string(a));
			json_object_set_new(o, "formula_output", json_string(b));
			free(a);
			free(b);
		}
		free(text);
	}
	json_emit(o);
}

static int report(SimCheck *sc, const Mismatch *mm, const char *what,
		  FILE *out, bool json)
{
	if (json)
		report_json(sc, mm, what);
	if (mm->stopped && !mm->found) {
		char done[96];
		snprintf(done, sizeof done, "%zu words compared (of %s), no "
			 "disagreement among them", mm->words, what);
		fflush(out);
		return limit_report(sc->limits, done);
	}
	if (!mm->found && json)
		return EXIT_YES;
	if (mm->found && json)
		return EXIT_NO;
	if (!mm->found) {
		size_t l = sc->m->nlayers, h = model_nheads(sc->m);
		fprintf(out, "agreement: %s (%zu compared; semantics %s, %zu "
			     "layer%s, %zu head%s)\n",
			what, mm->words, semantics_name(&sc->sem), l,
			l == 1 ? "" : "s", h, h == 1 ? "" : "s");
		return EXIT_YES;
	}
	fprintf(out, "disagreement at length %zu: ", mm->length);
	print_word(sc, mm->word, mm->length, out);
	if (sc->ref) {
		Readout r = sc->m->readout;
		char *a = seqref_text(r, mm->model_value);
		char *b = seqref_text(r, mm->want_value);
		fprintf(out, ": at position %zu the transformer outputs %s, the "
			     "formula's %s readout is %s (semantics %s; %s)\n",
			mm->length, a, readout_name(r), b,
			semantics_name(&sc->sem), what);
		free(a);
		free(b);
		return EXIT_NO;
	}
	fprintf(out, ": transformer %s, formula %s (semantics %s; %s)\n",
		mm->model_accepts ? "accepts" : "rejects",
		mm->model_accepts ? "rejects" : "accepts",
		semantics_name(&sc->sem), what);
	return EXIT_NO;
}

int simcheck_all(SimCheck *sc, size_t maxlen, FILE *out, bool json)
{
	Mismatch mm;
	simcheck_exhaustive(sc, maxlen, &mm);
	char what[64];
	snprintf(what, sizeof what, "all words up to length %zu", maxlen);
	int st = report(sc, &mm, what, out, json);
	free(mm.word);
	return st;
}

int simcheck_random(SimCheck *sc, size_t k, size_t len, uint64_t seed,
		    FILE *out, bool json)
{
	Mismatch mm;
	simcheck_sample(sc, k, len, seed, &mm);
	char what[96];
	snprintf(what, sizeof what,
		 "%zu random words of length %zu, every prefix", k, len);
	int st = report(sc, &mm, what, out, json);
	free(mm.word);
	return st;
}

/* The word as print_word() writes it (malloc'd). */
static char *word_text(const SimCheck *sc, const uint32_t *w, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return xstrdup("?");
	print_word(sc, w, n, f);
	fclose(f);
	return text;
}

/* The format a semantics computes in: the model's F_{p,s}, or an IEEE
 * format and its significand bits. */
static int precision(const SimCheck *sc, char *out, size_t n)
{
	static const char *name[] = {"binary32", "bfloat16", "binary16"};
	static const int bits[] = {24, 8, 11};
	if (sc->sem.kind != SEM_IEEE) {
		snprintf(out, n, "F_{%d,%d}", sc->m->p, sc->m->s);
		return sc->m->p;
	}
	snprintf(out, n, "%s", name[sc->sem.fmt]);
	return bits[sc->sem.fmt];
}

static const char *result_name[] = {
	[BREAK_FOUND] = "found", [BREAK_NONE] = "none",
	[BREAK_LIMIT] = "limit", [BREAK_UNSUPPORTED] = "unsupported",
};

/* The record of one search (--json, --plot): model and formula are the
 * verdicts on the witness (BREAK_FOUND only). */
static json_t *breakdown_record(const SimCheck *sc, size_t maxlen,
				BreakResult r, const Mismatch *mm, bool model,
				bool formula)
{
	char prec[32];
	json_t *o = json_envelope();
	json_object_set_new(o, "semantics", json_string(semantics_name(&sc->sem)));
	int bits = precision(sc, prec, sizeof prec);
	json_object_set_new(o, "precision", json_string(prec));
	json_object_set_new(o, "precision_bits", json_integer(bits));
	json_object_set_new(o, "max_length", json_size(maxlen));
	json_object_set_new(o, "result", json_string(result_name[r]));
	if (r == BREAK_UNSUPPORTED)
		return o;
	json_object_set_new(o, "states", json_size(mm->words));
	json_object_set_new(o, "agrees_up_to", r == BREAK_NONE ? json_size(maxlen)
			    : r == BREAK_LIMIT ? json_size(mm->length)
			    : mm->length ? json_size(mm->length - 1) : json_null());
	if (r != BREAK_FOUND)
		return o;
	char *w = word_text(sc, mm->word, mm->length);
	json_object_set_new(o, "length", json_size(mm->length));
	json_object_set_new(o, "word", json_string(w));
	json_object_set_new(o, "transformer_accepts", json_boolean(model));
	json_object_set_new(o, "formula_accepts", json_boolean(formula));
	json_object_set_new(o, "confirmed", json_boolean(model != formula));
	free(w);
	return o;
}

/* The text line of a search (BREAK_LIMIT and BREAK_UNSUPPORTED print
 * their own messages). */
static void breakdown_line(SimCheck *sc, size_t maxlen, BreakResult r,
			   const Mismatch *mm, bool model, bool formula,
			   FILE *out)
{
	if (r == BREAK_NONE)
		fprintf(out, "no disagreement with kneedeep up to length %zu "
			     "(%zu states; semantics %s)\n",
			maxlen, mm->words, semantics_name(&sc->sem));
	if (r != BREAK_FOUND)
		return;
	fprintf(out, "first disagreement at length %zu: ", mm->length);
	print_word(sc, mm->word, mm->length, out);
	fprintf(out, ": transformer %s, formula %s (semantics %s; "
		     "%zu states; %s)\n",
		model ? "accepts" : "rejects", formula ? "accepts" : "rejects",
		semantics_name(&sc->sem), mm->words,
		model != formula ? "confirmed by the evaluator"
				 : "NOT confirmed by the evaluator");
}

int simcheck_breakdown(SimCheck *sc, size_t maxlen, size_t maxstates,
		       FILE *out, bool json, json_t **record)
{
	Mismatch mm;
	BreakResult r = breakdown_search(sc->m, &sc->sem, maxlen, maxstates,
					 sc->limits, &mm);
	bool model = false, formula = false;
	if (r == BREAK_FOUND) {
		model = simcheck_run(sc, mm.word, mm.length);
		formula = simcheck_formula(sc, mm.word, mm.length);
	}
	json_t *o = json || record ? breakdown_record(sc, maxlen, r, &mm, model,
						      formula) : NULL;
	if (record)
		*record = json_incref(o);
	if (json)
		json_emit(o);
	else {
		json_decref(o);
		breakdown_line(sc, maxlen, r, &mm, model, formula, out);
	}
	int st = r == BREAK_FOUND ? (model != formula ? EXIT_NO : EXIT_INTERNAL)
		 : EXIT_YES;
	if (r == BREAK_UNSUPPORTED)
		st = status_usage_error("--find-breakdown needs heads with constant "
				     "logits (NoPE, as tally compile builds)");
	if (r == BREAK_LIMIT) {
		char done[96];
		snprintf(done, sizeof done, "no disagreement up to length %zu",
			 mm.length);
		fflush(out);
		st = sc->limits && sc->limits->hit != LIMIT_NONE
			     ? limit_report(sc->limits, done)
			     : limit_fail("--max-states=%zu reached; %s", maxstates,
					  done);
	}
	free(mm.word);
	return st;
}

/* ---- trace -------------------------------------------------------------- */

/* The exact kneedeep output of a head: floor(-(L+1)/(i+1)) at scale s. */
static double head_exact(const SimCheck *sc, uint32_t c, EvalTable *t,
			 size_t pos, double **prefix)
{
	const Component *cp = &sc->m->comps[c];
	double l = cp->constant;
	for (size_t k = 0; k < cp->ncounts; k++)
		l += cp->counts[k].coef * (pos ? prefix[k][pos] : 0);
	double num = -(l + 1), sc2 = ldexp(1, sc->m->s);
	return floor(num * sc2 / (double)(pos + 1)) / sc2 + 0.0; /* no -0 */
}

/* What a head component holds, by construction. */
static const char *window_label(const Model *m, const Component *cp)
{
	if (cp->kind != COMP_HEAD)
		return "0/1";
	if (!cp->window)
		return "floor(-(L+1)/(i+1))";
	if (strcmp(m->pe, "urpe") == 0)
		return "floor((2 psi(i-1) - 1)/(i+1))";
	if (strcmp(m->pe, "rope") == 0)
		return "1 if only BOS weighs, else the average";
	return "window average";
}

static void row_label(FILE *out, const Component *cp, const char *what)
{
	const char *kind = cp->kind == COMP_HEAD ? "head" : "bool";
	fprintf(out, "L%u %s %s [%s]\n", cp->layer, kind,
		cp->formula ? cp->formula : "?", what);
}

void simcheck_trace(SimCheck *sc, const uint32_t *w, size_t n, FILE *out)
{
	const Model *m = sc->m;
	Sym *word = xcalloc(n ? n : 1, sizeof *word);
	for (size_t i = 0; i < n; i++)
		word[i] = sc->sym_of[w[i]];
	EvalTable *t = NULL;
	size_t nroots;
	Node *roots = labels(sc, &nroots);
	/* a count readout's term is no row of the trace */
	size_t skip = sc->root && !store_is_bool(sc->store, sc->root);
	Evaluator *ev = nroots > skip ? eval_new(sc->store, roots + skip,
						 nroots - skip, ACCEPT_LAST)
				      : NULL;
	if (ev)
		t = eval_table(ev, word, n);
	simcheck_run(sc, w, n);
	fprintf(out, "%-8s", "position");
	fprintf(out, " %8s", "BOS");
	for (size_t p = 1; p <= n; p++)
		fprintf(out, " %8zu", p);
	fputc('\n', out);
	fprintf(out, "%-8s", "letter");
	for (size_t p = 0; p <= n; p++)
		fprintf(out, " %8s", p ? m->alphabet[w[p - 1] - 1] : "");
	fputc('\n', out);
	for (uint32_t c = 0; c < m->d; c++) {
		const Component *cp = &m->comps[c];
		if (cp->kind != COMP_BOOL && cp->kind != COMP_HEAD)
			continue;
		row_label(out, cp, window_label(m, cp));
		fprintf(out, "%-8s", "  model");
		for (size_t p = 0; p <= n; p++)
			fprintf(out, " %8g", sim_residual(sc->sim, p, cp->layer)[c]);
		fputc('\n', out);
		if (!t)
			continue;
		fprintf(out, "%-8s", "  logic");
		double **prefix = NULL;
		if (cp->kind == COMP_HEAD) {
			prefix = xcalloc(cp->ncounts + 1, sizeof *prefix);
			for (size_t k = 0; k < cp->ncounts; k++) {
				prefix[k] = xcalloc(n + 1, sizeof **prefix);
				for (size_t p = 1; p <= n; p++)
					prefix[k][p] = prefix[k][p - 1] +
						       eval_table_bool(
							       t, sc->count_node[c][k], p);
			}
		}
		for (size_t p = 0; p <= n; p++) {
			if (cp->kind == COMP_HEAD && cp->window)
				fprintf(out, " %8s", "-");
			else if (cp->kind == COMP_HEAD)
				fprintf(out, " %8g", head_exact(sc, c, t, p, prefix));
			else if (p == 0 && n > 0)
				fprintf(out, " %8s", ".");
			else if (!sc->comp_node[c])
				fprintf(out, " %8s", "?");
			else
				fprintf(out, " %8d",
					eval_table_bool(t, sc->comp_node[c], p));
		}
		fputc('\n', out);
		for (size_t k = 0; prefix && k < cp->ncounts; k++)
			free(prefix[k]);
		free(prefix);
	}
	eval_table_free(t);
	eval_free(ev);
	free(roots);
	free(word);
}
