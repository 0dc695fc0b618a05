/* fixture -- what the unit suites share around a test: a fresh Store and
 * Scope, and parsing TL text into them.
 *
 * A Fixture owns its Store, Scope and the Sources it parsed (definitions
 * point into them, so they live until fixture_free).
 */
#ifndef TALLY_FIXTURE_H
#define TALLY_FIXTURE_H

#include "core/parse.h"

typedef struct {
	Store *store;
	Scope *scope;
	Source **sources;
	size_t nsources, cap;
} Fixture;

void fixture_init(Fixture *fx);
void fixture_free(Fixture *fx);
/* The output node of text, or NODE_NONE; the diagnostic goes to *err
 * (malloc'd) when err is not NULL. */
Node fixture_parse(Fixture *fx, const char *text, char **err);
/* The same for text that must parse: a failure fails the test. */
Node fixture_must_parse(Fixture *fx, const char *text);
/* The letter (Sym) named name. */
Sym fixture_letter(Fixture *fx, const char *name);
/* Runs a command (cmd_lang, cmd_search, ...) in this process with its
 * argv (NULL-terminated) and stdout captured: the output (malloc'd),
 * its exit status in *status when status is not NULL. */
char *fixture_run_command(int (*cmd)(int, char **), char **argv,
			  int *status);

/* The file-scope fixture of a suite whose every test starts from a
 * fresh one: `fx`, its Store `s`, and setup/teardown to hand to
 * tcase_add_checked_fixture. */
#define FIXTURE_PER_TEST                                                     \
	static Fixture fx;                                                   \
	static Store *s;                                                     \
	static void setup(void)                                              \
	{                                                                    \
		fixture_init(&fx);                                           \
		s = fx.store;                                                \
	}                                                                    \
	static void teardown(void)                                           \
	{                                                                    \
		fixture_free(&fx);                                           \
	}

/* The next word of length n over sigma letters as digits (an odometer,
 * last letter fastest: shortlex order); false after the last. */
bool fixture_next_word(unsigned *digits, size_t n, unsigned sigma);

#endif
