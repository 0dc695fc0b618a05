/* prelude -- the named formulas of logic/prelude.tally, compiled in.
 *
 * prelude_text() is the embedded file; prelude_load() parses it into a
 * scope (an internal error if the shipped prelude fails to parse).  The
 * prelude is what a user's scope falls back to (unit.h); it is parsed
 * into the Store on the first lookup that reaches it.
 *
 * Ownership: the returned scopes belong to the caller (scope_free).
 */
#ifndef TALLY_PRELUDE_H
#define TALLY_PRELUDE_H

#include "core/unit.h"

const char *prelude_text(void);
void prelude_load(Scope *sc);
/* The prelude's own scope, filled on its first lookup. */
Scope *prelude_new(Store *s);
/* A user's scope over a prelude scope that it owns. */
Scope *prelude_scope_new(Store *s);

#endif
