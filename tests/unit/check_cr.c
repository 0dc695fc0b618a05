/* check_cr.c -- the .cr dialect (issue 11) at the unit level:
 *  - the interpreter's grouping: statements with the trees the
 *    interpreter's own ANTLR parser gave them (coli-saar/c-rasp, run once
 *    on these lines; the expected strings are its trees, not tally's);
 *  - print --to=cr round trip: seeded random formulas (past counts, Y,
 *    MOD, conditionals, min, max, constant multiples) printed as .cr and
 *    read back under both groupings give one node, no warning, and the
 *    language of the original, judged by the naive reference evaluator
 *    on every word over {a, b} up to length 5.
 */
#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/cr.h"
#include "core/cr_peer.h"
#include "core/cr_syntax.h"
#include "core/crasp.h"
#include "randgen.h"
#include "ref_eval.h"
#include "suites.h"

static const struct {
	const char *stmt, *tree;
} peer_cases[] = {
	{"x = 2 * min(3 * 2 - (c), 2 + #[pred] true)",
	 "x = (2 * min((3 * (2 - c)), (2 + (#[pred] true))))"},
	{"x = max(#c == 3 * c, max(2 if true else c + #(c), 1 if \"a\" else 1 - n))",
	 "x = max((#(c == (3 * c))), max((2 if true else (c + (#c))), (1 if \"a\" else (1 - n))))"},
	{"x = c if 2 * 2 * 2 > #[pred] p else n + (c) - n",
	 "x = (c if ((2 * (2 * 2)) > (#[pred] p)) else ((n + c) - n))"},
	{"x = min(#(c), 2 if \"a\" else 2 if 2 > 1 else 1 - n) < n",
	 "x = (min((#c), ((2 if \"a\" else 2) if (2 > 1) else (1 - n))) < n)"},
	{"x = c + c < (min(1 if p else n, n if q else 2))",
	 "x = ((c + c) < min((1 if p else n), (n if q else 2)))"},
	{"x = 2 * n - #p if (\"a\" || true) else #[pred] (true) > (2)",
	 "x = (((2 * (n - (#p))) if (\"a\" || true) else (#[pred] true)) > 2)"},
	{"x = #[pred] #(\"a\") == 2 if true else c - 2 - n",
	 "x = (#[pred] ((#\"a\") == (2 if true else ((c - 2) - n))))"},
	{"x = 3 * 1 > 2 * 2 || true && n > c && 2 > c || c > 1 && \"b\"",
	 "x = ((((3 * 1) > (2 * 2)) || ((true && (n > c)) && (2 > c))) || ((c > 1) && \"b\"))"},
	{"x = #[pred] c + c > n > (max(min(c, 1), n - n))",
	 "x = ((#[pred] ((c + c) > n)) > max(min(c, 1), (n - n)))"},
	{"x = !c if \"a\" else c if q && \"b\" else #[pred] \"a\" < 3 * (1)",
	 "x = (!(((c if \"a\" else c) if (q && \"b\") else (#[pred] \"a\")) < (3 * 1)))"},
	{"x = 2 if (!q && !\"b\") else #\"a\" if #[pred] true < #p else #q",
	 "x = ((2 if (!(q && (!\"b\"))) else (#\"a\")) if ((#[pred] true) < (#p)) else (#q))"},
	{"x = (max(2, 1)) > (c - c) && max(c, n) == #q && \"b\" || true && true",
	 "x = ((max(2, 1) > (c - c)) && (max(c, n) == (#((q && \"b\") || (true && true)))))"},
	{"x = #too_many_closes == 0",
	 "x = ((#too_many_closes) == 0)"},
	{"x = #(y) == 3",
	 "x = ((#y) == 3)"},
	{"x = !\"a\" && \"b\"",
	 "x = (!(\"a\" && \"b\"))"},
	{"x = 5 - 2 + 1",
	 "x = (5 - (2 + 1))"},
	{"x = 2 * c + d",
	 "x = (2 * (c + d))"},
	{"x = c if \"a\" else 5 == 5",
	 "x = ((c if \"a\" else 5) == 5)"},
	{"x = a if b else c if d else e",
	 "x = ((a if b else c) if d else e)"},
	{"x = #\"a\" && \"b\"",
	 "x = (#(\"a\" && \"b\"))"},
	{"x = !x == 3",
	 "x = (!(x == 3))"},
	{"x = #x + 1 < 3",
	 "x = (((#x) + 1) < 3)"},
	{"x = (x) && y == 3",
	 "x = (x && (y == 3))"},
	{"x = #[pred] \"a\" && \"b\"",
	 "x = (#[pred] (\"a\" && \"b\"))"},
	{"x = #!\"a\" < 3",
	 "x = ((#(!\"a\")) < 3)"},
	{"x = min(a, b) < 3 && c",
	 "x = ((min(a, b) < 3) && c)"},
	{"x = #a + #b + #c",
	 "x = (((#a) + (#b)) + (#c))"},
	{"x = ((x) == 3)",
	 "x = (x == 3)"},
};

START_TEST(peer_grouping)
{
	Store *s = store_new();
	for (size_t c = 0; c < sizeof peer_cases / sizeof peer_cases[0]; c++) {
		const char *text = peer_cases[c].stmt;
		Source *src = source_new("t", text, strlen(text));
		Buf quiet = {0};
		Diag d = {.capture = &quiet};
		CrTree t = {0};
		ck_assert(cr_lex(&t, src, store_syms(s), &d));
		size_t pos = 2; /* after "x =" */
		uint32_t root = cr_peer_rhs(&t, &pos, src, &d);
		ck_assert_msg(root, "%s: %s", text, quiet.data ? quiet.data : "");
		Buf b = {0};
		buf_puts(&b, "x = ");
		cr_tree_print(&t, src, root, &b);
		ck_assert_msg(strcmp(b.data, peer_cases[c].tree) == 0,
			      "%s\n  got  %s\n  want %s", text, b.data,
			      peer_cases[c].tree);
		buf_free(&b);
		buf_free(&quiet);
		cr_tree_free(&t);
		source_free(src);
	}
	store_free(s);
}
END_TEST

/* Every word over letters up to length max, in turn (odometer). */
static bool next_word(Sym *w, size_t *n, size_t max, const Sym *letters)
{
	for (size_t i = *n; i-- > 0;) {
		if (w[i] == letters[0]) {
			w[i] = letters[1];
			return true;
		}
		w[i] = letters[0];
	}
	if (*n == max)
		return false;
	w[(*n)++] = letters[0];
	return true;
}

static Node read_back(Store *s, const char *text, CrPrecedence prec)
{
	Scope *sc = scope_new(s);
	Source *src = source_new("p.cr", text, strlen(text));
	Buf diag = {0};
	Diag d = {.capture = &diag};
	Unit u = {0};
	bool ok = cr_parse(sc, &d, src, prec, &u);
	ck_assert_msg(ok && diag.len == 0, "%s\n%s", text,
		      diag.data ? diag.data : "");
	Node out = u.output;
	unit_free(&u);
	buf_free(&diag);
	source_free(src);
	scope_free(sc);
	return out;
}

START_TEST(print_roundtrip)
{
	Store *s = store_new();
	Sym letters[2] = {sym_intern(store_syms(s), "a", 1),
			  sym_intern(store_syms(s), "b", 1)};
	GenOptions o = {.letters = letters, .nletters = 2, .max_depth = 2,
			.max_size = 24, .positional = true, .extended = true};
	Rng r;
	rng_seed(&r, 11);
	unsigned cases = test_count(150);
	for (unsigned c = 0; c < cases; c++) {
		Node f = randgen_formula(s, &r, &o);
		CraspProgram p;
		crasp_program(s, f, NULL, &p);
		Buf text = {0};
		char *err = NULL, *note = NULL;
		bool ok = cr_print(&text, s, &p, &err, &note);
		ck_assert_msg(ok, "%s", err ? err : "");
		Node peer = read_back(s, text.data, CR_PREC_PEER);
		Node conv = read_back(s, text.data, CR_PREC_WARN);
		ck_assert_msg(peer == conv, "groupings differ:\n%s", text.data);
		Sym w[5];
		size_t n = 0;
		do {
			ck_assert_msg(ref_accepts(s, f, w, n, false) ==
					      ref_accepts(s, peer, w, n, false),
				      "another language on a word of length "
				      "%zu:\n%s", n, text.data);
		} while (next_word(w, &n, 5, letters));
		free(note);
		buf_free(&text);
		crasp_program_free(&p);
	}
	store_free(s);
}
END_TEST

Suite *cr_suite(void)
{
	Suite *suite = suite_create("cr");
	TCase *tc = tcase_create("cr");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, peer_grouping);
	tcase_add_test(tc, print_roundtrip);
	suite_add_tcase(suite, tc);
	return suite;
}
