/* simcheck_checks.c -- the simulator against the evaluator on every word
 * up to a length and on random words, the reports of a disagreement
 * (text or JSON), and the search for a word where a semantics breaks
 * down (simcheck.h). */
#include <config.h>
#include "transformer/simcheck_state.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/splitmix.h"
#include "base/status.h"
#include "core/json.h"
#include "transformer/breakdown.h"

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
