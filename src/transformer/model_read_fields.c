/* model_read_fields.c -- the model reader's path and messages, its
 * typed fields (an object's known keys, arrays of a length, integers in a
 * range, indices, strings, names), and the one spelling of each number:
 * weights in F_{p,s}, rationals in lowest terms, angles (model_read.h). */
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

/* ---- paths and messages ------------------------------------------------ */

size_t rd_enter(Reader *r, const char *key)
{
	size_t at = r->plen;
	int n = snprintf(r->path + at, PATH_CAP - at, "%s%s", at ? "." : "",
			 key);
	r->plen = n < 0 || at + (size_t)n >= PATH_CAP ? PATH_CAP - 1
						       : at + (size_t)n;
	return at;
}

size_t rd_enter_at(Reader *r, size_t i)
{
	size_t at = r->plen;
	int n = snprintf(r->path + at, PATH_CAP - at, "[%zu]", i);
	r->plen = n < 0 || at + (size_t)n >= PATH_CAP ? PATH_CAP - 1
						       : at + (size_t)n;
	return at;
}

void rd_leave(Reader *r, size_t at)
{
	r->plen = at;
	r->path[at] = '\0';
}

bool rd_fail(Reader *r, const char *fmt, ...)
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

bool rd_expected(Reader *r, json_t *j, const char *what)
{
	char tmp[64];
	return rd_fail(r, "expected %s, found %s", what, found(j, tmp, sizeof tmp));
}

/* ---- fields ------------------------------------------------------------ */

/* Member `key` of object o (the current path); NULL when it is absent,
 * which is an error when it is required. */
json_t *rd_member(Reader *r, json_t *o, const char *key, bool required)
{
	json_t *j = json_object_get(o, key);
	if (!j && required) {
		size_t at = rd_enter(r, key);
		rd_fail(r, "missing (a required field)");
		rd_leave(r, at);
	}
	return j;
}

/* j is an object whose fields are all among keys. */
bool rd_object(Reader *r, json_t *j, const char *const *keys)
{
	if (!json_is_object(j))
		return rd_expected(r, j, "an object");
	const char *k;
	json_t *v;
	json_object_foreach(j, k, v) {
		size_t i = 0;
		while (keys[i] && strcmp(keys[i], k) != 0)
			i++;
		if (!keys[i]) {
			rd_enter(r, k);
			return rd_fail(r, "unknown field");
		}
	}
	return true;
}

bool rd_array(Reader *r, json_t *j, size_t want)
{
	if (!json_is_array(j))
		return rd_expected(r, j, "an array");
	if (want != SIZE_MAX && json_array_size(j) != want)
		return rd_fail(r, "expected an array of %zu entries, found %zu", want,
			       json_array_size(j));
	return true;
}

bool rd_integer(Reader *r, json_t *j, int64_t lo, int64_t hi,
		int64_t *out)
{
	char what[96];
	snprintf(what, sizeof what, "an integer in %lld..%lld", (long long)lo,
		 (long long)hi);
	if (!json_is_integer(j) || json_integer_value(j) < lo ||
	    json_integer_value(j) > hi)
		return rd_expected(r, j, what);
	*out = json_integer_value(j);
	return true;
}

bool rd_index_of(Reader *r, json_t *j, uint32_t bound, const char *what,
		 uint32_t *out)
{
	int64_t v;
	if (bound == 0)
		return rd_fail(r, "an index into %s, which is empty", what);
	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
	    json_integer_value(j) >= bound) {
		char tmp[64];
		return rd_fail(r, "expected an index into %s (0..%u), found %s",
			       what, bound - 1, found(j, tmp, sizeof tmp));
	}
	v = json_integer_value(j);
	*out = (uint32_t)v;
	return true;
}

/* A string without NUL characters. */
const char *rd_string(Reader *r, json_t *j)
{
	if (!json_is_string(j)) {
		rd_expected(r, j, "a string");
		return NULL;
	}
	if (strlen(json_string_value(j)) != json_string_length(j)) {
		rd_fail(r, "a string with a NUL character");
		return NULL;
	}
	return json_string_value(j);
}

/* One of names[] (NULL-terminated); its index, or -1 after an error. */
int rd_one_of(Reader *r, json_t *j, const char *const *names,
	      const char *what)
{
	const char *s = rd_string(r, j);
	for (int i = 0; s && names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	if (s)
		rd_expected(r, j, what);
	return -1;
}

/* The field key of o as an integer in lo..hi. */
bool rd_field_int(Reader *r, json_t *o, const char *key, int64_t lo,
		  int64_t hi, int64_t *out)
{
	json_t *j = rd_member(r, o, key, true);
	if (!j)
		return false;
	size_t at = rd_enter(r, key);
	bool ok = rd_integer(r, j, lo, hi, out);
	rd_leave(r, at);
	return ok;
}

bool rd_field_index(Reader *r, json_t *o, const char *key, uint32_t *out)
{
	json_t *j = rd_member(r, o, key, true);
	if (!j)
		return false;
	size_t at = rd_enter(r, key);
	bool ok = rd_index_of(r, j, r->m->d, "the components", out);
	rd_leave(r, at);
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
bool rd_weight(Reader *r, json_t *j, double *out)
{
	int64_t num, den;
	if (!json_is_string(j) || !fraction(json_string_value(j), &num, &den) ||
	    (den & (den - 1)) != 0 || (den > 1 && num % 2 == 0))
		return rd_expected(r, j, weight_spelling);
	int k = 0;
	while (((int64_t)1 << k) < den)
		k++;
	/* the mantissa num 2^(s-k): |num| > 2^32 is beyond every F_{p,s} */
	bool fits = k <= r->m->s && num <= ((int64_t)1 << 32) &&
		    num >= -((int64_t)1 << 32);
	int64_t mant = fits ? num * ((int64_t)1 << (r->m->s - k)) : 0;
	if (!fits || mant < fixed_min_m(r->m->p) || mant > fixed_max_m(r->m->p))
		return rd_fail(r, "the weight %s is not in F_{%d,%d} (multiples of "
			       "1/2^%d from %g to %g)",
			    json_string_value(j), r->m->p, r->m->s, r->m->s,
			    ldexp((double)fixed_min_m(r->m->p), -r->m->s),
			    ldexp((double)fixed_max_m(r->m->p), -r->m->s));
	*out = ldexp((double)num, -k);
	return true;
}

bool rd_field_weight(Reader *r, json_t *o, const char *key, double *out)
{
	json_t *j = rd_member(r, o, key, true);
	if (!j)
		return false;
	size_t at = rd_enter(r, key);
	bool ok = rd_weight(r, j, out);
	rd_leave(r, at);
	return ok;
}

/* n weights (or n in a dense row). */
bool rd_weights(Reader *r, json_t *a, size_t n, double *out)
{
	if (!rd_array(r, a, n))
		return false;
	for (size_t i = 0; i < n; i++) {
		size_t at = rd_enter_at(r, i);
		bool ok = rd_weight(r, json_array_get(a, i), &out[i]);
		rd_leave(r, at);
		if (!ok)
			return false;
	}
	return true;
}

/* A rational "a" or "a/b" in lowest terms, |a|, b <= 2^40 (times pi). */
bool rd_rational(Reader *r, json_t *j, int64_t *num, int64_t *den)
{
	if (!json_is_string(j) || !fraction(json_string_value(j), num, den) ||
	    int64_gcd(*num, *den) != 1 || *num > MODEL_MAX_RATIONAL ||
	    *num < -MODEL_MAX_RATIONAL || *den > MODEL_MAX_RATIONAL)
		return rd_expected(r, j, "a string \"a\" or \"a/b\" in lowest terms "
				      "(times pi; |a|, b <= 2^40, e.g. \"2/7\")");
	return true;
}

/* "a/b" (times pi) or {"base", "k", "d"}: base^(-2k/d) radians, k < d/2
 * (the standard frequencies: theta >= 1/base). */
bool rd_angle(Reader *r, json_t *j, Angle *a)
{
	static const char *const keys[] = {"base", "k", "d", NULL};
	memset(a, 0, sizeof *a);
	if (json_is_string(j))
		return rd_rational(r, j, &a->num, &a->den);
	if (!json_is_object(j))
		return rd_expected(r, j, "an angle: \"a/b\" (times pi) or {\"base\", "
				      "\"k\", \"d\"}");
	int64_t b, k, d;
	if (!rd_object(r, j, keys) ||
	    !rd_field_int(r, j, "base", 2, 1 << 30, &b) ||
	    !rd_field_int(r, j, "d", 1, MODEL_MAX_DIM, &d) ||
	    !rd_field_int(r, j, "k", 0, (d - 1) / 2, &k))
		return false;
	a->standard = true;
	a->base = (uint32_t)b;
	a->k = (uint32_t)k;
	a->d = (uint32_t)d;
	return true;
}
