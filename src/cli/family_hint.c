/* family_hint.c -- "did you mean" for family names (family_hint.h). */
#include <config.h>
#include "cli/family_hint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "gen/families.h"
#include "base/mem.h"
#include "base/suggest.h"

/* Parameters tried for a family that takes one: L_1 .. L_5 are in the
 * prelude, so a few above the least parameter suffice. */
enum { HINT_K_SPAN = 6 };

/* Parses text as a formula into in; its output node, or NODE_NONE. */
static Node parse(Inputs *in, const char *text)
{
	size_t before = in->nunits;
	if (!inputs_parse(in, source_new("-f", text, strlen(text)), FLAVOR_TL) ||
	    in->nunits == before)
		return NODE_NONE;
	return in->units[in->nunits - 1].output;
}

/* The family (and parameter, 0 for none) whose formula is the node of
 * name read as a formula (a prelude name), or NULL.  Equal formulas are
 * one node of the store (normalisation): an exact test. */
static const Family *same_formula(const char *name, long *k)
{
	Inputs in;
	inputs_init(&in);
	in.diag.out = NULL; /* name need not be a formula at all */
	Node n = parse(&in, name);
	const Family *found = NULL;
	for (size_t i = 0; n != NODE_NONE && !found && i < family_count; i++) {
		const Family *f = &family_table[i];
		long lo = f->kmin, hi = f->kmin ? f->kmin + HINT_K_SPAN : 0;
		for (long j = lo; j <= hi && !found; j++) {
			char *text = f->formula(j);
			if (parse(&in, text) == n) {
				found = f;
				*k = j;
			}
			free(text);
		}
	}
	inputs_free(&in);
	return found;
}

int family_unknown(const char *name, const char *extra)
{
	char *hint = family_hint(name);
	int st = status_usage_error("unknown family '%s'%s (see 'tally gen "
				 "--list'%s)", name, hint, extra);
	free(hint);
	return st;
}

char *family_hint(const char *name)
{
	char *dashed = xstrdup(name);
	for (char *p = dashed; *p; p++)
		if (*p == '_')
			*p = '-';
	const char *best = NULL;
	for (size_t i = 0; i < family_count && !best; i++)
		if (strcmp(family_table[i].name, dashed) == 0)
			best = family_table[i].name;
	Buf b = {0};
	buf_puts(&b, "");
	long k = 0;
	const Family *f = best ? NULL : same_formula(name, &k);
	if (f && k)
		buf_printf(&b, "; did you mean '--family=%s --k=%ld' (the prelude's "
			       "%s)?", f->name, k, name);
	else if (f)
		buf_printf(&b, "; did you mean '%s' (the prelude's %s)?", f->name,
			   name);
	if (!best && !f) {
		Suggest sg;
		suggest_init(&sg, dashed, strlen(dashed));
		for (size_t i = 0; i < family_count; i++)
			suggest_offer(&sg, family_table[i].name);
		best = sg.best;
	}
	if (best)
		buf_printf(&b, "; did you mean '%s'?", best);
	free(dashed);
	return buf_take(&b);
}
