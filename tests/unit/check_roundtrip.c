/* check_roundtrip.c -- the printers' contract on random formulas: the
 * ASCII and Unicode forms parse back to the very same node, and printing
 * the reparsed node gives the same text again. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/prelude.h"
#include "core/print.h"
#include "randgen.h"
#include "suites.h"

enum { FORMULAS = 10000, SEED = 20240601 };

/* Letters that exercise every way of writing one: identifiers, the
 * papers' Q_( form, quoted text with escapes, keywords and digits after
 * Q_, and bytes beyond ASCII. */
static const char *const letter_names[] = {
	"a", "b", "(", ")", "true", "Y", "1", "_", "x y", "'", "\"", "\\",
	"é", "a'b\\c", "-", "#",
};
enum { NLETTERS = sizeof letter_names / sizeof letter_names[0] };

/* Parses text into the store that built the formula; NODE_NONE (and the
 * diagnostic in *err) on failure. */
static Node reparse(Scope *sc, const char *text, char **err)
{
	Source *src = source_new("-f", text, strlen(text));
	Buf cap = {0};
	Diag d = {.capture = &cap};
	Unit u = {0};
	Node r = tl_parse(sc, &d, src, &u) ? u.output : NODE_NONE;
	unit_free(&u);
	source_free(src);
	*err = buf_take(&cap);
	return r;
}

static void check_one(Store *s, Scope *sc, Node f, Syntax syn, int i)
{
	char *text = tl_print(s, f, syn, NULL);
	char *err;
	Node back = reparse(sc, text, &err);
	ck_assert_msg(back != NODE_NONE, "formula %d does not parse back: %s\n%s",
		      i, text, err);
	if (back != f) {
		char *sexpr = tl_print(s, f, SYNTAX_SEXPR, NULL);
		char *got = tl_print(s, back, SYNTAX_SEXPR, NULL);
		ck_abort_msg("formula %d: %s\nis %s\nbut reads back as %s", i,
			     text, sexpr, got);
	}
	char *again = tl_print(s, back, syn, NULL);
	ck_assert_msg(strcmp(again, text) == 0, "formula %d: %s\nprints as %s",
		      i, text, again);
	free(again);
	free(err);
	free(text);
}

static void roundtrip(Syntax syn)
{
	Store *s = store_new();
	Scope *sc = prelude_scope_new(s);
	Sym letters[NLETTERS];
	for (size_t i = 0; i < NLETTERS; i++)
		letters[i] = sym_intern(store_syms(s), letter_names[i],
					strlen(letter_names[i]));
	Rng r;
	rng_seed(&r, SEED);
	for (unsigned i = 0, n = test_count(FORMULAS); i < n; i++) {
		/* Cycle through the operator sets and alphabet sizes. */
		GenOptions o = {
			.letters = letters,
			.nletters = 1 + (size_t)rng_below(&r, NLETTERS),
			.max_depth = 1 + rng_below(&r, 4),
			.max_size = 4 + rng_below(&r, 40),
			.future = i % 2,
			.positional = i % 4 >= 2,
			.extended = i % 8 >= 4,
		};
		check_one(s, sc, randgen_formula(s, &r, &o), syn, i);
	}
	scope_free(sc);
	store_free(s);
}

START_TEST(ascii_roundtrip)
{
	roundtrip(SYNTAX_TL);
}
END_TEST

START_TEST(utf8_roundtrip)
{
	roundtrip(SYNTAX_UTF8);
}
END_TEST

Suite *roundtrip_suite(void)
{
	Suite *suite = suite_create("roundtrip");
	TCase *tc = tcase_create("random");
	tcase_set_timeout(tc, 120 * test_multiplier());
	tcase_add_test(tc, ascii_roundtrip);
	tcase_add_test(tc, utf8_roundtrip);
	suite_add_tcase(suite, tc);
	return suite;
}
