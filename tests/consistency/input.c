/* input.c -- the inputs of the consistency harness (see input.h). */
#include <config.h>
#include "input.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/splitmix.h"

const char *const input_task_names[] = {"equiv", "check --sat",
					"check --valid", "check --implies"};

static uint64_t input_seed(uint64_t seed, unsigned id)
{
	uint64_t s = seed ^ ((uint64_t)id * 0x9e3779b97f4a7c15ull);
	splitmix64_next(&s);
	return splitmix64_next(&s);
}

static InSyntax pick_syntax(Rng *r, const Tree *e, bool tl_only)
{
	if (tl_only || ast_has_future(e))
		return IN_TL;
	uint32_t c = rng_below(r, 100);
	return c < 60 ? IN_TL : c < 80 ? IN_CRASP : IN_CR;
}

/* The second side of an equivalence: unrelated, the same tree in
 * another syntax, an equivalent rewrite, a near-copy, or a weakening or
 * strengthening that differs on few words. */
static Tree *partner(Input *in, Rng *r, Tree *a, const AstOptions *o)
{
	uint32_t c = rng_below(r, 100);
	unsigned extra = o->nletters < 3 ? o->nletters + 1 : 3;
	if (c < 15) {
		in->origin = "unrelated";
		return ast_formula(&in->pool, r, o);
	}
	if (c < 30) {
		in->origin = "same tree";
		return a;
	}
	if (c < 60) {
		in->origin = "rewrite";
		return ast_rewrite(&in->pool, r, a, extra);
	}
	if (c < 85) {
		in->origin = "near-copy";
		return ast_mutate(&in->pool, r, a, o);
	}
	Tree *h = ast_formula(&in->pool, r, o);
	Tree *k = ast_formula(&in->pool, r, o);
	Tree *hk = ast_binary(&in->pool, E_AND, h, k);
	in->origin = "rarely different";
	return c < 93 ? ast_binary(&in->pool, E_OR, a, hk)
		      : ast_binary(&in->pool, E_AND, a, ast_not(&in->pool, hk));
}

/* One formula for sat / valid: random, or "F and not F'" / "F or not F'"
 * with F' a rewrite (unsatisfiable / valid) or a near-copy. */
static Tree *single(Input *in, Rng *r, const AstOptions *o)
{
	Tree *a = ast_formula(&in->pool, r, o);
	if (rng_below(r, 2) == 0) {
		in->origin = "random";
		return a;
	}
	unsigned extra = o->nletters < 3 ? o->nletters + 1 : 3;
	bool near = rng_below(r, 3) == 0;
	in->origin = near ? "against a near-copy" : "against a rewrite";
	Tree *b = near ? ast_mutate(&in->pool, r, a, o)
		       : ast_rewrite(&in->pool, r, a, extra);
	return ast_binary(&in->pool, in->task == TASK_SAT ? E_AND : E_OR, a,
			  ast_not(&in->pool, b));
}

/* Each input is made for one method's fragment (or none), so that every
 * method gets inputs it decides; the name goes into the report. */
static const char *gen_options(Rng *r, AstOptions *o)
{
	static const unsigned letters[12] = {1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3,
					     3};
	static const unsigned depths[20] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 2,
					    2, 2, 2, 2, 2, 2, 3, 3, 3, 3};
	memset(o, 0, sizeof *o);
	o->nletters = letters[rng_below(r, 12)];
	o->depth = depths[rng_below(r, 20)];
	o->size = 4 + rng_below(r, 10);
	o->future = rng_below(r, 100) < 20;
	o->positional = rng_below(r, 100) < 50;
	o->mod_percent = 8;
	uint32_t p = rng_below(r, 100);
	if (p < 30)
		return "general";
	if (p < 47) { /* unary: one letter, MOD under counts */
		o->nletters = 1;
		o->depth = 1 + rng_below(r, 3);
		o->future = false;
		o->positional = true;
		o->mod_percent = 30;
		return "one letter";
	}
	if (p < 64) { /* presburger: depth <= 1, no Y, MOD, #> */
		o->depth = rng_below(r, 2);
		o->future = o->positional = false;
		o->nletters = 2 + rng_below(r, 2);
		return "depth 1";
	}
	if (p < 82) { /* mona: thresholds */
		o->thresholds = true;
		o->depth = 1 + rng_below(r, 3);
		o->mod_percent = 20;
		return "thresholds";
	}
	o->depth = 2 + rng_below(r, 2); /* chc: past-only, deep */
	o->future = false;
	return "deep";
}

static void generate(Input *in, uint64_t seed)
{
	Rng r;
	rng_seed(&r, input_seed(seed, in->id));
	AstOptions o;
	in->profile = gen_options(&r, &o);
	static const DecideTask tasks[10] = {
		TASK_EQUIV, TASK_EQUIV, TASK_EQUIV, TASK_EQUIV, TASK_SAT,
		TASK_SAT, TASK_VALID, TASK_VALID, TASK_IMPLIES, TASK_IMPLIES};
	in->task = tasks[rng_below(&r, 10)];
	in->extra = rng_below(&r, 100) < 15 ? (int)rng_below(&r, 4) : -1;
	if (in->task == TASK_SAT || in->task == TASK_VALID) {
		in->nsides = 1;
		in->side[0].e = single(in, &r, &o);
	} else {
		in->nsides = 2;
		in->side[0].e = ast_formula(&in->pool, &r, &o);
		in->side[1].e = partner(in, &r, in->side[0].e, &o);
	}
	for (size_t i = 0; i < in->nsides; i++)
		in->side[i].syn = pick_syntax(&r, in->side[i].e,
					      in->task == TASK_IMPLIES && i == 1);
	/* The same tree twice: in two syntaxes where programs can say it
	 * (else two texts with other let definitions). */
	if (in->task == TASK_EQUIV && in->side[0].e == in->side[1].e &&
	    in->side[0].syn == in->side[1].syn && !ast_has_future(in->side[0].e))
		in->side[1].syn = in->side[0].syn == IN_TL ? IN_CRASP : IN_TL;
	for (size_t i = 0; i < in->nsides; i++) {
		Side *sd = &in->side[i];
		switch (sd->syn) {
		case IN_TL: sd->text = ast_print_tl(sd->e, &r); break;
		case IN_CRASP: sd->text = ast_print_crasp(sd->e, &r); break;
		case IN_CR: sd->text = ast_print_cr(sd->e, &r); break;
		}
	}
}

/* ---- fixed inputs: the reproducers of issue 18 --------------------------- */

static Tree *letter(Pool *p, int x)
{
	Tree *e = ast_binary(p, E_LETTER, NULL, NULL);
	e->letter = x;
	return e;
}

static Tree *count(Pool *p, Tree *body)
{
	return ast_binary(p, E_COUNT, body, NULL);
}

static Tree *cmp(Pool *p, Tree *a, int rel, Tree *b)
{
	Tree *e = ast_binary(p, E_CMP, a, b);
	e->rel = rel;
	return e;
}

static Tree *num(Pool *p, long v)
{
	Tree *e = ast_binary(p, E_CONST, NULL, NULL);
	fmpz_set_si(e->num, v);
	return e;
}

/* Input 0: check --sat of #[#[true] > #[Q_a]] >= 1 (valid under eos);
 * 1: #[!Q_a] >= 1 against false (the empty word differs under eos);
 * 2: check --valid of the program O := #Q_a = #(Q_b | !Q_b) (b is a
 * letter of the alphabet; the word b is rejected). */
static void fixed(Input *in)
{
	Pool *p = &in->pool;
	in->origin = "issue 18 reproducer";
	in->profile = "fixed";
	in->extra = -1;
	if (in->id == 0) {
		in->task = TASK_SAT;
		in->nsides = 1;
		in->side[0].e = cmp(p, count(p, cmp(p, count(p, ast_bool(p, true)),
						    5, count(p, letter(p, 0)))),
				    4, num(p, 1));
	} else if (in->id == 1) {
		in->task = TASK_EQUIV;
		in->nsides = 2;
		in->side[0].e = cmp(p, count(p, ast_not(p, letter(p, 0))), 4,
				    num(p, 1));
		in->side[1].e = ast_bool(p, false);
	} else {
		in->task = TASK_VALID;
		in->nsides = 1;
		Tree *taut = ast_binary(p, E_TAUT, NULL, NULL);
		taut->letter = 1;
		in->side[0].e = cmp(p, count(p, letter(p, 0)), 2, count(p, taut));
		in->side[0].syn = IN_CRASP;
	}
	for (size_t i = 0; i < in->nsides; i++)
		in->side[i].text = in->side[i].syn == IN_CRASP
					   ? ast_print_crasp(in->side[i].e, NULL)
					   : ast_print_tl(in->side[i].e, NULL);
}

bool input_make(Input *in, unsigned id, uint64_t seed, const char *dir)
{
	memset(in, 0, sizeof *in);
	pool_init(&in->pool);
	in->id = id;
	if (id < INPUT_FIXED)
		fixed(in);
	else
		generate(in, seed);
	for (size_t i = 0; i < in->nsides; i++) {
		Side *sd = &in->side[i];
		if (sd->syn == IN_TL)
			continue;
		Buf path = {0};
		buf_printf(&path, "%s/input%u-%zu.%s", dir, id, i + 1,
			   sd->syn == IN_CR ? "cr" : "crasp");
		sd->path = buf_take(&path);
		FILE *f = fopen(sd->path, "w");
		if (!f || fputs(sd->text, f) < 0 || fclose(f) != 0) {
			fprintf(stderr, "consistency: cannot write %s\n",
				sd->path);
			return false;
		}
	}
	return true;
}

void input_free(Input *in, bool keep_files)
{
	for (size_t i = 0; i < in->nsides; i++) {
		if (in->side[i].path && !keep_files)
			remove(in->side[i].path);
		free(in->side[i].path);
		free(in->side[i].text);
	}
	pool_free(&in->pool);
}


void input_print_side(FILE *f, const Input *in, size_t i)
{
	const Side *sd = &in->side[i];
	if (!sd->path)
		return;
	fprintf(f, "  %s:\n", sd->path);
	for (const char *l = sd->text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		fprintf(f, "    %.*s\n", (int)n, l);
		l += n + (nl != NULL);
	}
}

/* ---- command lines ------------------------------------------------------- */

static void push(Argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void push(Argv *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&a->arg[a->n], fmt, ap) < 0)
		abort();
	va_end(ap);
	a->n++;
}

void argv_free(Argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->arg[i]);
	a->n = 0;
}

void input_command(const Input *in, const char *method, AcceptAt accept,
		   double budget, size_t maxlen, Argv *a)
{
	a->n = 0;
	push(a, "tally %s", in->task == TASK_EQUIV ? "equiv" : "check");
	if (in->task == TASK_SAT)
		push(a, "--sat");
	if (in->task == TASK_VALID)
		push(a, "--valid");
	push(a, "--json");
	push(a, "--quiet");
	push(a, "--method=%s", method);
	push(a, "--accept-at=%s", eval_accept_name(accept));
	push(a, "--timeout=%g", budget);
	push(a, "--max-length=%zu", maxlen);
	if (in->extra >= 0)
		push(a, "--alphabet=%c", 'a' + in->extra);
	for (size_t i = 0; i < in->nsides; i++) {
		const Side *sd = &in->side[i];
		if (in->task == TASK_IMPLIES && i == 1)
			push(a, "--implies");
		else
			push(a, "%s", sd->path ? "-P" : "-f");
		push(a, "%s", sd->path ? sd->path : sd->text);
	}
}

static void shell_quote(FILE *f, const char *s)
{
	if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789-_=./,") == strlen(s) && *s) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

void argv_print(FILE *f, const Argv *a)
{
	fputs("  ", f);
	for (int i = 0; i < a->n; i++) {
		if (i)
			fputc(' ', f);
		if (i == 0)
			fputs(a->arg[0], f);
		else
			shell_quote(f, a->arg[i]);
	}
	fputc('\n', f);
}

