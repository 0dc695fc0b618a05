/* explore.c -- breadth-first search over joint states (see explore.h). */
#include <config.h>
#include "decide/explore.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/limit.h"
#include "machine/machine.h"
#include "machine/rowset.h"
#include "base/mem.h"

#define NO_STATE UINT32_MAX

/* Limits and progress, shared by both search modes. */
typedef struct {
	const Query *q;
	double start, next_progress;
	bool progress;
	const char *stop; /* which limit stopped the search, or NULL */
} Budget;

static void budget_init(Budget *b, const Query *q)
{
	b->q = q;
	b->start = limit_now();
	b->next_progress = b->start + 0.25;
	b->progress = q->progress && isatty(STDERR_FILENO);
	b->stop = NULL;
}

/* False (and b->stop set) when a limit is reached. */
/* Called every 256 states: limit_check() reads the memory each time. */
static bool budget_ok(Budget *b, size_t states, size_t len)
{
	const Query *q = b->q;
	if (q->max_states && states > q->max_states)
		b->stop = "the state limit";
	else if (limit_check(q->limits))
		b->stop = q->limits->hit == LIMIT_TIME ? "the time limit"
						       : "the memory limit";
	if (b->stop)
		return false;
	if (q->timeout <= 0 && !b->progress)
		return true; /* no clock to read */
	double now = limit_now();
	if (q->timeout > 0 && now - b->start > q->timeout) {
		b->stop = "the time limit";
		return false;
	}
	if (b->progress && now >= b->next_progress) {
		fprintf(stderr, "\rexplore: length %zu, %zu states, %.1f s ",
			len, states, now - b->start);
		b->next_progress = now + 0.25;
	}
	return true;
}

static void budget_done(const Budget *b)
{
	if (b->progress)
		fputs("\r\033[K", stderr);
}

static void stopped(MethodResult *out, const Budget *b)
{
	size_t len = strlen(b->stop) + 16;
	out->reason = xmalloc(len);
	snprintf(out->reason, len, "stopped by %s", b->stop);
}

/* ---- state merging (past-only formulas) ------------------------------- */

/* The first word reaching a state: its parent's word, then a letter. */
typedef struct {
	uint32_t parent; /* NO_STATE: the empty word */
	uint32_t via;    /* index into Search.let */
} Reach;

typedef struct {
	Machine m;
	QueryCodes let;  /* the letters worth trying: one per code */
	RowSet states;   /* packed states, numbered by first reach */
	int64_t *row;    /* the state just stepped, packed */
	Reach *from;     /* per state: how it was first reached */
	size_t cap;      /* room in from */
	MachineState st, eos;
	AcceptAt accept;
} Search;

/* Do the two roots differ on the word read into st? */
static bool differ(Search *s, MachineState *st)
{
	if (s->accept == ACCEPT_EOS) {
		machine_state_copy(&s->m, &s->eos, st);
		st = &s->eos;
		machine_step(&s->m, st, s->let.end_code);
	}
	machine_query(&s->m, st);
	return machine_root(&s->m, st, 0) != machine_root(&s->m, st, 1);
}

/* Adds the state read into st unless an equal one exists. */
static void add_state(Search *s, uint32_t parent, uint32_t via)
{
	machine_pack(&s->m, &s->st, s->row);
	bool added;
	uint32_t id = rowset_add(&s->states, s->row, &added);
	if (!added)
		return;
	if (id >= s->cap) /* no call on the hot path */
		mem_grow((void **)&s->from, &s->cap, (size_t)id + 1,
			 sizeof *s->from);
	s->from[id] = (Reach){parent, via};
}

/* The word reaching state i, then letter `last` (NO_STATE: none). */
static void witness(const Search *s, uint32_t i, uint32_t last, Runs *w)
{
	size_t len = 0;
	for (uint32_t j = i; s->from[j].parent != NO_STATE;
	     j = s->from[j].parent)
		len++;
	uint32_t *path = xmalloc((len + 1) * sizeof *path);
	size_t k = len;
	for (uint32_t j = i; s->from[j].parent != NO_STATE;
	     j = s->from[j].parent)
		path[--k] = s->from[j].via;
	if (last != NO_STATE)
		path[len++] = last;
	for (size_t j = 0; j < len; j++)
		runs_push_ui(w, s->let.sym[path[j]], 1);
	free(path);
}

static void search_free(Search *s)
{
	machine_state_free(&s->m, &s->st);
	machine_state_free(&s->m, &s->eos);
	machine_free(&s->m);
	query_codes_free(&s->let);
	rowset_free(&s->states);
	free(s->row);
	free(s->from);
}

static void merge_search(const Query *q, MethodResult *out)
{
	Search s = {.accept = q->accept};
	machine_init(&s.m, q->store, q->root, 2, false);
	query_codes_init(&s.let, q, &s.m.codes);
	machine_state_init(&s.m, &s.st);
	machine_state_init(&s.m, &s.eos);
	rowset_init(&s.states, machine_packed_len(&s.m));
	s.row = xmalloc(s.states.width * sizeof *s.row);
	Budget b;
	budget_init(&b, q);
	out->witness_shortest = true;
	size_t lo = 0, hi = 1, len = 0;
	/* Level 0: the empty word. */
	machine_reset(&s.m, &s.st);
	add_state(&s, NO_STATE, 0);
	if (differ(&s, &s.st)) {
		out->status = MR_DIFFERENT;
		goto done;
	}
	for (;;) {
		if (q->max_length && len == q->max_length) {
			out->status = MR_BOUNDED;
			break;
		}
		for (size_t i = lo; i < hi; i++) {
			if ((i & 255) == 0 &&
			    !budget_ok(&b, s.states.n, len))
				goto limit;
			for (uint32_t c = 0; c < s.let.n; c++) {
				machine_unpack(&s.m, &s.st,
					       rowset_row(&s.states, i), len);
				machine_step(&s.m, &s.st, s.let.code[c]);
				if (differ(&s, &s.st)) {
					out->status = MR_DIFFERENT;
					witness(&s, (uint32_t)i, c, &out->witness);
					goto done;
				}
				add_state(&s, (uint32_t)i, c);
			}
		}
		len++;
		if (s.states.n == hi) {
			/* Nothing new: every reachable state was checked. */
			out->status = MR_EQUIVALENT;
			size_t cl = 128;
			out->certificate = xmalloc(cl);
			snprintf(out->certificate, cl,
				 "all %zu reachable states of the product machine "
				 "agree (none new at length %zu)\n",
				 s.states.n, len);
			break;
		}
		lo = hi;
		hi = s.states.n;
	}
	goto done;
limit:
	out->status = MR_LIMIT;
	stopped(out, &b);
done:
	out->bound = len;
	out->states = s.states.n;
	budget_done(&b);
	search_free(&s);
}

/* ---- whole words (#>) --------------------------------------------------- */

static void word_search(const Query *q, MethodResult *out)
{
	MachineCodes codes;
	machine_codes_init(&codes, q->store, q->root, 2);
	QueryCodes let;
	query_codes_init(&let, q, &codes);
	machine_codes_free(&codes);
	Evaluator *ev = eval_new(q->store, q->root, 2, q->accept);
	Budget b;
	budget_init(&b, q);
	size_t len = 0, words = 0;
	size_t *digit = NULL;
	Sym *w = NULL;
	bool acc[2];
	out->witness_shortest = true;
	for (;; len++) {
		if (q->max_length && len > q->max_length) {
			len = q->max_length;
			out->status = MR_BOUNDED;
			break;
		}
		digit = xrealloc(digit, (len + 1) * sizeof *digit);
		w = xrealloc(w, (len + 1) * sizeof *w);
		memset(digit, 0, (len + 1) * sizeof *digit);
		bool more = len == 0 || let.n > 0;
		while (more) {
			for (size_t i = 0; i < len; i++)
				w[i] = let.sym[digit[i]];
			if ((++words & 255) == 0 &&
			    !budget_ok(&b, words, len ? len - 1 : 0)) {
				len = len ? len - 1 : 0;
				out->status = MR_LIMIT;
				stopped(out, &b);
				goto done;
			}
			eval_word(ev, w, len, acc);
			if (acc[0] != acc[1]) {
				out->status = MR_DIFFERENT;
				for (size_t i = 0; i < len; i++)
					runs_push_ui(&out->witness, w[i], 1);
				/* The words of this length after the witness
				 * were not checked: the shorter ones were (as
				 * the merging search says). */
				len = len ? len - 1 : 0;
				goto done;
			}
			/* Next word of this length (odometer, last letter
			 * fastest): shortlex order. */
			size_t i = len;
			while (i > 0 && ++digit[i - 1] == let.n)
				digit[--i] = 0;
			more = i > 0;
		}
		if (let.n == 0) {
			/* Only the empty word exists, and it agrees. */
			out->status = MR_BOUNDED;
			break;
		}
	}
done:
	out->bound = len;
	out->states = words;
	budget_done(&b);
	free(digit);
	free(w);
	eval_free(ev);
	query_codes_free(&let);
}

MethodFn explore_merge_hook;

void explore_decide(const Query *q, MethodResult *out)
{
	bool future = (store_flags(q->store, q->root[0]) |
		       store_flags(q->store, q->root[1])) & FLAG_FUTURE;
	if (future) {
		word_search(q, out);
		if (!out->reason && out->status != MR_DIFFERENT) {
			out->reason = xstrdup("future counts #>: whole words, "
					      "no state merging");
		}
	} else if (explore_merge_hook) {
		explore_merge_hook(q, out);
	} else {
		merge_search(q, out);
	}
}
