/* blockref.c -- the refinement of runs, level by level: each run split
 * (blockref_split.c), its pieces matched to classes by a cheap key and
 * the exact test of two count vectors (blockref_vectors.c). */
#include <config.h>

#include "search/blockref.h"

#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/vec.h"
#include "search/blockref_impl.h"

/* ---- one level ------------------------------------------------------------ */

/* A class of level j + 1 and its representative, a piece of a run: its
 * counts are the run's snapshot (the counts before the run, kept once
 * in the arena for all the classes its pieces make) with the run's own
 * class below set to `past` (two-sided, its future count to `fut`).
 * Keeping whole vectors per class took 10 GB for L_9's depth-8 pair. */
typedef struct {
	uint32_t below;   /* its class at the level below */
	uint64_t key;     /* hash of the capped counts and the class below */
	uint64_t exact;   /* hash of its representative's very counts */
	size_t snap, nsnap; /* its run's snapshot in the arena */
	uint64_t past, fut;
	uint32_t next;    /* the next class of the same hash bucket */
	uint64_t run;     /* the run whose piece made it */
} Cls;

typedef struct {
	Ctx *c;
	VEC(Cls) cls;
	Ents arena;       /* the snapshots of the runs that made classes */
	uint32_t *bucket;
	size_t nbucket;
	uint64_t run;     /* the run being split (numbered across words) */
	const Ents *snap; /* its snapshot */
	size_t snap_at;   /* where it is in the arena (SIZE_MAX: not yet) */
	Ents rep;         /* a representative's counts, rebuilt */
} Matcher;

static uint64_t mix(uint64_t k, uint64_t v)
{
	uint64_t z = k * 0x9e3779b97f4a7c15u ^ (v + 0x632be59bd9b4e019u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static int64_t clamp(int64_t v, int64_t c)
{
	return v < -c ? -c : v > c ? c : v;
}

/* A key that positions of one class share: the class below, every count
 * capped at C + 1 (#[K] >= c), and with two counts per comparison every
 * difference of neighbouring classes K, K + 1 clamped to [-C-1, C+1]
 * (#[K] - #[K+1] >= c).  The differences are taken over all classes, the
 * zero ones left out, so the key is a function of the whole vector. */
static uint64_t key_hash(const Ents *v, uint32_t below, IndistBounds b)
{
	uint64_t h = mix(UINT64_MAX, below), cap = b.C + 1;
	for (size_t i = 0; i < v->len; i++) {
		const Ent *e = &v->data[i];
		h += mix(e->k, e->n < cap ? e->n : cap);
		if (b.T < 2)
			continue;
		uint64_t next = i + 1 < v->len && v->data[i + 1].k == e->k + 1
				? v->data[i + 1].n : 0;
		int64_t d = clamp((int64_t)(e->n > BLOCKWORD_MAX_LEN ? 0 : e->n) -
				  (int64_t)next, (int64_t)cap);
		if (d)
			h += mix(~(uint64_t)e->k, (uint64_t)d);
		bool prev = i > 0 && v->data[i - 1].k + 1 == e->k;
		if (!prev && e->k > 0) /* (K - 1, K) with K - 1 absent */
			h += mix(~(uint64_t)(e->k - 1), (uint64_t)-clamp((int64_t)e->n,
									 (int64_t)cap));
	}
	return h;
}

/* Sets class k0's count in a sorted snapshot. */
static void snap_set(Ents *v, uint32_t k0, uint64_t n)
{
	size_t i = 0;
	while (i < v->len && v->data[i].k < k0)
		i++;
	if (i < v->len && v->data[i].k == k0) {
		v->data[i].n = n;
		return;
	}
	Ent e = {k0, n};
	VEC_PUSH(*v, e);
	memmove(v->data + i + 1, v->data + i, (v->len - 1 - i) * sizeof *v->data);
	v->data[i] = e;
}

/* A hash of the very counts: classes share capped keys by the
 * thousand at depth 7, and the vectors are thousands of entries long,
 * so the same-counts probe compares this first. */
static uint64_t exact_hash(const Ents *v)
{
	uint64_t h = v->len;
	for (size_t i = 0; i < v->len; i++)
		h = mix(h ^ v->data[i].k, v->data[i].n);
	return h;
}

static bool ents_equal(const Ents *a, const Ents *b)
{
	if (a->len != b->len)
		return false;
	for (size_t i = 0; i < a->len; i++)
		if (a->data[i].k != b->data[i].k || a->data[i].n != b->data[i].n)
			return false;
	return true;
}

/* The counts of a piece of a run of class k0: the run's snapshot (n
 * entries) with k0's past count set to `past` and, two-sided (stride
 * 2), its future count to `fut`. */
static void piece_counts(Ents *out, const Ent *snap, size_t n, uint32_t k0,
			 unsigned stride, uint64_t past, uint64_t fut)
{
	out->len = 0;
	for (size_t i = 0; i < n; i++)
		VEC_PUSH(*out, snap[i]);
	snap_set(out, k0 * stride, past);
	if (stride == 2)
		snap_set(out, 2 * k0 + 1, fut);
}

/* Class K's representative's counts (in m->rep until the next call). */
static const Ents *representative(Matcher *m, const Cls *K)
{
	piece_counts(&m->rep, m->arena.data + K->snap, K->nsnap, K->below,
		     m->c->stride, K->past, K->fut);
	return &m->rep;
}

/* The class of level j + 1 of a piece with counts v (the run's snapshot
 * with its class `below` at past and fut). */
static uint32_t match(Matcher *m, const Ents *v, uint32_t below, uint64_t past,
		      uint64_t fut)
{
	uint64_t h = key_hash(v, below, m->c->b), x = exact_hash(v);
	size_t bk = h & (m->nbucket - 1);
	/* the same counts first (the words' common prefix): no test */
	for (uint32_t k = m->bucket[bk]; k != UINT32_MAX; k = m->cls.data[k].next) {
		const Cls *K = &m->cls.data[k];
		if (K->key == h && K->exact == x && K->below == below &&
		    ents_equal(representative(m, K), v))
			return k;
	}
	for (uint32_t k = m->bucket[bk]; k != UINT32_MAX; k = m->cls.data[k].next) {
		const Cls *K = &m->cls.data[k];
		/* the pieces of one run are apart: a comparison reaches the
		 * window between any two */
		if (K->key != h || K->below != below || K->run == m->run)
			continue;
		int s = blockref_separable(m->c, representative(m, K), v);
		if (s == 0)
			return k;
		if (s < 0)
			m->c->undecided = true; /* counted as separated */
	}
	if (m->snap_at == SIZE_MAX) {
		m->snap_at = m->arena.len;
		for (size_t i = 0; i < m->snap->len; i++)
			VEC_PUSH(m->arena, m->snap->data[i]);
	}
	Cls K = {below, h, x, m->snap_at, m->snap->len, past, fut, m->bucket[bk],
		 m->run};
	m->bucket[bk] = (uint32_t)m->cls.len;
	VEC_PUSH(m->cls, K);
	if (m->cls.len > m->nbucket) { /* rehash at load 1 */
		m->nbucket *= 2;
		free(m->bucket);
		m->bucket = xmalloc(m->nbucket * sizeof *m->bucket);
		memset(m->bucket, 0xff, m->nbucket * sizeof *m->bucket);
		for (uint32_t q = 0; q < m->cls.len; q++) {
			size_t b = m->cls.data[q].key & (m->nbucket - 1);
			m->cls.data[q].next = m->bucket[b];
			m->bucket[b] = q;
		}
	}
	return (uint32_t)(m->cls.len - 1);
}

/* The counts so far of one word: dense, with the classes met listed;
 * two-sided, also the word's totals (the future count of class K from a
 * run on is tot[K] - cnt[K]). */
typedef struct {
	uint64_t *cnt, *tot;
	VEC(uint32_t) met;
	Ents snap;
} Counts;

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static void counts_snapshot(Counts *k, uint32_t nbelow)
{
	k->snap.len = 0;
	if (k->tot) { /* coordinates 2K (past) and 2K + 1 (future) */
		for (uint32_t K = 0; K < nbelow; K++) {
			Ent p = {2 * K, k->cnt[K]}, f = {2 * K + 1, k->tot[K] - k->cnt[K]};
			if (p.n)
				VEC_PUSH(k->snap, p);
			if (f.n)
				VEC_PUSH(k->snap, f);
		}
		return;
	}
	sorted(k->met.data, k->met.len, sizeof *k->met.data, cmp_u32);
	for (size_t i = 0; i < k->met.len; i++) {
		Ent e = {k->met.data[i], k->cnt[k->met.data[i]]};
		VEC_PUSH(k->snap, e);
	}
}

/* The runs of one word at level j + 1.  False when a bound or a limit
 * stopped it (*stopped says which). */
static bool refine_word(Matcher *m, const Runs *in, uint32_t nbelow, Runs *out,
			bool *stopped)
{
	Counts k = {xcalloc(nbelow, sizeof *k.cnt), NULL, {0}, {0}};
	unsigned stride = m->c->stride;
	if (stride == 2) {
		k.tot = xcalloc(nbelow, sizeof *k.tot);
		for (size_t r = 0; r < in->len; r++)
			k.tot[in->data[r].cls] += in->data[r].len;
	}
	U64s pieces = {0};
	Ents v = {0};
	bool ok = true;
	out->len = 0;
	for (size_t r = 0; r < in->len && ok; r++) {
		uint32_t k0 = in->data[r].cls;
		uint64_t L = in->data[r].len, v0 = k.cnt[k0];
		uint64_t f1 = k.tot ? k.tot[k0] + 1 : 0;
		m->run++;
		counts_snapshot(&k, nbelow);
		m->snap = &k.snap;
		m->snap_at = SIZE_MAX;
		if (!blockref_split_run(m->c, &k.snap, k0, v0, L, f1, &pieces)) {
			ok = false;
			break;
		}
		uint64_t M = 0;
		for (size_t p = 0; p < pieces.len; p++) {
			if (limit_poll(m->c->lim)) {
				*stopped = true;
				ok = false;
				break;
			}
			/* k0's future count there, two-sided */
			uint64_t past = v0 + M + 1, fut = k.tot ? f1 - past : 0;
			piece_counts(&v, k.snap.data, k.snap.len, k0, stride, past, fut);
			Run piece = {match(m, &v, k0, past, fut), pieces.data[p]};
			if (out->len && out->data[out->len - 1].cls == piece.cls)
				out->data[out->len - 1].len += piece.len;
			else
				VEC_PUSH(*out, piece);
			M += pieces.data[p];
		}
		if (v0 == 0)
			VEC_PUSH(k.met, k0);
		k.cnt[k0] += L;
	}
	free(k.cnt);
	free(k.tot);
	VEC_FREE(k.met);
	VEC_FREE(k.snap);
	VEC_FREE(pieces);
	VEC_FREE(v);
	return ok;
}

/* ---- the pair ----------------------------------------------------------- */

/* Level 0: the letters, numbered by first appearance. */
static uint32_t level0(const BlockWord *const *w, Runs *out, size_t nletters)
{
	uint32_t *id = xmalloc((nletters + 1) * sizeof *id), n = 0;
	memset(id, 0xff, (nletters + 1) * sizeof *id);
	for (int i = 0; i < 2; i++) {
		out[i].len = 0;
		for (size_t r = 0; r < w[i]->n; r++) {
			uint8_t a = w[i]->letter[r];
			if (id[a] == UINT32_MAX)
				id[a] = n++;
			if (out[i].len && out[i].data[out[i].len - 1].cls == id[a]) {
				out[i].data[out[i].len - 1].len += w[i]->len[r];
			} else {
				Run x = {id[a], w[i]->len[r]};
				VEC_PUSH(out[i], x);
			}
		}
	}
	free(id);
	return n;
}

static BlockrefAnswer answer(BlockrefKind kind, unsigned d, size_t ncls)
{
	return (BlockrefAnswer){kind, d, ncls};
}

static BlockrefProgress progress_fn;
static void *progress_ctx;

void blockref_progress(BlockrefProgress fn, void *ctx)
{
	progress_fn = fn;
	progress_ctx = ctx;
}

/* The counts of every class of a level at a word's last position: past
 * counts the totals, and (two-sided) the future count 1 of its own
 * class only. */
static void last_counts(const Ctx *c, const Runs *w, uint32_t ncls, Ents *out)
{
	uint64_t *tot = xcalloc(ncls, sizeof *tot);
	for (size_t r = 0; r < w->len; r++)
		tot[w->data[r].cls] += w->data[r].len;
	uint32_t last = w->data[w->len - 1].cls;
	out->len = 0;
	for (uint32_t K = 0; K < ncls; K++) {
		Ent p = {K * c->stride, tot[K]};
		if (p.n)
			VEC_PUSH(*out, p);
		Ent f = {2 * K + 1, 1};
		if (c->stride == 2 && K == last)
			VEC_PUSH(*out, f);
	}
	free(tot);
}

/* Whether the last level separates the last positions, from the level
 * below alone (the same class below is known): the exact test of their
 * two count vectors, for when refining every run hit a bound (a word's
 * other positions do not matter at the last level).  1, 0, -1 as
 * blockref_separable. */
static int last_level(Ctx *c, const Runs *cur, uint32_t ncls)
{
	Ents v[2] = {{0}, {0}};
	for (int i = 0; i < 2; i++)
		last_counts(c, &cur[i], ncls, &v[i]);
	c->undecided = false;
	int s = blockref_separable(c, &v[0], &v[1]);
	VEC_FREE(v[0]);
	VEC_FREE(v[1]);
	return s;
}

static bool last_always; /* blockref_tune_last() */

void blockref_tune_last(bool always)
{
	last_always = always;
}

static BlockrefAnswer run_levels(Ctx *c, Runs *cur, uint32_t ncls, unsigned maxd)
{
	bool exact = true;
	for (unsigned d = 0;; d++) {
		uint32_t eu = cur[0].data[cur[0].len - 1].cls;
		uint32_t ev = cur[1].data[cur[1].len - 1].cls;
		if (eu != ev)
			return answer(exact ? BLOCKREF_SEPARATED : BLOCKREF_UNKNOWN, d, ncls);
		if (d == maxd)
			return answer(BLOCKREF_NONE, d, ncls);
		if (limit_check(c->lim))
			return answer(BLOCKREF_STOPPED, d + 1, ncls);
		if (progress_fn)
			progress_fn(progress_ctx, d + 1, ncls);
		Matcher m = {.c = c, .nbucket = 1024};
		m.bucket = xmalloc(m.nbucket * sizeof *m.bucket);
		memset(m.bucket, 0xff, m.nbucket * sizeof *m.bucket);
		Runs next[2] = {{0}, {0}};
		bool stopped = false, ok = true;
		c->undecided = false;
		for (int i = 0; i < 2 && ok; i++)
			ok = refine_word(&m, &cur[i], ncls, &next[i], &stopped);
		uint32_t n = (uint32_t)m.cls.len;
		VEC_FREE(m.cls);
		VEC_FREE(m.arena);
		VEC_FREE(m.rep);
		free(m.bucket);
		if (d + 1 == maxd && !stopped &&
		    (!ok || c->undecided || last_always)) {
			int s = last_level(c, cur, ncls);
			if (s >= 0) {
				for (int i = 0; i < 2; i++)
					VEC_FREE(next[i]);
				return answer(s ? (exact ? BLOCKREF_SEPARATED
						   : BLOCKREF_UNKNOWN)
					      : BLOCKREF_NONE, maxd, ncls);
			}
		}
		for (int i = 0; i < 2; i++) {
			VEC_FREE(cur[i]);
			cur[i] = next[i];
		}
		if (!ok)
			return answer(stopped ? BLOCKREF_STOPPED : BLOCKREF_UNKNOWN,
				      d + 1, ncls);
		exact &= !c->undecided;
		if (n == ncls && exact)
			return answer(BLOCKREF_NEVER, d + 1, n);
		ncls = n;
	}
}

BlockrefAnswer blockref_pair(const BlockWord *u, const BlockWord *v,
			     size_t nletters, unsigned maxd, IndistBounds b,
			     Limits *lim)
{
	uint64_t nu = blockword_length(u), nv = blockword_length(v);
	if (!nu || !nv)
		return answer(nu || nv ? BLOCKREF_SEPARATED : BLOCKREF_NEVER, 0, 1);
	if (maxd > BLOCKREF_MAX_DEPTH)
		maxd = BLOCKREF_MAX_DEPTH;
	if (b.T < 1)
		b.T = 1;
	if (b.T > INDIST_MAX_T)
		b.T = INDIST_MAX_T;
	Ctx c = {.b = b, .lim = lim, .stride = b.two_sided ? 2 : 1};
	blockref_families(&c);
	const BlockWord *w[2] = {u, v};
	Runs cur[2] = {{0}, {0}};
	uint32_t n = level0(w, cur, nletters);
	BlockrefAnswer a = run_levels(&c, cur, n, maxd);
	VEC_FREE(cur[0]);
	VEC_FREE(cur[1]);
	free(c.all);
	free(c.half);
	return a;
}
