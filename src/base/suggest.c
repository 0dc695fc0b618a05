/* suggest.c -- the closest name by edit distance (see suggest.h). */
#include <config.h>
#include "base/suggest.h"

#include <string.h>


/* Longer names are not compared (and a typo there is rarely helped). */
#define SUGGEST_MAX_LEN 64

/* Optimal string alignment distance of a[0..m) and b[0..n), both at most
 * SUGGEST_MAX_LEN. */
static size_t distance(const char *a, size_t m, const char *b, size_t n)
{
	size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
	for (size_t i = 0; i <= m; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= n; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= m; i++)
		for (size_t j = 1; j <= n; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[m][n];
}

void suggest_init(Suggest *s, const char *word, size_t len)
{
	s->word = word;
	s->len = len;
	s->best = NULL;
	/* Names of one or two characters are all close to each other: no
	 * suggestion for them. */
	size_t most = len / 3;
	s->best_dist = (most > 3 ? 3 : most) + 1;
}

void suggest_offer(Suggest *s, const char *candidate)
{
	size_t n = strlen(candidate);
	if (s->len > SUGGEST_MAX_LEN || n > SUGGEST_MAX_LEN)
		return;
	if (n == s->len && memcmp(candidate, s->word, n) == 0)
		return;
	size_t d = distance(s->word, s->len, candidate, n);
	if (d < s->best_dist) {
		s->best_dist = d;
		s->best = candidate;
	}
}

const char *suggest_closest(const char *word, size_t len,
			    const char *const *candidates, size_t n)
{
	Suggest s;
	suggest_init(&s, word, len);
	for (size_t i = 0; i < n; i++)
		suggest_offer(&s, candidates[i]);
	return s.best;
}
