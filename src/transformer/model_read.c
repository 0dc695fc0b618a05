/* model_read.c -- the validating reader of a model's JSON form (see
 * model.h; the format is described field by field in tally-simulate(1)).
 *
 * Every field is checked: its JSON type, its range, the references
 * between components, layers and matrices, and the one spelling of each
 * weight, angle and phase; an unknown field is refused too, since a
 * misspelt optional field ("ropes") would otherwise change the model
 * silently.  The first problem is reported with the path of the field
 * ("layers[2].heads[0].t5.num_buckets: ...").  A model that reads is
 * safe to simulate: every index is in range, and every component is
 * written only in the layer it names, so the trace shows what it says.
 * This file reads the model itself (the alphabet, the embedding side, the
 * components and the top-level fields); the fields and numbers are
 * model_read_fields.c's, the layers model_read_layers.c's. */
#include <config.h>
#include "transformer/model_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/intmath.h"
#include "base/mem.h"
#include "transformer/fixed.h"

const char *const rd_comp_kinds[] = {"bos", "bool", "head", "hidden", NULL};
static const char *const encodings[] = {"nope", "alibi", "sinusoidal", "rope",
					"t5", "urpe", NULL};

/* ---- the embedding side ------------------------------------------------- */

static bool feature(Reader *r, json_t *o, Feature *ft)
{
	static const char *const keys[] = {"out", "angle", "phase", NULL};
	if (!rd_object(r, o, keys) || !rd_field_index(r, o, "out", &ft->out))
		return false;
	size_t at = rd_enter(r, "out");
	bool ok = rd_note_write(r, ft->out, 0, BY_FEATURE);
	rd_leave(r, at);
	json_t *a = ok ? rd_member(r, o, "angle", true) : NULL;
	json_t *p = a ? rd_member(r, o, "phase", true) : NULL;
	if (!p)
		return false;
	at = rd_enter(r, "angle");
	ok = rd_angle(r, a, &ft->angle);
	rd_leave(r, at);
	at = rd_enter(r, "phase");
	ok = ok && rd_rational(r, p, &ft->pnum, &ft->pden);
	rd_leave(r, at);
	return ok;
}

static bool features(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!rd_uses(r, "sinusoidal") || !rd_array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	m->feats = xcalloc(n ? n : 1, sizeof *m->feats);
	for (size_t f = 0; f < n; f++, m->nfeats++) {
		size_t at = rd_enter_at(r, f);
		bool ok = feature(r, json_array_get(a, f), &m->feats[f]);
		rd_leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

static bool embedding(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!rd_array(r, a, m->nletters + 1))
		return false;
	m->embed = xcalloc((m->nletters + 1) * m->d, sizeof *m->embed);
	for (size_t t = 0; t <= m->nletters; t++) {
		size_t at = rd_enter_at(r, t);
		double *row = m->embed + t * m->d;
		bool ok = rd_weights(r, json_array_get(a, t), m->d, row);
		for (uint32_t c = 0; ok && c < m->d; c++) {
			size_t at2 = rd_enter_at(r, c);
			ok = row[c] == 0 || rd_note_write(r, c, 0, BY_EMBEDDING);
			rd_leave(r, at2);
		}
		rd_leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

static char *dup_string(json_t *j)
{
	return xstrdup(json_string_value(j));
}

static int by_name(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;
	int c = strcmp(*x, *y);
	return c ? c : (*x < *y ? -1 : *x > *y);
}

/* Distinct nonempty letters (a repeat would make two tokens one letter). */
static bool alphabet(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!rd_array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	m->alphabet = xcalloc(n + 1, sizeof *m->alphabet);
	for (size_t i = 0; i < n; i++) {
		size_t at = rd_enter_at(r, i);
		const char *s = rd_string(r, json_array_get(a, i));
		if (s && !*s)
			rd_fail(r, "an empty letter");
		rd_leave(r, at);
		if (!s || !*s)
			return false;
		m->alphabet[m->nletters++] = xstrdup(s);
	}
	const char **sorted = xcalloc(n ? n : 1, sizeof *sorted);
	for (size_t i = 0; i < n; i++)
		sorted[i] = m->alphabet[i];
	qsort(sorted, n, sizeof *sorted, by_name);
	bool ok = true;
	for (size_t i = 1; ok && i < n; i++)
		if (strcmp(sorted[i], sorted[i - 1]) == 0) {
			size_t first = 0, second;
			while (strcmp(m->alphabet[first], sorted[i]) != 0)
				first++;
			second = first + 1;
			while (strcmp(m->alphabet[second], sorted[i]) != 0)
				second++;
			rd_enter_at(r, second);
			ok = rd_fail(r, "the letter \"%.40s\" again (it is "
				     "alphabet[%zu])",
				  sorted[i], first);
		}
	free(sorted);
	return ok;
}

/* ---- components --------------------------------------------------------- */

static bool counts(Reader *r, json_t *a, Component *c)
{
	static const char *const keys[] = {"coef", "formula", NULL};
	if (!rd_array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	c->counts = xcalloc(n ? n : 1, sizeof *c->counts);
	for (size_t i = 0; i < n; i++) {
		json_t *t = json_array_get(a, i);
		size_t at = rd_enter_at(r, i);
		json_t *f = rd_object(r, t, keys) ? rd_member(r, t, "formula", true)
					       : NULL;
		bool ok = f && rd_field_weight(r, t, "coef", &c->counts[i].coef);
		if (ok) {
			size_t at2 = rd_enter(r, "formula");
			ok = rd_string(r, f) != NULL;
			rd_leave(r, at2);
		}
		rd_leave(r, at);
		if (!ok)
			return false;
		c->counts[c->ncounts++].formula = dup_string(f);
	}
	return true;
}

static bool component(Reader *r, json_t *o, Component *c)
{
	static const char *const fields[][6] = {
		{"kind", "layer", NULL},
		{"kind", "layer", "formula", NULL},
		{"kind", "layer", "formula", "counts", "constant", NULL},
		{"kind", "layer", NULL},
	};
	json_t *kind = json_is_object(o) ? rd_member(r, o, "kind", true) : NULL;
	if (!json_is_object(o))
		return rd_expected(r, o, "an object");
	if (!kind)
		return false;
	size_t at = rd_enter(r, "kind");
	int k = rd_one_of(r, kind, rd_comp_kinds,
			  "\"bos\", \"bool\", \"head\" or \"hidden\"");
	rd_leave(r, at);
	if (k < 0)
		return false;
	c->kind = (CompKind)k;
	int64_t l;
	int64_t lo = c->kind == COMP_HEAD ? 1 : 0;
	int64_t hi = c->kind == COMP_BOS ? 0 : (int64_t)r->m->nlayers;
	if (!rd_object(r, o, fields[k]) || !rd_field_int(r, o, "layer", lo, hi, &l))
		return false;
	c->layer = (uint32_t)l;
	json_t *f = json_object_get(o, "formula");
	if (f) {
		at = rd_enter(r, "formula");
		bool ok = rd_string(r, f) != NULL;
		rd_leave(r, at);
		if (!ok)
			return false;
		c->formula = dup_string(f);
	}
	json_t *cs = json_object_get(o, "counts");
	c->window = c->kind == COMP_HEAD && !cs;
	if (c->window && json_object_get(o, "constant")) {
		rd_enter(r, "constant");
		return rd_fail(r, "a constant without \"counts\"");
	}
	if (!cs)
		return true;
	at = rd_enter(r, "counts");
	bool ok = counts(r, cs, c);
	rd_leave(r, at);
	return ok && rd_field_weight(r, o, "constant", &c->constant);
}

static bool components(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!rd_array(r, a, m->d))
		return false;
	m->comps = xcalloc(m->d, sizeof *m->comps);
	for (uint32_t c = 0; c < m->d; c++) {
		size_t at = rd_enter_at(r, c);
		bool ok = component(r, json_array_get(a, c), &m->comps[c]);
		rd_leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

/* ---- the model ---------------------------------------------------------- */

/* Field key of the top object, read by fn at its path. */
static bool top(Reader *r, json_t *o, const char *key, bool required,
		bool (*fn)(Reader *, json_t *))
{
	json_t *j = rd_member(r, o, key, required);
	if (!j)
		return !required;
	size_t at = rd_enter(r, key);
	bool ok = fn(r, j);
	rd_leave(r, at);
	return ok;
}

static bool precision(Reader *r, json_t *o)
{
	static const char *const keys[] = {"p", "s", "rounding", NULL};
	int64_t p, s;
	if (!rd_object(r, o, keys) ||
	    !rd_field_int(r, o, "p", 2, FIXED_MAX_P, &p) ||
	    !rd_field_int(r, o, "s", 0, p - 2, &s))
		return false;
	r->m->p = (int)p;
	r->m->s = (int)s;
	json_t *rd = rd_member(r, o, "rounding", true);
	static const char *const rounding[] = {"floor, saturating", NULL};
	size_t at = rd_enter(r, "rounding");
	bool ok = rd && rd_one_of(r, rd, rounding, "\"floor, saturating\"") == 0;
	rd_leave(r, at);
	return ok;
}

static bool format(Reader *r, json_t *j)
{
	static const char *const names[] = {"tally-transformer", NULL};
	return rd_one_of(r, j, names, "\"tally-transformer\"") == 0;
}

static bool version(Reader *r, json_t *j)
{
	int64_t v;
	return rd_integer(r, j, 1, 1, &v);
}

static bool any_string(Reader *r, json_t *j)
{
	return rd_string(r, j) != NULL;
}

static bool any_object(Reader *r, json_t *j)
{
	return json_is_object(j) || rd_expected(r, j, "an object");
}

static bool positional(Reader *r, json_t *j)
{
	int k = rd_one_of(r, j, encodings,
			  "\"nope\", \"alibi\", \"sinusoidal\", \"rope\", \"t5\" "
			  "or \"urpe\"");
	if (k >= 0)
		r->m->pe = xstrdup(encodings[k]);
	return k >= 0;
}

static bool ffn_kind(Reader *r, json_t *j)
{
	static const char *const names[] = {"table", "relu", NULL};
	int k = rd_one_of(r, j, names, "\"table\" or \"relu\"");
	r->m->ffn = k == 1 ? FFN_RELU : FFN_TABLE;
	return k >= 0;
}

static bool formula(Reader *r, json_t *j)
{
	if (!rd_string(r, j))
		return false;
	r->m->formula = dup_string(j);
	return true;
}

static bool d_model(Reader *r, json_t *j)
{
	int64_t d;
	if (!rd_integer(r, j, 1, MODEL_MAX_DIM, &d))
		return false;
	r->m->d = (uint32_t)d;
	r->nheads = xcalloc(r->m->d, 1);
	r->written = xcalloc(r->m->d, 1);
	return true;
}

static bool n_layers(Reader *r, json_t *j)
{
	int64_t n;
	if (!rd_integer(r, j, 0, MODEL_MAX_DIM, &n))
		return false;
	if (json_is_array(r->layers) && json_array_size(r->layers) != (size_t)n)
		return rd_fail(r, "%lld, but \"layers\" has %zu entries",
			       (long long)n, json_array_size(r->layers));
	r->m->nlayers = (size_t)n;
	return true;
}

static bool input_ffn(Reader *r, json_t *j)
{
	return rd_ffn(r, j, &r->m->input, 0);
}

static bool layers(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!rd_array(r, a, m->nlayers))
		return false;
	m->layers = xcalloc(m->nlayers ? m->nlayers : 1, sizeof *m->layers);
	for (size_t l = 0; l < m->nlayers; l++) {
		size_t at = rd_enter_at(r, l);
		bool ok = rd_layer(r, json_array_get(a, l), &m->layers[l],
				   (uint32_t)l + 1);
		rd_leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

/* The class bounds the compiler takes (compile.h), and the largest
 * integer a weight can be. */
enum { CLASS_BOUND = (int64_t)1 << 40 };

/* output.readout (absent: accept), and min/max for class only. */
static bool readout(Reader *r, json_t *o)
{
	static const char *const names[] = {"accept", "per_position", "class",
					    "ratio", NULL};
	Model *m = r->m;
	json_t *j = rd_member(r, o, "readout", false);
	if (j) {
		size_t at = rd_enter(r, "readout");
		int k = rd_one_of(r, j, names, "\"accept\", \"per_position\", "
				  "\"class\" or \"ratio\"");
		rd_leave(r, at);
		if (k < 0)
			return false;
		m->readout = (Readout)k;
	}
	if (m->readout != READOUT_CLASS) {
		const char *extra = json_object_get(o, "min")	? "min"
				    : json_object_get(o, "max") ? "max"
								: NULL;
		if (!extra)
			return true;
		rd_enter(r, extra);
		return rd_fail(r, "only a \"class\" readout has bounds");
	}
	if (!rd_field_int(r, o, "min", -CLASS_BOUND, CLASS_BOUND, &m->class_lo) ||
	    !rd_field_int(r, o, "max", m->class_lo, CLASS_BOUND, &m->class_hi))
		return false;
	return true;
}

static bool output(Reader *r, json_t *o)
{
	static const char *const keys[] = {"weights", "bias", "readout",
					   "min", "max", NULL};
	return rd_object(r, o, keys) &&
	       rd_field_entries(r, o, "weights", 1, r->m->d, true, "the components",
				&r->m->wout) &&
	       rd_field_weight(r, o, "bias", &r->m->bout) && readout(r, o);
}

static bool read_model(Reader *r, json_t *j)
{
	static const char *const keys[] = {
		"tally_version", "format", "format_version", "precision",
		"positional", "ffn", "formula", "alphabet", "d_model",
		"n_layers", "components", "embedding", "features", "input_ffn",
		"layers", "output", "analysis", NULL};
	if (!json_is_object(j))
		return rd_expected(r, j, "a model (a JSON object)");
	/* the format first: another file says that it is not a model */
	if (!top(r, j, "format", true, format) || !rd_object(r, j, keys))
		return false;
	r->layers = json_object_get(j, "layers");
	bool (*const order[])(Reader *, json_t *) = {
		version, any_string, precision, positional, ffn_kind, formula,
		alphabet, d_model, n_layers, components, embedding, features,
		input_ffn, layers, output, any_object};
	static const char *const names[] = {
		"format_version", "tally_version", "precision", "positional",
		"ffn", "formula", "alphabet", "d_model", "n_layers",
		"components", "embedding", "features", "input_ffn", "layers",
		"output", "analysis"};
	static const bool required[] = {true,  false, true,  true,
					true,  false, true,  true,
					true,  true,  true,  false,
					false, true,  true,  false};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!top(r, j, names[i], required[i], order[i]))
			return false;
	return rd_check_written(r);
}

bool model_from_json(json_t *j, Model *m, char **err)
{
	memset(m, 0, sizeof *m);
	Reader r = {.m = m};
	bool ok = read_model(&r, j);
	free(r.nheads);
	free(r.written);
	if (ok)
		return true;
	*err = r.err;
	model_free(m);
	return false;
}
