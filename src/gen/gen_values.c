/* gen_values.c -- the distribution of output values (gen_values.h). */
#include <config.h>

#include "gen/gen_values.h"

#include <string.h>

#include "base/mem.h"
#include "core/json.h"

void gen_values_init(GenValues *v)
{
	*v = (GenValues){0};
	fmpz_init(v->min);
	fmpz_init(v->max);
	fmpz_init(v->sum);
}

void gen_values_free(GenValues *v)
{
	VEC_FREE(v->seen);
	fmpz_clear(v->min);
	fmpz_clear(v->max);
	fmpz_clear(v->sum);
}

/* The index of value in the table, or where it would go. */
static size_t find(const GenValues *v, long value)
{
	size_t lo = 0, hi = v->seen.len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->seen.data[mid].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void count(GenValues *v, const fmpz_t x)
{
	if (!fmpz_fits_si(x)) {
		v->other++;
		return;
	}
	long value = fmpz_get_si(x);
	size_t i = find(v, value);
	if (i < v->seen.len && v->seen.data[i].value == value) {
		v->seen.data[i].count++;
		return;
	}
	if (v->seen.len == GEN_VALUES_DISTINCT) {
		v->other++;
		return;
	}
	GenValueCount c = {value, 1};
	VEC_PUSH(v->seen, c); /* room; then shifted into place */
	memmove(v->seen.data + i + 1, v->seen.data + i,
		(v->seen.len - 1 - i) * sizeof c);
	v->seen.data[i] = c;
}

void gen_values_add(GenValues *v, const fmpz_t x)
{
	if (v->total == 0 || fmpz_cmp(x, v->min) < 0)
		fmpz_set(v->min, x);
	if (v->total == 0 || fmpz_cmp(x, v->max) > 0)
		fmpz_set(v->max, x);
	fmpz_add(v->sum, v->sum, x);
	v->total++;
	count(v, x);
}

uint64_t gen_values_mode(const GenValues *v, long *value)
{
	uint64_t best = 0;
	for (size_t i = 0; i < v->seen.len; i++)
		if (v->seen.data[i].count > best) {
			best = v->seen.data[i].count;
			*value = v->seen.data[i].value;
		}
	return best;
}

static double mean(const GenValues *v)
{
	return v->total ? fmpz_get_d(v->sum) / (double)v->total : 0.0;
}

void gen_values_print(const GenValues *v, const char *what, FILE *f)
{
	fprintf(f, "gen:   %s: %llu", what, (unsigned long long)v->total);
	if (v->total) {
		fputs(", ", f);
		fmpz_fprint(f, v->min);
		fputs("..", f);
		fmpz_fprint(f, v->max);
		fprintf(f, ", mean %.2f", mean(v));
	}
	long mode = 0;
	uint64_t m = gen_values_mode(v, &mode);
	if (m)
		fprintf(f, "; most frequent %ld (%.1f%%)", mode,
			100.0 * (double)m / (double)v->total);
	fputc('\n', f);
}

json_t *gen_values_json(const GenValues *v)
{
	json_t *o = json_object(), *list = json_array();
	json_object_set_new(o, "count", json_size(v->total));
	json_object_set_new(o, "min", v->total ? json_fmpz(v->min) : json_null());
	json_object_set_new(o, "max", v->total ? json_fmpz(v->max) : json_null());
	json_object_set_new(o, "mean", json_real(mean(v)));
	for (size_t i = 0; i < v->seen.len; i++) {
		json_t *c = json_object();
		json_object_set_new(c, "value",
				    json_integer(v->seen.data[i].value));
		json_object_set_new(c, "count", json_size(v->seen.data[i].count));
		json_array_append_new(list, c);
	}
	json_object_set_new(o, "values", list);
	json_object_set_new(o, "other", json_size(v->other));
	return o;
}
