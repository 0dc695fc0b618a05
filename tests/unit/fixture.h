/* fixture -- what the unit suites share around a test: a fresh Store and
 * Scope, and parsing TL text into them.
 *
 * A Fixture owns its Store, Scope and the Sources it parsed (definitions
 * point into them, so they live until fixture_free).
 */
#ifndef TALLY_FIXTURE_H
#define TALLY_FIXTURE_H

#include "parse.h"

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
/* The output node of text, which must parse: the test fails with the
 * diagnostic otherwise. */
Node fixture_must_parse(Fixture *fx, const char *text);
/* The letter of that name in the fixture's store. */
Sym fixture_letter(Fixture *fx, const char *name);

#endif
