/* breakdown.c -- breadth-first search for the first disagreement between
 * two semantics of one model (see breakdown.h). */
#include <config.h>
#include "transformer/breakdown.h"
#include "base/limit.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "machine/rowset.h"
#include "transformer/sim.h"

/* One level of the search: its states (keys) and their search-tree ids
 * (id[i] for the key of row id i). */
typedef struct {
	RowSet keys;
	uint32_t *id;
	size_t idcap;
} Level;

typedef struct {
	Sim *ref, *sim;
	size_t nacc, keywords; /* the key's int64s */
	Acc *a, *b;
	uint32_t *parent, *letter; /* by id */
	size_t nids, idcap;
} Search;

/* The key of a pair of states: the fields of every accumulator, copied
 * one by one (no padding bytes) into int64s. */
static void make_key(const Search *s, int64_t *words)
{
	unsigned char *key = (unsigned char *)words;
	for (size_t i = 0; i < s->nacc; i++) {
		memcpy(key, &s->a[i].m, sizeof s->a[i].m);
		key += sizeof s->a[i].m;
		memcpy(key, &s->b[i].v, sizeof s->b[i].v);
		key += sizeof s->b[i].v;
		memcpy(key, &s->b[i].m, sizeof s->b[i].m);
		key += sizeof s->b[i].m;
	}
}

static void unpack_key(const Search *s, const int64_t *words)
{
	const unsigned char *key = (const unsigned char *)words;
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

static void level_init(Level *l, size_t width)
{
	rowset_init(&l->keys, width);
	l->id = NULL;
	l->idcap = 0;
}

static void level_free(Level *l)
{
	rowset_free(&l->keys);
	free(l->id);
}

/* Adds key (as search-tree id `id`) unless present; true when added. */
static bool level_add(Level *l, const int64_t *key, uint32_t id)
{
	bool added;
	uint32_t i = rowset_add(&l->keys, key, &added);
	if (added) {
		mem_grow((void **)&l->id, &l->idcap, (size_t)i + 1,
			 sizeof *l->id);
		l->id[i] = id;
	}
	return added;
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
	Level cur, next;
	level_init(&cur, s->keywords);
	level_init(&next, s->keywords);
	int64_t *key = xcalloc(s->keywords, sizeof *key);
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
		rowset_clear(&next.keys);
		for (size_t i = 0; i < cur.keys.n && r == BREAK_NONE; i++) {
			for (uint32_t t = 1; t <= m->nletters; t++) {
				unpack_key(s, rowset_row(&cur.keys, i));
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
	level_free(&cur);
	level_free(&next);
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
		size_t bytes = s.nacc * (2 * sizeof(__int128) + sizeof(double));
		s.keywords = bytes ? (bytes + 7) / 8 : 1;
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
