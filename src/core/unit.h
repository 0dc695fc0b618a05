/* unit -- named definitions: scopes and parsed inputs.
 *
 * A Def names a node of the Store (a C-RASP definition or a TL `let`).  A
 * Scope maps names to Defs; a name not found falls back to another scope
 * (the prelude of logic/prelude.tally, see prelude.h), and a scope can
 * be filled by a loader on its first lookup (so the prelude is parsed
 * into the Store only when a name needs it).  A Unit
 * is what one input (a -f argument, a file, a line) produced: its
 * definitions in order and its output node.
 *
 * Ownership: a Scope owns its Defs, and its fallback scope when it was
 * given as owned (else the fallback must outlive it); a Unit owns its
 * Def array; Sources named by Defs belong to the caller and must outlive
 * them.  Nodes belong to the Store.
 */
#ifndef TALLY_UNIT_H
#define TALLY_UNIT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "core/store.h"

typedef struct {
	Sym name;
	Node node;
	const Source *src; /* where it was defined (NULL: built in) */
	size_t at;         /* byte offset of the name */
} Def;

typedef struct Scope Scope;

Scope *scope_new(Store *store);
void scope_free(Scope *sc);
Store *scope_store(const Scope *sc);
/* Names not found in sc are looked up in fallback; scope_free(sc) frees
 * it when owned. */
void scope_set_fallback(Scope *sc, Scope *fallback, bool owned);
Scope *scope_fallback(const Scope *sc);
/* load(sc) fills sc on its first lookup. */
void scope_set_loader(Scope *sc, void (*load)(Scope *));
/* Looks in the scope, then in its fallbacks; NULL when unknown. */
const Def *scope_lookup(Scope *sc, Sym name);
/* The user's own definition (no prelude fallback), or NULL. */
const Def *scope_lookup_local(const Scope *sc, Sym name);
void scope_define(Scope *sc, const Def *def);
/* Forgets the user's definitions, keeping the prelude: each input of a
 * command starts from the prelude alone. */
void scope_clear(Scope *sc);
/* Removes the scope's own definition of name (the REPL undoing a failed
 * input, or replacing a definition). */
void scope_forget(Scope *sc, Sym name);
/* Calls visit on every Def of sc itself (not its fallback), by Sym. */
void scope_each(Scope *sc, void (*visit)(const Def *, void *), void *arg);

typedef struct {
	Def *defs;
	size_t ndefs, cap;
	Node output;     /* NODE_NONE when the input defined nothing Boolean */
	Sym output_name; /* SYM_NONE for an anonymous formula */
	/* Set by the caller before parsing: an integer term may be the
	 * output (a count-valued program, logic/README.md "Sequence
	 * outputs"); otherwise the output must be a formula. */
	bool terms;
	const Source *src;
	/* Every letter the input mentions, as written (repeats allowed):
	 * simplification may drop some from the nodes (#[Q_a] - #[Q_a]),
	 * but they stay in the alphabet. */
	Sym *letters;
	size_t nletters, letters_cap;
} Unit;

void unit_add_def(Unit *u, const Def *def);
void unit_add_letter(Unit *u, Sym letter);
void unit_free(Unit *u);
/* A node-indexed array of names (SYM_NONE where unnamed) built from the
 * unit's definitions; the first definition of a node wins.  malloc'd. */
Sym *unit_name_map(const Unit *u, const Store *s);

#endif
