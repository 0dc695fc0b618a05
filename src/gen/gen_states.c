/* gen_states.c -- the layered graph of merged states (see gen_states.h). */
#include <config.h>

#include "gen/gen_states.h"
#include "gen/gen_graph.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>

#include "base/buf.h"
#include "machine/machine.h"
#include "machine/rowset.h"
#include "base/mem.h"
#include "gen/gen_share.h"
#include "base/share.h"

#define NONE UINT32_MAX


void gen_rng_below_fmpz(GenRng *r, fmpz_t out, const fmpz_t n)
{
	flint_bitcnt_t bits = fmpz_bits(n);
	do {
		fmpz_zero(out);
		for (flint_bitcnt_t b = 0; b < bits; b += 64) {
			fmpz_mul_2exp(out, out, 64);
			fmpz_add_ui(out, out, gen_rng_next(r));
		}
		fmpz_fdiv_r_2exp(out, out, bits);
	} while (fmpz_cmp(out, n) >= 0);
}

/* ---- clamping: counts only compared with constants ------------------- */

/* The slots an instruction reads (besides a count's own total). */
static size_t reads(const Machine *m, const MachineInstr *in, uint32_t *buf,
		    size_t cap, const uint32_t **many)
{
	*many = NULL;
	switch (in->op) {
	case MI_AND:
	case MI_OR:
	case MI_LIN:
	case MI_BLIN:
		*many = m->opnd + in->off;
		return in->n;
	case MI_MOD:
		return 0;
	case MI_ITE:
	case MI_BITE:
		buf[2] = in->c;
		/* fall through */
	case MI_MIN:
	case MI_MAX:
	case MI_BMIN:
	case MI_BMAX:
	case MI_PREV:
	case MI_FCOUNT:
		buf[1] = in->b;
		buf[0] = in->a;
		return in->op == MI_ITE || in->op == MI_BITE ? 3 : 2;
	default: /* NOT, CMP, BCMP, COUNT, BCOUNT */
		(void)cap;
		buf[0] = in->a;
		return 1;
	}
}

typedef struct {
	const Machine *m;
	bool *cmp_only; /* every reader is a comparison with 0 */
	bool *bad;      /* read in a way clamping could change */
	int64_t *thr;   /* clamp beyond this magnitude */
} Uses;

/* One read of slot x by instruction in; second: the threshold pass. */
static void use(Uses *u, const MachineInstr *in, uint32_t x, bool second)
{
	if (!second) {
		if (in->op != MI_CMP)
			u->cmp_only[x] = false;
		return;
	}
	const Machine *m = u->m;
	if (in->op == MI_CMP) {
		if (u->thr[x] < 1)
			u->thr[x] = 1;
	} else if (in->op == MI_LIN && in->n == 1 && m->coef[in->off] != 0 &&
		   u->cmp_only[in->dst] && in->k > -((int64_t)1 << 60) &&
		   in->k < ((int64_t)1 << 60)) {
		int64_t t = (in->k < 0 ? -in->k : in->k) + 1;
		if (u->thr[x] < t)
			u->thr[x] = t;
	} else {
		u->bad[x] = true;
	}
}

static void scan(Uses *u, const MachineInstr *code, size_t n, bool second)
{
	uint32_t buf[3];
	for (size_t i = 0; i < n; i++) {
		const uint32_t *many;
		size_t k = reads(u->m, &code[i], buf, 3, &many);
		for (size_t j = 0; j < k; j++)
			use(u, &code[i], many ? many[j] : buf[j], second);
	}
}

/* +1 when slot x never decreases, -1 when it never increases, else 0. */
static int monotone(const Machine *m, const bool *is_count, uint32_t x)
{
	if (is_count[x])
		return 1;
	if (x >= m->nld)
		return 0;
	bool up = true, down = true;
	for (size_t c = 0; c < m->ncodes; c++) {
		int64_t d = m->delta[x * m->ncodes + c];
		up &= d >= 0;
		down &= d <= 0;
	}
	return up ? 1 : down ? -1 : 0;
}

/* lo[i], hi[i]: the bounds of packed value i (the persistent slots, then
 * the phase).  Returns the number of clamped slots. */
static size_t clamp_bounds(const Machine *m, int64_t *lo, int64_t *hi)
{
	size_t ns = m->nslots;
	Uses u = {m, xmalloc(ns * sizeof *u.cmp_only),
		  xcalloc(ns, sizeof *u.bad), xcalloc(ns, sizeof *u.thr)};
	bool *is_count = xcalloc(ns, sizeof *is_count);
	for (size_t i = 0; i < ns; i++)
		u.cmp_only[i] = true;
	for (size_t i = 0; i < m->nstep; i++)
		if (m->step[i].op == MI_COUNT)
			is_count[m->step[i].dst] = true;
	for (int pass = 0; pass < 2; pass++) {
		scan(&u, m->step, m->nstep, pass);
		scan(&u, m->query, m->nquery, pass);
	}
	size_t clamped = 0, w = machine_packed_len(m);
	for (size_t i = 0; i < w; i++) {
		lo[i] = INT64_MIN;
		hi[i] = INT64_MAX;
		if (i == m->npslot)
			continue; /* the phase */
		uint32_t x = m->pslot[i];
		int dir = monotone(m, is_count, x);
		if (dir == 0 || u.bad[x])
			continue;
		int64_t t = u.thr[x] < 1 ? 1 : u.thr[x];
		if (dir > 0)
			hi[i] = t;
		else
			lo[i] = -t;
		clamped++;
	}
	free(is_count);
	free(u.cmp_only);
	free(u.bad);
	free(u.thr);
	return clamped;
}

/* ---- building ---------------------------------------------------------- */

typedef struct {
	GenStates *g;
	MachineState st;
	int64_t *lo, *hi, *key;
	uint32_t *row; /* one state's successors */
	size_t width; /* packed values, without the class */
} Builder;

/* The class bits of the state just read. */
static unsigned state_class(const GenStates *g, MachineState *st)
{
	machine_query(&g->m, st);
	unsigned c = machine_root(&g->m, st, 0) ? GEN_IN : 0;
	if (!g->domain || machine_root(&g->m, st, 1))
		c |= GEN_DOMAIN;
	return c;
}

/* The key of the state just read, clamped. */
static void make_key(Builder *b)
{
	machine_pack(&b->g->m, &b->st, b->key);
	for (size_t i = 0; i < b->width; i++) {
		if (b->key[i] > b->hi[i])
			b->key[i] = b->hi[i];
		if (b->key[i] < b->lo[i])
			b->key[i] = b->lo[i];
	}
	b->key[b->width] = state_class(b->g, &b->st);
}

static uint32_t add_state(GenStates *g, unsigned cls)
{
	mem_grow((void **)&g->cls, &g->cap, g->n + 1, sizeof *g->cls);
	g->cls[g->n] = (uint8_t)cls;
	return (uint32_t)g->n++;
}

/* A user's limit, checked before state i of a level (every 256
 * states); in a job, the job's, agreed every 65536 states at the same
 * state on every rank (each builds the whole graph alike). */
static bool build_stop(GenStates *g, size_t i, Limits *lim)
{
	if (!g->sh)
		return (i & 255) == 0 && limit_check(lim);
	if ((i & 65535) == 0 && lim)
		g->sh->agree(lim);
	return lim && lim->hit;
}

/* Level d (cur) to level d + 1 (nxt); a level's keys are its packed
 * states, then the class. */
static bool expand(Builder *b, RowSet *cur, RowSet *nxt, size_t d,
		   size_t max_states, Limits *lim)
{
	GenStates *g = b->g;
	size_t nl = g->nletters, base = g->first[d];
	size_t next_base = g->first[d] + cur->n;
	uint32_t *row = b->row;
	for (size_t i = 0; i < cur->n; i++) {
		if (build_stop(g, i, lim))
			return false;
		for (size_t a = 0; a < nl; a++) {
			if (g->same[a] != a) {
				row[a] = row[g->same[a]];
				continue;
			}
			machine_unpack(&g->m, &b->st, rowset_row(cur, i), d);
			machine_step(&g->m, &b->st, g->code[a]);
			make_key(b);
			bool added;
			uint32_t id = rowset_add(nxt, b->key, &added);
			if (added) {
				if (next_base + nxt->n > max_states)
					return false;
				add_state(g, (unsigned)b->key[b->width]);
			}
			row[a] = (uint32_t)next_base + id;
		}
		memcpy(g->next + (base + i) * nl, row, nl * sizeof *row);
	}
	return true;
}

static GenStates *fail(GenStates *g, char **why, const char *what,
			size_t len)
{
	Buf msg = {0};
	buf_printf(&msg, what, len);
	*why = buf_take(&msg);
	gen_states_free(g);
	return NULL;
}

/* Letter codes, and the first letter of each code (letters no formula
 * mentions share the code "other"). */
static void letter_codes(GenStates *g, const Alphabet *alpha)
{
	g->nletters = alpha->n;
	g->code = xmalloc((alpha->n + 1) * sizeof *g->code);
	g->same = xmalloc((alpha->n + 1) * sizeof *g->same);
	for (size_t a = 0; a < alpha->n; a++) {
		g->code[a] = machine_code(&g->m.codes, alpha->letters[a]);
		g->same[a] = (uint32_t)a;
		for (size_t b = 0; b < a; b++)
			if (g->code[b] == g->code[a]) {
				g->same[a] = (uint32_t)b;
				break;
			}
	}
}

static void forward_totals(GenStates *g);

static bool build_levels(GenStates *g, Builder *b, size_t max_len,
			 size_t max_states, Limits *lim, size_t *stopped)
{
	RowSet lv[2];
	rowset_init(&lv[0], b->width + 1);
	rowset_init(&lv[1], b->width + 1);
	machine_reset(&g->m, &b->st);
	make_key(b);
	bool added;
	rowset_add(&lv[0], b->key, &added);
	add_state(g, (unsigned)b->key[b->width]);
	g->first[0] = 0;
	bool ok = true;
	for (size_t d = 0; d < max_len && ok; d++) {
		RowSet *cur = &lv[d & 1], *nxt = &lv[(d + 1) & 1];
		rowset_clear(nxt);
		g->first[d + 1] = g->first[d] + cur->n;
		mem_grow((void **)&g->next, &g->next_cap,
			 g->first[d + 1] * g->nletters, sizeof *g->next);
		ok = expand(b, cur, nxt, d, max_states, lim);
		*stopped = d + 1;
	}
	g->first[g->nlevels] = g->n;
	rowset_free(&lv[0]);
	rowset_free(&lv[1]);
	return ok;
}

static void build_pairs(GenStates *g);

GenStates *gen_states_build(const Store *s, const Node *roots, size_t nroots,
			    const Alphabet *alpha, size_t max_len,
			    size_t max_states, Limits *lim, char **why)
{
	GenStates *g = xcalloc(1, sizeof *g);
	*why = NULL;
	machine_init(&g->m, s, roots, nroots, false);
	g->domain = nroots > 1;
	g->aim = SIZE_MAX;
	g->nlevels = max_len + 1;
	g->first = xcalloc(g->nlevels + 1, sizeof *g->first);
	letter_codes(g, alpha);
	if (g->m.nfuture)
		return fail(g, why, "the formula has future counts (#>)", 0);
	if (g->m.big_persistent || alpha->n == 0)
		return fail(g, why, "the formula's counts need big integers",
			    0);
	if (share_job)
		gen_share_begin(g, share_job, lim, max_len, max_states);
	Builder b = {.g = g};
	b.width = machine_packed_len(&g->m);
	b.lo = xmalloc(b.width * sizeof *b.lo);
	b.hi = xmalloc(b.width * sizeof *b.hi);
	b.key = xmalloc((b.width + 1) * sizeof *b.key);
	b.row = xmalloc(g->nletters * sizeof *b.row);
	g->nclamped = clamp_bounds(&g->m, b.lo, b.hi);
	machine_state_init(&g->m, &b.st);
	size_t stopped = 0;
	bool ok = build_levels(g, &b, max_len, max_states, lim, &stopped);
	machine_state_free(&g->m, &b.st);
	free(b.lo);
	free(b.hi);
	free(b.key);
	free(b.row);
	if (!ok) {
		if (lim && lim->hit)
			return fail(g, why, "a limit was reached at length %zu",
				    stopped);
		return fail(g, why, "more than --max-states states by length %zu",
			    stopped);
	}
	forward_totals(g);
	build_pairs(g);
	if (g->sh)
		gen_share_own(g);
	return g;
}

void gen_states_free(GenStates *g)
{
	if (!g)
		return;
	machine_free(&g->m);
	for (int c = 0; c < 2; c++) {
		if (g->cnt[c])
			_fmpz_vec_clear(g->cnt[c], (slong)g->ncnt);
		if (g->total[c])
			_fmpz_vec_clear(g->total[c], (slong)g->nlevels);
	}
	free(g->lcnt[0]);
	free(g->lcnt[1]);
	free(g->code);
	free(g->same);
	free(g->first);
	free(g->next);
	free(g->pair);
	free(g->cls);
	free(g->dist);
	free(g->own_lo);
	free(g->own_n);
	free(g->own_base);
	free(g->give);
	free(g->cut);
	free(g->give_at);
	free(g);
}

size_t gen_states_size(const GenStates *g)
{
	return g->n;
}

size_t gen_states_clamped(const GenStates *g)
{
	return g->nclamped;
}

size_t gen_states_levels(const GenStates *g)
{
	return g->nlevels;
}

uint32_t gen_states_start(const GenStates *g)
{
	(void)g;
	return 0;
}

uint32_t gen_states_next(const GenStates *g, uint32_t state, size_t letter)
{
	return gen_states_succ(g, state, letter);
}

unsigned gen_states_class(const GenStates *g, uint32_t state)
{
	return g->cls[state];
}

unsigned gen_states_word(const GenStates *g, const uint32_t *w, size_t n)
{
	uint32_t s = 0;
	size_t i = 0, nl = g->nletters;
	/* half as many dependent loads: the walk is a chain of them */
	for (; g->pair && i + 2 <= n; i += 2)
		s = g->pair[((size_t)s * nl + w[i]) * nl + w[i + 1]];
	for (; i < n; i++)
		s = gen_states_next(g, s, w[i]);
	return g->cls[s];
}

/* Most entries of the table of two letters at once (16 MB). */
enum { PAIR_MAX = 1 << 22 };

/* The table of two letters at once, for the states two levels or more
 * below the last (the others have no successors two letters on). */
static void build_pairs(GenStates *g)
{
	size_t nl = g->nletters, nn = nl * nl;
	if (g->nlevels < 3 || g->n > PAIR_MAX / nn)
		return;
	size_t end = g->first[g->nlevels - 2];
	g->pair = xmalloc(g->n * nn * sizeof *g->pair);
	for (size_t s = 0; s < g->n; s++)
		for (size_t a = 0; a < nl; a++)
			for (size_t b = 0; b < nl; b++)
				g->pair[(s * nl + a) * nl + b] = s < end
					? gen_states_next(g, gen_states_next(
						g, (uint32_t)s, a), b)
					: UINT32_MAX;
}

/* ---- counting ---------------------------------------------------------- */

#define in_class gen_states_in_class

/* The number of words reaching each state, level by level (two levels
 * held at a time). */
static void forward_totals(GenStates *g)
{
	size_t wide = gen_states_widest(g);
	fmpz *paths = _fmpz_vec_init((slong)wide);
	fmpz *next = _fmpz_vec_init((slong)wide);
	for (int c = 0; c < 2; c++)
		g->total[c] = _fmpz_vec_init((slong)g->nlevels);
	fmpz_one(&paths[0]);
	for (size_t d = 0; d < g->nlevels; d++) {
		size_t f = g->first[d], f1 = g->first[d + 1];
		for (size_t s = f; s < f1; s++)
			for (int c = 0; c < 2; c++)
				if (in_class(g->cls[s], c))
					fmpz_add(&g->total[c][d], &g->total[c][d],
						 &paths[s - f]);
		if (d + 1 == g->nlevels)
			continue;
		_fmpz_vec_zero(next, (slong)(g->first[d + 2] - f1));
		for (size_t s = f; s < f1; s++)
			for (size_t a = 0; a < g->nletters; a++) {
				fmpz *t = &next[gen_states_next(g, (uint32_t)s,
								a) - f1];
				fmpz_add(t, t, &paths[s - f]);
			}
		fmpz *x = paths;
		paths = next;
		next = x;
	}
	_fmpz_vec_clear(paths, (slong)wide);
	_fmpz_vec_clear(next, (slong)wide);
}

void gen_states_total(const GenStates *g, size_t n, bool member, fmpz_t out)
{
	fmpz_set(out, &g->total[member][n]);
}

void gen_states_aim(GenStates *g, size_t n)
{
	if (g->aim == n)
		return;
	if (g->sh) {
		gen_share_aim(g, n);
		return;
	}
	g->ncnt = g->n;
	for (int c = 0; c < 2; c++)
		if (!g->cnt[c])
			g->cnt[c] = _fmpz_vec_init((slong)g->n);
	g->aim = n;
	for (size_t s = g->first[n]; s < g->first[n + 1]; s++)
		for (int c = 0; c < 2; c++)
			fmpz_set_ui(&g->cnt[c][s], in_class(g->cls[s], c));
	for (size_t d = n; d-- > 0;)
		for (size_t s = g->first[d]; s < g->first[d + 1]; s++)
			for (int c = 0; c < 2; c++) {
				fmpz *x = &g->cnt[c][s];
				fmpz_zero(x);
				for (size_t a = 0; a < g->nletters; a++)
					fmpz_add(x, x,
						 &g->cnt[c][gen_states_next(
							 g, (uint32_t)s, a)]);
			}
	gen_unrank_table(g);
}

void gen_states_unrank(const GenStates *g, bool member, const fmpz_t rank,
		       uint32_t *w)
{
	const fmpz *cnt = g->cnt[member];
	fmpz_t r;
	fmpz_init_set(r, rank);
	uint32_t s = 0;
	for (size_t d = 0; d < g->aim; d++) {
		size_t a = 0;
		for (;; a++) {
			assert(a < g->nletters);
			uint32_t t = gen_states_next(g, s, a);
			if (fmpz_cmp(r, &cnt[t]) < 0) {
				s = t;
				break;
			}
			fmpz_sub(r, r, &cnt[t]);
		}
		w[d] = (uint32_t)a;
	}
	assert(in_class(g->cls[s], member));
	fmpz_clear(r);
}

void gen_states_unrank_many(const GenStates *g, bool member,
			    const fmpz *ranks, size_t k, uint32_t *w)
{
	if (g->sh) {
		gen_share_unrank(g, member, ranks, k, w);
		return;
	}
	for (size_t i = 0; i < k; i++)
		gen_states_unrank(g, member, &ranks[i], w + i * g->aim);
}

bool gen_states_draw_rank(const GenStates *g, bool member, GenRng *r,
			  fmpz_t rank)
{
	/* the words of the class at the aim's length: cnt at the start */
	const fmpz *total = &g->total[member][g->aim];
	if (fmpz_is_zero(total))
		return false;
	gen_rng_below_fmpz(r, rank, total);
	return true;
}

bool gen_states_draw(const GenStates *g, bool member, GenRng *r,
		     uint32_t *w)
{
	fmpz_t rank;
	fmpz_init(rank);
	bool ok = gen_states_draw_rank(g, member, r, rank);
	if (ok)
		gen_states_unrank_many(g, member, rank, 1, w);
	fmpz_clear(rank);
	return ok;
}

bool gen_states_poll(const GenStates *g, Limits *lim)
{
	if (!g || !g->sh)
		return limit_poll(lim);
	return lim && lim->hit; /* the job's, as last agreed */
}

void gen_states_horizon(GenStates *g, size_t h)
{
	assert(h < g->nlevels);
	free(g->dist);
	g->dist = xmalloc(g->n * sizeof *g->dist);
	for (size_t s = 0; s < g->n; s++)
		g->dist[s] = NONE;
	for (size_t d = h + 1; d-- > 0;)
		for (size_t s = g->first[d]; s < g->first[d + 1]; s++) {
			uint32_t best = in_class(g->cls[s], true) ? 0 : NONE;
			for (size_t a = 0; d < h && best && a < g->nletters; a++) {
				uint32_t t = g->dist[gen_states_next(
					g, (uint32_t)s, a)];
				if (t != NONE && t + 1 < best)
					best = t + 1;
			}
			g->dist[s] = best;
		}
}

bool gen_states_can_finish(const GenStates *g, uint32_t state)
{
	return g->dist && g->dist[state] != NONE;
}

size_t gen_states_witness(const GenStates *g, uint32_t state, uint32_t *w)
{
	assert(gen_states_can_finish(g, state));
	size_t n = 0;
	while (g->dist[state] > 0) {
		size_t a = 0;
		while (g->dist[gen_states_next(g, state, a)] !=
		       g->dist[state] - 1)
			a++;
		w[n++] = (uint32_t)a;
		state = gen_states_next(g, state, a);
	}
	return n;
}
