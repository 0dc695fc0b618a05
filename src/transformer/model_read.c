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
 * written only in the layer it names, so the trace shows what it says. */
#include <config.h>
#include "transformer/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/intmath.h"
#include "transformer/fixed.h"
#include "base/mem.h"

/* Dimensions a model may declare (each also costs JSON text, except
 * the number of query/key rows, whose cost the simulator's limits
 * bound). */
#define MODEL_MAX_DIM (1 << 20)
#define MODEL_MAX_RATIONAL ((int64_t)1 << 40)

enum { PATH_CAP = 200 };

/* Who writes a component (the checks of note_write). */
typedef enum { BY_EMBEDDING, BY_HEAD, BY_FFN, BY_FEATURE } Writer;

typedef struct {
	Model *m;
	char *err;
	char path[PATH_CAP];
	size_t plen;
	unsigned char *nheads; /* per component: heads writing it (max 2) */
	unsigned char *written;
	json_t *layers; /* n_layers is checked against its length */
} Reader;

static const char *const gate_ops[] = {"ge0", "not", "and", "or", NULL};
static const char *const comp_kinds[] = {"bos", "bool", "head", "hidden",
					 NULL};
static const char *const encodings[] = {"nope", "alibi", "sinusoidal", "rope",
					"t5", "urpe", NULL};

/* ---- paths and messages ------------------------------------------------ */

static size_t enter(Reader *r, const char *key)
{
	size_t at = r->plen;
	int n = snprintf(r->path + at, PATH_CAP - at, "%s%s", at ? "." : "",
			 key);
	r->plen = n < 0 || at + (size_t)n >= PATH_CAP ? PATH_CAP - 1
						       : at + (size_t)n;
	return at;
}

static size_t enter_at(Reader *r, size_t i)
{
	size_t at = r->plen;
	int n = snprintf(r->path + at, PATH_CAP - at, "[%zu]", i);
	r->plen = n < 0 || at + (size_t)n >= PATH_CAP ? PATH_CAP - 1
						       : at + (size_t)n;
	return at;
}

static void leave(Reader *r, size_t at)
{
	r->plen = at;
	r->path[at] = '\0';
}

static bool fail(Reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static bool fail(Reader *r, const char *fmt, ...)
{
	if (r->err)
		return false;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	Buf b = {0};
	if (r->plen)
		buf_printf(&b, "%s: ", r->path);
	buf_puts(&b, msg);
	r->err = buf_take(&b);
	return false;
}

/* What a JSON value is, for "found ..." (a short excerpt of a string). */
static const char *found(json_t *j, char *out, size_t cap)
{
	switch (json_typeof(j)) {
	case JSON_STRING: {
		const char *s = json_string_value(j);
		snprintf(out, cap, "\"%.40s%s\"", s, strlen(s) > 40 ? "..." : "");
		return out;
	}
	case JSON_INTEGER:
		snprintf(out, cap, "the number %lld",
			 (long long)json_integer_value(j));
		return out;
	case JSON_REAL: return "a number with a fraction or an exponent";
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_TRUE:
	case JSON_FALSE: return "a Boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

static bool expected(Reader *r, json_t *j, const char *what)
{
	char tmp[64];
	return fail(r, "expected %s, found %s", what, found(j, tmp, sizeof tmp));
}

/* ---- fields ------------------------------------------------------------ */

/* Member `key` of object o (the current path); NULL when it is absent,
 * which is an error when it is required. */
static json_t *member(Reader *r, json_t *o, const char *key, bool required)
{
	json_t *j = json_object_get(o, key);
	if (!j && required) {
		size_t at = enter(r, key);
		fail(r, "missing (a required field)");
		leave(r, at);
	}
	return j;
}

/* j is an object whose fields are all among keys. */
static bool object(Reader *r, json_t *j, const char *const *keys)
{
	if (!json_is_object(j))
		return expected(r, j, "an object");
	const char *k;
	json_t *v;
	json_object_foreach(j, k, v) {
		size_t i = 0;
		while (keys[i] && strcmp(keys[i], k) != 0)
			i++;
		if (!keys[i]) {
			enter(r, k);
			return fail(r, "unknown field");
		}
	}
	return true;
}

static bool array(Reader *r, json_t *j, size_t want)
{
	if (!json_is_array(j))
		return expected(r, j, "an array");
	if (want != SIZE_MAX && json_array_size(j) != want)
		return fail(r, "expected an array of %zu entries, found %zu", want,
			    json_array_size(j));
	return true;
}

static bool integer(Reader *r, json_t *j, int64_t lo, int64_t hi,
		    int64_t *out)
{
	char what[96];
	snprintf(what, sizeof what, "an integer in %lld..%lld", (long long)lo,
		 (long long)hi);
	if (!json_is_integer(j) || json_integer_value(j) < lo ||
	    json_integer_value(j) > hi)
		return expected(r, j, what);
	*out = json_integer_value(j);
	return true;
}

static bool index_of(Reader *r, json_t *j, uint32_t bound, const char *what,
		     uint32_t *out)
{
	int64_t v;
	if (bound == 0)
		return fail(r, "an index into %s, which is empty", what);
	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
	    json_integer_value(j) >= bound) {
		char tmp[64];
		return fail(r, "expected an index into %s (0..%u), found %s",
			    what, bound - 1, found(j, tmp, sizeof tmp));
	}
	v = json_integer_value(j);
	*out = (uint32_t)v;
	return true;
}

/* A string without NUL characters. */
static const char *string(Reader *r, json_t *j)
{
	if (!json_is_string(j)) {
		expected(r, j, "a string");
		return NULL;
	}
	if (strlen(json_string_value(j)) != json_string_length(j)) {
		fail(r, "a string with a NUL character");
		return NULL;
	}
	return json_string_value(j);
}

/* One of names[] (NULL-terminated); its index, or -1 after an error. */
static int one_of(Reader *r, json_t *j, const char *const *names,
		  const char *what)
{
	const char *s = string(r, j);
	for (int i = 0; s && names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	if (s)
		expected(r, j, what);
	return -1;
}

/* The field key of o as an integer in lo..hi. */
static bool field_int(Reader *r, json_t *o, const char *key, int64_t lo,
		      int64_t hi, int64_t *out)
{
	json_t *j = member(r, o, key, true);
	if (!j)
		return false;
	size_t at = enter(r, key);
	bool ok = integer(r, j, lo, hi, out);
	leave(r, at);
	return ok;
}

static bool field_index(Reader *r, json_t *o, const char *key, uint32_t *out)
{
	json_t *j = member(r, o, key, true);
	if (!j)
		return false;
	size_t at = enter(r, key);
	bool ok = index_of(r, j, r->m->d, "the components", out);
	leave(r, at);
	return ok;
}

/* ---- numbers: one spelling each ----------------------------------------- */

/* Decimal digits without a leading zero (a lone "0" when zero_ok); false
 * when there are none or more than 18. */
static bool digits(const char **p, bool zero_ok, int64_t *out)
{
	const char *s = *p;
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == 0 || n > 18 || (s[0] == '0' && (n > 1 || !zero_ok)))
		return false;
	int64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	*p = s + n;
	*out = v;
	return true;
}

/* "m" or "m/D": an integer, optionally over a denominator D >= 2; no
 * sign but '-', no spaces, no leading zeros, no "-0". */
static bool fraction(const char *t, int64_t *num, int64_t *den)
{
	bool neg = *t == '-';
	t += neg;
	if (!digits(&t, !neg, num))
		return false;
	*den = 1;
	if (*t == '/') {
		t++;
		if (!digits(&t, false, den) || *den < 2)
			return false;
	}
	if (neg)
		*num = -*num;
	return *t == '\0';
}

static const char weight_spelling[] =
	"a weight: a dyadic rational as a string \"m\" or \"m/D\" in "
	"lowest terms (m an integer, D a power of two >= 2 in decimal, e.g. "
	"\"-3/16\")";

/* A weight: its one spelling (model_to_json's), and in F_{p,s}. */
static bool weight(Reader *r, json_t *j, double *out)
{
	int64_t num, den;
	if (!json_is_string(j) || !fraction(json_string_value(j), &num, &den) ||
	    (den & (den - 1)) != 0 || (den > 1 && num % 2 == 0))
		return expected(r, j, weight_spelling);
	int k = 0;
	while (((int64_t)1 << k) < den)
		k++;
	/* the mantissa num 2^(s-k): |num| > 2^32 is beyond every F_{p,s} */
	bool fits = k <= r->m->s && num <= ((int64_t)1 << 32) &&
		    num >= -((int64_t)1 << 32);
	int64_t mant = fits ? num * ((int64_t)1 << (r->m->s - k)) : 0;
	if (!fits || mant < fixed_min_m(r->m->p) || mant > fixed_max_m(r->m->p))
		return fail(r, "the weight %s is not in F_{%d,%d} (multiples of "
			       "1/2^%d from %g to %g)",
			    json_string_value(j), r->m->p, r->m->s, r->m->s,
			    ldexp((double)fixed_min_m(r->m->p), -r->m->s),
			    ldexp((double)fixed_max_m(r->m->p), -r->m->s));
	*out = ldexp((double)num, -k);
	return true;
}

static bool field_weight(Reader *r, json_t *o, const char *key, double *out)
{
	json_t *j = member(r, o, key, true);
	if (!j)
		return false;
	size_t at = enter(r, key);
	bool ok = weight(r, j, out);
	leave(r, at);
	return ok;
}

/* n weights (or n in a dense row). */
static bool weights(Reader *r, json_t *a, size_t n, double *out)
{
	if (!array(r, a, n))
		return false;
	for (size_t i = 0; i < n; i++) {
		size_t at = enter_at(r, i);
		bool ok = weight(r, json_array_get(a, i), &out[i]);
		leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

/* A rational "a" or "a/b" in lowest terms, |a|, b <= 2^40 (times pi). */
static bool rational(Reader *r, json_t *j, int64_t *num, int64_t *den)
{
	if (!json_is_string(j) || !fraction(json_string_value(j), num, den) ||
	    int64_gcd(*num, *den) != 1 || *num > MODEL_MAX_RATIONAL ||
	    *num < -MODEL_MAX_RATIONAL || *den > MODEL_MAX_RATIONAL)
		return expected(r, j, "a string \"a\" or \"a/b\" in lowest terms "
				      "(times pi; |a|, b <= 2^40, e.g. \"2/7\")");
	return true;
}

/* "a/b" (times pi) or {"base", "k", "d"}: base^(-2k/d) radians, k < d/2
 * (the standard frequencies: theta >= 1/base). */
static bool angle(Reader *r, json_t *j, Angle *a)
{
	static const char *const keys[] = {"base", "k", "d", NULL};
	memset(a, 0, sizeof *a);
	if (json_is_string(j))
		return rational(r, j, &a->num, &a->den);
	if (!json_is_object(j))
		return expected(r, j, "an angle: \"a/b\" (times pi) or {\"base\", "
				      "\"k\", \"d\"}");
	int64_t b, k, d;
	if (!object(r, j, keys) ||
	    !field_int(r, j, "base", 2, 1 << 30, &b) ||
	    !field_int(r, j, "d", 1, MODEL_MAX_DIM, &d) ||
	    !field_int(r, j, "k", 0, (d - 1) / 2, &k))
		return false;
	a->standard = true;
	a->base = (uint32_t)b;
	a->k = (uint32_t)k;
	a->d = (uint32_t)d;
	return true;
}

/* ---- who writes what ---------------------------------------------------- */

/* Component c is written by `by` in layer l (0: the embedding, the
 * features and the input block): the component's kind and layer must
 * say so. */
static bool note_write(Reader *r, uint32_t c, uint32_t l, Writer by)
{
	const Component *cp = &r->m->comps[c];
	if (cp->kind == COMP_BOS && by != BY_EMBEDDING)
		return fail(r, "writes components[%u], the BOS component "
			       "(only the embedding sets it)", c);
	if (cp->kind == COMP_HEAD && by != BY_HEAD)
		return fail(r, "writes components[%u], a head component (only "
			       "its head writes it)", c);
	if (cp->layer != l)
		return fail(r, "writes components[%u] in layer %u, but its "
			       "\"layer\" is %u (a component is written in its "
			       "own layer only)",
			    c, l, cp->layer);
	if (by == BY_HEAD && cp->kind == COMP_HEAD && r->nheads[c]++)
		return fail(r, "writes components[%u], a head component "
			       "another head of the layer writes already", c);
	r->written[c] = 1;
	return true;
}

/* After the layers: every head component has its head, and every
 * Boolean component of a layer >= 1 is computed by it. */
static bool check_written(Reader *r)
{
	for (uint32_t c = 0; c < r->m->d; c++) {
		const Component *cp = &r->m->comps[c];
		if ((cp->kind == COMP_HEAD || cp->kind == COMP_BOOL) &&
		    cp->layer > 0 && !r->written[c]) {
			size_t at = enter(r, "components");
			enter_at(r, c);
			fail(r, "a %s component of layer %u that nothing in "
				"layer %u writes",
			     comp_kinds[cp->kind], cp->layer, cp->layer);
			leave(r, at);
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
			enter_at(r, c[i].i);
			fail(r, "repeats the %s of entry [%zu]",
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
	if (!array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	sp->e = xcalloc(n ? n : 1, sizeof *sp->e);
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(a, i);
		size_t at = enter_at(r, i), k = 0;
		bool ok = array(r, e, one_row ? 2 : 3);
		if (ok && !one_row) {
			size_t at2 = enter_at(r, k);
			ok = index_of(r, json_array_get(e, k++), rows, "the rows",
				      &sp->e[i].row);
			leave(r, at2);
		}
		if (ok) {
			size_t at2 = enter_at(r, k);
			ok = index_of(r, json_array_get(e, k++), cols, what,
				      &sp->e[i].col);
			leave(r, at2);
		}
		if (ok) {
			size_t at2 = enter_at(r, k);
			ok = weight(r, json_array_get(e, k), &sp->e[i].w);
			leave(r, at2);
		}
		leave(r, at);
		if (!ok)
			return false;
		sp->n++;
	}
	return distinct(r, sp, one_row);
}

static bool field_entries(Reader *r, json_t *o, const char *key,
			  uint32_t rows, uint32_t cols, bool one_row,
			  const char *what, Sparse *sp)
{
	json_t *j = member(r, o, key, true);
	if (!j)
		return false;
	size_t at = enter(r, key);
	bool ok = entries(r, j, rows, cols, one_row, what, sp);
	leave(r, at);
	return ok;
}

/* {"rows", "entries"}: a query or key matrix over the components. */
static bool matrix(Reader *r, json_t *o, const char *key, Sparse *sp)
{
	static const char *const keys[] = {"rows", "entries", NULL};
	json_t *j = member(r, o, key, true);
	if (!j)
		return false;
	size_t at = enter(r, key);
	int64_t rows = 0;
	bool ok = object(r, j, keys) &&
		  field_int(r, j, "rows", 0, MODEL_MAX_DIM, &rows) &&
		  field_entries(r, j, "entries", (uint32_t)rows, r->m->d, false,
				"the components", sp);
	leave(r, at);
	return ok;
}

/* ---- heads -------------------------------------------------------------- */

/* The encoding a head or feature uses must be the model's. */
static bool uses(Reader *r, const char *want)
{
	if (strcmp(r->m->pe, want) == 0)
		return true;
	return fail(r, "a field of the \"%s\" encoding, but the model's "
		       "\"positional\" is \"%s\"",
		    want, r->m->pe);
}

static bool rope(Reader *r, json_t *a, Head *h)
{
	if (!uses(r, "rope") || !array(r, a, SIZE_MAX))
		return false;
	if (2 * json_array_size(a) > h->wq.rows)
		return fail(r, "%zu angles rotate %zu rows, but the query and key "
			       "have %u",
			    json_array_size(a), 2 * json_array_size(a), h->wq.rows);
	h->nrope = json_array_size(a);
	h->rope = xcalloc(h->nrope ? h->nrope : 1, sizeof *h->rope);
	for (size_t k = 0; k < h->nrope; k++) {
		size_t at = enter_at(r, k);
		bool ok = angle(r, json_array_get(a, k), &h->rope[k]);
		leave(r, at);
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
	if (!uses(r, "t5") || !object(r, o, keys))
		return false;
	json_t *bi = member(r, o, "bidirectional", true);
	if (!bi)
		return false;
	if (!json_is_boolean(bi)) {
		size_t at = enter(r, "bidirectional");
		expected(r, bi, "true or false");
		leave(r, at);
		return false;
	}
	/* t5_init's conditions, each on its field */
	bool two = json_is_true(bi);
	if (!field_int(r, o, "num_buckets", two ? 4 : 2, 4096, &nb))
		return false;
	uint32_t exact = (uint32_t)(two ? nb / 2 : nb) / 2;
	if (!field_int(r, o, "max_distance", exact + 1, 1 << 30, &md))
		return false;
	h->t5 = xcalloc(1, sizeof *h->t5);
	h->t5->buckets = (uint32_t)nb;
	h->t5->max_distance = (uint32_t)md;
	h->t5->bidirectional = two;
	h->t5->bias = xcalloc((size_t)nb, sizeof *h->t5->bias);
	size_t at = enter(r, "bias");
	json_t *b = member(r, o, "bias", true);
	bool ok = b && weights(r, b, (size_t)nb, h->t5->bias);
	leave(r, at);
	return ok;
}

static bool urpe(Reader *r, json_t *o, Head *h)
{
	static const char *const keys[] = {"diagonals", "beyond", NULL};
	if (!uses(r, "urpe") || !object(r, o, keys))
		return false;
	json_t *dg = member(r, o, "diagonals", true);
	if (!dg)
		return false;
	size_t at = enter(r, "diagonals");
	bool ok = array(r, dg, SIZE_MAX);
	if (ok && json_array_size(dg) > MODEL_MAX_DIM)
		ok = fail(r, "more than %d diagonals", MODEL_MAX_DIM);
	if (ok) {
		h->nurpe = json_array_size(dg);
		h->urpe = xcalloc(h->nurpe ? h->nurpe : 1, sizeof *h->urpe);
		ok = weights(r, dg, h->nurpe, h->urpe);
	}
	leave(r, at);
	return ok && field_weight(r, o, "beyond", &h->urpe_beyond);
}

/* An optional field read by fn at its path. */
static bool optional(Reader *r, json_t *o, const char *key, Head *h,
		     bool (*fn)(Reader *, json_t *, Head *))
{
	json_t *j = json_object_get(o, key);
	if (!j)
		return true;
	size_t at = enter(r, key);
	bool ok = fn(r, j, h);
	leave(r, at);
	return ok;
}

static bool value(Reader *r, json_t *o, Head *h)
{
	static const char *const keys[] = {"weights", "bias", NULL};
	return object(r, o, keys) &&
	       field_entries(r, o, "weights", 1, r->m->d, true, "the components",
			     &h->wv) &&
	       field_weight(r, o, "bias", &h->bv);
}

static bool head(Reader *r, json_t *o, Head *h, uint32_t layer)
{
	static const char *const keys[] = {"query", "key", "value",
					   "alibi_slope", "out", "rope", "t5",
					   "urpe", NULL};
	if (!object(r, o, keys) || !matrix(r, o, "query", &h->wq) ||
	    !matrix(r, o, "key", &h->wk))
		return false;
	if (h->wq.rows != h->wk.rows) {
		size_t at = enter(r, "key.rows");
		fail(r, "%u rows, but the query has %u", h->wk.rows, h->wq.rows);
		leave(r, at);
		return false;
	}
	if (!member(r, o, "value", true) ||
	    !optional(r, o, "value", h, value) ||
	    !field_weight(r, o, "alibi_slope", &h->slope))
		return false;
	size_t at = enter(r, "alibi_slope");
	bool ok = h->slope >= 0 ? true
				: fail(r, "negative: an ALiBi slope is >= 0 "
					  "(logit -= slope (i-j))");
	if (ok && h->slope != 0)
		ok = uses(r, "alibi");
	leave(r, at);
	if (!ok || !field_index(r, o, "out", &h->out))
		return false;
	at = enter(r, "out");
	ok = note_write(r, h->out, layer, BY_HEAD);
	leave(r, at);
	return ok && optional(r, o, "rope", h, rope) &&
	       optional(r, o, "t5", h, t5) && optional(r, o, "urpe", h, urpe);
}

/* ---- feed-forward blocks ------------------------------------------------ */

static bool gate(Reader *r, json_t *o, Gate *g, uint32_t layer)
{
	static const char *const keys[] = {"op", "in", "out", "bias", NULL};
	json_t *op = object(r, o, keys) ? member(r, o, "op", true) : NULL;
	if (!op)
		return false;
	size_t at = enter(r, "op");
	int k = one_of(r, op, gate_ops, "\"ge0\", \"not\", \"and\" or \"or\"");
	leave(r, at);
	if (k < 0)
		return false;
	g->op = (GateOp)k;
	json_t *in = member(r, o, "in", true);
	if (!in)
		return false;
	at = enter(r, "in");
	bool ok = array(r, in, SIZE_MAX);
	size_t n = ok ? json_array_size(in) : 0;
	if (ok && (g->op == GATE_GE0 || g->op == GATE_NOT) && n != 1)
		ok = fail(r, "a %s gate takes one input, not %zu", gate_ops[k], n);
	if (ok && n == 0)
		ok = fail(r, "an %s gate needs at least one input", gate_ops[k]);
	g->in = xcalloc(n ? n : 1, sizeof *g->in);
	for (size_t i = 0; ok && i < n; i++, g->nin++) {
		size_t at2 = enter_at(r, i);
		ok = index_of(r, json_array_get(in, i), r->m->d,
			      "the components", &g->in[i]);
		leave(r, at2);
	}
	leave(r, at);
	if (!ok)
		return false;
	json_t *bias = json_object_get(o, "bias");
	if (bias) {
		at = enter(r, "bias");
		ok = g->op == GATE_GE0
			     ? weight(r, bias, &g->bias)
			     : fail(r, "only a ge0 gate has a bias");
		leave(r, at);
		if (!ok)
			return false;
	}
	if (!field_index(r, o, "out", &g->out))
		return false;
	at = enter(r, "out");
	ok = note_write(r, g->out, layer, BY_FFN);
	leave(r, at);
	return ok;
}

static bool field_weights(Reader *r, json_t *o, const char *key, size_t n,
			  double *out)
{
	json_t *j = member(r, o, key, true);
	if (!j)
		return false;
	size_t at = enter(r, key);
	bool ok = weights(r, j, n, out);
	leave(r, at);
	return ok;
}

static bool block(Reader *r, json_t *o, Block *b, uint32_t layer)
{
	static const char *const keys[] = {"hidden", "w1", "b1", "w2", "b2",
					   NULL};
	int64_t hidden;
	uint32_t d = r->m->d;
	if (!object(r, o, keys) ||
	    !field_int(r, o, "hidden", 0, MODEL_MAX_DIM, &hidden))
		return false;
	uint32_t nh = (uint32_t)hidden;
	b->b1 = xcalloc(nh ? nh : 1, sizeof *b->b1);
	b->b2 = xcalloc(d, sizeof *b->b2);
	if (!field_entries(r, o, "w1", nh, d, false, "the components", &b->w1) ||
	    !field_weights(r, o, "b1", nh, b->b1) ||
	    !field_entries(r, o, "w2", d, nh, false, "the hidden units",
			   &b->w2) ||
	    !field_weights(r, o, "b2", d, b->b2))
		return false;
	size_t at = enter(r, "w2");
	for (size_t i = 0; i < b->w2.n; i++) {
		size_t at2 = enter_at(r, i);
		bool ok = note_write(r, b->w2.e[i].row, layer, BY_FFN);
		leave(r, at2);
		if (!ok)
			return false;
	}
	leave(r, at);
	at = enter(r, "b2");
	for (uint32_t c = 0; c < d; c++) {
		size_t at2 = enter_at(r, c);
		bool ok = b->b2[c] == 0 || note_write(r, c, layer, BY_FFN);
		leave(r, at2);
		if (!ok)
			return false;
	}
	leave(r, at);
	return true;
}

/* {"gates": [...]} for ffn "table", {"blocks": [...]} for "relu". */
static bool ffn(Reader *r, json_t *o, Layer *ly, uint32_t layer)
{
	bool table = r->m->ffn == FFN_TABLE;
	const char *key = table ? "gates" : "blocks";
	const char *const keys[] = {key, NULL};
	if (!json_is_object(o))
		return expected(r, o, "an object");
	if (json_object_get(o, table ? "blocks" : "gates")) {
		enter(r, table ? "blocks" : "gates");
		return fail(r, "the model's \"ffn\" is \"%s\": its feed-forward "
			       "blocks are \"%s\"",
			    table ? "table" : "relu", key);
	}
	json_t *list = object(r, o, keys) ? member(r, o, key, true) : NULL;
	if (!list)
		return false;
	size_t at = enter(r, key);
	bool ok = array(r, list, SIZE_MAX);
	size_t n = ok ? json_array_size(list) : 0;
	if (table)
		ly->gates = xcalloc(n ? n : 1, sizeof *ly->gates);
	else
		ly->blocks = xcalloc(n ? n : 1, sizeof *ly->blocks);
	for (size_t i = 0; ok && i < n; i++) {
		size_t at2 = enter_at(r, i);
		json_t *e = json_array_get(list, i);
		if (table)
			ok = gate(r, e, &ly->gates[ly->ngates++], layer);
		else
			ok = block(r, e, &ly->blocks[ly->nblocks++], layer);
		leave(r, at2);
	}
	leave(r, at);
	return ok;
}

static bool layer(Reader *r, json_t *o, Layer *ly, uint32_t l)
{
	static const char *const keys[] = {"heads", "ffn", NULL};
	json_t *heads = object(r, o, keys) ? member(r, o, "heads", true) : NULL;
	json_t *f = heads ? member(r, o, "ffn", true) : NULL;
	if (!f)
		return false;
	size_t at = enter(r, "heads");
	bool ok = array(r, heads, SIZE_MAX);
	size_t n = ok ? json_array_size(heads) : 0;
	ly->heads = xcalloc(n ? n : 1, sizeof *ly->heads);
	for (size_t h = 0; ok && h < n; h++) {
		size_t at2 = enter_at(r, h);
		ok = head(r, json_array_get(heads, h), &ly->heads[ly->nheads++],
			  l);
		leave(r, at2);
	}
	leave(r, at);
	if (!ok)
		return false;
	at = enter(r, "ffn");
	ok = ffn(r, f, ly, l);
	leave(r, at);
	return ok;
}

/* ---- the embedding side ------------------------------------------------- */

static bool feature(Reader *r, json_t *o, Feature *ft)
{
	static const char *const keys[] = {"out", "angle", "phase", NULL};
	if (!object(r, o, keys) || !field_index(r, o, "out", &ft->out))
		return false;
	size_t at = enter(r, "out");
	bool ok = note_write(r, ft->out, 0, BY_FEATURE);
	leave(r, at);
	json_t *a = ok ? member(r, o, "angle", true) : NULL;
	json_t *p = a ? member(r, o, "phase", true) : NULL;
	if (!p)
		return false;
	at = enter(r, "angle");
	ok = angle(r, a, &ft->angle);
	leave(r, at);
	at = enter(r, "phase");
	ok = ok && rational(r, p, &ft->pnum, &ft->pden);
	leave(r, at);
	return ok;
}

static bool features(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!uses(r, "sinusoidal") || !array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	m->feats = xcalloc(n ? n : 1, sizeof *m->feats);
	for (size_t f = 0; f < n; f++, m->nfeats++) {
		size_t at = enter_at(r, f);
		bool ok = feature(r, json_array_get(a, f), &m->feats[f]);
		leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

static bool embedding(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!array(r, a, m->nletters + 1))
		return false;
	m->embed = xcalloc((m->nletters + 1) * m->d, sizeof *m->embed);
	for (size_t t = 0; t <= m->nletters; t++) {
		size_t at = enter_at(r, t);
		double *row = m->embed + t * m->d;
		bool ok = weights(r, json_array_get(a, t), m->d, row);
		for (uint32_t c = 0; ok && c < m->d; c++) {
			size_t at2 = enter_at(r, c);
			ok = row[c] == 0 || note_write(r, c, 0, BY_EMBEDDING);
			leave(r, at2);
		}
		leave(r, at);
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
	if (!array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	m->alphabet = xcalloc(n + 1, sizeof *m->alphabet);
	for (size_t i = 0; i < n; i++) {
		size_t at = enter_at(r, i);
		const char *s = string(r, json_array_get(a, i));
		if (s && !*s)
			fail(r, "an empty letter");
		leave(r, at);
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
			enter_at(r, second);
			ok = fail(r, "the letter \"%.40s\" again (it is "
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
	if (!array(r, a, SIZE_MAX))
		return false;
	size_t n = json_array_size(a);
	c->counts = xcalloc(n ? n : 1, sizeof *c->counts);
	for (size_t i = 0; i < n; i++) {
		json_t *t = json_array_get(a, i);
		size_t at = enter_at(r, i);
		json_t *f = object(r, t, keys) ? member(r, t, "formula", true)
					       : NULL;
		bool ok = f && field_weight(r, t, "coef", &c->counts[i].coef);
		if (ok) {
			size_t at2 = enter(r, "formula");
			ok = string(r, f) != NULL;
			leave(r, at2);
		}
		leave(r, at);
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
	json_t *kind = json_is_object(o) ? member(r, o, "kind", true) : NULL;
	if (!json_is_object(o))
		return expected(r, o, "an object");
	if (!kind)
		return false;
	size_t at = enter(r, "kind");
	int k = one_of(r, kind, comp_kinds,
		       "\"bos\", \"bool\", \"head\" or \"hidden\"");
	leave(r, at);
	if (k < 0)
		return false;
	c->kind = (CompKind)k;
	int64_t l;
	int64_t lo = c->kind == COMP_HEAD ? 1 : 0;
	int64_t hi = c->kind == COMP_BOS ? 0 : (int64_t)r->m->nlayers;
	if (!object(r, o, fields[k]) || !field_int(r, o, "layer", lo, hi, &l))
		return false;
	c->layer = (uint32_t)l;
	json_t *f = json_object_get(o, "formula");
	if (f) {
		at = enter(r, "formula");
		bool ok = string(r, f) != NULL;
		leave(r, at);
		if (!ok)
			return false;
		c->formula = dup_string(f);
	}
	json_t *cs = json_object_get(o, "counts");
	c->window = c->kind == COMP_HEAD && !cs;
	if (c->window && json_object_get(o, "constant")) {
		enter(r, "constant");
		return fail(r, "a constant without \"counts\"");
	}
	if (!cs)
		return true;
	at = enter(r, "counts");
	bool ok = counts(r, cs, c);
	leave(r, at);
	return ok && field_weight(r, o, "constant", &c->constant);
}

static bool components(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!array(r, a, m->d))
		return false;
	m->comps = xcalloc(m->d, sizeof *m->comps);
	for (uint32_t c = 0; c < m->d; c++) {
		size_t at = enter_at(r, c);
		bool ok = component(r, json_array_get(a, c), &m->comps[c]);
		leave(r, at);
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
	json_t *j = member(r, o, key, required);
	if (!j)
		return !required;
	size_t at = enter(r, key);
	bool ok = fn(r, j);
	leave(r, at);
	return ok;
}

static bool precision(Reader *r, json_t *o)
{
	static const char *const keys[] = {"p", "s", "rounding", NULL};
	int64_t p, s;
	if (!object(r, o, keys) ||
	    !field_int(r, o, "p", 2, FIXED_MAX_P, &p) ||
	    !field_int(r, o, "s", 0, p - 2, &s))
		return false;
	r->m->p = (int)p;
	r->m->s = (int)s;
	json_t *rd = member(r, o, "rounding", true);
	static const char *const rounding[] = {"floor, saturating", NULL};
	size_t at = enter(r, "rounding");
	bool ok = rd && one_of(r, rd, rounding, "\"floor, saturating\"") == 0;
	leave(r, at);
	return ok;
}

static bool format(Reader *r, json_t *j)
{
	static const char *const names[] = {"tally-transformer", NULL};
	return one_of(r, j, names, "\"tally-transformer\"") == 0;
}

static bool version(Reader *r, json_t *j)
{
	int64_t v;
	return integer(r, j, 1, 1, &v);
}

static bool any_string(Reader *r, json_t *j)
{
	return string(r, j) != NULL;
}

static bool any_object(Reader *r, json_t *j)
{
	return json_is_object(j) || expected(r, j, "an object");
}

static bool positional(Reader *r, json_t *j)
{
	int k = one_of(r, j, encodings,
		       "\"nope\", \"alibi\", \"sinusoidal\", \"rope\", \"t5\" "
		       "or \"urpe\"");
	if (k >= 0)
		r->m->pe = xstrdup(encodings[k]);
	return k >= 0;
}

static bool ffn_kind(Reader *r, json_t *j)
{
	static const char *const names[] = {"table", "relu", NULL};
	int k = one_of(r, j, names, "\"table\" or \"relu\"");
	r->m->ffn = k == 1 ? FFN_RELU : FFN_TABLE;
	return k >= 0;
}

static bool formula(Reader *r, json_t *j)
{
	if (!string(r, j))
		return false;
	r->m->formula = dup_string(j);
	return true;
}

static bool d_model(Reader *r, json_t *j)
{
	int64_t d;
	if (!integer(r, j, 1, MODEL_MAX_DIM, &d))
		return false;
	r->m->d = (uint32_t)d;
	r->nheads = xcalloc(r->m->d, 1);
	r->written = xcalloc(r->m->d, 1);
	return true;
}

static bool n_layers(Reader *r, json_t *j)
{
	int64_t n;
	if (!integer(r, j, 0, MODEL_MAX_DIM, &n))
		return false;
	if (json_is_array(r->layers) && json_array_size(r->layers) != (size_t)n)
		return fail(r, "%lld, but \"layers\" has %zu entries",
			    (long long)n, json_array_size(r->layers));
	r->m->nlayers = (size_t)n;
	return true;
}

static bool input_ffn(Reader *r, json_t *j)
{
	return ffn(r, j, &r->m->input, 0);
}

static bool layers(Reader *r, json_t *a)
{
	Model *m = r->m;
	if (!array(r, a, m->nlayers))
		return false;
	m->layers = xcalloc(m->nlayers ? m->nlayers : 1, sizeof *m->layers);
	for (size_t l = 0; l < m->nlayers; l++) {
		size_t at = enter_at(r, l);
		bool ok = layer(r, json_array_get(a, l), &m->layers[l],
				(uint32_t)l + 1);
		leave(r, at);
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
	json_t *j = member(r, o, "readout", false);
	if (j) {
		size_t at = enter(r, "readout");
		int k = one_of(r, j, names, "\"accept\", \"per_position\", "
			       "\"class\" or \"ratio\"");
		leave(r, at);
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
		enter(r, extra);
		return fail(r, "only a \"class\" readout has bounds");
	}
	if (!field_int(r, o, "min", -CLASS_BOUND, CLASS_BOUND, &m->class_lo) ||
	    !field_int(r, o, "max", m->class_lo, CLASS_BOUND, &m->class_hi))
		return false;
	return true;
}

static bool output(Reader *r, json_t *o)
{
	static const char *const keys[] = {"weights", "bias", "readout",
					   "min", "max", NULL};
	return object(r, o, keys) &&
	       field_entries(r, o, "weights", 1, r->m->d, true, "the components",
			     &r->m->wout) &&
	       field_weight(r, o, "bias", &r->m->bout) && readout(r, o);
}

static bool read_model(Reader *r, json_t *j)
{
	static const char *const keys[] = {
		"tally_version", "format", "format_version", "precision",
		"positional", "ffn", "formula", "alphabet", "d_model",
		"n_layers", "components", "embedding", "features", "input_ffn",
		"layers", "output", "analysis", NULL};
	if (!json_is_object(j))
		return expected(r, j, "a model (a JSON object)");
	/* the format first: another file says that it is not a model */
	if (!top(r, j, "format", true, format) || !object(r, j, keys))
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
	return check_written(r);
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
