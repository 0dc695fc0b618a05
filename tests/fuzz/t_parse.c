/* t_parse.c -- the parsers: TL (fuzz_tl) and C-RASP in every syntax
 * (fuzz_crasp), each followed by the printers, the C-RASP program view
 * and the lowering, which must not crash on anything that parsed. */
#include <config.h>
#include "fuzz.h"

#include <stdlib.h>

#include "core/crasp.h"
#include "core/dot.h"
#include "core/json.h"
#include "core/lower.h"
#include "core/print.h"

/* Printing an expanded tree is bounded by its size; keep runs fast. */
enum { FUZZ_MAX_SIZE = 20000 };

static void print_all(Store *s, const Unit *u)
{
	static const Syntax syns[] = {SYNTAX_TL, SYNTAX_UTF8, SYNTAX_LATEX,
				      SYNTAX_SEXPR};
	for (size_t i = 0; i < sizeof syns / sizeof syns[0]; i++) {
		free(tl_print_unit(s, u, syns[i]));
		if (store_size(s, u->output) <= FUZZ_MAX_SIZE &&
		    store_height(s, u->output) <= PRINT_MAX_HEIGHT)
			free(tl_print(s, u->output, syns[i], NULL));
	}
	json_decref(json_formula(s, u->output));
	Sym *names = unit_name_map(u, s);
	CraspProgram prog;
	crasp_program(s, u->output, names, &prog);
	Buf b = {0};
	char *err = NULL;
	crasp_print(&b, s, &prog, CRASP_COMPACT, &err);
	free(err);
	err = NULL;
	crasp_print(&b, s, &prog, CRASP_PAPER, &err);
	free(err);
	dot_print(&b, s, &prog);
	buf_free(&b);
	crasp_program_free(&prog);
	free(names);
	Lowering *lw = lower_new(s);
	err = NULL;
	Node core = lower_formula(lw, u->output, &err);
	free(err);
	if (core != NODE_NONE) {
		size_t size;
		Sym *cn = lower_unit_names(lw, u, core);
		free(lower_print(s, core, cn, &size));
		free(cn);
	}
	lower_free(lw);
}

static int parse_one(const uint8_t *data, size_t size, Flavor f)
{
	FuzzParse fp;
	fuzz_parse(&fp, data, size, f);
	if (fp.ok)
		print_all(fp.s, &fp.u);
	fuzz_parse_free(&fp);
	return 0;
}

FUZZ_TARGET(tl)
{
	return parse_one(data, size, FLAVOR_TL);
}

/* The first byte chooses the syntax: compact/paper C-RASP or .cr. */
FUZZ_TARGET(crasp)
{
	if (size == 0)
		return 0;
	return parse_one(data + 1, size - 1,
			 data[0] & 1 ? FLAVOR_CR : FLAVOR_CRASP);
}
