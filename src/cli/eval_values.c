/* eval_values.c -- collecting and printing sequence outputs
 * (eval_values.h). */
#include <config.h>
#include "cli/eval_values.h"

#include "base/mem.h"
#include "core/json.h"

bool eval_values_any_int(const Store *s, const Node *roots, size_t n)
{
	for (size_t r = 0; r < n; r++)
		if (!store_is_bool(s, roots[r]))
			return true;
	return false;
}

void eval_values_init(EvalValues *v, const Store *s, const Node *roots,
		      size_t n, bool per_position, bool json)
{
	size_t cap = n ? n : 1;
	*v = (EvalValues){0};
	v->n = n;
	v->per_position = per_position;
	v->json = json;
	v->is_int = xcalloc(cap, sizeof *v->is_int);
	v->text = xcalloc(cap, sizeof *v->text);
	v->seq = xcalloc(cap, sizeof *v->seq);
	v->last = xcalloc(cap, sizeof *v->last);
	for (size_t r = 0; r < n; r++) {
		v->is_int[r] = !store_is_bool(s, roots[r]);
		v->any_int |= v->is_int[r];
		fmpz_init(&v->last[r]);
	}
	eval_values_clear(v);
}

void eval_values_free(EvalValues *v)
{
	for (size_t r = 0; r < v->n; r++) {
		buf_free(&v->text[r]);
		json_decref(v->seq[r]);
		fmpz_clear(&v->last[r]);
	}
	free(v->is_int);
	free(v->text);
	free(v->seq);
	free(v->last);
}

void eval_values_clear(EvalValues *v)
{
	for (size_t r = 0; r < v->n; r++) {
		v->text[r].len = 0;
		json_decref(v->seq[r]);
		v->seq[r] = v->json && v->per_position ? json_array() : NULL;
		fmpz_zero(&v->last[r]);
	}
}

/* One value of output r into its sequence. */
static void append(EvalValues *v, size_t r, const fmpz_t x)
{
	if (v->json) {
		json_array_append_new(v->seq[r],
				      v->is_int[r] ? json_fmpz(x)
						   : json_boolean(!fmpz_is_zero(x)));
		return;
	}
	Buf *b = &v->text[r];
	if (b->len)
		buf_putc(b, ' ');
	seqeval_put(b, x);
}

void eval_values_emit(void *ctx, const SeqEval *se, size_t pos)
{
	EvalValues *v = ctx;
	for (size_t r = 0; r < v->n; r++) {
		seqeval_value(se, r, &v->last[r]);
		/* position 0 is the empty word's: judged, not in the sequence */
		if (v->per_position && pos > 0)
			append(v, r, &v->last[r]);
	}
}

bool eval_values_accepted(const EvalValues *v, size_t r)
{
	return v->is_int[r] || !fmpz_is_zero(&v->last[r]);
}

void eval_values_print(const EvalValues *v, size_t r, FILE *out)
{
	if (v->per_position) {
		if (v->text[r].len)
			fwrite(v->text[r].data, 1, v->text[r].len, out);
	} else if (!v->is_int[r]) {
		fputs(fmpz_is_zero(&v->last[r]) ? "reject" : "accept", out);
	} else {
		fmpz_fprint(out, &v->last[r]);
	}
}

/* Output r's column as JSON (a new reference): its sequence, or its
 * judged value. */
static json_t *column_json(const EvalValues *v, size_t r)
{
	if (v->per_position)
		return json_incref(v->seq[r]);
	return v->is_int[r] ? json_fmpz(&v->last[r])
			    : json_boolean(!fmpz_is_zero(&v->last[r]));
}

void eval_values_json(const EvalValues *v, json_t *o)
{
	const char *one = v->per_position ? "values" : "value";
	const char *many = v->per_position ? "values_per_input"
					   : "value_per_input";
	if (v->n == 1) {
		json_object_set_new(o, one, column_json(v, 0));
		return;
	}
	json_t *all = json_array();
	for (size_t r = 0; r < v->n; r++)
		json_array_append_new(all, column_json(v, r));
	json_object_set_new(o, many, all);
}
