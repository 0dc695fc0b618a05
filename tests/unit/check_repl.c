/* check_repl.c -- what the REPL rests on:
 *  - store_import: random formulas copied out of a store holding other
 *    nodes print the same, keep depth, size and flags, copy only what they
 *    reach, and are normal in their new store (parsing the printed text
 *    there gives the very same node); importing twice gives the same ids;
 *  - scopes: a fallback scope is filled by its loader on the first lookup
 *    that reaches it, and only then; scope_forget removes a scope's own
 *    definition and uncovers the fallback's; the prelude is parsed into
 *    the store only when a name needs it;
 *  - completion: the candidates of repl_complete for a command, a name
 *    (the session's, the prelude's) and a letter, and none (file names)
 *    after :load.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/prelude.h"
#include "core/print.h"
#include "randgen.h"
#include "cli/repl.h"
#include "suites.h"

enum { SEED = 20261123, CASES = 400 };

static Node parse_in(Scope *sc, const char *text, Source **src)
{
	*src = source_new("test", text, strlen(text));
	Buf cap = {0};
	Diag d = {.capture = &cap};
	Unit u = {0};
	Node n = tl_parse(sc, &d, *src, &u) ? u.output : NODE_NONE;
	unit_free(&u);
	buf_free(&cap);
	return n;
}

START_TEST(import_keeps_formulas)
{
	Rng r;
	rng_seed(&r, SEED);
	unsigned cases = test_count(CASES);
	for (unsigned i = 0; i < cases; i++) {
		Store *a = store_new(), *b = store_new();
		Sym letters[3];
		for (int l = 0; l < 3; l++)
			letters[l] = sym_intern(store_syms(a), "abc" + l, 1);
		GenOptions o = {letters, 3, 1 + rng_below(&r, 3),
				4 + rng_below(&r, 40), rng_below(&r, 2),
				rng_below(&r, 2), rng_below(&r, 2)};
		/* other nodes first, so that ids differ between the stores */
		randgen_formula(a, &r, &o);
		Node f = randgen_formula(a, &r, &o), g, g2;
		store_import(b, a, &f, 1, &g);
		ck_assert_uint_eq(store_node_count(b), store_dag_size(a, f));
		store_import(b, a, &f, 1, &g2);
		ck_assert_uint_eq(g, g2);
		ck_assert_uint_eq(store_depth(a, f), store_depth(b, g));
		ck_assert(store_size(a, f) == store_size(b, g));
		ck_assert_uint_eq(store_flags(a, f), store_flags(b, g));
		char *pa = tl_print(a, f, SYNTAX_TL, NULL);
		char *pb = tl_print(b, g, SYNTAX_TL, NULL);
		ck_assert_str_eq(pa, pb);
		Scope *sc = scope_new(b);
		Source *src;
		ck_assert_uint_eq(parse_in(sc, pb, &src), g);
		source_free(src);
		scope_free(sc);
		free(pa);
		free(pb);
		store_free(a);
		store_free(b);
	}
}
END_TEST

static int loads;

static void load_one(Scope *sc)
{
	loads++;
	Store *s = scope_store(sc);
	Def d = {sym_intern(store_syms(s), "fb", 2), store_make_true(s), NULL,
		 0};
	scope_define(sc, &d);
}

START_TEST(scope_fallback_and_forget)
{
	Store *s = store_new();
	Scope *fb = scope_new(s), *sc = scope_new(s);
	scope_set_loader(fb, load_one);
	scope_set_fallback(sc, fb, true);
	loads = 0;
	Sym x = sym_intern(store_syms(s), "x", 1);
	Sym name = sym_intern(store_syms(s), "fb", 2);
	Def dx = {x, store_make_false(s), NULL, 0};
	scope_define(sc, &dx);
	ck_assert_ptr_nonnull(scope_lookup(sc, x));
	ck_assert_int_eq(loads, 0); /* found locally: no load */
	const Def *d = scope_lookup(sc, name);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(loads, 1);
	ck_assert_ptr_null(scope_lookup_local(sc, name));
	scope_lookup(sc, name);
	ck_assert_int_eq(loads, 1); /* once */
	/* a local definition covers the fallback's; forgetting uncovers it */
	Def mine = {name, store_make_false(s), NULL, 0};
	scope_define(sc, &mine);
	ck_assert_uint_eq(scope_lookup(sc, name)->node, store_make_false(s));
	scope_forget(sc, name);
	ck_assert_uint_eq(scope_lookup(sc, name)->node, store_make_true(s));
	scope_forget(sc, x);
	ck_assert_ptr_null(scope_lookup(sc, x));
	scope_free(sc); /* frees fb too: owned */
	store_free(s);
}
END_TEST

START_TEST(prelude_on_demand)
{
	Store *s = store_new();
	Scope *sc = prelude_scope_new(s);
	Source *src;
	ck_assert_uint_ne(parse_in(sc, "Q_a & Q_b", &src), NODE_NONE);
	source_free(src);
	/* the prelude's names are interned when it is parsed */
	ck_assert_uint_eq(sym_lookup(store_syms(s), "majority", 8), SYM_NONE);
	ck_assert_uint_ne(parse_in(sc, "dyck1", &src), NODE_NONE);
	source_free(src);
	ck_assert_uint_ne(sym_lookup(store_syms(s), "majority", 8), SYM_NONE);
	scope_free(sc);
	store_free(s);
}
END_TEST

static bool has(char **words, const char *w)
{
	bool found = false;
	for (size_t i = 0; words[i]; i++)
		found |= strcmp(words[i], w) == 0;
	return found;
}

static void free_words(char **words)
{
	for (size_t i = 0; words && words[i]; i++)
		free(words[i]);
	free(words);
}

START_TEST(completion)
{
	Repl *r = repl_new(false);
	repl_line(r, "C_open := #'('");
	repl_line(r, "let A = #[Q_a] > 0");
	char **w = repl_complete(r, ":he", 0);
	ck_assert(has(w, ":help") && has(w, ":word") && has(w, ":quit"));
	ck_assert(has(w, "A") && has(w, "C_open"));
	free_words(w);
	w = repl_complete(r, "let B = maj", 8);
	ck_assert(has(w, "majority") && has(w, "dyck1")); /* prelude */
	ck_assert(has(w, "A") && has(w, "Q_a") && has(w, "Q_("));
	ck_assert(!has(w, ":help")); /* commands start a line */
	free_words(w);
	w = repl_complete(r, ":help in", 6);
	ck_assert(has(w, "info") && has(w, "A"));
	free_words(w);
	ck_assert_ptr_null(repl_complete(r, ":load tests/", 6));
	ck_assert_ptr_null(repl_complete(r, ":save x", 6));
	repl_free(r);
}
END_TEST

Suite *repl_suite(void)
{
	Suite *s = suite_create("repl");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, import_keeps_formulas);
	tcase_add_test(tc, scope_fallback_and_forget);
	tcase_add_test(tc, prelude_on_demand);
	tcase_add_test(tc, completion);
	suite_add_tcase(s, tc);
	return s;
}
