/* model.c -- the transformer model and its JSON form (see model.h). */
#include <config.h>
#include "transformer/model.h"

#include <stdlib.h>
#include <string.h>

#include "transformer/fixed.h"
#include "core/json.h"
#include "base/mem.h"

static void sparse_free(Sparse *sp)
{
	free(sp->e);
}

static void layer_free(Layer *ly)
{
	for (size_t h = 0; h < ly->nheads; h++) {
		Head *hd = &ly->heads[h];
		sparse_free(&hd->wq);
		sparse_free(&hd->wk);
		sparse_free(&hd->wv);
		free(hd->rope);
		if (hd->t5)
			free(hd->t5->bias);
		free(hd->t5);
		free(hd->urpe);
	}
	for (size_t g = 0; g < ly->ngates; g++)
		free(ly->gates[g].in);
	for (size_t b = 0; b < ly->nblocks; b++) {
		sparse_free(&ly->blocks[b].w1);
		sparse_free(&ly->blocks[b].w2);
		free(ly->blocks[b].b1);
		free(ly->blocks[b].b2);
	}
	free(ly->heads);
	free(ly->gates);
	free(ly->blocks);
}

void model_free(Model *m)
{
	for (size_t l = 0; l < m->nlayers && m->layers; l++)
		layer_free(&m->layers[l]);
	layer_free(&m->input);
	free(m->layers);
	free(m->feats);
	for (uint32_t c = 0; c < m->d && m->comps; c++) {
		free(m->comps[c].formula);
		for (size_t k = 0; k < m->comps[c].ncounts; k++)
			free(m->comps[c].counts[k].formula);
		free(m->comps[c].counts);
	}
	free(m->comps);
	for (size_t i = 0; i < m->nletters; i++)
		free(m->alphabet[i]);
	free(m->alphabet);
	free(m->embed);
	free(m->formula);
	free(m->pe);
	sparse_free(&m->wout);
	memset(m, 0, sizeof *m);
}

static const char *const readout_names[] = {"accept", "per_position",
					    "class", "ratio"};

bool readout_parse(const char *text, Readout *out)
{
	for (int k = 0; k <= READOUT_RATIO; k++)
		if (strcmp(text, readout_names[k]) == 0) {
			*out = (Readout)k;
			return true;
		}
	return false;
}

const char *readout_name(Readout r)
{
	return readout_names[r];
}

bool readout_counts(Readout r)
{
	return r == READOUT_CLASS || r == READOUT_RATIO;
}

size_t model_nheads(const Model *m)
{
	size_t n = 0;
	for (size_t l = 0; l < m->nlayers; l++)
		n += m->layers[l].nheads;
	return n;
}

/* ---- writing ---------------------------------------------------------- */

static json_t *weight(double x)
{
	char *t = dyadic_text(x);
	json_t *j = json_string(t);
	free(t);
	return j;
}

/* [[row, col, "w"], ...], or [[col, "w"], ...] for a one-row matrix. */
static json_t *entries(const Sparse *sp, bool one_row)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sp->n; i++) {
		json_t *e = json_array();
		if (!one_row)
			json_array_append_new(e, json_integer(sp->e[i].row));
		json_array_append_new(e, json_integer(sp->e[i].col));
		json_array_append_new(e, weight(sp->e[i].w));
		json_array_append_new(a, e);
	}
	return a;
}

static json_t *matrix(const Sparse *sp)
{
	return json_pack("{s:i, s:o}", "rows", (json_int_t)sp->rows, "entries",
			 entries(sp, false));
}

static json_t *weights(const double *w, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, weight(w[i]));
	return a;
}

static const char *const gate_names[] = {"ge0", "not", "and", "or"};
static const char *const comp_names[] = {"bos", "bool", "head", "hidden"};

/* "a" or "a/b" in lowest terms, the one spelling the reader takes (the
 * compiler may hold 2/4 or 0/3). */
static json_t *rational_json(int64_t num, int64_t den)
{
	int64_t a = num < 0 ? -num : num, b = den;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	char *t = rational_text(num / (a ? a : 1), den / (a ? a : 1));
	json_t *j = json_string(t);
	free(t);
	return j;
}

static json_t *angle_json(const Angle *a)
{
	if (a->standard)
		return json_pack("{s:i, s:i, s:i}", "base", (json_int_t)a->base,
				 "k", (json_int_t)a->k, "d", (json_int_t)a->d);
	return rational_json(a->num, a->den);
}

static json_t *head_json(const Head *h)
{
	json_t *o = json_pack("{s:o, s:o, s:{s:o, s:o}, s:o, s:i}", "query",
			      matrix(&h->wq), "key", matrix(&h->wk), "value",
			      "weights", entries(&h->wv, true), "bias",
			      weight(h->bv), "alibi_slope", weight(h->slope),
			      "out", (json_int_t)h->out);
	if (h->nrope) {
		json_t *a = json_array();
		for (size_t k = 0; k < h->nrope; k++)
			json_array_append_new(a, angle_json(&h->rope[k]));
		json_object_set_new(o, "rope", a);
	}
	if (h->t5)
		json_object_set_new(
			o, "t5",
			json_pack("{s:b, s:i, s:i, s:o}", "bidirectional",
				  h->t5->bidirectional, "num_buckets",
				  (json_int_t)h->t5->buckets, "max_distance",
				  (json_int_t)h->t5->max_distance, "bias",
				  weights(h->t5->bias, h->t5->buckets)));
	if (h->urpe)
		json_object_set_new(o, "urpe",
				    json_pack("{s:o, s:o}", "diagonals",
					      weights(h->urpe, h->nurpe),
					      "beyond", weight(h->urpe_beyond)));
	return o;
}

static json_t *ffn_json(const Model *m, const Layer *ly)
{
	json_t *a = json_array();
	for (size_t g = 0; g < ly->ngates && m->ffn == FFN_TABLE; g++) {
		const Gate *gt = &ly->gates[g];
		json_t *in = json_array();
		for (size_t k = 0; k < gt->nin; k++)
			json_array_append_new(in, json_integer(gt->in[k]));
		json_t *o = json_pack("{s:s, s:o, s:i}", "op", gate_names[gt->op],
				      "in", in, "out", (json_int_t)gt->out);
		if (gt->bias != 0)
			json_object_set_new(o, "bias", weight(gt->bias));
		json_array_append_new(a, o);
	}
	for (size_t b = 0; b < ly->nblocks && m->ffn == FFN_RELU; b++) {
		const Block *bl = &ly->blocks[b];
		json_array_append_new(
			a, json_pack("{s:i, s:o, s:o, s:o, s:o}", "hidden",
				     (json_int_t)bl->w1.rows, "w1",
				     entries(&bl->w1, false), "b1",
				     weights(bl->b1, bl->w1.rows), "w2",
				     entries(&bl->w2, false), "b2",
				     weights(bl->b2, m->d)));
	}
	return json_pack("{s:o}", m->ffn == FFN_TABLE ? "gates" : "blocks", a);
}

static json_t *comp_json(const Component *c)
{
	json_t *o = json_pack("{s:s, s:i}", "kind", comp_names[c->kind],
			      "layer", (json_int_t)c->layer);
	if (c->formula)
		json_object_set_new(o, "formula", json_string(c->formula));
	if (c->kind == COMP_HEAD && !c->window) {
		json_t *a = json_array();
		for (size_t k = 0; k < c->ncounts; k++)
			json_array_append_new(
				a, json_pack("{s:o, s:s}", "coef",
					     weight(c->counts[k].coef), "formula",
					     c->counts[k].formula));
		json_object_set_new(o, "counts", a);
		json_object_set_new(o, "constant", weight(c->constant));
	}
	return o;
}

json_t *model_to_json(const Model *m)
{
	json_t *o = json_envelope();
	/* A model is a file format of its own (tally-simulate(1), MODEL
	 * FORMAT), not a command's result: no "command" field. */
	json_object_del(o, "command");
	json_object_set_new(o, "format", json_string("tally-transformer"));
	json_object_set_new(o, "format_version", json_integer(1));
	json_object_set_new(o, "precision",
			    json_pack("{s:i, s:i, s:s}", "p", m->p, "s", m->s,
				      "rounding", "floor, saturating"));
	json_object_set_new(o, "positional", json_string(m->pe));
	json_object_set_new(o, "ffn", json_string(m->ffn == FFN_TABLE ? "table"
								      : "relu"));
	if (m->formula)
		json_object_set_new(o, "formula", json_string(m->formula));
	json_t *alpha = json_array();
	for (size_t i = 0; i < m->nletters; i++)
		json_array_append_new(alpha, json_string(m->alphabet[i]));
	json_object_set_new(o, "alphabet", alpha);
	json_object_set_new(o, "d_model", json_integer(m->d));
	json_object_set_new(o, "n_layers", json_integer((json_int_t)m->nlayers));
	json_t *comps = json_array();
	for (uint32_t c = 0; c < m->d; c++)
		json_array_append_new(comps, comp_json(&m->comps[c]));
	json_object_set_new(o, "components", comps);
	json_t *emb = json_array();
	for (size_t t = 0; t <= m->nletters; t++)
		json_array_append_new(emb, weights(m->embed + t * m->d, m->d));
	json_object_set_new(o, "embedding", emb);
	if (m->nfeats) {
		json_t *fs = json_array();
		for (size_t f = 0; f < m->nfeats; f++)
			json_array_append_new(
				fs, json_pack("{s:i, s:o, s:o}", "out",
					      (json_int_t)m->feats[f].out, "angle",
					      angle_json(&m->feats[f].angle),
					      "phase",
					      rational_json(m->feats[f].pnum,
							    m->feats[f].pden)));
		json_object_set_new(o, "features", fs);
	}
	if (m->input.ngates || m->input.nblocks)
		json_object_set_new(o, "input_ffn", ffn_json(m, &m->input));
	json_t *layers = json_array();
	for (size_t l = 0; l < m->nlayers; l++) {
		json_t *heads = json_array();
		for (size_t h = 0; h < m->layers[l].nheads; h++)
			json_array_append_new(heads,
					      head_json(&m->layers[l].heads[h]));
		json_array_append_new(layers,
				      json_pack("{s:o, s:o}", "heads", heads,
						"ffn", ffn_json(m, &m->layers[l])));
	}
	json_object_set_new(o, "layers", layers);
	json_t *out = json_pack("{s:o, s:o}", "weights",
				entries(&m->wout, true), "bias",
				weight(m->bout));
	/* the default readout is not written: accept models stay as they
	 * were */
	if (m->readout != READOUT_ACCEPT)
		json_object_set_new(out, "readout",
				    json_string(readout_name(m->readout)));
	if (m->readout == READOUT_CLASS) {
		json_object_set_new(out, "min", json_integer(m->class_lo));
		json_object_set_new(out, "max", json_integer(m->class_hi));
	}
	json_object_set_new(o, "output", out);
	return o;
}
