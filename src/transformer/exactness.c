/* exactness.c -- search and spot check of the length up to which a
 * compiled model is exact, around the proof of exactness_proof.c (see
 * exactness.h). */
#include <config.h>
#include "transformer/exactness.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transformer/breakdown.h"
#include "base/buf.h"
#include "machine/eval.h"
#include "base/mem.h"
#include "transformer/sim.h"
#include "transformer/simcheck.h"
#include "base/splitmix.h"

/* ---- words ------------------------------------------------------------- */

/* Words longer than 40 letters run-length encoded: "a^128 b^128". */
static char *word_text(const Model *m, const uint32_t *w, size_t n)
{
	if (n == 0)
		return xstrdup("the empty word");
	bool spaced = n > 40;
	for (size_t t = 0; t < m->nletters; t++)
		spaced |= strlen(m->alphabet[t]) > 1;
	Buf b = {0};
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; n > 40 && j < n && w[j] == w[i]; j++)
			;
		if (spaced && i)
			buf_putc(&b, ' ');
		buf_puts(&b, m->alphabet[w[i] - 1]);
		if (j - i > 1)
			buf_printf(&b, "^%zu", j - i);
	}
	return buf_take(&b);
}

/* An adversarial word of length n: x^ceil(n/2) y^floor(n/2), (x y)^n/2,
 * x^n, or a seeded random word. */
typedef enum { W_HALF, W_ALT, W_SAME, W_RANDOM } WordKind;

typedef struct {
	WordKind kind;
	uint32_t x, y;
	uint64_t seed;
} WordGen;

static uint32_t word_letter(const WordGen *g, size_t i, size_t n,
			    uint64_t *rng, uint32_t k)
{
	switch (g->kind) {
	case W_HALF: return i < (n + 1) / 2 ? g->x : g->y;
	case W_ALT: return i % 2 ? g->y : g->x;
	case W_SAME: return g->x;
	default: return 1 + (uint32_t)(splitmix64_next(rng) % k);
	}
}

/* The words of the spot check, most adversarial first. */
static size_t word_gens(uint32_t k, WordGen *g, size_t cap)
{
	size_t n = 0;
	uint32_t lim = k < 3 ? k : 3;
	if (k >= 2) {
		g[n++] = (WordGen){W_HALF, 1, 2, 0};
		g[n++] = (WordGen){W_HALF, 2, 1, 0};
		g[n++] = (WordGen){W_ALT, 1, 2, 0};
		g[n++] = (WordGen){W_ALT, 2, 1, 0};
	}
	for (uint64_t seed = 1; seed <= 2 && k; seed++)
		g[n++] = (WordGen){W_RANDOM, 0, 0, seed};
	for (uint32_t x = 1; x <= lim; x++)
		for (uint32_t y = 1; y <= lim && n + 1 < cap; y++)
			if (x != y && x + y > 3)
				g[n++] = (WordGen){W_HALF, x, y, 0};
	for (uint32_t x = 1; x <= lim && n < cap; x++)
		g[n++] = (WordGen){W_SAME, x, 0, 0};
	return n;
}

/* ---- the spot check ----------------------------------------------------- */

enum {
	SPOT_BUDGET = 1 << 22,   /* positions simulated in all */
	SPOT_ALL_LEN = 1024,     /* the length that checks "every length" */
	SPOT_MIN_WORDS = 2,      /* at the claimed length, whatever the cost */
	SPOT_MAX_BYTES = 64 << 20, /* history of a model that cannot stream */
	SPOT_QUADRATIC = 2048,   /* words of a model whose heads visit every
				    key (RoPE): n^2/2 visits each */
	SPOT_ALL_QUADRATIC = 512 /* the same, checking "every length" */
};

/* The longest word the simulator can afford for this model: any length
 * when it streams; otherwise its history must fit SPOT_MAX_BYTES, and
 * heads that visit every key (RoPE) cost n^2/2 key visits. */
static size_t spot_cap(const Model *m, bool streams)
{
	if (streams)
		return SIZE_MAX;
	size_t heads = model_nheads(m), keys = 0, per;
	bool quadratic = false;
	for (size_t l = 0; l < m->nlayers; l++)
		for (size_t h = 0; h < m->layers[l].nheads; h++) {
			keys += m->layers[l].heads[h].wk.rows;
			quadratic |= m->layers[l].heads[h].wq.rows > 0;
		}
	per = ((m->nlayers + 1) * m->d + heads + keys) * sizeof(double) +
	      heads * 2 * sizeof(Acc);
	size_t cap = SPOT_MAX_BYTES / per;
	return quadratic && cap > SPOT_QUADRATIC ? SPOT_QUADRATIC : cap;
}

typedef struct {
	const ExactInput *in;
	Sim *sim;
	Evaluator *ev;
	char *evidence; /* the first disagreement */
} Spot;

/* The prefix of the word g of length n that disagrees, as text. */
static char *spot_evidence(const Spot *sp, const WordGen *g, size_t n,
			   size_t len, bool model)
{
	const Model *m = sp->in->m;
	uint32_t *w = xcalloc(len ? len : 1, sizeof *w);
	uint64_t rng = g->seed;
	for (size_t i = 0; i < len; i++)
		w[i] = word_letter(g, i, n, &rng, (uint32_t)m->nletters);
	char *text = word_text(m, w, len);
	free(w);
	Buf b = {0};
	buf_printf(&b, "%s%s (length %zu): the model under %s %s it, tally's "
		       "evaluator %s it",
		   g->kind == W_RANDOM && len > 40 ? "a random word, " : "",
		   len > 400 && g->kind == W_RANDOM ? "not shown" : text, len,
		   semantics_name(&sp->in->sem), model ? "accepts" : "rejects",
		   model ? "rejects" : "accepts");
	free(text);
	return buf_take(&b);
}

/* Every prefix of one word; false (with the evidence) on a disagreement. */
static bool spot_word(Spot *sp, const WordGen *g, size_t n)
{
	const ExactInput *in = sp->in;
	uint64_t rng = g->seed;
	sim_reset(sp->sim);
	eval_reset(sp->ev);
	for (size_t i = 0;; i++) {
		bool model = sim_accepts(sp->sim);
		if (model != eval_accepts(sp->ev, 0)) {
			sp->evidence = spot_evidence(sp, g, n, i, model);
			return false;
		}
		if (i == n)
			return true;
		uint32_t t = word_letter(g, i, n, &rng, (uint32_t)in->nletters);
		sim_push(sp->sim, t);
		eval_push(sp->ev, in->letters[t - 1]);
	}
}

static void spot_check(const ExactInput *in, Exactness *e)
{
	const Model *m = in->m;
	Spot sp = {in, sim_new(m, &in->sem), NULL, NULL};
	bool streams = sim_uniform(sp.sim);
	sim_set_streaming(sp.sim, streams);
	sp.ev = eval_new(in->st, &in->root, 1, ACCEPT_LAST);
	size_t cap = spot_cap(m, streams);
	if (e->proved_all && cap > SPOT_ALL_QUADRATIC && cap == SPOT_QUADRATIC)
		cap = SPOT_ALL_QUADRATIC;
	size_t want = e->proved_all ? (cap < SPOT_ALL_LEN ? cap : SPOT_ALL_LEN)
				    : e->proved_len;
	size_t n = want < cap ? want : cap;
	WordGen g[32];
	size_t ng = m->nletters ? word_gens((uint32_t)m->nletters, g, 32) : 0;
	e->spot_target = want;
	e->spot_len = n;
	size_t spent = 0;
	if (ng == 0 && !spot_word(&sp, &(WordGen){W_SAME, 1, 0, 0}, 0))
		e->contradiction = sp.evidence;
	for (size_t k = 0; k < ng && !e->contradiction; k++) {
		if (k >= SPOT_MIN_WORDS && spent + n > SPOT_BUDGET)
			break;
		if (!spot_word(&sp, &g[k], n))
			e->contradiction = sp.evidence;
		spent += n;
		e->spot_words++;
	}
	eval_free(sp.ev);
	sim_free(sp.sim);
}

/* ---- the search -------------------------------------------------------- */

enum {
	SEARCH_MAX_LEN = 1 << 20,
	ENUM_WORDS = 1 << 16         /* words enumerated when it cannot run */
};

static void found(const ExactInput *in, Exactness *e, const Mismatch *mm)
{
	e->found = true;
	e->found_len = mm->length;
	e->found_word = word_text(in->m, mm->word, mm->length);
	e->found_accepts = mm->model_accepts;
	e->searched = mm->length > 0;
	e->confirmed_len = mm->length ? mm->length - 1 : 0;
}

/* A breakdown witness is a disagreement with kneedeep; under kneedeep
 * the model decides like the formula, so it must disagree with the
 * evaluator too.  False (an internal error) when it does not. */
static bool witness_holds(const ExactInput *in, const Mismatch *mm)
{
	Sim *sim = sim_new(in->m, &in->sem);
	Evaluator *ev = eval_new(in->st, &in->root, 1, ACCEPT_LAST);
	for (size_t i = 0; i < mm->length; i++) {
		sim_push(sim, mm->word[i]);
		eval_push(ev, in->letters[mm->word[i] - 1]);
	}
	bool ok = sim_accepts(sim) != eval_accepts(ev, 0);
	eval_free(ev);
	sim_free(sim);
	return ok;
}

static void search_breakdown(const ExactInput *in, Exactness *e)
{
	Mismatch mm;
	BreakResult r = breakdown_search(in->m, &in->sem, SEARCH_MAX_LEN,
					 in->max_states ? in->max_states
							: EXACTNESS_STATES,
					 NULL, &mm);
	e->visited = mm.words;
	if (r == BREAK_FOUND) {
		if (witness_holds(in, &mm)) {
			found(in, e, &mm);
		} else {
			char *w = word_text(in->m, mm.word, mm.length);
			Buf b = {0};
			buf_printf(&b, "the breakdown search's witness %s is decided "
				       "alike by the model and the evaluator, so the "
				       "model disagrees with its formula under "
				       "kneedeep", w);
			e->contradiction = buf_take(&b);
			free(w);
		}
	} else if (r == BREAK_NONE || r == BREAK_LIMIT) {
		e->searched = true;
		e->confirmed_len = r == BREAK_NONE ? SEARCH_MAX_LEN : mm.length;
		e->search_note = xstrdup(r == BREAK_NONE ? "the length bound"
							 : "the state budget");
	}
	free(mm.word);
}

/* Every word up to the longest length of at most ENUM_WORDS words. */
static void search_words(const ExactInput *in, Exactness *e)
{
	char *err = NULL;
	SimCheck *sc = simcheck_new(in->m, &in->sem, true, &err);
	if (!sc) {
		e->search_note = err;
		return;
	}
	size_t len = 0, total = 1, level = 1, k = in->m->nletters;
	while (k && total + level * k <= ENUM_WORDS && len < SEARCH_MAX_LEN) {
		level *= k;
		total += level;
		len++;
	}
	if (k == 0)
		len = SEARCH_MAX_LEN; /* the empty word is the only word */
	Mismatch mm;
	simcheck_exhaustive(sc, k ? len : 0, &mm);
	e->every_word = true;
	e->visited = mm.words;
	if (mm.found) {
		found(in, e, &mm);
	} else {
		e->searched = true;
		e->confirmed_len = len;
		e->search_note = xstrdup("the word budget");
	}
	free(mm.word);
	simcheck_free(sc);
}

static void search(const ExactInput *in, Exactness *e)
{
	Sim *sim = sim_new(in->m, &in->sem);
	bool uniform = sim_uniform(sim);
	sim_free(sim);
	if (uniform)
		search_breakdown(in, e);
	else
		search_words(in, e);
}

/* ---- together ---------------------------------------------------------- */

void exactness_analyse(const ExactInput *in, Exactness *out)
{
	if (readout_counts(in->m->readout)) {
		exactness_counts(in, out);
		return;
	}
	memset(out, 0, sizeof *out);
	exactness_prove(in, out);
	if (!out->proved_all)
		search(in, out);
	if (out->contradiction)
		return;
	if (out->found && out->proved &&
	    (out->proved_all || out->found_len <= out->proved_len)) {
		Buf b = {0};
		buf_printf(&b, "the proof claims length %zu, and the search finds "
			       "%s (length %zu) decided wrongly: the model %s it",
			   out->proved_len, out->found_word, out->found_len,
			   out->found_accepts ? "accepts" : "rejects");
		out->contradiction = buf_take(&b);
		return;
	}
	if (out->proved)
		spot_check(in, out);
}

void exactness_free(Exactness *e)
{
	free(e->argument);
	free(e->found_word);
	free(e->search_note);
	free(e->contradiction);
	memset(e, 0, sizeof *e);
}

bool exactness_length(const Exactness *e, size_t *len, bool *all)
{
	*all = e->proved_all;
	*len = 0;
	bool any = false;
	if (e->proved) {
		*len = e->proved_len;
		any = true;
	}
	if (e->searched && (!any || e->confirmed_len > *len)) {
		*len = e->confirmed_len;
		any = true;
	}
	return any || *all;
}

char *exactness_headline(const Exactness *e, const Semantics *sem)
{
	Buf b = {0};
	size_t len;
	bool all;
	const char *how = e->every_word ? "checking every word"
					: "the breakdown search";
	if (!exactness_length(e, &len, &all)) {
		if (e->found)
			buf_printf(&b, "none (the empty word is decided wrongly "
				       "under %s)", semantics_name(sem));
		else
			buf_printf(&b, "unknown (no proof, and no search: %s)",
				   e->search_note ? e->search_note : "none ran");
	} else if (all) {
		buf_puts(&b, "all lengths (proved)");
	} else if (e->proved && e->searched && e->confirmed_len > e->proved_len) {
		buf_printf(&b, "%zu (confirmed by %s; proved up to %zu)", len,
			   how, e->proved_len);
	} else if (e->proved && e->searched) {
		buf_printf(&b, "%zu (proved; %s confirms up to %zu)", len, how,
			   e->confirmed_len);
	} else if (e->proved) {
		buf_printf(&b, "%zu (proved)", len);
	} else {
		buf_printf(&b, "%zu (confirmed by %s; not proved)", len, how);
	}
	return buf_take(&b);
}
