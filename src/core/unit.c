#include <config.h>
#include "core/unit.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

struct Scope {
	Store *store;
	Def *by_sym; /* indexed by Sym; node == NODE_NONE when undefined */
	size_t cap;
	Scope *fallback;
	bool owns_fallback;
	void (*load)(Scope *); /* fills the scope on its first lookup */
};

Scope *scope_new(Store *store)
{
	Scope *sc = xcalloc(1, sizeof *sc);
	sc->store = store;
	return sc;
}

void scope_free(Scope *sc)
{
	if (!sc)
		return;
	if (sc->owns_fallback)
		scope_free(sc->fallback);
	free(sc->by_sym);
	free(sc);
}

Store *scope_store(const Scope *sc)
{
	return sc->store;
}

void scope_set_fallback(Scope *sc, Scope *fallback, bool owned)
{
	if (sc->owns_fallback)
		scope_free(sc->fallback);
	sc->fallback = fallback;
	sc->owns_fallback = owned;
}

void scope_set_loader(Scope *sc, void (*load)(Scope *))
{
	sc->load = load;
}

/* Runs the loader once; cleared first, because loading defines names
 * and looks up the ones it defined. */
static void ensure_loaded(Scope *sc)
{
	void (*load)(Scope *) = sc->load;
	if (load) {
		sc->load = NULL;
		load(sc);
	}
}

const Def *scope_lookup_local(const Scope *sc, Sym name)
{
	if (name < sc->cap && sc->by_sym[name].node != NODE_NONE)
		return &sc->by_sym[name];
	return NULL;
}

const Def *scope_lookup(Scope *sc, Sym name)
{
	for (; sc; sc = sc->fallback) {
		ensure_loaded(sc);
		const Def *d = scope_lookup_local(sc, name);
		if (d)
			return d;
	}
	return NULL;
}

void scope_each(Scope *sc, void (*visit)(const Def *, void *), void *arg)
{
	ensure_loaded(sc);
	for (size_t i = 0; i < sc->cap; i++)
		if (sc->by_sym[i].node != NODE_NONE)
			visit(&sc->by_sym[i], arg);
}

Scope *scope_fallback(const Scope *sc)
{
	return sc->fallback;
}

void scope_define(Scope *sc, const Def *def)
{
	if (def->name >= sc->cap) {
		size_t old = sc->cap;
		mem_grow((void **)&sc->by_sym, &sc->cap, (size_t)def->name + 1,
			 sizeof *sc->by_sym);
		memset(sc->by_sym + old, 0, (sc->cap - old) * sizeof *sc->by_sym);
	}
	sc->by_sym[def->name] = *def;
}

void scope_forget(Scope *sc, Sym name)
{
	if (name < sc->cap)
		sc->by_sym[name].node = NODE_NONE;
}

void unit_add_def(Unit *u, const Def *def)
{
	mem_grow((void **)&u->defs, &u->cap, u->ndefs + 1, sizeof *u->defs);
	u->defs[u->ndefs++] = *def;
}

void unit_add_letter(Unit *u, Sym letter)
{
	mem_grow((void **)&u->letters, &u->letters_cap, u->nletters + 1,
		 sizeof *u->letters);
	u->letters[u->nletters++] = letter;
}

void unit_free(Unit *u)
{
	free(u->defs);
	free(u->letters);
	memset(u, 0, sizeof *u);
	u->output_name = SYM_NONE;
}

Sym *unit_name_map(const Unit *u, const Store *s)
{
	size_t n = store_node_count(s) + 1;
	Sym *names = xmalloc(n * sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = SYM_NONE;
	for (size_t i = 0; i < u->ndefs; i++)
		if (names[u->defs[i].node] == SYM_NONE)
			names[u->defs[i].node] = u->defs[i].name;
	return names;
}

void scope_clear(Scope *sc)
{
	if (sc->by_sym)
		memset(sc->by_sym, 0, sc->cap * sizeof *sc->by_sym);
}
