/* model.c -- the transformer model and its JSON form (see model.h). */
#include <config.h>
#include "model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fixed.h"
#include "json.h"
#include "mem.h"

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
	for (size_t l = 0; l < m->nlayers; l++)
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

static json_t *angle_json(const Angle *a)
{
	if (a->standard)
		return json_pack("{s:i, s:i, s:i}", "base", (json_int_t)a->base,
				 "k", (json_int_t)a->k, "d", (json_int_t)a->d);
	char *t = rational_text(a->num, a->den);
	json_t *j = json_string(t);
	free(t);
	return j;
}

static json_t *rational_json(int64_t num, int64_t den)
{
	char *t = rational_text(num, den);
	json_t *j = json_string(t);
	free(t);
	return j;
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
	json_object_set_new(o, "output",
			    json_pack("{s:o, s:o}", "weights",
				      entries(&m->wout, true), "bias",
				      weight(m->bout)));
	return o;
}

/* ---- reading ---------------------------------------------------------- */

typedef struct {
	Model *m;
	char *err;
} Reader;

static bool fail(Reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static bool fail(Reader *r, const char *fmt, ...)
{
	if (r->err)
		return false;
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	char tmp[512];
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	buf_puts(&b, tmp);
	r->err = buf_take(&b);
	return false;
}

/* A weight: a dyadic string or a JSON integer, in F_{p,s}. */
static bool read_weight(Reader *r, json_t *j, const char *what, double *out)
{
	bool ok = false;
	if (json_is_string(j))
		ok = dyadic_parse(json_string_value(j), out);
	else if (json_is_integer(j)) {
		json_int_t v = json_integer_value(j);
		ok = v < (1LL << 53) && v > -(1LL << 53);
		*out = (double)v;
	}
	if (!ok)
		return fail(r, "%s: expected an exact dyadic rational (\"m\" or "
			       "\"m/2^k\")", what);
	double m = ldexp(*out, r->m->s);
	if (m != floor(m) || m > (double)fixed_max_m(r->m->p) ||
	    m < (double)fixed_min_m(r->m->p))
		return fail(r, "%s: weight %s is not in F_{%d,%d}", what,
			    json_is_string(j) ? json_string_value(j) : "(integer)",
			    r->m->p, r->m->s);
	return true;
}

static bool read_index(Reader *r, json_t *j, uint32_t bound, const char *what,
		       uint32_t *out)
{
	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
	    json_integer_value(j) >= (json_int_t)bound)
		return fail(r, "%s: expected an index below %u", what, bound);
	*out = (uint32_t)json_integer_value(j);
	return true;
}

/* entries of a matrix with `rows` rows (one_row: [col, w] pairs). */
static bool read_entries(Reader *r, json_t *a, uint32_t rows, bool one_row,
			 const char *what, Sparse *sp)
{
	sp->rows = rows;
	if (!json_is_array(a))
		return fail(r, "%s: expected an array of entries", what);
	size_t n = json_array_size(a);
	sp->e = xcalloc(n ? n : 1, sizeof *sp->e);
	sp->n = n;
	size_t want = one_row ? 2 : 3;
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(a, i);
		if (!json_is_array(e) || json_array_size(e) != want)
			return fail(r, "%s: an entry is not [%s]", what,
				    one_row ? "col, w" : "row, col, w");
		size_t k = 0;
		if (!one_row && !read_index(r, json_array_get(e, k++), rows,
					    what, &sp->e[i].row))
			return false;
		if (!read_index(r, json_array_get(e, k++), r->m->d, what,
				&sp->e[i].col) ||
		    !read_weight(r, json_array_get(e, k), what, &sp->e[i].w))
			return false;
	}
	return true;
}

static bool read_matrix(Reader *r, json_t *o, const char *what, Sparse *sp)
{
	json_t *rows = json_object_get(o, "rows");
	if (!json_is_integer(rows) || json_integer_value(rows) < 0 ||
	    json_integer_value(rows) > 1 << 20)
		return fail(r, "%s: expected \"rows\"", what);
	return read_entries(r, json_object_get(o, "entries"),
			    (uint32_t)json_integer_value(rows), false, what, sp);
}

/* "a/b" (times pi) or {"base", "k", "d"}: base^(-2k/d) radians. */
static bool read_angle(Reader *r, json_t *j, const char *what, Angle *a)
{
	memset(a, 0, sizeof *a);
	if (json_is_string(j)) {
		if (rational_parse(json_string_value(j), &a->num, &a->den))
			return true;
	} else if (json_is_object(j)) {
		json_t *b = json_object_get(j, "base"), *k = json_object_get(j, "k"),
		       *d = json_object_get(j, "d");
		if (json_is_integer(b) && json_is_integer(k) &&
		    json_is_integer(d) && json_integer_value(b) >= 2 &&
		    json_integer_value(b) <= 1 << 30 &&
		    json_integer_value(k) >= 0 &&
		    json_integer_value(k) <= 1 << 20 &&
		    json_integer_value(d) >= 1 &&
		    json_integer_value(d) <= 1 << 20) {
			a->standard = true;
			a->base = (uint32_t)json_integer_value(b);
			a->k = (uint32_t)json_integer_value(k);
			a->d = (uint32_t)json_integer_value(d);
			return true;
		}
	}
	return fail(r, "%s: expected an angle, \"a/b\" (times pi) or "
		       "{\"base\", \"k\", \"d\"} (base^(-2k/d) radians)",
		    what);
}

static bool read_rope(Reader *r, json_t *a, Head *h)
{
	if (!a)
		return true;
	if (!json_is_array(a) || 2 * json_array_size(a) > h->wq.rows)
		return fail(r, "rope: expected an array of angles, one per "
			       "pair of query/key rows");
	h->nrope = json_array_size(a);
	h->rope = xcalloc(h->nrope ? h->nrope : 1, sizeof *h->rope);
	for (size_t k = 0; k < h->nrope; k++)
		if (!read_angle(r, json_array_get(a, k), "rope", &h->rope[k]))
			return false;
	return true;
}

static bool read_dense(Reader *r, json_t *a, size_t n, const char *what,
		       double *out);

static bool read_t5(Reader *r, json_t *o, Head *h)
{
	if (!o)
		return true;
	json_t *nb = json_object_get(o, "num_buckets"),
	       *md = json_object_get(o, "max_distance"),
	       *bi = json_object_get(o, "bidirectional");
	if (!json_is_integer(nb) || !json_is_integer(md) ||
	    (bi && !json_is_boolean(bi)) || json_integer_value(nb) < 0 ||
	    json_integer_value(md) < 0 || json_integer_value(md) > 1 << 30)
		return fail(r, "t5: expected num_buckets, max_distance, "
			       "bidirectional and bias");
	T5 t;
	const char *why;
	if (!t5_init(&t, (uint32_t)json_integer_value(nb),
		     (uint32_t)json_integer_value(md), json_is_true(bi), &why))
		return fail(r, "%s", why);
	t5_free(&t);
	h->t5 = xcalloc(1, sizeof *h->t5);
	h->t5->buckets = (uint32_t)json_integer_value(nb);
	h->t5->max_distance = (uint32_t)json_integer_value(md);
	h->t5->bidirectional = json_is_true(bi);
	h->t5->bias = xcalloc(h->t5->buckets, sizeof *h->t5->bias);
	return read_dense(r, json_object_get(o, "bias"), h->t5->buckets,
			  "t5 bias", h->t5->bias);
}

static bool read_urpe(Reader *r, json_t *o, Head *h)
{
	if (!o)
		return true;
	json_t *dg = json_object_get(o, "diagonals");
	if (!json_is_array(dg) || json_array_size(dg) > 1 << 20)
		return fail(r, "urpe: expected \"diagonals\" and \"beyond\"");
	h->nurpe = json_array_size(dg);
	h->urpe = xcalloc(h->nurpe ? h->nurpe : 1, sizeof *h->urpe);
	return read_dense(r, dg, h->nurpe, "urpe diagonals", h->urpe) &&
	       read_weight(r, json_object_get(o, "beyond"), "urpe beyond",
			   &h->urpe_beyond);
}

static bool read_head(Reader *r, json_t *o, Head *h)
{
	if (!json_is_object(o))
		return fail(r, "a head is not an object");
	json_t *v = json_object_get(o, "value");
	if (!read_matrix(r, json_object_get(o, "query"), "query", &h->wq) ||
	    !read_matrix(r, json_object_get(o, "key"), "key", &h->wk) ||
	    !read_entries(r, json_object_get(v, "weights"), 1, true, "value",
			  &h->wv) ||
	    !read_weight(r, json_object_get(v, "bias"), "value bias", &h->bv) ||
	    !read_weight(r, json_object_get(o, "alibi_slope"), "alibi_slope",
			 &h->slope) ||
	    !read_index(r, json_object_get(o, "out"), r->m->d, "head out",
			&h->out))
		return false;
	if (h->wq.rows != h->wk.rows)
		return fail(r, "query and key have different numbers of rows");
	return read_rope(r, json_object_get(o, "rope"), h) &&
	       read_t5(r, json_object_get(o, "t5"), h) &&
	       read_urpe(r, json_object_get(o, "urpe"), h);
}

static bool read_gate(Reader *r, json_t *o, Gate *g)
{
	const char *op = json_string_value(json_object_get(o, "op"));
	size_t k = 0;
	while (k < 4 && !(op && strcmp(op, gate_names[k]) == 0))
		k++;
	if (k == 4)
		return fail(r, "a gate's op is not ge0, not, and or or");
	g->op = (GateOp)k;
	json_t *in = json_object_get(o, "in");
	if (!json_is_array(in))
		return fail(r, "a gate has no \"in\" array");
	g->nin = json_array_size(in);
	g->in = xcalloc(g->nin ? g->nin : 1, sizeof *g->in);
	if ((g->op == GATE_GE0 || g->op == GATE_NOT) && g->nin != 1)
		return fail(r, "a %s gate takes one input", op);
	for (size_t i = 0; i < g->nin; i++)
		if (!read_index(r, json_array_get(in, i), r->m->d, "gate in",
				&g->in[i]))
			return false;
	json_t *bias = json_object_get(o, "bias");
	if (bias && !read_weight(r, bias, "gate bias", &g->bias))
		return false;
	return read_index(r, json_object_get(o, "out"), r->m->d, "gate out",
			  &g->out);
}

static bool read_dense(Reader *r, json_t *a, size_t n, const char *what,
		       double *out)
{
	if (!json_is_array(a) || json_array_size(a) != n)
		return fail(r, "%s: expected an array of %zu weights", what, n);
	for (size_t i = 0; i < n; i++)
		if (!read_weight(r, json_array_get(a, i), what, &out[i]))
			return false;
	return true;
}

static bool read_block(Reader *r, json_t *o, Block *b)
{
	json_t *h = json_object_get(o, "hidden");
	if (!json_is_integer(h) || json_integer_value(h) < 0 ||
	    json_integer_value(h) > 1 << 20)
		return fail(r, "a block has no \"hidden\" size");
	uint32_t hidden = (uint32_t)json_integer_value(h);
	b->b1 = xcalloc(hidden ? hidden : 1, sizeof *b->b1);
	b->b2 = xcalloc(r->m->d ? r->m->d : 1, sizeof *b->b2);
	if (!read_entries(r, json_object_get(o, "w1"), hidden, false, "w1",
			  &b->w1) ||
	    !read_dense(r, json_object_get(o, "b1"), hidden, "b1", b->b1) ||
	    !read_dense(r, json_object_get(o, "b2"), r->m->d, "b2", b->b2))
		return false;
	/* w2 is d x hidden: its columns index hidden units */
	uint32_t d = r->m->d;
	r->m->d = hidden;
	bool ok = read_entries(r, json_object_get(o, "w2"), d, false, "w2",
			       &b->w2);
	r->m->d = d;
	return ok;
}

static bool read_ffn(Reader *r, json_t *ffn, Layer *ly)
{
	json_t *list = json_object_get(
		ffn, r->m->ffn == FFN_TABLE ? "gates" : "blocks");
	if (!json_is_array(list))
		return fail(r, "the ffn has no \"%s\" array",
			    r->m->ffn == FFN_TABLE ? "gates" : "blocks");
	size_t n = json_array_size(list);
	if (r->m->ffn == FFN_TABLE) {
		ly->ngates = n;
		ly->gates = xcalloc(n ? n : 1, sizeof *ly->gates);
		for (size_t g = 0; g < n; g++)
			if (!read_gate(r, json_array_get(list, g), &ly->gates[g]))
				return false;
	} else {
		ly->nblocks = n;
		ly->blocks = xcalloc(n ? n : 1, sizeof *ly->blocks);
		for (size_t b = 0; b < n; b++)
			if (!read_block(r, json_array_get(list, b),
					&ly->blocks[b]))
				return false;
	}
	return true;
}

static bool read_layer(Reader *r, json_t *o, Layer *ly)
{
	json_t *heads = json_object_get(o, "heads");
	json_t *ffn = json_object_get(o, "ffn");
	if (!json_is_array(heads) || !json_is_object(ffn))
		return fail(r, "a layer needs \"heads\" and \"ffn\"");
	ly->nheads = json_array_size(heads);
	ly->heads = xcalloc(ly->nheads ? ly->nheads : 1, sizeof *ly->heads);
	for (size_t h = 0; h < ly->nheads; h++)
		if (!read_head(r, json_array_get(heads, h), &ly->heads[h]))
			return false;
	return read_ffn(r, ffn, ly);
}

static bool read_features(Reader *r, json_t *a)
{
	if (!a)
		return true;
	if (!json_is_array(a))
		return fail(r, "features: expected an array");
	Model *m = r->m;
	m->nfeats = json_array_size(a);
	m->feats = xcalloc(m->nfeats ? m->nfeats : 1, sizeof *m->feats);
	for (size_t f = 0; f < m->nfeats; f++) {
		json_t *o = json_array_get(a, f);
		Feature *ft = &m->feats[f];
		const char *ph = json_string_value(json_object_get(o, "phase"));
		if (!read_index(r, json_object_get(o, "out"), m->d, "feature out",
				&ft->out) ||
		    !read_angle(r, json_object_get(o, "angle"), "feature angle",
				&ft->angle))
			return false;
		ft->pnum = 0;
		ft->pden = 1;
		if (ph && !rational_parse(ph, &ft->pnum, &ft->pden))
			return fail(r, "feature phase: expected \"a/b\" (times pi)");
	}
	return true;
}

static char *dup_string(json_t *j)
{
	const char *s = json_string_value(j);
	return s ? xstrdup(s) : NULL;
}

static bool read_component(Reader *r, json_t *o, Component *c)
{
	const char *kind = json_string_value(json_object_get(o, "kind"));
	size_t k = 0;
	while (k < 4 && !(kind && strcmp(kind, comp_names[k]) == 0))
		k++;
	if (k == 4)
		return fail(r, "a component's kind is not bos, bool, head or "
			       "hidden");
	c->kind = (CompKind)k;
	json_t *layer = json_object_get(o, "layer");
	c->layer = json_is_integer(layer) ? (uint32_t)json_integer_value(layer)
					  : 0;
	c->formula = dup_string(json_object_get(o, "formula"));
	json_t *counts = json_object_get(o, "counts");
	c->window = c->kind == COMP_HEAD && !counts;
	if (c->kind != COMP_HEAD || !json_is_array(counts))
		return true;
	c->ncounts = json_array_size(counts);
	c->counts = xcalloc(c->ncounts ? c->ncounts : 1, sizeof *c->counts);
	for (size_t i = 0; i < c->ncounts; i++) {
		json_t *t = json_array_get(counts, i);
		c->counts[i].formula = dup_string(json_object_get(t, "formula"));
		if (!c->counts[i].formula ||
		    !read_weight(r, json_object_get(t, "coef"), "count coef",
				 &c->counts[i].coef))
			return fail(r, "a head's count needs coef and formula");
	}
	return read_weight(r, json_object_get(o, "constant"), "constant",
			   &c->constant);
}

static bool read_model(Reader *r, json_t *j)
{
	Model *m = r->m;
	if (!json_is_object(j) ||
	    !json_is_string(json_object_get(j, "format")) ||
	    strcmp(json_string_value(json_object_get(j, "format")),
		   "tally-transformer") != 0)
		return fail(r, "not a tally-transformer model (no \"format\": "
			       "\"tally-transformer\")");
	json_t *prec = json_object_get(j, "precision");
	json_t *p = json_object_get(prec, "p"), *s = json_object_get(prec, "s");
	if (!json_is_integer(p) || !json_is_integer(s) ||
	    json_integer_value(p) < 2 || json_integer_value(p) > FIXED_MAX_P ||
	    json_integer_value(s) < 0 ||
	    json_integer_value(s) > json_integer_value(p) - 2)
		return fail(r, "precision: expected p in 2..%d and s in 0..p-2",
			    FIXED_MAX_P);
	m->p = (int)json_integer_value(p);
	m->s = (int)json_integer_value(s);
	const char *ffn = json_string_value(json_object_get(j, "ffn"));
	if (!ffn || (strcmp(ffn, "table") && strcmp(ffn, "relu")))
		return fail(r, "ffn: expected \"table\" or \"relu\"");
	m->ffn = strcmp(ffn, "table") == 0 ? FFN_TABLE : FFN_RELU;
	m->pe = dup_string(json_object_get(j, "positional"));
	if (!m->pe)
		m->pe = xstrdup("nope");
	m->formula = dup_string(json_object_get(j, "formula"));
	json_t *alpha = json_object_get(j, "alphabet");
	if (!json_is_array(alpha))
		return fail(r, "alphabet: expected an array of letters");
	m->alphabet = xcalloc(json_array_size(alpha) + 1, sizeof *m->alphabet);
	for (size_t i = 0; i < json_array_size(alpha); i++) {
		m->alphabet[i] = dup_string(json_array_get(alpha, i));
		if (!m->alphabet[i] || !*m->alphabet[i])
			return fail(r, "alphabet: a letter is not a string");
		m->nletters++;
	}
	json_t *d = json_object_get(j, "d_model");
	if (!json_is_integer(d) || json_integer_value(d) < 1 ||
	    json_integer_value(d) > 1 << 20)
		return fail(r, "d_model: expected a positive integer");
	m->d = (uint32_t)json_integer_value(d);
	json_t *comps = json_object_get(j, "components");
	if (!json_is_array(comps) || json_array_size(comps) != m->d)
		return fail(r, "components: expected d_model entries");
	m->comps = xcalloc(m->d, sizeof *m->comps);
	for (uint32_t c = 0; c < m->d; c++)
		if (!read_component(r, json_array_get(comps, c), &m->comps[c]))
			return false;
	json_t *emb = json_object_get(j, "embedding");
	if (!json_is_array(emb) || json_array_size(emb) != m->nletters + 1)
		return fail(r, "embedding: expected one row per token (BOS "
			       "first)");
	m->embed = xcalloc((m->nletters + 1) * m->d, sizeof *m->embed);
	for (size_t t = 0; t <= m->nletters; t++)
		if (!read_dense(r, json_array_get(emb, t), m->d, "embedding",
				m->embed + t * m->d))
			return false;
	json_t *input = json_object_get(j, "input_ffn");
	if (!read_features(r, json_object_get(j, "features")) ||
	    (input && !read_ffn(r, input, &m->input)))
		return false;
	json_t *layers = json_object_get(j, "layers");
	if (!json_is_array(layers))
		return fail(r, "layers: expected an array");
	m->nlayers = json_array_size(layers);
	m->layers = xcalloc(m->nlayers ? m->nlayers : 1, sizeof *m->layers);
	for (size_t l = 0; l < m->nlayers; l++)
		if (!read_layer(r, json_array_get(layers, l), &m->layers[l]))
			return false;
	json_t *out = json_object_get(j, "output");
	return read_entries(r, json_object_get(out, "weights"), 1, true,
			    "output", &m->wout) &&
	       read_weight(r, json_object_get(out, "bias"), "output bias",
			   &m->bout);
}

bool model_from_json(json_t *j, Model *m, char **err)
{
	memset(m, 0, sizeof *m);
	Reader r = {m, NULL};
	if (read_model(&r, j))
		return true;
	*err = r.err;
	model_free(m);
	return false;
}
