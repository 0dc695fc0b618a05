/* t_model.c -- the transformer model reader of `tally simulate`
 * (model.h) and the simulator on what it reads (fuzz_model).
 *
 * The input is JSON.  A model that reads must write back (model_to_json)
 * to JSON that reads again and writes the same; one that is refused has
 * a message.  A small model is then simulated on every word of length
 * <= MAX_LEN over its first MAX_LETTERS letters, depth first with push
 * and pop, and each word again from scratch: the outputs must agree bit
 * for bit (a pop restores the state exactly).  A model that carries a
 * formula is also checked against it as `simulate
 * --check-against-formula` does (a disagreement is a fact about the
 * model, not a defect; crashes and leaks are what is looked for). */
#include <config.h>
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "transformer/model.h"
#include "transformer/sim.h"
#include "transformer/simcheck.h"

enum { MAX_D = 256, MAX_LAYERS = 8, MAX_LETTERS = 3, MAX_LEN = 3 };

static bool same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
}

/* Depth first: out[] gets the output of every word in odometer order. */
static void walk(Sim *sim, uint32_t k, size_t depth, double *out, size_t *n)
{
	out[(*n)++] = sim_output(sim);
	if (depth == MAX_LEN)
		return;
	for (uint32_t t = 1; t <= k; t++) {
		sim_push(sim, t);
		walk(sim, k, depth + 1, out, n);
		sim_pop(sim);
	}
}

/* The same words, each from the empty word, compared with out[]. */
static void again(Sim *sim, uint32_t k, uint32_t *w, size_t len,
		  const double *out, size_t *i)
{
	sim_reset(sim);
	for (size_t j = 0; j < len; j++)
		sim_push(sim, w[j]);
	FUZZ_CHECK(same_double(sim_output(sim), out[(*i)++]));
	if (len == MAX_LEN)
		return;
	for (uint32_t t = 1; t <= k; t++) {
		w[len] = t;
		again(sim, k, w, len + 1, out, i);
	}
}

static void simulate(const Model *m)
{
	Semantics sem = {.kind = SEM_KNEEDEEP};
	uint32_t k = m->nletters < MAX_LETTERS ? (uint32_t)m->nletters
					       : MAX_LETTERS;
	double out[1 + 3 + 9 + 27];
	size_t n = 0, i = 0;
	uint32_t w[MAX_LEN];
	Sim *sim = sim_new(m, &sem);
	walk(sim, k, 0, out, &n);
	again(sim, k, w, 0, out, &i);
	FUZZ_CHECK(i == n);
	sim_free(sim);
	if (m->formula) {
		char *err = NULL;
		SimCheck *sc = simcheck_new(m, &sem, true, &err);
		if (sc) {
			Mismatch mm = {0};
			simcheck_exhaustive(sc, MAX_LEN, &mm);
			free(mm.word);
			simcheck_free(sc);
		} else {
			FUZZ_CHECK(err && *err);
			free(err);
		}
	}
}

FUZZ_TARGET(model)
{
	json_error_t jerr;
	json_t *j = json_loadb((const char *)data, size, 0, &jerr);
	if (!j)
		return 0;
	Model m;
	char *err = NULL;
	bool ok = model_from_json(j, &m, &err);
	json_decref(j);
	if (!ok) {
		FUZZ_CHECK(err && *err); /* a refusal says why */
		free(err);
		return 0;
	}
	json_t *w1 = model_to_json(&m);
	Model back;
	ok = model_from_json(w1, &back, &err);
	if (!ok)
		fprintf(stderr, "written model refused: %s\n", err);
	FUZZ_CHECK(ok);
	json_t *w2 = model_to_json(&back);
	FUZZ_CHECK(json_equal(w1, w2));
	json_decref(w1);
	json_decref(w2);
	model_free(&back);
	if (m.d <= MAX_D && m.nlayers <= MAX_LAYERS)
		simulate(&m);
	model_free(&m);
	return 0;
}
