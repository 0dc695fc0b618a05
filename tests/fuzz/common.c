/* common.c -- what every fuzz target links: the failure report. */
#include <config.h>
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/prelude.h"

void fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "fuzz: %s:%d: property failed: %s\n", file, line,
		what);
	abort();
}

static Store *shared;
static Scope *prelude;
static StoreMark mark;

Store *fuzz_store(void)
{
	if (!shared) {
		shared = store_new();
		prelude = scope_new(shared);
		prelude_load(prelude); /* now, not on some input's lookup */
		mark = store_mark(shared);
	}
	return shared;
}

Scope *fuzz_scope(void)
{
	Scope *sc = scope_new(fuzz_store());
	scope_set_fallback(sc, prelude, false);
	return sc;
}

void fuzz_rollback(void)
{
	if (shared)
		store_rollback(shared, &mark);
}

void fuzz_cleanup(void)
{
	scope_free(prelude);
	store_free(shared);
	prelude = NULL;
	shared = NULL;
}

void fuzz_parse(FuzzParse *fp, const uint8_t *data, size_t size, Flavor f)
{
	memset(fp, 0, sizeof *fp);
	fp->sc = fuzz_scope();
	fp->s = scope_store(fp->sc);
	fp->src = source_new("fuzz", (const char *)data, size);
	Diag d = {.capture = &fp->diag};
	bool parsed = f == FLAVOR_TL
			      ? tl_parse(fp->sc, &d, fp->src, &fp->u)
			      : crasp_parse(fp->sc, &d, fp->src, f, &fp->u);
	FUZZ_CHECK(parsed || fp->diag.len > 0); /* a refusal says why */
	fp->ok = parsed && fp->u.output != NODE_NONE;
}

void fuzz_parse_free(FuzzParse *fp)
{
	unit_free(&fp->u);
	buf_free(&fp->diag);
	source_free(fp->src);
	scope_free(fp->sc);
	fuzz_rollback();
}
