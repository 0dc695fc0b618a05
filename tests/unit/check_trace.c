/* check_trace.c -- the traces of tally eval --trace (src/trace.c) against
 * the naive reference of ref_eval.c, on every word up to a length under
 * both acceptance conventions:
 *  - random programs of let-definitions made for the store to merge
 *    (definitions flattened into larger &, | and +, definitions no output
 *    uses, aliases and copies of other definitions): each definition's
 *    row against its body with the definitions it names written out in
 *    parentheses, parsed on its own in another store;
 *  - random formulas without definitions: each subformula row against
 *    its label parsed back on its own;
 *  - the corpus programs (corpora/programs/ *.cr, *.crasp): a row per
 *    statement, in order, against the statement's node.
 * Every value of every row is checked, at every position (0 for the empty
 * word, n+1 for the end marker); the text table (trace_print) must show
 * the JSON rows (trace_json) cell for cell, a window must show the same
 * values, and a trace handed the evaluator's table of the outputs alone
 * (the path of equiv --trace) must show the same rows.  Fixed seeds;
 * TALLY_TEST_MULTIPLIER scales the random cases. */
#include <config.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "machine/eval.h"
#include "fixture.h"
#include "base/mem.h"
#include "core/print.h"
#include "randgen.h"
#include "ref_eval.h"
#include "suites.h"
#include "machine/trace.h"

enum { MAX_LEN = 5, MAX_ROWS = 64, MAX_LETTERS = 4 };

/* A trace to check: the program (in its own Inputs, as tally eval loads
 * it) and, per row, the label it must have (NULL: any) and the node in
 * the reference store whose values it must show. */
typedef struct {
	const char *what; /* the program text or file, for messages */
	Inputs in;
	Trace *tr;
	const Store *ref; /* the reference store: rows' nodes, letters */
	size_t nrows;
	const char *label[MAX_ROWS];
	Node node[MAX_ROWS];
	const char *letters[MAX_LETTERS]; /* the alphabet, by name */
	size_t nletters, max_len;
} Case;

static Sym sym_of(const Store *s, const char *name)
{
	return sym_intern(store_syms((Store *)s), name, strlen(name));
}

static void json_value(json_t *v, fmpz_t out)
{
	if (json_is_integer(v))
		fmpz_set_si(out, (slong)json_integer_value(v));
	else if (json_is_string(v))
		ck_assert(fmpz_set_str(out, json_string_value(v), 10) == 0);
	else
		ck_abort_msg("a trace value is neither an integer nor a string");
}

static char *word_text(const Case *c, const unsigned *d, size_t n)
{
	Buf b = {0};
	buf_puts(&b, n ? "" : "(empty)");
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? " " : "", c->letters[d[i]]);
	return buf_take(&b);
}

/* The text table, cell for cell, as the JSON rows: the values are the
 * last ncol fields of a row's line, the label what precedes them. */
static void check_text(const Case *c, const EvalTable *t, const Sym *w,
		       size_t n, json_t *rows, const char *word)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	trace_print(c->tr, t, w, n, f);
	fclose(f);
	size_t ncol = eval_table_last(t) - eval_table_first(t) + 1;
	char *line = strtok(text, "\n");
	for (int skip = 0; skip < 2; skip++) /* positions, letters */
		line = strtok(NULL, "\n");
	size_t r;
	json_t *row;
	json_array_foreach(rows, r, row) {
		ck_assert_msg(line != NULL, "%s on %s: the text has %zu rows, "
			      "the JSON %zu", c->what, word, r,
			      json_array_size(rows));
		char *end = line + strlen(line);
		for (size_t k = ncol; k-- > 0;) {
			char *sp = end;
			while (sp > line && sp[-1] != ' ')
				sp--;
			fmpz_t got, want;
			fmpz_init(got);
			fmpz_init(want);
			ck_assert(fmpz_set_str(got, sp, 10) == 0);
			json_value(json_array_get(json_object_get(row, "values"),
						  k), want);
			ck_assert_msg(fmpz_equal(got, want), "%s on %s: row %zu, "
				      "column %zu: text %s, JSON differs",
				      c->what, word, r, k, sp);
			fmpz_clear(got);
			fmpz_clear(want);
			end = sp;
			while (end > line && end[-1] == ' ')
				end--;
			*end = '\0';
		}
		const char *label = json_string_value(json_object_get(row,
								      "label"));
		ck_assert_msg(strcmp(line, label) == 0, "%s on %s: text row "
			      "'%s', JSON row '%s'", c->what, word, line, label);
		line = strtok(NULL, "\n");
	}
	ck_assert_msg(line == NULL, "%s on %s: an extra text row '%s'",
		      c->what, word, line);
	free(text);
}

/* Every row of js at every position against the reference. */
static void check_rows(const Case *c, json_t *js, const Sym *x, size_t len,
		       size_t first, const char *word, AcceptAt a)
{
	json_t *rows = json_object_get(js, "rows");
	ck_assert_msg(json_array_size(rows) == c->nrows, "%s on %s: %zu rows, "
		      "wanted %zu", c->what, word, json_array_size(rows),
		      c->nrows);
	fmpz_t got, want;
	fmpz_init(got);
	fmpz_init(want);
	for (size_t r = 0; r < c->nrows; r++) {
		json_t *row = json_array_get(rows, r);
		const char *label = json_string_value(json_object_get(row,
								      "label"));
		ck_assert_msg(!c->label[r] || strcmp(label, c->label[r]) == 0,
			      "%s: row %zu is '%s', wanted '%s'", c->what, r,
			      label, c->label[r]);
		json_t *vals = json_object_get(row, "values");
		for (size_t k = 0; k < json_array_size(vals); k++) {
			json_value(json_array_get(vals, k), got);
			ref_value(c->ref, c->node[r], x, len, first + k, want);
			if (!fmpz_equal(got, want))
				ck_abort_msg("%s\n  row %s on %s (accept-at=%s), "
					     "position %zu: trace %s, reference "
					     "%s", c->what, label, word,
					     eval_accept_name(a), first + k,
					     fmpz_get_str(NULL, 10, got),
					     fmpz_get_str(NULL, 10, want));
		}
	}
	fmpz_clear(got);
	fmpz_clear(want);
}

/* The trace's positions: 0 alone for the empty word (last), 1..len. */
static void check_positions(const Case *c, json_t *js, size_t first,
			    size_t last, const char *word)
{
	json_t *pos = json_object_get(js, "positions");
	ck_assert_msg(json_array_size(pos) == last - first + 1,
		      "%s on %s: %zu positions, wanted %zu..%zu", c->what, word,
		      json_array_size(pos), first, last);
	for (size_t k = 0; k < json_array_size(pos); k++)
		ck_assert(json_integer_value(json_array_get(pos, k)) ==
			  (json_int_t)(first + k));
}

/* The values of the rows over a window: those of the whole table. */
static void check_window(const Case *c, const Sym *w, size_t n, AcceptAt a,
			 json_t *whole, size_t lo, size_t hi)
{
	EvalTable *t = trace_table(c->tr, a, w, n, lo, hi);
	json_t *js = trace_json(c->tr, t, w, n);
	size_t first = eval_table_first(t);
	json_t *rows = json_object_get(js, "rows");
	for (size_t r = 0; r < json_array_size(rows); r++) {
		json_t *v = json_object_get(json_array_get(rows, r), "values");
		json_t *all = json_object_get(
			json_array_get(json_object_get(whole, "rows"), r),
			"values");
		for (size_t k = 0; k < json_array_size(v); k++)
			ck_assert_msg(json_equal(json_array_get(v, k),
						 json_array_get(all, first + k - 1)),
				      "%s: a window differs at %zu", c->what,
				      first + k);
	}
	json_decref(js);
	eval_table_free(t);
}

static void check_word(const Case *c, const unsigned *d, size_t n,
		       AcceptAt a)
{
	Sym w[MAX_LEN + 1], x[MAX_LEN + 1];
	for (size_t i = 0; i < n; i++) {
		w[i] = sym_of(c->in.store, c->letters[d[i]]);
		x[i] = sym_of(c->ref, c->letters[d[i]]);
	}
	size_t len = a == ACCEPT_EOS ? n + 1 : n;
	x[n] = SYM_NONE; /* the end marker */
	size_t first = len == 0 ? 0 : 1;
	char *word = word_text(c, d, n);
	EvalTable *t = trace_table(c->tr, a, w, n, 0, SIZE_MAX);
	json_t *js = trace_json(c->tr, t, w, n);
	check_positions(c, js, first, len, word);
	check_rows(c, js, x, len, first, word, a);
	check_text(c, t, w, n, json_object_get(js, "rows"), word);
	if (len >= 2)
		check_window(c, w, n, a, js, 2, len);
	/* the evaluator's table of the outputs: the same trace */
	Node roots[8];
	for (size_t u = 0; u < c->in.nunits; u++)
		roots[u] = c->in.units[u].output;
	Evaluator *ev = eval_new(c->in.store, roots, c->in.nunits, a);
	EvalTable *t2 = eval_table(ev, w, n);
	json_t *js2 = trace_json(c->tr, t2, w, n);
	ck_assert_msg(json_equal(js, js2), "%s on %s: the trace differs when "
		      "given the outputs' table", c->what, word);
	json_decref(js2);
	eval_table_free(t2);
	eval_free(ev);
	json_decref(js);
	eval_table_free(t);
	free(word);
}

/* Every word over the case's letters of length <= max_len, both ways. */
static void check_all_words(const Case *c)
{
	unsigned d[MAX_LEN] = {0};
	for (size_t n = 0; n <= c->max_len; n++) {
		do {
			check_word(c, d, n, ACCEPT_LAST);
			check_word(c, d, n, ACCEPT_EOS);
		} while (fixture_next_word(d, n, (unsigned)c->nletters));
	}
}

static void case_load(Case *c, const char *text)
{
	inputs_init(&c->in);
	c->what = text;
	Source *src = source_new("-f", text, strlen(text));
	ck_assert_msg(inputs_parse(&c->in, src, FLAVOR_TL), "%s", text);
	c->tr = trace_new(c->in.store, c->in.units, c->in.nunits);
}

static void case_free(Case *c)
{
	trace_free(c->tr);
	inputs_free(&c->in);
}

/* The rows' labels, from the trace of the empty word. */
static json_t *labels(const Case *c)
{
	EvalTable *t = trace_table(c->tr, ACCEPT_LAST, NULL, 0, 0, SIZE_MAX);
	json_t *js = trace_json(c->tr, t, NULL, 0);
	eval_table_free(t);
	return js;
}

/* ---- the reference store ------------------------------------------- */

static Fixture fx;
static Sym ab[2];
static const char *ab_names[2] = {"a", "b"};

static void setup(void)
{
	fixture_init(&fx);
	ab[0] = fixture_letter(&fx, "a");
	ab[1] = fixture_letter(&fx, "b");
}

static void teardown(void)
{
	fixture_free(&fx);
}

/* The node of a formula or term written on its own, in the reference
 * store. */
static Node ref_node(const char *body)
{
	Buf b = {0};
	buf_printf(&b, "let R_ = (%s); true", body);
	char *text = buf_take(&b);
	Source *src = source_new("ref", text, strlen(text));
	free(text);
	mem_grow((void **)&fx.sources, &fx.cap, fx.nsources + 1,
		 sizeof *fx.sources);
	fx.sources[fx.nsources++] = src;
	scope_clear(fx.scope);
	Diag d = {.out = stderr};
	Unit u = {0};
	ck_assert_msg(tl_parse(fx.scope, &d, src, &u) && u.ndefs == 1,
		      "the reference does not parse: %s", src->text);
	Node n = u.defs[0].node;
	unit_free(&u);
	return n;
}

/* ---- random programs of let-definitions ---------------------------- */

enum { MAX_DEFS = 7 };

typedef struct {
	Rng *r;
	GenOptions o;
	size_t n;
	bool isb[MAX_DEFS];
	char *body[MAX_DEFS]; /* as written, naming earlier definitions */
	char *inl[MAX_DEFS];  /* the same with every name written out */
} Prog;

static bool coin(Prog *p, uint32_t percent)
{
	return rng_below(p->r, 100) < percent;
}

/* A random earlier definition of the sort, or -1. */
static int pick_def(Prog *p, bool isb)
{
	int found[MAX_DEFS], k = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->isb[i] == isb)
			found[k++] = (int)i;
	return k ? found[rng_below(p->r, (uint32_t)k)] : -1;
}

/* Appends an operand of the sort to both texts: an earlier definition
 * (its name; its body written out) or a random formula or term. */
static void operand(Prog *p, bool isb, Buf *body, Buf *inl, uint32_t defs)
{
	int j = coin(p, defs) ? pick_def(p, isb) : -1;
	if (j >= 0) {
		buf_printf(body, "v%d", j);
		buf_printf(inl, "(%s)", p->inl[j]);
		return;
	}
	Node n = isb ? randgen_formula(fx.store, p->r, &p->o)
		     : randgen_term(fx.store, p->r, &p->o);
	char *t = tl_print(fx.store, n, SYNTAX_TL, NULL);
	buf_printf(body, "(%s)", t);
	buf_printf(inl, "(%s)", t);
	free(t);
}

static void both(Buf *body, Buf *inl, const char *s)
{
	buf_puts(body, s);
	buf_puts(inl, s);
}

/* An n-ary &, | or + of 2 or 3 operands: what the store flattens. */
static void nary(Prog *p, bool isb, const char *op, Buf *body, Buf *inl,
		 uint32_t defs)
{
	uint32_t k = 2 + rng_below(p->r, 2);
	for (uint32_t i = 0; i < k; i++) {
		if (i)
			both(body, inl, op);
		operand(p, isb, body, inl, defs);
	}
}

static void bool_body(Prog *p, Buf *body, Buf *inl, uint32_t defs)
{
	static const char *const rel[] = {" < ", " <= ", " = ", " != ",
					  " >= ", " > "};
	switch (rng_below(p->r, 7)) {
	case 0: nary(p, true, " & ", body, inl, defs); break;
	case 1: nary(p, true, " | ", body, inl, defs); break;
	case 2:
		both(body, inl, "!");
		operand(p, true, body, inl, defs);
		break;
	case 3:
		operand(p, false, body, inl, defs);
		both(body, inl, rel[rng_below(p->r, 6)]);
		operand(p, false, body, inl, defs);
		break;
	case 4: {
		bool y = p->o.positional && coin(p, 50);
		both(body, inl, y ? "Y " : "#[");
		operand(p, true, body, inl, defs);
		if (!y)
			both(body, inl, "] >= 1");
		break;
	}
	default: operand(p, true, body, inl, 90); break; /* an alias */
	}
}

static void int_body(Prog *p, Buf *body, Buf *inl, uint32_t defs)
{
	switch (rng_below(p->r, 5)) {
	case 0:
	case 1: nary(p, false, " + ", body, inl, defs); break;
	case 2: {
		char k[16];
		snprintf(k, sizeof k, "%d*", (int)rng_below(p->r, 5) - 2);
		both(body, inl, k);
		operand(p, false, body, inl, defs);
		break;
	}
	case 3:
		both(body, inl, p->o.future && coin(p, 40) ? "#>[" : "#[");
		operand(p, true, body, inl, defs);
		both(body, inl, "]");
		break;
	default: operand(p, false, body, inl, 90); break;
	}
}

/* A program of 2..MAX_DEFS definitions v0, v1, ... (some copies of
 * earlier ones) and a Boolean output over them: the text in *text, the
 * case's rows (one per definition, then the output unless a definition
 * is its node) filled in. */
static char *random_program(Prog *p, Case *c)
{
	Buf text = {0};
	size_t ndefs = 2 + rng_below(p->r, MAX_DEFS - 1);
	p->n = 0;
	for (size_t i = 0; i < ndefs; i++) {
		Buf body = {0}, inl = {0};
		buf_puts(&body, "");
		buf_puts(&inl, "");
		int copy = i && coin(p, 15) ? (int)rng_below(p->r, (uint32_t)i)
					    : -1;
		p->isb[i] = copy >= 0 ? p->isb[copy] : coin(p, 55);
		if (copy >= 0) {
			buf_puts(&body, p->body[copy]);
			buf_puts(&inl, p->inl[copy]);
		} else if (p->isb[i]) {
			bool_body(p, &body, &inl, 70);
		} else {
			int_body(p, &body, &inl, 70);
		}
		buf_printf(&text, "let v%zu = %s;\n", i, body.data);
		p->body[i] = buf_take(&body);
		p->inl[i] = buf_take(&inl);
		p->n++;
	}
	Buf body = {0}, inl = {0};
	buf_puts(&body, "");
	buf_puts(&inl, "");
	bool_body(p, &body, &inl, 80);
	buf_puts(&text, body.data);
	case_load(c, text.data);
	c->ref = fx.store;
	const Unit *u = &c->in.units[0];
	ck_assert(u->ndefs == ndefs);
	bool named = false;
	for (size_t i = 0; i < ndefs; i++) {
		c->label[i] = sym_name(store_syms(c->in.store), u->defs[i].name);
		c->node[i] = ref_node(p->inl[i]);
		named |= u->defs[i].node == u->output;
	}
	c->nrows = ndefs;
	if (!named) {
		c->label[c->nrows] = NULL;
		c->node[c->nrows++] = ref_node(inl.data);
	}
	buf_free(&body);
	buf_free(&inl);
	return buf_take(&text);
}

static void prog_free(Prog *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->body[i]);
		free(p->inl[i]);
	}
}

enum { RANDOM_PROGRAMS = 60 };

static void random_lets(uint64_t seed, bool future)
{
	Rng r;
	rng_seed(&r, seed);
	unsigned cases = test_count(RANDOM_PROGRAMS);
	for (unsigned k = 0; k < cases; k++) {
		Prog p = {.r = &r,
			  .o = {.letters = ab, .nletters = 2, .max_depth = 1,
				.max_size = 4, .future = future,
				.positional = true, .extended = k % 3 == 0}};
		Case c = {.nletters = 2, .max_len = 4};
		c.letters[0] = ab_names[0];
		c.letters[1] = ab_names[1];
		char *text = random_program(&p, &c);
		check_all_words(&c);
		case_free(&c);
		prog_free(&p);
		free(text);
	}
}

START_TEST(lets_past)
{
	random_lets(0x7ace0001u + (uint64_t)_i, false);
}
END_TEST

START_TEST(lets_future)
{
	random_lets(0x7ace0101u + (uint64_t)_i, true);
}
END_TEST

/* ---- random formulas: the subformula rows ---------------------------- */

enum { RANDOM_FORMULAS = 80 };

START_TEST(subformula_rows)
{
	Rng r;
	rng_seed(&r, 0x7ace0201u + (uint64_t)_i);
	unsigned cases = test_count(RANDOM_FORMULAS);
	for (unsigned k = 0; k < cases; k++) {
		GenOptions o = {.letters = ab, .nletters = 2, .max_depth = 2,
				.max_size = 8, .future = k % 2,
				.positional = true, .extended = k % 4 == 0};
		Node f = randgen_formula(fx.store, &r, &o);
		char *text = tl_print(fx.store, f, SYNTAX_TL, NULL);
		Case c = {.nletters = 2, .max_len = 4, .ref = fx.store};
		c.letters[0] = ab_names[0];
		c.letters[1] = ab_names[1];
		case_load(&c, text);
		json_t *js = labels(&c);
		json_t *rows = json_object_get(js, "rows");
		c.nrows = json_array_size(rows);
		ck_assert(c.nrows <= MAX_ROWS);
		bool whole = true;
		for (size_t i = 0; i < c.nrows; i++) {
			const char *l = json_string_value(
				json_object_get(json_array_get(rows, i), "label"));
			size_t n = strlen(l);
			/* a label cut short stands for no formula */
			whole &= n < 3 || strcmp(l + n - 3, "...") != 0;
			c.label[i] = l;
			c.node[i] = whole ? ref_node(l) : NODE_NONE;
		}
		if (whole)
			check_all_words(&c);
		json_decref(js);
		case_free(&c);
		free(text);
	}
}
END_TEST

/* ---- the corpus programs --------------------------------------------- */

static void corpus_case(const char *path)
{
	Case c = {.what = path};
	inputs_init(&c.in);
	ck_assert(inputs_option(&c.in, 'P', path));
	ck_assert_msg(inputs_load(&c.in, false), "%s does not load", path);
	c.tr = trace_new(c.in.store, c.in.units, c.in.nunits);
	c.ref = c.in.store;
	const Unit *u = &c.in.units[0];
	bool named = false;
	for (size_t i = 0; i < u->ndefs; i++) {
		ck_assert(c.nrows < MAX_ROWS);
		c.label[c.nrows] = sym_name(store_syms(c.in.store),
					    u->defs[i].name);
		c.node[c.nrows++] = u->defs[i].node;
		named |= u->defs[i].node == u->output;
	}
	if (!named) {
		c.label[c.nrows] = NULL;
		c.node[c.nrows++] = u->output;
	}
	for (size_t i = 0; i < u->nletters; i++) {
		const char *l = sym_name(store_syms(c.in.store), u->letters[i]);
		bool seen = false;
		for (size_t j = 0; j < c.nletters; j++)
			seen |= strcmp(c.letters[j], l) == 0;
		if (!seen) {
			ck_assert(c.nletters < MAX_LETTERS);
			c.letters[c.nletters++] = l;
		}
	}
	c.max_len = c.nletters <= 2 ? 5 : 4;
	check_all_words(&c);
	case_free(&c);
}

static bool is_program(const char *name)
{
	size_t n = strlen(name);
	return (n > 3 && strcmp(name + n - 3, ".cr") == 0) ||
	       (n > 6 && strcmp(name + n - 6, ".crasp") == 0);
}

START_TEST(corpus_programs)
{
	const char *top = getenv("top_srcdir");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/corpora/programs", top ? top : ".");
	DIR *dp = opendir(dir);
	ck_assert_msg(dp != NULL, "cannot open %s", dir);
	size_t count = 0;
	struct dirent *e;
	while ((e = readdir(dp)) != NULL) {
		if (!is_program(e->d_name))
			continue;
		char path[2048];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		corpus_case(path);
		count++;
	}
	closedir(dp);
	ck_assert_msg(count >= 20, "only %zu corpus programs in %s", count,
		      dir);
}
END_TEST

Suite *trace_suite(void)
{
	Suite *su = suite_create("trace");
	TCase *tc = tcase_create("differential");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300 * test_multiplier());
	tcase_add_loop_test(tc, lets_past, 0, 2);
	tcase_add_loop_test(tc, lets_future, 0, 2);
	tcase_add_loop_test(tc, subformula_rows, 0, 2);
	tcase_add_test(tc, corpus_programs);
	suite_add_tcase(su, tc);
	return su;
}
