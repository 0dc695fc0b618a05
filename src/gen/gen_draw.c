/* gen_draw.c -- the words of one length (see gen_draw.h). */
#include <config.h>

#include "gen/gen_draw.h"

#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>

#include "base/mem.h"
#include "base/parallel.h"
#include "gen/gen_mutant.h"
#include "gen/gen_unrank.h"

/* Rejection sampling: words tried for one draw before giving up. */
enum { GEN_FALLBACK_TRIES = 4096 };
/* Enumerate a class whole when it has at most this many words and
 * fewer than four times the words wanted. */
enum { DENSE_MAX = 1 << 22 };
/* Words unranked at once (a batch walks the graph together: over a job,
 * one collective per letter for the whole batch), and the letters of a
 * batch at most: a batch is not polled for limits, so long words make
 * small batches (about 10^6 letters: well under the second that
 * --timeout's backstop allows, under a sanitizer and a loaded machine). */
enum { FILL_BATCH = 1 << 13, FILL_LETTERS = 1 << 20 };

/* ---- batches and the words seen at this length ------------------------ */

/* Two independent 64-bit hashes: the fingerprint of a word.  Equal words
 * always collide, so no duplicate gets through; two different words
 * share one with probability 2^-128 per pair (one draw more then). */
static void fingerprint(const uint32_t *w, size_t n, uint64_t fp[2])
{
	uint64_t a = 0x9e3779b97f4a7c15u ^ n, b = 0xc2b2ae3d27d4eb4fu + n;
	for (size_t i = 0; i < n; i++) {
		a = (a ^ w[i]) * 0xbf58476d1ce4e5b9u;
		a ^= a >> 31;
		b = (b + w[i] + 1) * 0x94d049bb133111ebu;
		b ^= b >> 29;
	}
	fp[0] = a | 1; /* never 0: 0 marks an empty slot */
	fp[1] = b;
}

static void seen_reset(GenDraw *d)
{
	if (!d->seen || d->seen_mask > 4095) {
		free(d->seen);
		d->seen_mask = 255;
		d->seen = xmalloc((d->seen_mask + 1) * 2 * sizeof *d->seen);
	}
	memset(d->seen, 0, (d->seen_mask + 1) * 2 * sizeof *d->seen);
	d->seen_count = 0;
}

static size_t seen_slot(const uint64_t *t, size_t mask, const uint64_t *fp)
{
	size_t h = (size_t)(fp[0] >> 7) & mask;
	while (t[2 * h] && (t[2 * h] != fp[0] || t[2 * h + 1] != fp[1]))
		h = (h + 1) & mask;
	return h;
}

static void seen_grow(GenDraw *d)
{
	size_t mask = (d->seen_mask + 1) * 2 - 1;
	uint64_t *t = xcalloc((mask + 1) * 2, sizeof *t);
	for (size_t i = 0; i <= d->seen_mask; i++)
		if (d->seen[2 * i]) {
			size_t h = seen_slot(t, mask, d->seen + 2 * i);
			t[2 * h] = d->seen[2 * i];
			t[2 * h + 1] = d->seen[2 * i + 1];
		}
	free(d->seen);
	d->seen = t;
	d->seen_mask = mask;
}

/* Marks w seen at this length; false when it was already. */
static bool seen_add(GenDraw *d, const uint32_t *w)
{
	uint64_t fp[2];
	fingerprint(w, d->n, fp);
	size_t h = seen_slot(d->seen, d->seen_mask, fp);
	if (d->seen[2 * h])
		return false;
	d->seen[2 * h] = fp[0];
	d->seen[2 * h + 1] = fp[1];
	if (++d->seen_count * 2 > d->seen_mask)
		seen_grow(d);
	return true;
}

static void batch_free(GenBatch *b)
{
	free(b->w);
	free(b->kind);
	free(b->path);
}

/* A batch keeps paths while every word came with one. */
bool gen_draw_add(GenDraw *d, GenBatch *b, const uint32_t *w,
		  const uint32_t *path, GenKind kind)
{
	if (!seen_add(d, w))
		return false;
	mem_grow((void **)&b->w, &b->cap, (b->count + 1) * (b->n ? b->n : 1),
		 sizeof *b->w);
	mem_grow((void **)&b->kind, &b->kcap, b->count + 1, sizeof *b->kind);
	memcpy(b->w + b->count * b->n, w, b->n * sizeof *w);
	if (path && (b->count == 0 || b->path)) {
		mem_grow((void **)&b->path, &b->pcap,
			 (b->count + 1) * (b->n + 1), sizeof *b->path);
		memcpy(b->path + b->count * (b->n + 1), path,
		       (b->n + 1) * sizeof *path);
	} else if (b->path) {
		free(b->path);
		b->path = NULL;
		b->pcap = 0;
	}
	b->kind[b->count++] = (uint8_t)kind;
	return true;
}

/* ---- set-up ------------------------------------------------------------- */

void gen_draw_init(GenDraw *d, const GenSpec *sp, GenStates *gs,
		   Evaluator *ev, GenRng *rng, size_t maxlen)
{
	memset(d, 0, sizeof *d);
	d->sp = sp;
	d->gs = gs;
	d->ev = ev;
	d->rng = rng;
	d->nl = sp->alpha->n;
	d->limits = sp->limits;
	d->jobs = sp->jobs;
	d->tmp = xmalloc((maxlen + 1) * sizeof *d->tmp);
	d->seed_word = xmalloc((maxlen + 1) * sizeof *d->seed_word);
	gen_mutant_init(d, maxlen);
	d->syms = xmalloc((maxlen + 1) * sizeof *d->syms);
	d->random_done = xcalloc(sp->nsplits + 1, sizeof *d->random_done);
	d->negatives_done = xcalloc(sp->nsplits + 1,
				    sizeof *d->negatives_done);
	if (gs)
		d->before = xmalloc(FILL_BATCH * sizeof *d->before);
}

void gen_draw_free(GenDraw *d)
{
	batch_free(&d->batch[0]);
	batch_free(&d->batch[1]);
	free(d->seen);
	free(d->rank[0]);
	free(d->rank[1]);
	free(d->tmp);
	free(d->seed_word);
	free(d->ahead);
	free(d->tried);
	free(d->syms);
	free(d->random_done);
	free(d->negatives_done);
	free(d->ranks);
	free(d->before);
	free(d->words);
	free(d->paths);
}

int gen_draw_class(GenDraw *d, const uint32_t *w, size_t n)
{
	if (d->gs) {
		unsigned c = gen_states_word(d->gs, w, n);
		return !(c & GEN_DOMAIN) ? -1 : (c & GEN_IN) != 0;
	}
	bool acc[2];
	for (size_t i = 0; i < n; i++)
		d->syms[i] = d->sp->alpha->letters[w[i]];
	eval_word(d->ev, d->syms, n, acc);
	if (d->sp->domain != NODE_NONE && !acc[1])
		return -1;
	return acc[0];
}

/* ---- uniform draws ------------------------------------------------------ */

static void random_word(GenDraw *d, uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		w[i] = (uint32_t)gen_rng_below(d->rng, d->nl);
}

/* A family's own random member, as letter indices (false when it has
 * none of length n). */
static bool family_member(GenDraw *d, uint32_t *w, size_t n)
{
	const GenSpec *sp = d->sp;
	if (!sp->family || !sp->family->positive)
		return false;
	char *text = xmalloc(n + 1);
	FamilyRng fr = {gen_rng_next(d->rng)};
	bool ok = sp->family->positive(text, n, sp->k, &fr);
	for (size_t i = 0; ok && i < n; i++) {
		Sym l = sp->alpha->byte_sym[(unsigned char)text[i]];
		size_t a = 0;
		while (a < d->nl && sp->alpha->letters[a] != l)
			a++;
		ok = a < d->nl;
		w[i] = (uint32_t)a;
	}
	free(text);
	return ok;
}

/* Without counts: a word of class c by rejection; members also from the
 * family's generator and by a walk from the members found (two letters
 * exchanged). */
static bool fallback_draw(GenDraw *d, int c, uint32_t *w, size_t n)
{
	const GenBatch *found = &d->batch[1];
	if (d->hopeless[c])
		return false;
	for (uint64_t t = 0; t < GEN_FALLBACK_TRIES; t++) {
		if (limit_poll(d->limits)) {
			d->stopped = true;
			return false;
		}
		d->tries++;
		if (c == 1 && t % 4 == 0 && family_member(d, w, n)) {
			;
		} else if (c == 1 && found->count && n >= 2 && t % 2) {
			size_t i = gen_rng_below(d->rng, found->count);
			memcpy(w, gen_batch_word(found, i), n * sizeof *w);
			size_t a = gen_rng_below(d->rng, n);
			size_t b = gen_rng_below(d->rng, n);
			uint32_t x = w[a];
			w[a] = w[b];
			w[b] = x;
		} else {
			random_word(d, w, n);
		}
		if (gen_draw_class(d, w, n) == c)
			return true;
	}
	d->hopeless[c] = true; /* no more tries at this length */
	return false;
}

bool gen_draw_uniform(GenDraw *d, int c, uint32_t *w, size_t n)
{
	if (d->gs)
		return gen_states_draw(d->gs, c == 1, d->rng, w);
	return fallback_draw(d, c, w, n);
}

/* ---- one class ---------------------------------------------------------- */

/* Every word of class c at this length in random order, when there are
 * few of them for the words wanted (distinct draws without rejection);
 * NULL otherwise. */
static uint32_t *dense_order(GenDraw *d, int c, uint64_t need, size_t *count)
{
	*count = 0;
	if (!d->gs || need == 0)
		return NULL;
	fmpz_t total;
	fmpz_init(total);
	gen_states_total(d->gs, d->n, c == 1, total);
	bool dense = fmpz_cmp_ui(total, DENSE_MAX) <= 0 &&
		     fmpz_cmp_ui(total, 4 * need) < 0;
	*count = dense ? (size_t)fmpz_get_ui(total) : 0;
	fmpz_clear(total);
	if (!dense)
		return NULL;
	uint32_t *rank = xmalloc((*count + 1) * sizeof *rank);
	for (size_t i = 0; i < *count; i++)
		rank[i] = (uint32_t)i;
	for (size_t i = *count; i > 1; i--) {
		size_t j = gen_rng_below(d->rng, i);
		uint32_t x = rank[i - 1];
		rank[i - 1] = rank[j];
		rank[j] = x;
	}
	return rank;
}

typedef struct {
	const GenDraw *d;
	bool member;
	size_t k, ntask;
} Unrank;

/* The words of ranks lo..hi of the batch, and the members' states. */
static void unrank_slice(const GenDraw *d, bool member, size_t lo, size_t hi)
{
	gen_states_unrank_limbs(d->gs, member, d->ranks + lo * d->limbs[member],
				hi - lo, d->words + lo * d->n,
				member ? d->paths + lo * (d->n + 1) : NULL);
}

static void unrank_task(void *ctx, unsigned worker, size_t t)
{
	const Unrank *u = ctx;
	unrank_slice(u->d, u->member, u->k * t / u->ntask,
		     u->k * (t + 1) / u->ntask);
	(void)worker;
}

/* The words of d->ranks[0..k) into d->words: each a function of its
 * rank alone, so slices of a batch are unranked on the threads (d->jobs
 * is 1 over a job of ranks, whose unranking is collective).  Small
 * batches stay here: starting a thread costs more. */
static void unrank(GenDraw *d, bool member, size_t k)
{
	mem_grow((void **)&d->words, &d->wcap, k * d->n + 1, sizeof *d->words);
	if (member)
		mem_grow((void **)&d->paths, &d->pcap, k * (d->n + 1),
			 sizeof *d->paths);
	if (d->jobs <= 1 || k < 64) {
		unrank_slice(d, member, 0, k);
		return;
	}
	Unrank u = {d, member, k, (size_t)d->jobs * 4};
	parallel_each(d->jobs, u.ntask, unrank_task, &u);
}

/* The words of d->ranks[0..k) of class c, added in order; false once
 * the misses say rejection keeps finding the same words (*at: the
 * ranks used, the rest given back). */
static bool add_ranked(GenDraw *d, int c, size_t k, GenKind kind,
		       bool count_misses, uint64_t *misses, uint64_t until,
		       size_t *at)
{
	GenBatch *b = &d->batch[c];
	unrank(d, c == 1, k);
	for (*at = 0; *at < k;) {
		size_t i = (*at)++;
		const uint32_t *w = d->words + i * d->n;
		const uint32_t *p = c ? d->paths + i * (d->n + 1) : NULL;
		if (gen_draw_add(d, b, w, p, kind) || !count_misses)
			continue; /* a mutant may be there (dense ranks) */
		d->duplicates++;
		/* fewer than 4 times the words wanted exist only in dense
		 * mode, so this many misses means the draws keep finding the
		 * same words: give up */
		if (++*misses > 64 + 16 * until)
			return false;
	}
	return true;
}

/* The next dense ranks of class c, up to k; false when none are left. */
static bool dense_batch(GenDraw *d, int c, size_t k, GenKind kind)
{
	size_t left = d->nrank[c] - d->next_rank[c], at;
	if (left == 0)
		return false;
	if (k > left)
		k = left;
	memset(d->ranks, 0, k * d->limbs[c] * sizeof *d->ranks);
	for (size_t i = 0; i < k; i++)
		d->ranks[i * d->limbs[c]] = d->rank[c][d->next_rank[c]++];
	add_ranked(d, c, k, kind, false, NULL, 0, &at);
	return true;
}

/* Up to k uniform draws of class c, unranked together, as if each were
 * drawn and added in turn: the random numbers of draws after a give-up
 * are given back.  False when the filling must end. */
static bool draw_batch(GenDraw *d, int c, size_t k, GenKind kind,
		       uint64_t *misses, uint64_t until)
{
	size_t got = 0, at;
	bool more = true;
	for (; got < k; got++) {
		if (gen_states_poll(d->gs, d->limits)) {
			d->stopped = true;
			break;
		}
		d->before[got] = d->rng->state;
		if (!gen_states_draw_limbs(d->gs, c == 1, d->rng,
					   d->ranks + got * d->limbs[c])) {
			more = false;
			break;
		}
	}
	if (got && !add_ranked(d, c, got, kind, true, misses, until, &at)) {
		if (at < got)
			d->rng->state = d->before[at];
		return false;
	}
	return more && !d->stopped;
}

/* Without counts: one word at a time, by rejection. */
static void fill_rejected(GenDraw *d, int c, uint64_t until, GenKind kind)
{
	GenBatch *b = &d->batch[c];
	uint64_t misses = 0;
	while (b->count < until && !d->stopped) {
		if (limit_poll(d->limits)) {
			d->stopped = true;
			break;
		}
		if (!gen_draw_uniform(d, c, d->tmp, d->n))
			break;
		if (gen_draw_add(d, b, d->tmp, NULL, kind))
			continue;
		d->duplicates++;
		/* as add_ranked */
		if (++misses > 64 + 16 * until)
			break;
	}
}

/* Adds uniform words of class c until the batch holds `until`. */
static void fill(GenDraw *d, int c, uint64_t until, GenKind kind)
{
	GenBatch *b = &d->batch[c];
	uint64_t misses = 0;
	if (!d->gs) {
		fill_rejected(d, c, until, kind);
		return;
	}
	while (b->count < until && !d->stopped) {
		uint64_t k = until - b->count, most = FILL_LETTERS / (d->n + 1);
		if (k > FILL_BATCH)
			k = FILL_BATCH;
		if (k > most)
			k = most ? most : 1;
		if (d->rank[c] ? !dense_batch(d, c, (size_t)k, kind)
			       : !draw_batch(d, c, (size_t)k, kind, &misses,
					     until))
			break;
	}
}

/* The uniformly random words among the next q non-members of split s:
 * their share of the q (--random, exact over the split's non-members so
 * far), less what replacements of mutants not found have put in beyond
 * the share already.  Random words short of it (a length whose
 * non-members the mutants used up) are not made up for: that would put
 * more random words into the longer lengths. */
static uint64_t random_share(GenDraw *d, size_t s, uint64_t q)
{
	uint64_t pct = d->sp->random_pct;
	uint64_t before = d->negatives_done[s] * pct / 100;
	d->negatives_done[s] += q;
	uint64_t want = d->negatives_done[s] * pct / 100;
	uint64_t have = d->random_done[s], share = want - before;
	uint64_t left = want > have ? want - have : 0;
	return left < share ? left : share;
}

void gen_draw_length(GenDraw *d, size_t n, const uint64_t total[2])
{
	d->n = n;
	seen_reset(d);
	d->hopeless[0] = d->hopeless[1] = false;
	memset(&d->mutants, 0, sizeof d->mutants);
	if (d->gs) {
		gen_states_aim(d->gs, n);
		/* room for a batch of ranks of either class */
		for (int c = 0; c < 2; c++) {
			d->limbs[c] = gen_states_limbs(d->gs, c);
			mem_grow((void **)&d->ranks, &d->rcap,
				 FILL_BATCH * d->limbs[c], sizeof *d->ranks);
		}
	}
	for (int c = 0; c < 2; c++) {
		free(d->rank[c]);
		d->rank[c] = dense_order(d, c, total[c], &d->nrank[c]);
		d->next_rank[c] = 0;
	}
}

void gen_draw_chunk(GenDraw *d, const uint64_t need[2], size_t s)
{
	for (int c = 0; c < 2; c++) {
		d->batch[c].n = d->n;
		d->batch[c].count = 0;
	}
	fill(d, 1, need[1], GEN_KIND_MEMBER);
	if (need[1] && !d->batch[1].count)
		return; /* no member, so no balanced word at this length */
	uint64_t mutants = need[0] - random_share(d, s, need[0]);
	/* a mutant not found is replaced by a random non-member */
	d->tried_n = 0; /* the window's members were the last chunk's */
	for (uint64_t i = 0; i < mutants && !d->stopped; i++) {
		d->mutants_left = mutants - i;
		gen_mutant(d, d->n);
	}
	fill(d, 0, need[0], GEN_KIND_RANDOM);
	const GenBatch *b = &d->batch[0];
	for (size_t i = 0; i < b->count; i++)
		d->random_done[s] += b->kind[i] == GEN_KIND_RANDOM;
}
