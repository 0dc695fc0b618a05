/* t_runs.c -- run-length words (`tally eval --runs`, runeval.h): the
 * input's first line is a TL formula, each further line a word in
 * run-length form ("a^3 b", "ab^100000000000000000000").  The reader
 * must accept or refuse each line with a message; a word it reads is
 * evaluated run by run under both acceptance conventions, and when it
 * has at most MAX_PLAIN letters the verdicts must be those of the
 * ordinary evaluator on the expanded word.  Its printed form
 * (runs_format) must read back as the same word. */
#include <config.h>
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/eval.h"
#include "machine/runeval.h"

enum {
	MAX_SIZE = 2000,   /* formula size */
	MAX_LINES = 16,    /* words per input */
	MAX_PLAIN = 4096,  /* expanded words compared letter by letter */
	SLOW_LEN = 1 << 16 /* see slow() */
};

/* Formulas with #>, or MOD periods over 1024, are evaluated letter by
 * letter (runeval.h): words longer than SLOW_LEN would take seconds. */
static bool slow(const Store *s, Node f)
{
	if (store_flags(s, f) & FLAG_FUTURE)
		return true;
	if (!(store_flags(s, f) & FLAG_MOD))
		return false;
	unsigned char *mark = store_reachable(s, &f, 1);
	unsigned long period = 1;
	for (Node v = 1; v <= f && period <= 1024; v++)
		if (mark[v] && store_op(s, v) == OP_MOD) {
			unsigned long m = store_aux(s, v), a = period, b = m;
			while (b) { /* period = lcm(period, m) */
				unsigned long t = a % b;
				a = b;
				b = t;
			}
			period = period / a * m;
		}
	free(mark);
	return period > 1024;
}

/* Both runs spell the same letters (runs may be split differently). */
static bool same_word(const Runs *x, const Runs *y)
{
	fmpz_t lx, ly;
	fmpz_init(lx);
	fmpz_init(ly);
	runs_length(x, lx);
	runs_length(y, ly);
	bool same = fmpz_equal(lx, ly);
	fmpz_clear(lx);
	fmpz_clear(ly);
	if (!same)
		return false;
	size_t nx, ny;
	Sym *ex = runs_expand(x, MAX_PLAIN, &nx);
	Sym *ey = runs_expand(y, MAX_PLAIN, &ny);
	if (ex && ey)
		same = nx == ny && memcmp(ex, ey, nx * sizeof *ex) == 0;
	free(ex);
	free(ey);
	return same;
}

static void check_format(const Alphabet *a, const SymTab *st, const Runs *w)
{
	char *text = runs_format(w, st, 64);
	Runs back;
	runs_init(&back);
	char *err = NULL;
	bool ok = runs_parse(text, strlen(text), a, &back, &err);
	if (!ok)
		fprintf(stderr, "printed: %s\n%s\n", text, err);
	FUZZ_CHECK(ok);
	FUZZ_CHECK(same_word(w, &back));
	runs_clear(&back);
	free(text);
}

typedef struct {
	const Alphabet *a;
	const SymTab *st;
	Node f;
	bool slow;
	RunEval *re[2];
	Evaluator *ev[2];
} Ctx;

static void one_line(Ctx *c, const char *text, size_t n)
{
	Runs w;
	runs_init(&w);
	char *err = NULL;
	if (!runs_parse(text, n, c->a, &w, &err)) {
		FUZZ_CHECK(err && *err); /* a refusal says why */
		free(err);
		runs_clear(&w);
		return;
	}
	check_format(c->a, c->st, &w);
	fmpz_t len;
	fmpz_init(len);
	runs_length(&w, len);
	bool skip = c->slow && fmpz_cmp_ui(len, SLOW_LEN) > 0;
	fmpz_clear(len);
	size_t nplain;
	Sym *plain = runs_expand(&w, MAX_PLAIN, &nplain);
	for (int eos = 0; eos < 2 && !skip; eos++) {
		bool got;
		err = NULL;
		if (!runeval_word(c->re[eos], &w, &got, &err)) {
			FUZZ_CHECK(err && *err);
			free(err);
			continue;
		}
		if (plain) {
			bool want;
			eval_word(c->ev[eos], plain, nplain, &want);
			FUZZ_CHECK(got == want);
		}
	}
	free(plain);
	runs_clear(&w);
}

FUZZ_TARGET(runs)
{
	const char *text = (const char *)data;
	const char *nl = memchr(text, '\n', size);
	size_t flen = nl ? (size_t)(nl - text) : size;
	FuzzParse fp;
	fuzz_parse(&fp, data, flen, FLAVOR_TL);
	Store *s = fp.s;
	Node f = fp.u.output;
	if (fp.ok && store_size(s, f) <= MAX_SIZE) {
		Alphabet a;
		alphabet_init_with(&a, s, &f, 1, fp.u.letters, fp.u.nletters,
				   NULL);
		Ctx c = {&a, store_syms(s), f, slow(s, f),
			 {runeval_new(s, &f, 1, ACCEPT_LAST),
			  runeval_new(s, &f, 1, ACCEPT_EOS)},
			 {eval_new(s, &f, 1, ACCEPT_LAST),
			  eval_new(s, &f, 1, ACCEPT_EOS)}};
		const char *p = nl ? nl + 1 : text + size, *end = text + size;
		for (int i = 0; i < MAX_LINES && p < end; i++) {
			const char *q = memchr(p, '\n', (size_t)(end - p));
			size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
			one_line(&c, p, n);
			p = q ? q + 1 : end;
		}
		for (int i = 0; i < 2; i++) {
			runeval_free(c.re[i]);
			eval_free(c.ev[i]);
		}
		alphabet_free(&a);
	}
	fuzz_parse_free(&fp);
	return 0;
}
