/* t_roundtrip.c -- parse, print, parse: the ASCII and the Unicode forms
 * of a formula read back as the same node (print.h's promise). */
#include <config.h>
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/print.h"

enum { FUZZ_MAX_SIZE = 20000 };

/* The output node of text parsed in a fresh scope, or NODE_NONE. */
static Node reparse(const char *text, Buf *cap)
{
	Scope *sc = fuzz_scope();
	Source *src = source_new("printed", text, strlen(text));
	Diag d = {.capture = cap};
	Unit u = {0};
	Node n = tl_parse(sc, &d, src, &u) ? u.output : NODE_NONE;
	unit_free(&u);
	source_free(src);
	scope_free(sc);
	return n;
}

FUZZ_TARGET(roundtrip)
{
	FuzzParse fp;
	fuzz_parse(&fp, data, size, FLAVOR_TL);
	Store *s = fp.s;
	Node out = fp.u.output;
	if (fp.ok && store_size(s, out) <= FUZZ_MAX_SIZE &&
	    store_height(s, out) <= PRINT_MAX_HEIGHT) {
		static const Syntax syns[] = {SYNTAX_TL, SYNTAX_UTF8};
		Buf cap = {0};
		for (size_t i = 0; i < 2; i++) {
			char *text = tl_print(s, out, syns[i], NULL);
			cap.len = 0;
			Node back = reparse(text, &cap);
			if (back != out)
				fprintf(stderr, "printed: %s\n%s\n", text,
					cap.data ? cap.data : "");
			free(text);
			FUZZ_CHECK(back == out);
		}
		buf_free(&cap);
	}
	fuzz_parse_free(&fp);
	return 0;
}
