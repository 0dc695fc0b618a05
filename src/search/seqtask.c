/* seqtask.c -- copying, reversing and sorting as sequence tasks, and the
 * pairs that show no program computes them (seqtask.h). */
#include <config.h>

#include <string.h>

#include "search/seqtask.h"

/* reverse: the output at i is w_{n+1-i}. */
static int reverse_out(const uint8_t *w, size_t n, size_t i)
{
	return i >= 1 && i <= n ? w[n - i] : -1;
}

static int reverse_out2(const uint8_t *w, size_t n, size_t i)
{
	uint8_t r[SEQTASK_MAXLEN];
	if (i < 1 || i > n || n > SEQTASK_MAXLEN)
		return -1;
	for (size_t k = 0; k < n; k++)
		r[n - 1 - k] = w[k];
	return r[i - 1];
}

/* sort: the output at i is the i-th letter of w sorted (a before b). */
static int sort_out(const uint8_t *w, size_t n, size_t i)
{
	size_t na = 0;
	for (size_t k = 0; k < n; k++)
		na += w[k] == 0;
	return i >= 1 && i <= n ? (i <= na ? 0 : 1) : -1;
}

static int sort_out2(const uint8_t *w, size_t n, size_t i)
{
	uint8_t s[SEQTASK_MAXLEN];
	if (i < 1 || i > n || n > SEQTASK_MAXLEN)
		return -1;
	memcpy(s, w, n);
	for (size_t k = 1; k < n; k++) /* insertion sort */
		for (size_t j = k; j > 0 && s[j - 1] > s[j]; j--) {
			uint8_t x = s[j];
			s[j] = s[j - 1];
			s[j - 1] = x;
		}
	return s[i - 1];
}

/* copy over a b #: a word u # v (u nonempty over a b, v a proper prefix
 * of u); from the # on, the output is the next letter of u to copy:
 * u_{j+1} at the position of # plus j. */
static int copy_out(const uint8_t *w, size_t n, size_t i)
{
	size_t m = 0;
	while (m < n && w[m] != 2)
		m++;
	if (m == 0 || m == n || i < m + 1 || i > n || n - (m + 1) >= m)
		return -1;
	size_t j = i - (m + 1); /* letters copied so far at i */
	for (size_t k = m + 1; k < n; k++)
		if (w[k] == 2 || w[k] != w[k - (m + 1)])
			return -1;
	return j < m ? w[j] : -1;
}

static int copy_out2(const uint8_t *w, size_t n, size_t i)
{
	/* from the end: the # is the last one; u before it */
	size_t hash = SIZE_MAX, count = 0;
	for (size_t k = n; k-- > 0;)
		if (w[k] == 2) {
			count++;
			if (hash == SIZE_MAX)
				hash = k;
		}
	if (count != 1 || hash == 0 || i > n || i <= hash)
		return -1;
	size_t copied = n - hash - 1;
	if (copied >= hash || memcmp(w, w + hash + 1, copied) != 0)
		return -1;
	size_t next = i - 1 - hash;
	return next < hash ? w[next] : -1;
}

static const SeqTask tasks[] = {
	{"copy", "ab#", "u # v, v a proper prefix of u: from the # on, the next "
	 "letter of u to copy", copy_out, copy_out2},
	{"reverse", "ab", "the output at position i is w_{n+1-i}",
	 reverse_out, reverse_out2},
	{"sort", "ab", "the output at position i is the i-th letter of w "
	 "sorted (a before b)", sort_out, sort_out2},
};

const SeqTask *seqtask_find(const char *name)
{
	for (size_t i = 0; i < sizeof tasks / sizeof *tasks; i++)
		if (strcmp(tasks[i].name, name) == 0)
			return &tasks[i];
	return NULL;
}

const char *seqtask_names(void)
{
	return "copy, reverse, sort";
}

/* The k-th word of length n over A letters (first letter most
 * significant: shortlex order within a length). */
static void word_of(uint64_t k, size_t n, size_t A, uint8_t *w)
{
	for (size_t i = n; i-- > 0; k /= A)
		w[i] = (uint8_t)(k % A);
}

static uint64_t power(size_t A, size_t n)
{
	uint64_t p = 1;
	while (n--)
		p *= A;
	return p;
}

static SeqPairStatus confirm(const SeqTask *t, SeqPair *p)
{
	return t->out2(p->u, p->nu, p->pos) == p->out_u &&
			       t->out2(p->v, p->nv, p->pos) == p->out_v
		       ? SEQPAIR_FOUND
		       : SEQPAIR_MISMATCH;
}

/* Two words of length n (the same: the shortest pairs are) sharing their
 * first i letters, outputs at i differing. */
SeqPairStatus seqtask_future_pair(const SeqTask *t, size_t maxlen, SeqPair *p)
{
	size_t A = strlen(t->letters);
	for (size_t n = 1; n <= maxlen && n <= SEQTASK_MAXLEN; n++)
		for (size_t i = 1; i < n; i++)
			for (uint64_t a = 0; a < power(A, n); a++)
				for (uint64_t b = a + 1; b < power(A, n); b++) {
					word_of(a, n, A, p->u);
					word_of(b, n, A, p->v);
					if (memcmp(p->u, p->v, i) != 0)
						continue;
					p->nu = p->nv = n;
					p->pos = i;
					p->out_u = t->out(p->u, n, i);
					p->out_v = t->out(p->v, n, i);
					if (p->out_u >= 0 && p->out_v >= 0 &&
					    p->out_u != p->out_v)
						return confirm(t, p);
				}
	return SEQPAIR_NONE;
}

static bool same_counts(const uint8_t *u, const uint8_t *v, size_t n, size_t A)
{
	for (size_t x = 0; x < A; x++) {
		size_t cu = 0, cv = 0;
		for (size_t k = 0; k < n; k++) {
			cu += u[k] == x;
			cv += v[k] == x;
		}
		if (cu != cv)
			return false;
	}
	return true;
}

SeqPairStatus seqtask_counts_pair(const SeqTask *t, size_t maxlen, SeqPair *p)
{
	size_t A = strlen(t->letters);
	for (size_t n = 1; n <= maxlen && n <= SEQTASK_MAXLEN; n++)
		for (uint64_t a = 0; a < power(A, n); a++)
			for (uint64_t b = a + 1; b < power(A, n); b++) {
				word_of(a, n, A, p->u);
				word_of(b, n, A, p->v);
				if (p->u[n - 1] != p->v[n - 1] ||
				    !same_counts(p->u, p->v, n, A))
					continue;
				p->nu = p->nv = p->pos = n;
				p->out_u = t->out(p->u, n, n);
				p->out_v = t->out(p->v, n, n);
				if (p->out_u >= 0 && p->out_v >= 0 &&
				    p->out_u != p->out_v)
					return confirm(t, p);
			}
	return SEQPAIR_NONE;
}
