/* blockcheck_apart.c -- two count vectors merged into the coordinates
 * that differ and those that are equal, then tested set by set. */
#include <config.h>

#include "search/blockcheck_apart.h"

#include <stdlib.h>

#include "base/mem.h"
#include "search/blockcheck_front.h"

/* qsort of n items; none or one needs no call (and an empty vector's
 * data may be NULL, which qsort must not get). */
static void sort_n(void *base, size_t n, size_t size,
		   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* An equal count and its direction. */
typedef struct Eq_ {
	uint64_t v;
	unsigned d;
} Eq;

static int descending(const void *a, const void *b)
{
	uint64_t x = ((const Eq *)a)->v, y = ((const Eq *)b)->v;
	return (x < y) - (x > y);
}

/* Sorts the coordinates (n_i, m_i, d_i) by their larger count, largest
 * first (insertion: the vectors are short). */
static void sort_pairs(uint64_t *n, uint64_t *m, unsigned *d, size_t len)
{
	for (size_t i = 1; i < len; i++)
		for (size_t j = i; j > 0; j--) {
			uint64_t a = n[j] > m[j] ? n[j] : m[j];
			uint64_t b = n[j - 1] > m[j - 1] ? n[j - 1] : m[j - 1];
			if (a <= b)
				break;
			uint64_t t = n[j];
			n[j] = n[j - 1];
			n[j - 1] = t;
			t = m[j];
			m[j] = m[j - 1];
			m[j - 1] = t;
			unsigned td = d[j];
			d[j] = d[j - 1];
			d[j - 1] = td;
		}
}

/* The next coordinate of the merge of a and b (from a->cls[*i] and
 * b->cls[*j]): its two counts and direction.  False past the end. */
static bool coord(const Check *k, const Vec *a, const Vec *b, size_t *i,
		  size_t *j, uint64_t *x, uint64_t *y, unsigned *dir)
{
	if (*i >= a->n && *j >= b->n)
		return false;
	uint32_t ca = *i < a->n ? a->cls[*i] : UINT32_MAX;
	uint32_t cb = *j < b->n ? b->cls[*j] : UINT32_MAX;
	*x = ca <= cb ? a->cnt[*i] : 0;
	*y = cb <= ca ? b->cnt[*j] : 0;
	*dir = (ca < cb ? ca : cb) % k->stride;
	*i += ca <= cb;
	*j += cb <= ca;
	return true;
}

/* Room in k for cap coordinates of apart (kept between calls). */
static void apart_room(Check *k, size_t cap)
{
	if (cap <= k->cap)
		return;
	k->cap = 2 * cap;
	k->n = xrealloc(k->n, k->cap * sizeof *k->n);
	k->m = xrealloc(k->m, k->cap * sizeof *k->m);
	k->e = xrealloc(k->e, k->cap * sizeof *k->e);
	k->eq = xrealloc(k->eq, k->cap * sizeof *k->eq);
	k->dn = xrealloc(k->dn, k->cap * sizeof *k->dn);
	k->de = xrealloc(k->de, k->cap * sizeof *k->de);
}

int blockcheck_apart(Check *k, const Vec *a, const Vec *b, uint64_t key)
{
	apart_room(k, a->n + b->n + 1);
	uint64_t *n = k->n, *m = k->m, *e = k->e;
	unsigned *dn = k->dn, *de = k->de;
	Eq *eq = k->eq;
	size_t i = 0, j = 0, len = 0, ne = 0;
	bool alone = false;
	uint64_t x, y;
	unsigned dir;
	while (coord(k, a, b, &i, &j, &x, &y, &dir)) {
		if (x == y) {
			ne++;
			continue;
		}
		/* #[that class] >= c (or #>), c between the two counts */
		alone |= (x < y ? x : y) <= k->b.C;
		n[len] = x;
		m[len] = y;
		dn[len++] = dir;
	}
	if (len == 0 || alone)
		return len != 0;
	if (!key || key != k->eq_key || ne != k->eq_n) {
		/* the equal counts, the largest first: the window prunes soonest */
		size_t q = 0;
		for (i = j = 0; coord(k, a, b, &i, &j, &x, &y, &dir);) {
			if (x == y)
				eq[q++] = (Eq){x, dir};
		}
		sort_n(eq, ne, sizeof *eq, descending);
		for (q = 0; q < ne; q++) {
			e[q] = eq[q].v;
			de[q] = eq[q].d;
		}
		k->eq_key = key;
		k->eq_n = ne;
	}
	sort_pairs(n, m, dn, len);
	int out = 0;
	for (size_t s = 0; s < k->nsets && out != 1; s++) {
		int r = blockcheck_front(k, s, n, m, dn, len, e, de, ne);
		if (r < 0)
			out = -1;
		else if (r > 0)
			out = 1;
	}
	return out;
}

void blockcheck_vec_free(Vec *v)
{
	free(v->cls);
	free(v->cnt);
}
