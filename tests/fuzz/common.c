/* common.c -- what every fuzz target links: the failure report. */
#include <config.h>
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prelude.h"

void fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "fuzz: %s:%d: property failed: %s\n", file, line,
		what);
	abort();
}

void fuzz_parse(FuzzParse *fp, const uint8_t *data, size_t size, Flavor f)
{
	memset(fp, 0, sizeof *fp);
	fp->s = store_new();
	fp->sc = prelude_scope_new(fp->s);
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
	store_free(fp->s);
}
