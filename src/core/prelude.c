#include <config.h>
#include "core/prelude.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/unit.h"

static const char text[] =
#include "prelude.inc"
	;

const char *prelude_text(void)
{
	return text;
}

void prelude_load(Scope *sc)
{
	/* The Source must outlive the Defs that point at it. */
	static Source *src;
	if (!src)
		src = source_new("<prelude>", text, strlen(text));
	Diag d = {.out = stderr};
	Unit u = {0};
	if (!tl_parse(sc, &d, src, &u)) {
		fprintf(stderr, "tally: internal error: the prelude does not parse\n");
		abort();
	}
	unit_free(&u);
}

Scope *prelude_new(Store *s)
{
	Scope *sc = scope_new(s);
	scope_set_loader(sc, prelude_load);
	return sc;
}

Scope *prelude_scope_new(Store *s)
{
	Scope *sc = scope_new(s);
	scope_set_fallback(sc, prelude_new(s), true);
	return sc;
}
