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

void lang_count_level_init(LangCountLevel *l, size_t width)
{
	rowset_init(&l->rows, width);
	l->mult = NULL;
	l->cap = 0;
}

/* mult[i] is initialised while row i is in the set. */
void lang_count_level_clear(LangCountLevel *l)
{
	for (size_t i = 0; i < l->rows.n; i++)
		fmpz_clear(&l->mult[i]);
	rowset_clear(&l->rows);
}

void lang_count_level_free(LangCountLevel *l)
{
	lang_count_level_clear(l);
	rowset_free(&l->rows);
	free(l->mult);
}

void lang_count_level_add(LangCountLevel *l, const int64_t *row,
			  const fmpz_t k)
{
	bool added;
	uint32_t i = rowset_add(&l->rows, row, &added);
	if (!added) {
		fmpz_add(&l->mult[i], &l->mult[i], k);
		return;
	}
	mem_grow((void **)&l->mult, &l->cap, (size_t)i + 1, sizeof *l->mult);
	fmpz_init_set(&l->mult[i], k);
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
static bool advance(Counter *c, const LangCountLevel *cur,
		    LangCountLevel *next, size_t len,
		    fmpz_t accepted, fmpz_t k, Limits *lim)
{
	fmpz_zero(accepted);
	for (size_t i = 0; i < cur->rows.n; i++)
		for (uint32_t code = 0; code < c->m.ncodes; code++) {
			if (limit_poll(lim))
				return false;
			if (fmpz_is_zero(&c->per_code[code]))
				continue;
			machine_unpack(&c->m, &c->st, rowset_row(&cur->rows, i),
				       len);
			machine_step(&c->m, &c->st, code);
			fmpz_mul(k, &cur->mult[i], &c->per_code[code]);
			if (accepts(c, &c->st))
				fmpz_add(accepted, accepted, k);
			machine_pack(&c->m, &c->st, c->row);
			lang_count_level_add(next, c->row, k);
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
	c.row = xmalloc(width * sizeof *c.row);
	LangCountLevel lv[2];
	lang_count_level_init(&lv[0], width);
	lang_count_level_init(&lv[1], width);
	fmpz_t accepted, k;
	fmpz_init(accepted);
	fmpz_init_set_ui(k, 1);
	machine_reset(&c.m, &c.st);
	fmpz_set_ui(accepted, accepts(&c, &c.st));
	machine_pack(&c.m, &c.st, c.row);
	lang_count_level_add(&lv[0], c.row, k);
	emit(0, accepted, arg);
	bool ok = true;
	for (size_t len = 0; len < maxlen; len++) {
		LangCountLevel *cur = &lv[len & 1];
		LangCountLevel *next = &lv[(len + 1) & 1];
		lang_count_level_clear(next);
		ok = !limit_check(lim) &&
		     advance(&c, cur, next, len, accepted, k, lim);
		if (!ok)
			break;
		emit(len + 1, accepted, arg);
	}
	fmpz_clear(accepted);
	fmpz_clear(k);
	lang_count_level_free(&lv[0]);
	lang_count_level_free(&lv[1]);
	free(c.row);
	_fmpz_vec_clear(c.per_code, (slong)c.m.ncodes);
	machine_state_free(&c.m, &c.st);
	machine_state_free(&c.m, &c.judge);
	machine_free(&c.m);
	return ok;
}
