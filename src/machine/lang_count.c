/* lang_count.c -- accepted words per length over merged states (see
 * lang_count.h). */
#include <config.h>
#include "machine/lang_count.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>

#include "machine/machine.h"
#include "base/mem.h"

#define EMPTY UINT32_MAX

/* One length's states: packed rows, their multiplicities, a hash index. */
typedef struct {
	size_t width, n, cap;
	int64_t *rows;
	fmpz *mult;
	uint32_t *index; /* open addressing: row numbers, EMPTY free */
	size_t mask;
} Level;

static void level_init(Level *l, size_t width)
{
	memset(l, 0, sizeof *l);
	l->width = width;
	l->mask = 255;
	l->index = xmalloc((l->mask + 1) * sizeof *l->index);
	memset(l->index, 0xff, (l->mask + 1) * sizeof *l->index);
}

static void level_clear(Level *l)
{
	for (size_t i = 0; i < l->n; i++)
		fmpz_clear(&l->mult[i]);
	l->n = 0;
	memset(l->index, 0xff, (l->mask + 1) * sizeof *l->index);
}

static void level_free(Level *l)
{
	level_clear(l);
	free(l->rows);
	free(l->mult);
	free(l->index);
}

static void rehash(Level *l)
{
	l->mask = 2 * l->mask + 1;
	free(l->index);
	l->index = xmalloc((l->mask + 1) * sizeof *l->index);
	memset(l->index, 0xff, (l->mask + 1) * sizeof *l->index);
	for (size_t i = 0; i < l->n; i++) {
		size_t h = machine_packed_hash(l->rows + i * l->width,
					       l->width) & l->mask;
		while (l->index[h] != EMPTY)
			h = (h + 1) & l->mask;
		l->index[h] = (uint32_t)i;
	}
}

/* Adds k prefixes reaching the packed state row. */
static void level_add(Level *l, const int64_t *row, const fmpz_t k)
{
	size_t h = machine_packed_hash(row, l->width) & l->mask;
	for (; l->index[h] != EMPTY; h = (h + 1) & l->mask) {
		uint32_t i = l->index[h];
		if (memcmp(l->rows + (size_t)i * l->width, row,
			   l->width * sizeof *row) == 0) {
			fmpz_add(&l->mult[i], &l->mult[i], k);
			return;
		}
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->rows = xrealloc(l->rows, l->cap * l->width * sizeof *l->rows);
		l->mult = xrealloc(l->mult, l->cap * sizeof *l->mult);
	}
	memcpy(l->rows + l->n * l->width, row, l->width * sizeof *row);
	fmpz_init_set(&l->mult[l->n], k);
	l->index[h] = (uint32_t)l->n++;
	if (2 * l->n > l->mask)
		rehash(l);
}

typedef struct {
	Machine m;
	MachineState st, judge;
	AcceptAt accept;
	fmpz *per_code; /* how many alphabet letters have each code */
	int64_t *row;
} Counter;

/* The verdict of the word read into st. */
static bool accepts(Counter *c, MachineState *st)
{
	if (c->accept == ACCEPT_EOS) {
		machine_state_copy(&c->m, &c->judge, st);
		st = &c->judge;
		machine_step(&c->m, st, (uint32_t)c->m.ncodes - 1);
	}
	machine_query(&c->m, st);
	return machine_root(&c->m, st, 0);
}

/* From the states of length len in cur to those of len + 1 in next,
 * the accepted ones summed into *accepted.  False when a limit stopped
 * it. */
static bool advance(Counter *c, const Level *cur, Level *next, size_t len,
		    fmpz_t accepted, fmpz_t k, Limits *lim)
{
	fmpz_zero(accepted);
	for (size_t i = 0; i < cur->n; i++)
		for (uint32_t code = 0; code < c->m.ncodes; code++) {
			if (limit_poll(lim))
				return false;
			if (fmpz_is_zero(&c->per_code[code]))
				continue;
			machine_unpack(&c->m, &c->st, cur->rows + i * cur->width,
				       len);
			machine_step(&c->m, &c->st, code);
			fmpz_mul(k, &cur->mult[i], &c->per_code[code]);
			if (accepts(c, &c->st))
				fmpz_add(accepted, accepted, k);
			machine_pack(&c->m, &c->st, c->row);
			level_add(next, c->row, k);
		}
	return true;
}

LangCountFn lang_count_hook;

bool lang_count(const Store *s, Node root, const Alphabet *alpha,
		AcceptAt accept, size_t maxlen, Limits *lim,
		LangCountEmit emit, void *arg)
{
	if (lang_count_hook)
		return lang_count_hook(s, root, alpha, accept, maxlen, lim, emit,
				       arg);
	Counter c = {.accept = accept};
	machine_init(&c.m, s, &root, 1, false);
	machine_state_init(&c.m, &c.st);
	machine_state_init(&c.m, &c.judge);
	c.per_code = _fmpz_vec_init((slong)c.m.ncodes);
	for (size_t i = 0; i < alpha->n; i++)
		fmpz_add_ui(&c.per_code[machine_code(&c.m.codes,
						     alpha->letters[i])],
			    &c.per_code[machine_code(&c.m.codes,
						     alpha->letters[i])], 1);
	size_t width = machine_packed_len(&c.m);
	c.row = xmalloc((width ? width : 1) * sizeof *c.row);
	Level lv[2];
	level_init(&lv[0], width);
	level_init(&lv[1], width);
	fmpz_t accepted, k;
	fmpz_init(accepted);
	fmpz_init_set_ui(k, 1);
	machine_reset(&c.m, &c.st);
	fmpz_set_ui(accepted, accepts(&c, &c.st));
	machine_pack(&c.m, &c.st, c.row);
	level_add(&lv[0], c.row, k);
	emit(0, accepted, arg);
	bool ok = true;
	for (size_t len = 0; len < maxlen; len++) {
		Level *cur = &lv[len & 1], *next = &lv[(len + 1) & 1];
		level_clear(next);
		ok = !limit_check(lim) &&
		     advance(&c, cur, next, len, accepted, k, lim);
		if (!ok)
			break;
		emit(len + 1, accepted, arg);
	}
	fmpz_clear(accepted);
	fmpz_clear(k);
	level_free(&lv[0]);
	level_free(&lv[1]);
	free(c.row);
	_fmpz_vec_clear(c.per_code, (slong)c.m.ncodes);
	machine_state_free(&c.m, &c.st);
	machine_state_free(&c.m, &c.judge);
	machine_free(&c.m);
	return ok;
}
