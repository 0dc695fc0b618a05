/* number.c -- the one reader of counts, ranges, seconds and sizes, and
 * the one wording of a bad number (see number.h). */
#include <config.h>
#include "base/number.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

bool number_parse_count(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno || v > max)
		return false;
	*out = v;
	return true;
}

/* One bound of a range: the text [s, e) as a count. */
static bool range_bound(const char *s, const char *e, size_t *out)
{
	char tmp[32];
	uint64_t v;
	if (e - s >= (ptrdiff_t)sizeof tmp)
		return false;
	memcpy(tmp, s, (size_t)(e - s));
	tmp[e - s] = '\0';
	if (!number_parse_count(tmp, SIZE_MAX, &v))
		return false;
	*out = (size_t)v;
	return true;
}

/* RANGE: N, N..M, ..M, N.. ("..", alone, says nothing: refused), the
 * bounds in either order. */
static bool range_bounds(const char *s, size_t *lo, size_t *hi)
{
	const char *dots = strstr(s, "..");
	*lo = 0;
	*hi = SIZE_MAX;
	if (!dots) {
		if (!range_bound(s, s + strlen(s), lo))
			return false;
		*hi = *lo;
		return true;
	}
	if (dots == s && !dots[2])
		return false;
	if (dots != s && !range_bound(s, dots, lo))
		return false;
	return !dots[2] || range_bound(dots + 2, dots + strlen(dots), hi);
}

bool number_parse_range(const char *s, size_t *lo, size_t *hi)
{
	return range_bounds(s, lo, hi) && *lo <= *hi;
}

bool number_parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v <= 0 || v > 1e8)
		return false;
	*out = v;
	return true;
}

bool number_parse_size(const char *s, size_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || errno || v == 0 || v > (SIZE_MAX >> shift))
		return false;
	*out = (size_t)v << shift;
	return true;
}

/* Whether s is digits and dots only: a number (or range) that is well
 * formed but out of range, rather than not a number at all. */
static bool numeric(const char *s)
{
	return *s && strspn(s, "0123456789.") == strlen(s);
}

/* "lo..hi", or "lo.." for an open upper bound that v does not pass. */
static void bounds_text(char *buf, size_t size, uint64_t lo, uint64_t hi,
			const char *v)
{
	uint64_t n;
	bool over = !number_parse_count(v, UINT64_MAX, &n) || n > hi;
	if (hi >= SIZE_MAX && !over)
		snprintf(buf, size, "%llu..", (unsigned long long)lo);
	else
		snprintf(buf, size, "%llu..%llu", (unsigned long long)lo,
			 (unsigned long long)hi);
}

bool number_option_count(const char *name, const char *s, uint64_t lo,
			 uint64_t hi, uint64_t *out)
{
	if (number_parse_count(s, hi, out) && *out >= lo)
		return true;
	char bounds[48] = "";
	if (numeric(s) && !strchr(s, '.')) {
		bounds_text(bounds, sizeof bounds, lo, hi, s);
		status_usage_error("--%s: %s is out of range %s", name, s, bounds);
		return false;
	}
	if (hi < SIZE_MAX || lo > 1) /* else "a count", "a positive count" */
		snprintf(bounds, sizeof bounds, " %llu..%llu",
			 (unsigned long long)lo, (unsigned long long)hi);
	status_usage_error("--%s: expected a %scount%s, not '%s'", name,
			   lo == 1 && !*bounds ? "positive " : "", bounds, s);
	return false;
}

bool number_option_range(const char *name, const char *s, size_t lo,
			 size_t hi, bool bounded, size_t *rlo, size_t *rhi)
{
	char within[48] = "";
	if (hi < SIZE_MAX)
		snprintf(within, sizeof within, " within %zu..%zu", lo, hi);
	if (!range_bounds(s, rlo, rhi) || !numeric(s)) {
		status_usage_error("--%s: expected a range (N, N..M, ..M or N..)"
				   "%s, not '%s'", name, within, s);
		return false;
	}
	if (*rlo > *rhi) {
		status_usage_error("--%s: %s is empty", name, s);
		return false;
	}
	if (*rhi == SIZE_MAX && bounded) {
		status_usage_error("--%s: %s needs an upper bound", name, s);
		return false;
	}
	if (*rlo < lo || (*rhi != SIZE_MAX && *rhi > hi)) {
		status_usage_error("--%s: %s is out of range %zu..%zu", name, s, lo,
				   hi);
		return false;
	}
	return true;
}
