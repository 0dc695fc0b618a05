/* breakdown.c -- breadth-first search for the first disagreement between
 * two semantics of one model (see breakdown.h). */
#include <config.h>
#include "transformer/breakdown.h"
#include "base/limit.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "transformer/sim.h"

/* One level of the search: states (keys) with their search-tree ids, and
 * an open-addressing set over the keys. */
typedef struct {
	unsigned char *keys;
	uint32_t *id;
	size_t n, cap, idcap, keysize;
	uint32_t *slot; /* index + 1, or 0 */
	size_t nslots;
} Level;

typedef struct {
	Sim *ref, *sim;
	size_t nacc, keysize;
	Acc *a, *b;
	uint32_t *parent, *letter; /* by id */
	size_t nids, idcap;
} Search;

static uint64_t hash(const unsigned char *k, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211ULL;
	return h;
}

/* The key of a pair of states: the fields of every accumulator, copied
 * one by one (no padding bytes). */
static void make_key(const Search *s, unsigned char *key)
{
	for (size_t i = 0; i < s->nacc; i++) {
		memcpy(key, &s->a[i].m, sizeof s->a[i].m);
		key += sizeof s->a[i].m;
		memcpy(key, &s->b[i].v, sizeof s->b[i].v);
		key += sizeof s->b[i].v;
		memcpy(key, &s->b[i].m, sizeof s->b[i].m);
		key += sizeof s->b[i].m;
	}
}

static void unpack_key(const Search *s, const unsigned char *key)
{
	for (size_t i = 0; i < s->nacc; i++) {
		acc_zero(&s->a[i]);
		acc_zero(&s->b[i]);
		memcpy(&s->a[i].m, key, sizeof s->a[i].m);
		key += sizeof s->a[i].m;
		memcpy(&s->b[i].v, key, sizeof s->b[i].v);
		key += sizeof s->b[i].v;
		memcpy(&s->b[i].m, key, sizeof s->b[i].m);
		key += sizeof s->b[i].m;
	}
}

static void level_clear(Level *l)
{
	l->n = 0;
	if (l->slot)
		memset(l->slot, 0, l->nslots * sizeof *l->slot);
}

static void level_rehash(Level *l)
{
	size_t ns = l->nslots ? l->nslots * 2 : 1024;
	free(l->slot);
	l->slot = xcalloc(ns, sizeof *l->slot);
	l->nslots = ns;
	for (size_t i = 0; i < l->n; i++) {
		size_t h = hash(l->keys + i * l->keysize, l->keysize) & (ns - 1);
		while (l->slot[h])
			h = (h + 1) & (ns - 1);
		l->slot[h] = (uint32_t)i + 1;
	}
}

/* Adds key unless present; true when added. */
static bool level_add(Level *l, const unsigned char *key, uint32_t id)
{
	if (2 * (l->n + 1) > l->nslots)
		level_rehash(l);
	size_t h = hash(key, l->keysize) & (l->nslots - 1);
	while (l->slot[h]) {
		if (memcmp(l->keys + (l->slot[h] - 1) * l->keysize, key,
			   l->keysize) == 0)
			return false;
		h = (h + 1) & (l->nslots - 1);
	}
	mem_grow((void **)&l->keys, &l->cap, (l->n + 1) * l->keysize, 1);
	memcpy(l->keys + l->n * l->keysize, key, l->keysize);
	mem_grow((void **)&l->id, &l->idcap, l->n + 1, sizeof *l->id);
	l->id[l->n] = id;
	l->slot[h] = (uint32_t)++l->n;
	return true;
}

static uint32_t new_id(Search *s, uint32_t parent, uint32_t letter)
{
	mem_grow((void **)&s->parent, &s->idcap, s->nids + 1, sizeof *s->parent);
	s->letter = xrealloc(s->letter, s->idcap * sizeof *s->letter);
	s->parent[s->nids] = parent;
	s->letter[s->nids] = letter;
	return (uint32_t)s->nids++;
}

static void witness(const Search *s, uint32_t id, size_t len, Mismatch *out,
		    bool model)
{
	out->found = true;
	out->length = len;
	out->model_accepts = model;
	out->word = xcalloc(len ? len : 1, sizeof *out->word);
	for (size_t i = len; i > 0; i--) {
		out->word[i - 1] = s->letter[id];
		id = s->parent[id];
	}
}

static BreakResult search(Search *s, const Model *m, size_t maxlen,
			  size_t maxstates, Limits *lim, Mismatch *out)
{
	Level cur = {.keysize = s->keysize}, next = {.keysize = s->keysize};
	unsigned char *key = xcalloc(s->keysize, 1);
	BreakResult r = BREAK_NONE;
	if (sim_accepts(s->ref) != sim_accepts(s->sim)) {
		witness(s, 0, 0, out, sim_accepts(s->sim));
		r = BREAK_FOUND;
		goto done;
	}
	sim_save_state(s->ref, s->a);
	sim_save_state(s->sim, s->b);
	make_key(s, key);
	level_add(&cur, key, new_id(s, 0, 0));
	for (size_t len = 0; len < maxlen && r == BREAK_NONE; len++) {
		level_clear(&next);
		for (size_t i = 0; i < cur.n && r == BREAK_NONE; i++) {
			for (uint32_t t = 1; t <= m->nletters; t++) {
				unpack_key(s, cur.keys + i * s->keysize);
				sim_load_state(s->ref, len, s->a);
				sim_load_state(s->sim, len, s->b);
				sim_push(s->ref, t);
				sim_push(s->sim, t);
				out->words++;
				bool model = sim_accepts(s->sim);
				if (model != sim_accepts(s->ref)) {
					witness(s, new_id(s, cur.id[i], t),
						len + 1, out, model);
					r = BREAK_FOUND;
					break;
				}
				sim_save_state(s->ref, s->a);
				sim_save_state(s->sim, s->b);
				make_key(s, key);
				if (level_add(&next, key, (uint32_t)s->nids))
					new_id(s, cur.id[i], t);
				if (s->nids > maxstates || limit_poll(lim)) {
					r = BREAK_LIMIT;
					out->length = len; /* all words up to len agree */
					break;
				}
			}
		}
		Level tmp = cur;
		cur = next;
		next = tmp;
	}
done:
	free(key);
	free(cur.keys);
	free(cur.id);
	free(cur.slot);
	free(next.keys);
	free(next.id);
	free(next.slot);
	return r;
}

BreakResult breakdown_search(const Model *m, const Semantics *sem,
			     size_t maxlen, size_t maxstates, Limits *lim,
			     Mismatch *out)
{
	memset(out, 0, sizeof *out);
	Semantics kd = {.kind = SEM_KNEEDEEP};
	Search s = {.ref = sim_new(m, &kd), .sim = sim_new(m, sem)};
	BreakResult r = BREAK_UNSUPPORTED;
	if (sim_uniform(s.ref)) {
		s.nacc = sim_state_size(s.ref);
		s.keysize = s.nacc * (2 * sizeof(__int128) + sizeof(double));
		if (s.keysize == 0)
			s.keysize = 1;
		s.a = xcalloc(s.nacc + 1, sizeof *s.a);
		s.b = xcalloc(s.nacc + 1, sizeof *s.b);
		r = search(&s, m, maxlen, maxstates, lim, out);
	}
	sim_free(s.ref);
	sim_free(s.sim);
	free(s.a);
	free(s.b);
	free(s.parent);
	free(s.letter);
	return r;
}
