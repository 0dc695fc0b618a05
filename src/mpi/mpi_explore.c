/* mpi_explore.c -- explore's merging search over MPI ranks (see
 * mpi_explore.h). */
#include <config.h>
#include "mpi/mpi_explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/limit.h"
#include "machine/machine.h"
#include "base/mem.h"
#include "mpi/mpi_exchange.h"
#include "mpi/mpi_job.h"
#include "machine/rowset.h"

#define NO_KEY UINT64_MAX
#define NO_PARENT UINT64_MAX
/* Bytes of states a rank sends in one round (a bound on its buffers). */
#define ROUND_BYTES ((size_t)4 << 20)

typedef struct {
	const Query *q;
	Machine m;
	QueryCodes let;
	MachineState st, eos;
	size_t width;
	int rank, size;
	RowSet owned;         /* this rank's states, level after level */
	uint64_t *parent;     /* per state: rank << 32 | number, or NO_PARENT */
	uint32_t *via;        /* per state: its last letter (index in let) */
	size_t cap;
	size_t lo, hi;        /* the level being stepped: owned[lo .. hi) */
	uint64_t *pos;        /* its numbers in shortlex order (global) */
	uint64_t *key;        /* the level being built, owned[hi ..): least
			       * key reaching each state */
	size_t keycap;
	uint64_t diff_key;    /* least key of a separating word here */
	uint64_t diff_from, diff_letter;
	int64_t *row;
	MpiExchange x;
	double start, next_progress;
	bool progress;
} Dist;

/* Do the two roots differ on the word read into st? */
static bool differ(Dist *d, MachineState *st)
{
	if (d->q->accept == ACCEPT_EOS) {
		machine_state_copy(&d->m, &d->eos, st);
		st = &d->eos;
		machine_step(&d->m, st, d->let.end_code);
	}
	machine_query(&d->m, st);
	return machine_root(&d->m, st, 0) != machine_root(&d->m, st, 1);
}

static void dist_init(Dist *d, const Query *q)
{
	memset(d, 0, sizeof *d);
	d->q = q;
	d->rank = mpi_job_rank();
	d->size = mpi_job_size();
	machine_init(&d->m, q->store, q->root, 2, false);
	query_codes_init(&d->let, q, &d->m.codes);
	machine_state_init(&d->m, &d->st);
	machine_state_init(&d->m, &d->eos);
	d->width = machine_packed_len(&d->m);
	d->row = xmalloc(d->width * sizeof *d->row);
	rowset_init(&d->owned, d->width);
	d->owned.advice = "use more ranks";
	mpi_exchange_init(&d->x);
	d->diff_key = NO_KEY;
	d->start = limit_now();
	d->next_progress = d->start + 0.25;
	d->progress = q->progress && isatty(STDERR_FILENO);
}

static void dist_free(Dist *d)
{
	if (d->progress)
		fputs("\r\033[K", stderr);
	mpi_exchange_free(&d->x);
	rowset_free(&d->owned);
	free(d->parent);
	free(d->via);
	free(d->pos);
	free(d->key);
	free(d->row);
	machine_state_free(&d->m, &d->st);
	machine_state_free(&d->m, &d->eos);
	query_codes_free(&d->let);
	machine_free(&d->m);
}

/* A state new to this rank: its parent, letter and key. */
static void adopt(Dist *d, uint32_t j, uint64_t parent, uint64_t key)
{
	if (j >= d->cap) {
		d->cap = d->cap ? 2 * d->cap : 1024;
		d->parent = xrealloc(d->parent, d->cap * sizeof *d->parent);
		d->via = xrealloc(d->via, d->cap * sizeof *d->via);
	}
	if (j - d->hi >= d->keycap) {
		d->keycap = d->keycap ? 2 * d->keycap : 1024;
		d->key = xrealloc(d->key, d->keycap * sizeof *d->key);
	}
	d->parent[j] = parent;
	d->via[j] = (uint32_t)(key % d->let.n);
	d->key[j - d->hi] = key;
}

/* Steps state i (of the level being stepped) by every letter: a
 * separating word may lower diff_key, the other successors go to their
 * owners as [row, key, i]. */
static void expand(Dist *d, size_t i, size_t len)
{
	uint64_t base = d->pos[i - d->lo] * d->let.n;
	for (uint32_t c = 0; c < d->let.n; c++) {
		uint64_t key = base + c;
		if (key > d->diff_key)
			break; /* the level ends in a counterexample before */
		machine_unpack(&d->m, &d->st, rowset_row(&d->owned, i), len);
		machine_step(&d->m, &d->st, d->let.code[c]);
		if (differ(d, &d->st)) {
			d->diff_key = key;
			d->diff_from = i;
			d->diff_letter = c;
			break;
		}
		machine_pack(&d->m, &d->st, d->row);
		int to = mpi_job_owner(machine_packed_hash(d->row, d->width),
				       d->size);
		int64_t *out = mpi_exchange_append(&d->x, to, d->width + 2);
		memcpy(out, d->row, d->width * sizeof *out);
		out[d->width] = (int64_t)key;
		out[d->width + 1] = (int64_t)i;
	}
}

/* The successors this rank owns: new ones join the level being built,
 * a known one of that level keeps the least key. */
static void absorb(Dist *d)
{
	size_t rec = d->width + 2;
	for (int r = 0; r < d->size; r++) {
		const int64_t *p = d->x.recv + d->x.rdispl[r];
		const int64_t *end = p + d->x.rcount[r];
		for (; p < end; p += rec) {
			uint64_t key = (uint64_t)p[d->width];
			uint64_t parent = (uint64_t)r << 32 | (uint64_t)p[d->width + 1];
			bool added;
			uint32_t j = rowset_add(&d->owned, p, &added);
			if (added)
				adopt(d, j, parent, key);
			else if (j >= d->hi && key < d->key[j - d->hi]) {
				d->key[j - d->hi] = key;
				d->parent[j] = parent;
				d->via[j] = (uint32_t)(key % d->let.n);
			}
		}
	}
}

static void progress(Dist *d, size_t len, uint64_t states)
{
	if (!d->progress)
		return;
	double now = limit_now();
	if (now < d->next_progress)
		return;
	fprintf(stderr, "\rexplore: length %zu, %llu states, %.1f s ", len,
		(unsigned long long)states, now - d->start);
	d->next_progress = now + 0.25;
}

/* Steps the level in rounds until every rank is through; false when a
 * limit stopped it (ag says which).  ag->total: the new states. */
static bool step_level(Dist *d, size_t len, uint64_t before, MpiAgree *ag)
{
	size_t per = ROUND_BYTES / ((d->let.n ? d->let.n : 1) * (d->width + 2) *
				    sizeof(int64_t));
	if (per < 64)
		per = 64;
	size_t i = d->lo;
	for (;;) {
		size_t end = i + per < d->hi ? i + per : d->hi;
		for (; i < end; i++)
			expand(d, i, len);
		mpi_exchange_run(&d->x);
		absorb(d);
		bool budget = d->q->timeout > 0 &&
			      limit_now() - d->start > d->q->timeout;
		mpi_job_agree(d->q->limits, i < d->hi, budget,
			      d->owned.n - d->hi, ag);
		progress(d, len, before + ag->total);
		if (ag->hit != LIMIT_NONE || ag->budget)
			return false;
		if (!ag->more)
			return true;
	}
}

/* New states over all ranks whose key is below k. */
static uint64_t count_below(const Dist *d, uint64_t k)
{
	uint64_t n = 0;
	for (size_t j = 0; j < d->owned.n - d->hi; j++)
		n += d->key[j] < k;
	return mpi_job_sum(n);
}

/* Where the serial search would have stopped at --max-states in this
 * level: it checks before stepping every state whose global number
 * (lo_g + p) is a multiple of 256, holding then the hi_g states of the
 * earlier levels and the new ones of key below p * nletters.  Checks after the counterexample's parent (p > last)
 * never happen.  True, with the states it held, when one fails. */
static bool state_limit(const Dist *d, uint64_t lo_g, uint64_t hi_g,
			uint64_t added, uint64_t last, uint64_t *states)
{
	uint64_t max = d->q->max_states;
	if (!max || hi_g + added <= max)
		return false;
	uint64_t p0 = (256 - lo_g % 256) % 256;
	if (p0 > last)
		return false;
	uint64_t lo = 0, hi = (last - p0) / 256 + 1; /* checks lo .. hi-1 */
	if (hi_g + count_below(d, (p0 + (hi - 1) * 256) * d->let.n) <= max)
		return false;
	while (lo + 1 < hi) { /* the first failing check is in [lo, hi) */
		uint64_t mid = lo + (hi - lo - 1) / 2;
		if (hi_g + count_below(d, (p0 + mid * 256) * d->let.n) > max)
			hi = mid + 1;
		else
			lo = mid + 1;
	}
	*states = hi_g + count_below(d, (p0 + lo * 256) * d->let.n);
	return true;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The rank that sorts keys of this value: ranges of [0, bound). */
static int sorter(uint64_t key, uint64_t bound, int size)
{
	return (int)((unsigned __int128)key * (unsigned)size / bound);
}

/* Numbers the level built (keys below bound, distinct over ranks) in
 * key order: each rank sorts the keys of its range, the ranges are
 * numbered one after the other, the numbers go back to the owners. */
static void number_level(Dist *d, uint64_t bound, uint64_t **pos)
{
	size_t n = d->owned.n - d->hi;
	for (size_t j = 0; j < n; j++)
		*mpi_exchange_append(&d->x, sorter(d->key[j], bound, d->size), 1) =
			(int64_t)d->key[j];
	mpi_exchange_run(&d->x);
	size_t m = d->x.nrecv;
	uint64_t *sorted = xmalloc((m + 1) * sizeof *sorted);
	memcpy(sorted, d->x.recv, m * sizeof *sorted);
	qsort(sorted, m, sizeof *sorted, by_value);
	uint64_t first = mpi_job_offset(m);
	int64_t *reply = xmalloc((m + 1) * sizeof *reply);
	for (size_t i = 0; i < m; i++) {
		const uint64_t *at = bsearch(&d->x.recv[i], sorted, m,
					     sizeof *sorted, by_value);
		reply[i] = (int64_t)(first + (uint64_t)(at - sorted));
	}
	int64_t *answer = xmalloc((n + 1) * sizeof *answer);
	mpi_exchange_reply(&d->x, reply, answer);
	/* The answers come in the order the keys were sent: by sorting
	 * rank, then in key order within one. */
	int *next = xcalloc((size_t)d->size, sizeof *next);
	*pos = xrealloc(*pos, (n + 1) * sizeof **pos);
	for (size_t j = 0; j < n; j++) {
		int r = sorter(d->key[j], bound, d->size);
		(*pos)[j] = (uint64_t)answer[d->x.sdispl[r] + next[r]++];
	}
	free(next);
	free(answer);
	free(reply);
	free(sorted);
}

/* The word of the least separating key (held by rank holder: its state
 * from, then letter), from parent references: one broadcast a letter. */
static void witness(Dist *d, int holder, uint64_t from, uint64_t letter,
		    Runs *w)
{
	size_t n = 0, cap = 16;
	uint32_t *rev = xmalloc(cap * sizeof *rev);
	rev[n++] = (uint32_t)letter;
	int r = holder;
	uint64_t j = from;
	for (;;) {
		uint64_t v[2] = {0, 0};
		if (d->rank == r) {
			v[0] = d->parent[j];
			v[1] = d->via[j];
		}
		mpi_job_bcast(v, 2, r);
		if (v[0] == NO_PARENT)
			break;
		mem_grow((void **)&rev, &cap, n + 1, sizeof *rev);
		rev[n++] = (uint32_t)v[1];
		r = (int)(v[0] >> 32);
		j = v[0] & UINT32_MAX;
	}
	while (n > 0)
		runs_push_ui(w, d->let.sym[rev[--n]], 1);
	free(rev);
}

/* The least separating key over ranks: true with its word in out. */
static bool counterexample(Dist *d, uint64_t *key, Runs *w)
{
	uint64_t mine[3] = {d->diff_key, d->diff_from, d->diff_letter};
	uint64_t *all = xmalloc((size_t)d->size * 3 * sizeof *all);
	mpi_job_allgather(mine, 3, all);
	int holder = 0;
	for (int r = 1; r < d->size; r++)
		if (all[3 * r] < all[3 * holder])
			holder = r;
	*key = all[3 * holder];
	if (*key != NO_KEY)
		witness(d, holder, all[3 * holder + 1], all[3 * holder + 2], w);
	free(all);
	return *key != NO_KEY;
}

static void stopped(MethodResult *out, const MpiAgree *ag)
{
	out->status = MR_LIMIT;
	out->reason = xstrdup(ag->hit == LIMIT_MEMORY ? "stopped by the memory limit"
			      : "stopped by the time limit");
}

/* The next level becomes the one stepped. */
static void advance(Dist *d, uint64_t bound)
{
	number_level(d, bound, &d->pos);
	d->lo = d->hi;
	d->hi = d->owned.n;
}

/* Level by level until an answer; lo_g, hi_g: the global numbers of the
 * level being stepped. */
static void search(Dist *d, MethodResult *out)
{
	const Query *q = d->q;
	uint64_t lo_g = 0, hi_g = 1;
	size_t len = 0;
	for (;; len++) {
		if (q->max_length && len == q->max_length) {
			out->status = MR_BOUNDED;
			out->states = hi_g;
			break;
		}
		MpiAgree ag;
		if (!step_level(d, len, hi_g, &ag)) {
			stopped(out, &ag);
			out->states = hi_g + ag.total;
			break;
		}
		uint64_t key, states;
		bool found = counterexample(d, &key, &out->witness);
		uint64_t last = found ? key / d->let.n : hi_g - lo_g - 1;
		if (state_limit(d, lo_g, hi_g, ag.total, last, &states)) {
			runs_clear(&out->witness);
			out->status = MR_LIMIT;
			out->reason = xstrdup("stopped by the state limit");
			out->states = states;
			break;
		}
		if (found) {
			out->status = MR_DIFFERENT;
			out->states = hi_g + count_below(d, key);
			break;
		}
		if (ag.total == 0) {
			len++;
			out->status = MR_EQUIVALENT;
			out->states = hi_g;
			size_t cl = 128;
			out->certificate = xmalloc(cl);
			snprintf(out->certificate, cl,
				 "all %llu reachable states of the product machine "
				 "agree (none new at length %zu)\n",
				 (unsigned long long)hi_g, len);
			break;
		}
		advance(d, (hi_g - lo_g) * d->let.n);
		lo_g = hi_g;
		hi_g += ag.total;
		if (mpi_job_stats_on())
			mpi_job_stats("explore", len + 1, d->owned.n, d->x.sent);
	}
	out->bound = len;
}

/* What every rank must hold alike: the machine, the letters, the
 * bounds (d->row: the empty word's state). */
static uint64_t problem(const Dist *d)
{
	const Machine *m = &d->m;
	int64_t f[10] = {
		(int64_t)d->width, (int64_t)d->let.n, (int64_t)m->nslots,
		(int64_t)m->nstep, (int64_t)m->nquery,
		(int64_t)d->q->max_length, (int64_t)d->q->max_states,
		(int64_t)d->q->accept,
		(int64_t)machine_packed_hash(d->row, d->width),
		(int64_t)machine_packed_hash(m->delta, m->nld * m->ncodes),
	};
	return mpi_job_fingerprint(f, sizeof f / sizeof *f);
}

void mpi_explore_merge(const Query *q, MethodResult *out)
{
	Dist d;
	dist_init(&d, q);
	out->witness_shortest = true;
	/* Level 0, the empty word: every rank knows it; its owner keeps it. */
	machine_reset(&d.m, &d.st);
	machine_pack(&d.m, &d.st, d.row);
	mpi_job_begin(problem(&d));
	if (differ(&d, &d.st)) {
		out->status = MR_DIFFERENT;
		out->states = 1;
		out->bound = 0;
		dist_free(&d);
		return;
	}
	if (mpi_job_owner(machine_packed_hash(d.row, d.width), d.size) == d.rank) {
		bool added;
		uint32_t j = rowset_add(&d.owned, d.row, &added);
		adopt(&d, j, NO_PARENT, 0);
		d.pos = xmalloc(sizeof *d.pos);
		d.pos[0] = 0;
		d.hi = 1;
	}
	search(&d, out);
	dist_free(&d);
}
