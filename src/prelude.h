/* prelude -- the named formulas of logic/prelude.tally, compiled in.
 *
 * prelude_text() is the embedded file; prelude_load() parses it into a
 * scope (an internal error if the shipped prelude fails to parse).
 */
#ifndef TALLY_PRELUDE_H
#define TALLY_PRELUDE_H

typedef struct Scope Scope;

const char *prelude_text(void);
void prelude_load(Scope *sc);

#endif
