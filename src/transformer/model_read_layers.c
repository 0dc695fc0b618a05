/* model_read_layers.c -- the model reader's layers: who writes each
 * component (its kind and layer must say so), the sparse matrices, the
 * heads with their positional encodings, the feed-forward blocks (gate
 * tables or ReLU blocks), and a layer of them (model_read.h). */
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

static const char *const gate_ops[] = {"ge0", "not", "and", "or", NULL};

/* ---- who writes what ---------------------------------------------------- */

/* Component c is written by `by` in layer l (0: the embedding, the
 * features and the input block): the component's kind and layer must
 * say so. */
bool rd_note_write(Reader *r, uint32_t c, uint32_t l, Writer by)
{
	const Component *cp = &r->m->comps[c];
	if (cp->kind == COMP_BOS && by != BY_EMBEDDING)
		return rd_fail(r, "writes components[%u], the BOS component "
			       "(only the embedding sets it)", c);
	if (cp->kind == COMP_HEAD && by != BY_HEAD)
		return rd_fail(r, "writes components[%u], a head component (only "
			       "its head writes it)", c);
	if (cp->layer != l)
		return rd_fail(r, "writes components[%u] in layer %u, but its "
			       "\"layer\" is %u (a component is written in its "
			       "own layer only)",
			    c, l, cp->layer);
	if (by == BY_HEAD && cp->kind == COMP_HEAD && r->nheads[c]++)
		return rd_fail(r, "writes components[%u], a head component "
			       "another head of the layer writes already", c);
	r->written[c] = 1;
	return true;
}

/* After the layers: every head component has its head, and every
 * Boolean component of a layer >= 1 is computed by it. */
bool rd_check_written(Reader *r)
{
	for (uint32_t c = 0; c < r->m->d; c++) {
		const Component *cp = &r->m->comps[c];
		if ((cp->kind == COMP_HEAD || cp->kind == COMP_BOOL) &&
		    cp->layer > 0 && !r->written[c]) {
			size_t at = rd_enter(r, "components");
			rd_enter_at(r, c);
			rd_fail(r, "a %s component of layer %u that nothing in "
				"layer %u writes",
			     rd_comp_kinds[cp->kind], cp->layer, cp->layer);
			rd_leave(r, at);
			return false;
		}
	}
	return true;
}

/* ---- matrices ----------------------------------------------------------- */

typedef struct {
	uint32_t row, col;
	size_t i;
} Coord;

static int by_coord(const void *a, const void *b)
{
	const Coord *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* No coordinate twice (a repeat would be summed, a second spelling). */
static bool distinct(Reader *r, const Sparse *sp, bool one_row)
{
	Coord *c = xcalloc(sp->n ? sp->n : 1, sizeof *c);
	for (size_t i = 0; i < sp->n; i++)
		c[i] = (Coord){sp->e[i].row, sp->e[i].col, i};
	qsort(c, sp->n, sizeof *c, by_coord);
	for (size_t i = 1; i < sp->n; i++)
		if (c[i].row == c[i - 1].row && c[i].col == c[i - 1].col) {
			rd_enter_at(r, c[i].i);
			rd_fail(r, "repeats the %s of entry [%zu]",
				one_row ? "column" : "row and column", c[i - 1].i);
			free(c);
			return false;
		}
	free(c);
	return true;
}

/* Entries [[row, col, "w"], ...] (one_row: [[col, "w"], ...]) of a
 * rows x cols matrix whose columns are `what`. */
static bool entries(Reader *r, json_t *a, uint32_t rows, uint32_t cols,
		    bool one_row, const char *what, Sparse *sp)
{
	sp->rows = rows;
	if (!rd_array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	sp->e = xcalloc(n ? n : 1, sizeof *sp->e);
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(a, i);
		size_t at = rd_enter_at(r, i), k = 0;
		bool ok = rd_array(r, e, one_row ? 2 : 3);
		if (ok && !one_row) {
			size_t at2 = rd_enter_at(r, k);
			ok = rd_index_of(r, json_array_get(e, k++), rows, "the rows",
					 &sp->e[i].row);
			rd_leave(r, at2);
		}
		if (ok) {
			size_t at2 = rd_enter_at(r, k);
			ok = rd_index_of(r, json_array_get(e, k++), cols, what,
					 &sp->e[i].col);
			rd_leave(r, at2);
		}
		if (ok) {
			size_t at2 = rd_enter_at(r, k);
			ok = rd_weight(r, json_array_get(e, k), &sp->e[i].w);
			rd_leave(r, at2);
		}
		rd_leave(r, at);
		if (!ok)
			return false;
		sp->n++;
	}
	return distinct(r, sp, one_row);
}

bool rd_field_entries(Reader *r, json_t *o, const char *key,
		      uint32_t rows, uint32_t cols, bool one_row,
		      const char *what, Sparse *sp)
{
	json_t *j = rd_member(r, o, key, true);
	if (!j)
		return false;
	size_t at = rd_enter(r, key);
	bool ok = entries(r, j, rows, cols, one_row, what, sp);
	rd_leave(r, at);
	return ok;
}

/* {"rows", "entries"}: a query or key matrix over the components. */
static bool matrix(Reader *r, json_t *o, const char *key, Sparse *sp)
{
	static const char *const keys[] = {"rows", "entries", NULL};
	json_t *j = rd_member(r, o, key, true);
	if (!j)
		return false;
	size_t at = rd_enter(r, key);
	int64_t rows = 0;
	bool ok = rd_object(r, j, keys) &&
		  rd_field_int(r, j, "rows", 0, MODEL_MAX_DIM, &rows) &&
		  rd_field_entries(r, j, "entries", (uint32_t)rows, r->m->d, false,
				   "the components", sp);
	rd_leave(r, at);
	return ok;
}

/* ---- heads -------------------------------------------------------------- */

/* The encoding a head or feature uses must be the model's. */
bool rd_uses(Reader *r, const char *want)
{
	if (strcmp(r->m->pe, want) == 0)
		return true;
	return rd_fail(r, "a field of the \"%s\" encoding, but the model's "
		       "\"positional\" is \"%s\"",
		    want, r->m->pe);
}

static bool rope(Reader *r, json_t *a, Head *h)
{
	if (!rd_uses(r, "rope") || !rd_array(r, a, SIZE_MAX))
		return false;
	if (2 * json_array_size(a) > h->wq.rows)
		return rd_fail(r, "%zu angles rotate %zu rows, but the query and key "
			       "have %u",
			    json_array_size(a), 2 * json_array_size(a), h->wq.rows);
	h->nrope = json_array_size(a);
	h->rope = xcalloc(h->nrope ? h->nrope : 1, sizeof *h->rope);
	for (size_t k = 0; k < h->nrope; k++) {
		size_t at = rd_enter_at(r, k);
		bool ok = rd_angle(r, json_array_get(a, k), &h->rope[k]);
		rd_leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

static bool t5(Reader *r, json_t *o, Head *h)
{
	static const char *const keys[] = {"bidirectional", "num_buckets",
					   "max_distance", "bias", NULL};
	int64_t nb, md;
	if (!rd_uses(r, "t5") || !rd_object(r, o, keys))
		return false;
	json_t *bi = rd_member(r, o, "bidirectional", true);
	if (!bi)
		return false;
	if (!json_is_boolean(bi)) {
		size_t at = rd_enter(r, "bidirectional");
		rd_expected(r, bi, "true or false");
		rd_leave(r, at);
		return false;
	}
	/* t5_init's conditions, each on its field */
	bool two = json_is_true(bi);
	if (!rd_field_int(r, o, "num_buckets", two ? 4 : 2, 4096, &nb))
		return false;
	uint32_t exact = (uint32_t)(two ? nb / 2 : nb) / 2;
	if (!rd_field_int(r, o, "max_distance", exact + 1, 1 << 30, &md))
		return false;
	h->t5 = xcalloc(1, sizeof *h->t5);
	h->t5->buckets = (uint32_t)nb;
	h->t5->max_distance = (uint32_t)md;
	h->t5->bidirectional = two;
	h->t5->bias = xcalloc((size_t)nb, sizeof *h->t5->bias);
	size_t at = rd_enter(r, "bias");
	json_t *b = rd_member(r, o, "bias", true);
	bool ok = b && rd_weights(r, b, (size_t)nb, h->t5->bias);
	rd_leave(r, at);
	return ok;
}

static bool urpe(Reader *r, json_t *o, Head *h)
{
	static const char *const keys[] = {"diagonals", "beyond", NULL};
	if (!rd_uses(r, "urpe") || !rd_object(r, o, keys))
		return false;
	json_t *dg = rd_member(r, o, "diagonals", true);
	if (!dg)
		return false;
	size_t at = rd_enter(r, "diagonals");
	bool ok = rd_array(r, dg, SIZE_MAX);
	if (ok && json_array_size(dg) > MODEL_MAX_DIM)
		ok = rd_fail(r, "more than %d diagonals", MODEL_MAX_DIM);
	if (ok) {
		h->nurpe = json_array_size(dg);
		h->urpe = xcalloc(h->nurpe ? h->nurpe : 1, sizeof *h->urpe);
		ok = rd_weights(r, dg, h->nurpe, h->urpe);
	}
	rd_leave(r, at);
	return ok && rd_field_weight(r, o, "beyond", &h->urpe_beyond);
}

/* An optional field read by fn at its path. */
static bool optional(Reader *r, json_t *o, const char *key, Head *h,
		     bool (*fn)(Reader *, json_t *, Head *))
{
	json_t *j = json_object_get(o, key);
	if (!j)
		return true;
	size_t at = rd_enter(r, key);
	bool ok = fn(r, j, h);
	rd_leave(r, at);
	return ok;
}

static bool value(Reader *r, json_t *o, Head *h)
{
	static const char *const keys[] = {"weights", "bias", NULL};
	return rd_object(r, o, keys) &&
	       rd_field_entries(r, o, "weights", 1, r->m->d, true, "the components",
				&h->wv) &&
	       rd_field_weight(r, o, "bias", &h->bv);
}

static bool head(Reader *r, json_t *o, Head *h, uint32_t layer)
{
	static const char *const keys[] = {"query", "key", "value",
					   "alibi_slope", "out", "rope", "t5",
					   "urpe", NULL};
	if (!rd_object(r, o, keys) || !matrix(r, o, "query", &h->wq) ||
	    !matrix(r, o, "key", &h->wk))
		return false;
	if (h->wq.rows != h->wk.rows) {
		size_t at = rd_enter(r, "key.rows");
		rd_fail(r, "%u rows, but the query has %u", h->wk.rows, h->wq.rows);
		rd_leave(r, at);
		return false;
	}
	if (!rd_member(r, o, "value", true) ||
	    !optional(r, o, "value", h, value) ||
	    !rd_field_weight(r, o, "alibi_slope", &h->slope))
		return false;
	size_t at = rd_enter(r, "alibi_slope");
	bool ok = h->slope >= 0 ? true
				: rd_fail(r, "negative: an ALiBi slope is >= 0 "
					  "(logit -= slope (i-j))");
	if (ok && h->slope != 0)
		ok = rd_uses(r, "alibi");
	rd_leave(r, at);
	if (!ok || !rd_field_index(r, o, "out", &h->out))
		return false;
	at = rd_enter(r, "out");
	ok = rd_note_write(r, h->out, layer, BY_HEAD);
	rd_leave(r, at);
	return ok && optional(r, o, "rope", h, rope) &&
	       optional(r, o, "t5", h, t5) && optional(r, o, "urpe", h, urpe);
}

/* ---- feed-forward blocks ------------------------------------------------ */

static bool gate(Reader *r, json_t *o, Gate *g, uint32_t layer)
{
	static const char *const keys[] = {"op", "in", "out", "bias", NULL};
	json_t *op = rd_object(r, o, keys) ? rd_member(r, o, "op", true) : NULL;
	if (!op)
		return false;
	size_t at = rd_enter(r, "op");
	int k = rd_one_of(r, op, gate_ops, "\"ge0\", \"not\", \"and\" or \"or\"");
	rd_leave(r, at);
	if (k < 0)
		return false;
	g->op = (GateOp)k;
	json_t *in = rd_member(r, o, "in", true);
	if (!in)
		return false;
	at = rd_enter(r, "in");
	bool ok = rd_array(r, in, SIZE_MAX);
	size_t n = ok ? json_array_size(in) : 0;
	if (ok && (g->op == GATE_GE0 || g->op == GATE_NOT) && n != 1)
		ok = rd_fail(r, "a %s gate takes one input, not %zu", gate_ops[k], n);
	if (ok && n == 0)
		ok = rd_fail(r, "an %s gate needs at least one input", gate_ops[k]);
	g->in = xcalloc(n ? n : 1, sizeof *g->in);
	for (size_t i = 0; ok && i < n; i++, g->nin++) {
		size_t at2 = rd_enter_at(r, i);
		ok = rd_index_of(r, json_array_get(in, i), r->m->d,
				 "the components", &g->in[i]);
		rd_leave(r, at2);
	}
	rd_leave(r, at);
	if (!ok)
		return false;
	json_t *bias = json_object_get(o, "bias");
	if (bias) {
		at = rd_enter(r, "bias");
		ok = g->op == GATE_GE0
			     ? rd_weight(r, bias, &g->bias)
			     : rd_fail(r, "only a ge0 gate has a bias");
		rd_leave(r, at);
		if (!ok)
			return false;
	}
	if (!rd_field_index(r, o, "out", &g->out))
		return false;
	at = rd_enter(r, "out");
	ok = rd_note_write(r, g->out, layer, BY_FFN);
	rd_leave(r, at);
	return ok;
}

static bool field_weights(Reader *r, json_t *o, const char *key, size_t n,
			  double *out)
{
	json_t *j = rd_member(r, o, key, true);
	if (!j)
		return false;
	size_t at = rd_enter(r, key);
	bool ok = rd_weights(r, j, n, out);
	rd_leave(r, at);
	return ok;
}

static bool block(Reader *r, json_t *o, Block *b, uint32_t layer)
{
	static const char *const keys[] = {"hidden", "w1", "b1", "w2", "b2",
					   NULL};
	int64_t hidden;
	uint32_t d = r->m->d;
	if (!rd_object(r, o, keys) ||
	    !rd_field_int(r, o, "hidden", 0, MODEL_MAX_DIM, &hidden))
		return false;
	uint32_t nh = (uint32_t)hidden;
	b->b1 = xcalloc(nh ? nh : 1, sizeof *b->b1);
	b->b2 = xcalloc(d, sizeof *b->b2);
	if (!rd_field_entries(r, o, "w1", nh, d, false, "the components", &b->w1) ||
	    !field_weights(r, o, "b1", nh, b->b1) ||
	    !rd_field_entries(r, o, "w2", d, nh, false, "the hidden units",
			      &b->w2) ||
	    !field_weights(r, o, "b2", d, b->b2))
		return false;
	size_t at = rd_enter(r, "w2");
	for (size_t i = 0; i < b->w2.n; i++) {
		size_t at2 = rd_enter_at(r, i);
		bool ok = rd_note_write(r, b->w2.e[i].row, layer, BY_FFN);
		rd_leave(r, at2);
		if (!ok)
			return false;
	}
	rd_leave(r, at);
	at = rd_enter(r, "b2");
	for (uint32_t c = 0; c < d; c++) {
		size_t at2 = rd_enter_at(r, c);
		bool ok = b->b2[c] == 0 || rd_note_write(r, c, layer, BY_FFN);
		rd_leave(r, at2);
		if (!ok)
			return false;
	}
	rd_leave(r, at);
	return true;
}

/* {"gates": [...]} for ffn "table", {"blocks": [...]} for "relu". */
bool rd_ffn(Reader *r, json_t *o, Layer *ly, uint32_t layer)
{
	bool table = r->m->ffn == FFN_TABLE;
	const char *key = table ? "gates" : "blocks";
	const char *const keys[] = {key, NULL};
	if (!json_is_object(o))
		return rd_expected(r, o, "an object");
	if (json_object_get(o, table ? "blocks" : "gates")) {
		rd_enter(r, table ? "blocks" : "gates");
		return rd_fail(r, "the model's \"ffn\" is \"%s\": its feed-forward "
			       "blocks are \"%s\"",
			    table ? "table" : "relu", key);
	}
	json_t *list = rd_object(r, o, keys) ? rd_member(r, o, key, true) : NULL;
	if (!list)
		return false;
	size_t at = rd_enter(r, key);
	bool ok = rd_array(r, list, SIZE_MAX);
	size_t n = ok ? json_array_size(list) : 0;
	if (table)
		ly->gates = xcalloc(n ? n : 1, sizeof *ly->gates);
	else
		ly->blocks = xcalloc(n ? n : 1, sizeof *ly->blocks);
	for (size_t i = 0; ok && i < n; i++) {
		size_t at2 = rd_enter_at(r, i);
		json_t *e = json_array_get(list, i);
		if (table)
			ok = gate(r, e, &ly->gates[ly->ngates++], layer);
		else
			ok = block(r, e, &ly->blocks[ly->nblocks++], layer);
		rd_leave(r, at2);
	}
	rd_leave(r, at);
	return ok;
}

bool rd_layer(Reader *r, json_t *o, Layer *ly, uint32_t l)
{
	static const char *const keys[] = {"heads", "ffn", NULL};
	json_t *heads = rd_object(r, o, keys) ? rd_member(r, o, "heads", true) : NULL;
	json_t *f = heads ? rd_member(r, o, "ffn", true) : NULL;
	if (!f)
		return false;
	size_t at = rd_enter(r, "heads");
	bool ok = rd_array(r, heads, SIZE_MAX);
	size_t n = ok ? json_array_size(heads) : 0;
	ly->heads = xcalloc(n ? n : 1, sizeof *ly->heads);
	for (size_t h = 0; ok && h < n; h++) {
		size_t at2 = rd_enter_at(r, h);
		ok = head(r, json_array_get(heads, h), &ly->heads[ly->nheads++],
			  l);
		rd_leave(r, at2);
	}
	rd_leave(r, at);
	if (!ok)
		return false;
	at = rd_enter(r, "ffn");
	ok = rd_ffn(r, f, ly, l);
	rd_leave(r, at);
	return ok;
}
