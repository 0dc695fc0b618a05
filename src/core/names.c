#include <config.h>
#include "core/names.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"

void names_init(NameSet *ns, SymTab *syms)
{
	memset(ns, 0, sizeof *ns);
	ns->syms = syms;
}

void names_free(NameSet *ns)
{
	free(ns->taken);
	memset(ns, 0, sizeof *ns);
}

bool names_taken(const NameSet *ns, Sym sym)
{
	return sym < ns->cap && ns->taken[sym];
}

void names_take(NameSet *ns, Sym sym)
{
	if (sym >= ns->cap) {
		size_t old = ns->cap;
		mem_grow((void **)&ns->taken, &ns->cap, (size_t)sym + 1, 1);
		memset(ns->taken + old, 0, ns->cap - old);
	}
	ns->taken[sym] = 1;
}

Sym names_fresh(NameSet *ns, const char *base)
{
	Buf b = {0};
	buf_puts(&b, base);
	for (unsigned k = 2;; k++) {
		Sym sym = sym_intern(ns->syms, b.data, b.len);
		if (!names_taken(ns, sym)) {
			names_take(ns, sym);
			buf_free(&b);
			return sym;
		}
		b.len = 0;
		buf_printf(&b, "%s_%u", base, k);
	}
}
