#include <config.h>
#include "fixture.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "base/mem.h"
#include "core/prelude.h"

void fixture_init(Fixture *fx)
{
	memset(fx, 0, sizeof *fx);
	fx->store = store_new();
	fx->scope = prelude_scope_new(fx->store);
}

void fixture_free(Fixture *fx)
{
	for (size_t i = 0; i < fx->nsources; i++)
		source_free(fx->sources[i]);
	free(fx->sources);
	scope_free(fx->scope);
	store_free(fx->store);
	memset(fx, 0, sizeof *fx);
}

Node fixture_parse(Fixture *fx, const char *text, char **err)
{
	Source *src = source_new("-f", text, strlen(text));
	mem_grow((void **)&fx->sources, &fx->cap, fx->nsources + 1,
		 sizeof *fx->sources);
	fx->sources[fx->nsources++] = src;
	Buf cap = {0};
	Diag d = {.capture = &cap};
	Unit u = {0};
	Node r = tl_parse(fx->scope, &d, src, &u) ? u.output : NODE_NONE;
	unit_free(&u);
	if (err)
		*err = buf_take(&cap);
	else
		buf_free(&cap);
	return r;
}

Node fixture_must_parse(Fixture *fx, const char *text)
{
	char *err;
	Node r = fixture_parse(fx, text, &err);
	if (r == NODE_NONE)
		ck_abort_msg("%s: %s", text, err);
	free(err);
	return r;
}

Sym fixture_letter(Fixture *fx, const char *name)
{
	return sym_intern(store_syms(fx->store), name, strlen(name));
}

bool fixture_next_word(unsigned *digits, size_t n, unsigned sigma)
{
	size_t i = n;
	while (i > 0 && ++digits[i - 1] == sigma)
		digits[--i] = 0;
	return i > 0;
}

char *fixture_run_command(int (*cmd)(int, char **), char **argv,
			  int *status)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	FILE *tmp = tmpfile();
	ck_assert_ptr_nonnull(tmp);
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	dup2(fileno(tmp), STDOUT_FILENO);
	optind = 0; /* getopt_long starts afresh */
	int st = cmd(argc, argv);
	if (status)
		*status = st;
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	fseek(tmp, 0, SEEK_END);
	long size = ftell(tmp);
	ck_assert_int_ge(size, 0);
	rewind(tmp);
	char *out = calloc((size_t)size + 1, 1);
	size_t got = fread(out, 1, (size_t)size, tmp);
	out[got] = '\0';
	fclose(tmp);
	return out;
}
