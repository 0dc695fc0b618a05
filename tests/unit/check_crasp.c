/* check_crasp.c -- C-RASP programs and the translations both ways.
 *
 *  - The known programs of corpora/programs (Dyck-1, COUNT(3), majority,
 *    L_k) in all three syntaxes, and generated L_1..L_5 programs in all
 *    three syntaxes, against hand-written membership functions on every
 *    word up to length 10.
 *  - Differential, fixed seeds: random C-RASP programs using every
 *    operation; the program, its TL translation, its lowering (in the
 *    store and printed as tl-core, then parsed back), the C-RASP
 *    re-translation of that core formula and the program's own C-RASP
 *    translation agree at every position of every word up to length 8
 *    over {a, b, c}, all with the same depth; the tl-core text contains
 *    only core tokens.
 *  - Round trips TL -> C-RASP -> TL on random formulas (randgen) keep the
 *    value at every position and the depth; their tl-core form too.
 *
 * Every translation is parsed back into a fresh Store, so agreement is
 * checked by evaluation (src/eval.c), never by node identity.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crasp.h"
#include "machine/eval.h"
#include "core/lex.h"
#include "core/lower.h"
#include "core/parse.h"
#include "core/prelude.h"
#include "core/print.h"
#include "randgen.h"
#include "suites.h"

/* ---- loading into fresh stores -------------------------------------- */

typedef struct {
	Store *s;
	Scope *sc;
	Source *src;
	Unit u;
} Prog;

/* Parses text (a TL file or a C-RASP program) into a fresh Store; on
 * failure the diagnostic is in *err (malloc'd) when err is given. */
static bool load(Prog *p, const char *text, Flavor f, char **err)
{
	memset(p, 0, sizeof *p);
	p->s = store_new();
	p->sc = prelude_scope_new(p->s);
	p->src = source_new("test", text, strlen(text));
	Buf cap = {0};
	Diag d = {.capture = &cap};
	bool ok = f == FLAVOR_TL ? tl_parse(p->sc, &d, p->src, &p->u)
				 : crasp_parse(p->sc, &d, p->src, f, &p->u);
	if (err)
		*err = buf_take(&cap);
	else
		buf_free(&cap);
	return ok;
}

static void unload(Prog *p)
{
	unit_free(&p->u);
	scope_free(p->sc);
	store_free(p->s);
	source_free(p->src);
}

static void load_ok(Prog *p, const char *text, Flavor f)
{
	char *err;
	bool ok = load(p, text, f, &err);
	if (!ok)
		ck_abort_msg("does not parse:\n%s\n%s", text, err);
	free(err);
}

static char *read_corpus(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	snprintf(path, sizeof path, "%s/corpora/programs/%s", top ? top : ".",
		 name);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	Buf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	return buf_take(&b);
}

static Flavor flavor_of(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && strcmp(name + n - 3, ".cr") == 0 ? FLAVOR_CR
							 : FLAVOR_CRASP;
}

/* ---- membership functions (the references) --------------------------- */

static bool is_dyck1(const char *w, size_t n)
{
	long h = 0;
	for (size_t i = 0; i < n; i++) {
		h += w[i] == '(' ? 1 : -1;
		if (h < 0)
			return false;
	}
	return h == 0;
}

/* a^m b^m c^m, m >= 0 */
static bool is_count3(const char *w, size_t n)
{
	if (n % 3)
		return false;
	size_t m = n / 3;
	for (size_t i = 0; i < n; i++)
		if (w[i] != "abc"[i / (m ? m : 1)])
			return false;
	return true;
}

static bool is_majority(const char *w, size_t n)
{
	long d = 0;
	for (size_t i = 0; i < n; i++)
		d += w[i] == 'a' ? 1 : -1;
	return d > 0;
}

/* L_k: exactly k maximal blocks, starting with a. */
static bool is_lk(unsigned k, const char *w, size_t n)
{
	if (n == 0 || w[0] != 'a')
		return false;
	unsigned blocks = 1;
	for (size_t i = 1; i < n; i++)
		blocks += w[i] != w[i - 1];
	return blocks == k;
}

typedef struct {
	const char *alphabet;
	unsigned k; /* for L_k */
	bool (*member)(const char *, size_t);
} Lang;

static bool member(const Lang *l, const char *w, size_t n)
{
	return l->member ? l->member(w, n) : is_lk(l->k, w, n);
}

/* The word as Syms of the store (one-character letters). */
static void to_syms(Store *s, const char *w, size_t n, Sym *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = sym_intern(store_syms(s), w + i, 1);
}

/* Every word over the alphabet up to max_len, in shortlex order: calls
 * visit(word, n) for each. */
static void each_word(const char *alphabet, size_t max_len,
		      void (*visit)(const char *, size_t, void *), void *arg)
{
	size_t k = strlen(alphabet);
	char w[32];
	size_t idx[32];
	for (size_t n = 0; n <= max_len; n++) {
		for (size_t i = 0; i < n; i++) {
			idx[i] = 0;
			w[i] = alphabet[0];
		}
		for (;;) {
			visit(w, n, arg);
			size_t i = n;
			while (i > 0 && idx[i - 1] == k - 1) {
				idx[i - 1] = 0;
				w[i - 1] = alphabet[0];
				i--;
			}
			if (i == 0)
				break;
			idx[i - 1]++;
			w[i - 1] = alphabet[idx[i - 1]];
		}
	}
}

typedef struct {
	Prog *p;
	Evaluator *ev;
	const Lang *lang;
	const char *what;
} LangCheck;

static void check_word(const char *w, size_t n, void *arg)
{
	LangCheck *c = arg;
	Sym word[32];
	to_syms(c->p->s, w, n, word);
	bool acc;
	eval_word(c->ev, word, n, &acc);
	if (acc != member(c->lang, w, n))
		ck_abort_msg("%s: '%.*s' is %s by the program", c->what,
			     (int)n, w, acc ? "accepted" : "rejected");
}

/* The program's language equals the reference on all words <= 10. */
static void check_language(const char *text, Flavor f, const Lang *lang,
			   unsigned depth, const char *what)
{
	Prog p;
	load_ok(&p, text, f);
	ck_assert_msg(store_depth(p.s, p.u.output) == depth,
		      "%s: depth %u, expected %u", what,
		      store_depth(p.s, p.u.output), depth);
	Evaluator *ev = eval_new(p.s, &p.u.output, 1, ACCEPT_LAST);
	LangCheck c = {&p, ev, lang, what};
	each_word(lang->alphabet, 10, check_word, &c);
	eval_free(ev);
	unload(&p);
}

static const struct {
	const char *file;
	Lang lang;
	unsigned depth;
} corpus[] = {
	{"dyck1.cr", {"()", 0, is_dyck1}, 2},
	{"dyck1.crasp", {"()", 0, is_dyck1}, 2},
	{"dyck1-paper.crasp", {"()", 0, is_dyck1}, 2},
	{"count3.cr", {"abc", 0, is_count3}, 2},
	{"count3.crasp", {"abc", 0, is_count3}, 2},
	{"count3-paper.crasp", {"abc", 0, is_count3}, 2},
	{"majority.cr", {"ab", 0, is_majority}, 1},
	{"majority.crasp", {"ab", 0, is_majority}, 1},
	{"majority-paper.crasp", {"ab", 0, is_majority}, 1},
	{"l1.crasp", {"ab", 1, NULL}, 1},
	{"l2.crasp", {"ab", 2, NULL}, 2},
	{"l2.cr", {"ab", 2, NULL}, 2},
	{"l2-paper.crasp", {"ab", 2, NULL}, 2},
	{"l3.crasp", {"ab", 3, NULL}, 3},
	{"l3.cr", {"ab", 3, NULL}, 3},
	{"l3-paper.crasp", {"ab", 3, NULL}, 3},
	{"l4.crasp", {"ab", 4, NULL}, 4},
};

START_TEST(corpus_languages)
{
	char *text = read_corpus(corpus[_i].file);
	check_language(text, flavor_of(corpus[_i].file), &corpus[_i].lang,
		       corpus[_i].depth, corpus[_i].file);
	free(text);
}
END_TEST

/* ---- L_k programs in the three syntaxes ------------------------------ */

enum { SYN_COMPACT, SYN_PAPER, SYN_CR };

/* The alternating pattern of length len starting with `first`. */
static void pattern(char first, unsigned len, char *out)
{
	for (unsigned i = 0; i < len; i++)
		out[i] = (i % 2 == 0) == (first == 'a') ? 'a' : 'b';
	out[len] = '\0';
}

/* sub_w: w is a subsequence so far, S(w) = #[Q_last & S(prefix)] >= 1
 * (Knee-Deep §6.3); L_k = sub_(abab..) & !sub_(baba..). */
static char *lk_program(unsigned k, int syn)
{
	Buf b = {0};
	for (unsigned len = 1; len <= k; len++)
		for (int f = 0; f < 2; f++) {
			char w[16], pre[16];
			pattern(f ? 'b' : 'a', len, w);
			char last = w[len - 1];
			memcpy(pre, w, len - 1);
			pre[len - 1] = '\0';
			if (syn == SYN_CR) {
				if (len == 1)
					buf_printf(&b, "sub_%s = #\"%c\" >= 1\n", w,
						   last);
				else
					buf_printf(&b,
						   "sub_%s = #(\"%c\" && sub_%s) "
						   ">= 1\n",
						   w, last, pre);
			} else if (syn == SYN_COMPACT) {
				if (len == 1)
					buf_printf(&b, "sub_%s := #Q_%c >= 1\n", w,
						   last);
				else
					buf_printf(&b,
						   "sub_%s := #(Q_%c & sub_%s) "
						   ">= 1\n",
						   w, last, pre);
			} else {
				if (len == 1)
					buf_printf(&b,
						   "C_%s(i) := #[j <= i] Q_%c(j)\n",
						   w, last);
				else
					buf_printf(&b,
						   "P_%s(i) := Q_%c(i) & sub_%s(i)\n"
						   "C_%s(i) := #[j <= i] P_%s(j)\n",
						   w, last, pre, w, w);
				buf_printf(&b, "sub_%s(i) := C_%s(i) >= 1\n", w, w);
			}
		}
	char a[16], bb[16];
	pattern('a', k, a);
	pattern('b', k, bb);
	if (syn == SYN_CR)
		buf_printf(&b, "L = sub_%s && !sub_%s\n", a, bb);
	else if (syn == SYN_COMPACT)
		buf_printf(&b, "L := sub_%s & !sub_%s\n", a, bb);
	else
		buf_printf(&b, "L(i) := sub_%s(i) & !sub_%s(i)\n", a, bb);
	return buf_take(&b);
}

START_TEST(lk_programs)
{
	unsigned k = (unsigned)_i / 3 + 1;
	int syn = _i % 3;
	char *text = lk_program(k, syn);
	Lang lang = {"ab", k, NULL};
	char what[64];
	snprintf(what, sizeof what, "L_%u (syntax %d)", k, syn);
	check_language(text, syn == SYN_CR ? FLAVOR_CR : FLAVOR_CRASP, &lang,
		       k, what);
	free(text);
}
END_TEST

/* ---- agreement at every position ------------------------------------- */

typedef struct {
	Store *s;
	Node root;
	const char *what;
} Variant;

typedef struct {
	const Variant *v;
	size_t nv;
	Evaluator *ev[8];
	EvalSnapshot *snap[8][16]; /* per variant, per prefix length */
	Sym letters[8][8];         /* per variant: the alphabet's Syms */
	const char *alphabet;
	size_t k, max_len;
	char w[16];
	const char *context;
} Agree;

/* The verdicts at the prefix w[0..n-1] (its last position), then every
 * extension by one letter, depth first with snapshots. */
static void agree_walk(Agree *a, size_t n)
{
	bool want = eval_accepts(a->ev[0], 0);
	for (size_t i = 1; i < a->nv; i++)
		if (eval_accepts(a->ev[i], 0) != want)
			ck_abort_msg("%s differs from %s on '%.*s' at position "
				     "%zu (%d, not %d)\n%s",
				     a->v[i].what, a->v[0].what, (int)n, a->w,
				     n, !want, want, a->context);
	if (n == a->max_len)
		return;
	for (size_t i = 0; i < a->nv; i++)
		eval_save_to(a->ev[i], a->snap[i][n]);
	for (size_t c = 0; c < a->k; c++) {
		a->w[n] = a->alphabet[c];
		for (size_t i = 0; i < a->nv; i++) {
			if (c > 0)
				eval_restore(a->ev[i], a->snap[i][n]);
			eval_push(a->ev[i], a->letters[i][c]);
		}
		agree_walk(a, n + 1);
	}
}

/* Every variant has the value of variant 0 at every position of every
 * word up to max_len over the alphabet (a formula's value at position i
 * of a word is its verdict on the prefix of length i; the empty word is
 * position 0).  Past-only variants only: the walk streams. */
static void check_agree(const Variant *v, size_t nv, const char *alphabet,
			size_t max_len, const char *context)
{
	Agree a = {.v = v, .nv = nv, .alphabet = alphabet,
		   .k = strlen(alphabet), .max_len = max_len,
		   .context = context};
	ck_assert_uint_le(nv, 8);
	ck_assert_uint_le(a.k, 8);
	ck_assert_uint_lt(max_len, 16);
	for (size_t i = 0; i < nv; i++) {
		a.ev[i] = eval_new(v[i].s, &v[i].root, 1, ACCEPT_LAST);
		ck_assert(eval_streams(a.ev[i]));
		to_syms(v[i].s, alphabet, a.k, a.letters[i]);
		for (size_t n = 0; n < max_len; n++)
			a.snap[i][n] = eval_snapshot_new(a.ev[i]);
		eval_reset(a.ev[i]);
	}
	agree_walk(&a, 0);
	for (size_t i = 0; i < nv; i++) {
		for (size_t n = 0; n < max_len; n++)
			eval_snapshot_free(a.snap[i][n]);
		eval_free(a.ev[i]);
	}
}

/* The same by whole tables on the words of length exactly len (and the
 * empty word): every position of each, for non-streaming spot checks. */
static void check_tables(const Variant *v, size_t nv, const char *alphabet,
			 size_t len, const char *context)
{
	Evaluator *ev[8];
	ck_assert_uint_le(nv, 8);
	for (size_t i = 0; i < nv; i++)
		ev[i] = eval_new(v[i].s, &v[i].root, 1, ACCEPT_LAST);
	size_t k = strlen(alphabet), total = 1;
	for (size_t i = 0; i < len; i++)
		total *= k;
	char w[32];
	Sym word[32];
	for (size_t code = 0; code <= total; code++) {
		/* code == total stands for the empty word */
		size_t n = code == total ? 0 : len, c = code;
		for (size_t i = 0; i < n; i++, c /= k)
			w[i] = alphabet[c % k];
		to_syms(v[0].s, w, n, word);
		EvalTable *t0 = eval_table(ev[0], word, n);
		for (size_t i = 1; i < nv; i++) {
			to_syms(v[i].s, w, n, word);
			EvalTable *t = eval_table(ev[i], word, n);
			for (size_t pos = eval_table_first(t);
			     pos <= eval_table_last(t); pos++) {
				bool want = eval_table_bool(t0, v[0].root, pos);
				bool got = eval_table_bool(t, v[i].root, pos);
				if (want != got)
					ck_abort_msg("%s differs from %s on "
						     "'%.*s' at position %zu "
						     "(%d, not %d)\n%s",
						     v[i].what, v[0].what,
						     (int)n, w, pos, got, want,
						     context);
			}
			eval_table_free(t);
		}
		eval_table_free(t0);
	}
	for (size_t i = 0; i < nv; i++)
		eval_free(ev[i]);
}

/* The tl-core text uses only core tokens: let-definitions, names,
 * letters, !, &, <, #[ ], +, 1 and parentheses; positional inputs keep
 * Y and MOD(m, r). */
static void check_core_tokens(const char *text, bool positional)
{
	Source *src = source_new("core", text, strlen(text));
	SymTab *syms = sym_new();
	Buf cap = {0};
	Diag d = {.capture = &cap};
	jmp_buf fail;
	Lexer lx;
	lex_init(&lx, src, &d, syms, &fail);
	if (setjmp(fail))
		ck_abort_msg("tl-core output does not lex:\n%s", text);
	TokKind prev = TK_SEMI, prev2 = TK_SEMI;
	for (Token t = lex_next(&lx); t.kind != TK_EOF; t = lex_next(&lx)) {
		const char *at = text + t.start;
		size_t n = t.end - t.start;
		bool ok;
		switch (t.kind) {
		case TK_LET: case TK_IDENT: case TK_SEMI: case TK_LETTER:
		case TK_NOT: case TK_AND: case TK_LT: case TK_RBRACK:
		case TK_PLUS: case TK_LPAREN: case TK_RPAREN:
			ok = true;
			break;
		case TK_LBRACK:
			ok = prev == TK_COUNT;
			break;
		case TK_COUNT:
			ok = n == 1 && *at == '#';
			break;
		case TK_NUMBER:
			ok = (n == 1 && *at == '1') || (positional &&
							(prev == TK_COMMA ||
							 prev2 == TK_MOD));
			break;
		case TK_PREV:
		case TK_MOD:
		case TK_COMMA:
			ok = positional;
			break;
		case TK_EQ: /* only in let NAME = */
			ok = prev == TK_IDENT && prev2 == TK_LET;
			break;
		default:
			ok = false;
		}
		if (!ok)
			ck_abort_msg("non-core token '%.*s' in tl-core output:\n%s",
				     (int)n, at, text);
		prev2 = prev;
		prev = t.kind;
	}
	lex_free(&lx);
	buf_free(&cap);
	sym_free(syms);
	source_free(src);
}

/* ---- a random C-RASP program generator ------------------------------ */

typedef struct {
	Rng r;
	Buf b;
	unsigned budget, max_depth;
	unsigned ndefs;
	bool is_bool[16];
	unsigned depth[16];
} PGen;

static bool coin(PGen *g, uint32_t percent)
{
	return rng_below(&g->r, 100) < percent;
}

/* A defined name of the wanted sort and depth <= max, or -1. */
static int pick_name(PGen *g, bool want_bool, unsigned max)
{
	int cand[16], n = 0;
	for (unsigned i = 0; i < g->ndefs; i++)
		if (g->is_bool[i] == want_bool && g->depth[i] <= max)
			cand[n++] = (int)i;
	return n ? cand[rng_below(&g->r, (uint32_t)n)] : -1;
}

static unsigned gen_int(PGen *g, unsigned max);

static unsigned umax(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/* A Boolean expression of depth <= max; returns its depth. */
static unsigned gen_bool(PGen *g, unsigned max)
{
	static const char *const rels[] = {"<", "<=", "=", "==", "!=", ">=",
					   ">"};
	if (g->budget == 0 || coin(g, 20)) {
		int d = coin(g, 50) ? pick_name(g, true, max) : -1;
		if (d >= 0) {
			buf_printf(&g->b, "D%d", d);
			return g->depth[d];
		}
		if (coin(g, 5)) {
			buf_puts(&g->b, "true");
			return 0;
		}
		buf_printf(&g->b, "Q_%c", "abc"[rng_below(&g->r, 3)]);
		return 0;
	}
	g->budget--;
	unsigned d;
	switch (rng_below(&g->r, 4)) {
	case 0:
		buf_puts(&g->b, "!(");
		d = gen_bool(g, max);
		buf_putc(&g->b, ')');
		return d;
	case 1:
	case 2:
		buf_putc(&g->b, '(');
		d = gen_bool(g, max);
		buf_puts(&g->b, coin(g, 50) ? " & " : " | ");
		d = umax(d, gen_bool(g, max));
		buf_putc(&g->b, ')');
		return d;
	default:
		buf_putc(&g->b, '(');
		d = gen_int(g, max);
		buf_printf(&g->b, " %s ", rels[rng_below(&g->r, 7)]);
		d = umax(d, gen_int(g, max));
		buf_putc(&g->b, ')');
		return d;
	}
}

/* An integer expression of depth <= max; returns its depth. */
static unsigned gen_int(PGen *g, unsigned max)
{
	if (g->budget == 0 || coin(g, 20)) {
		int d = coin(g, 50) ? pick_name(g, false, max) : -1;
		if (d >= 0) {
			buf_printf(&g->b, "D%d", d);
			return g->depth[d];
		}
		if (max > 0 && coin(g, 60)) {
			buf_printf(&g->b, "#Q_%c", "abc"[rng_below(&g->r, 3)]);
			return 1;
		}
		buf_printf(&g->b, "(%d)", (int)rng_below(&g->r, 9) - 3);
		return 0;
	}
	g->budget--;
	unsigned d;
	switch (rng_below(&g->r, 8)) {
	case 0:
		if (max > 0) {
			buf_puts(&g->b, "#(");
			d = gen_bool(g, max - 1) + 1;
			buf_putc(&g->b, ')');
			return d;
		}
		buf_puts(&g->b, "(-1)");
		return 0;
	case 1:
	case 2:
		buf_putc(&g->b, '(');
		d = gen_int(g, max);
		buf_puts(&g->b, coin(g, 50) ? " + " : " - ");
		d = umax(d, gen_int(g, max));
		buf_putc(&g->b, ')');
		return d;
	case 3: {
		static const int factors[] = {-3, -2, -1, 2, 3};
		buf_printf(&g->b, "%d*(", factors[rng_below(&g->r, 5)]);
		d = gen_int(g, max);
		buf_putc(&g->b, ')');
		return d;
	}
	case 4:
	case 5:
		buf_puts(&g->b, coin(g, 50) ? "min(" : "max(");
		d = gen_int(g, max);
		buf_puts(&g->b, ", ");
		d = umax(d, gen_int(g, max));
		buf_putc(&g->b, ')');
		return d;
	default:
		buf_putc(&g->b, '(');
		d = gen_bool(g, max);
		buf_puts(&g->b, " ? ");
		d = umax(d, gen_int(g, max));
		buf_puts(&g->b, " : ");
		d = umax(d, gen_int(g, max));
		buf_putc(&g->b, ')');
		return d;
	}
}

/* A program D0 := ..., ..., the last definition Boolean. */
static char *random_program(uint64_t seed)
{
	PGen g = {0};
	rng_seed(&g.r, seed);
	g.max_depth = 1 + rng_below(&g.r, 3);
	unsigned n = 2 + rng_below(&g.r, 6);
	for (unsigned i = 0; i < n; i++) {
		bool is_bool = i == n - 1 || coin(&g, 50);
		g.budget = 3 + rng_below(&g.r, 6);
		buf_printf(&g.b, "D%u := ", i);
		unsigned d = is_bool ? gen_bool(&g, g.max_depth)
				     : gen_int(&g, g.max_depth);
		buf_putc(&g.b, '\n');
		g.is_bool[i] = is_bool;
		g.depth[i] = d;
		g.ndefs = i + 1;
	}
	return buf_take(&g.b);
}

/* ---- the pipelines ---------------------------------------------------- */

/* Text of the C-RASP program for root in s. */
static char *crasp_text(Store *s, Node root, const Sym *names, CraspForm form)
{
	CraspProgram prog;
	crasp_program(s, root, names, &prog);
	Buf b = {0};
	char *err = NULL;
	bool ok = crasp_print(&b, s, &prog, form, &err);
	ck_assert_msg(ok, "crasp_print: %s", err ? err : "");
	crasp_program_free(&prog);
	return buf_take(&b);
}

/* Lowers root in p's store; checks depth and tokens; returns the text. */
static char *core_text(Prog *p, Node root, Node *core)
{
	Lowering *lw = lower_new(p->s);
	char *err = NULL;
	*core = lower_formula(lw, root, &err);
	ck_assert_msg(*core != NODE_NONE, "lowering failed: %s", err);
	ck_assert_uint_eq(store_depth(p->s, *core), store_depth(p->s, root));
	Sym *names = lower_unit_names(lw, &p->u, *core);
	size_t size;
	char *text = lower_print(p->s, *core, names, &size);
	free(names);
	lower_free(lw);
	check_core_tokens(text, store_flags(p->s, root) & (FLAG_PREV | FLAG_MOD));
	return text;
}

static void check_depth(const Prog *p, unsigned want, const char *what,
			const char *context)
{
	unsigned got = store_depth(p->s, p->u.output);
	if (got != want)
		ck_abort_msg("%s: depth %u, not %u\n%s", what, got, want,
			     context);
}

START_TEST(random_programs)
{
	for (uint64_t seed = 1000 + 50 * (uint64_t)_i;
	     seed < 1050 + 50 * (uint64_t)_i; seed++) {
		char *text = random_program(seed);
		Prog p0;
		load_ok(&p0, text, FLAVOR_CRASP);
		Node out = p0.u.output;
		unsigned depth = store_depth(p0.s, out);
		Node core;
		char *core_src = core_text(&p0, out, &core);
		/* the program's own definitions, as TL let-definitions */
		char *tl_src = tl_print_unit(p0.s, &p0.u, SYNTAX_TL);
		Sym *names = unit_name_map(&p0.u, p0.s);
		CraspForm form = seed % 2 ? CRASP_PAPER : CRASP_COMPACT;
		char *cr_src = crasp_text(p0.s, out, names, form);
		free(names);
		Prog p1, p2, p3, p4;
		load_ok(&p1, tl_src, FLAVOR_TL);
		load_ok(&p2, core_src, FLAVOR_TL);
		char *back_src = crasp_text(p2.s, p2.u.output, NULL,
					    seed % 3 ? CRASP_COMPACT
						     : CRASP_PAPER);
		load_ok(&p3, back_src, FLAVOR_CRASP);
		load_ok(&p4, cr_src, FLAVOR_CRASP);
		char context[8192];
		snprintf(context, sizeof context,
			 "seed %llu\nprogram:\n%s\ntl-core:\n%s",
			 (unsigned long long)seed, text, core_src);
		check_depth(&p1, depth, "TL translation", context);
		check_depth(&p2, depth, "tl-core parsed back", context);
		check_depth(&p3, depth, "C-RASP of the core", context);
		check_depth(&p4, depth, "C-RASP translation", context);
		Variant v[] = {
			{p0.s, out, "the program"},
			{p0.s, core, "the lowered node"},
			{p1.s, p1.u.output, "the TL translation"},
			{p2.s, p2.u.output, "the tl-core text"},
			{p3.s, p3.u.output, "the C-RASP of the core"},
			{p4.s, p4.u.output, "the C-RASP translation"},
		};
		check_agree(v, 6, "abc", 8, context);
		check_tables(v, 6, "abc", 5, context);
		unload(&p4);
		unload(&p3);
		unload(&p2);
		unload(&p1);
		unload(&p0);
		free(back_src);
		free(cr_src);
		free(tl_src);
		free(core_src);
		free(text);
	}
}
END_TEST

/* TL -> C-RASP -> TL on random formulas (extended and positional), and
 * their tl-core form. */
START_TEST(random_round_trips)
{
	for (uint64_t seed = 5000 + 50 * (uint64_t)_i;
	     seed < 5050 + 50 * (uint64_t)_i; seed++) {
		Prog p0 = {0};
		p0.s = store_new();
		p0.sc = prelude_scope_new(p0.s);
		Sym letters[3];
		for (int i = 0; i < 3; i++)
			letters[i] = sym_intern(store_syms(p0.s), "abc" + i, 1);
		Rng r;
		rng_seed(&r, seed);
		GenOptions o = {letters, 3, 1 + (unsigned)(seed % 3), 25,
				false, seed % 4 == 0, true};
		Node f = randgen_formula(p0.s, &r, &o);
		p0.u.output = f;
		p0.u.output_name = SYM_NONE;
		unsigned depth = store_depth(p0.s, f);
		char *tl_src = tl_print(p0.s, f, SYNTAX_TL, NULL);
		char *cr_src = crasp_text(p0.s, f, NULL,
					  seed % 2 ? CRASP_PAPER : CRASP_COMPACT);
		Node core;
		char *core_src = core_text(&p0, f, &core);
		Prog p1, p2, p3;
		load_ok(&p1, cr_src, FLAVOR_CRASP);
		char *back_src = tl_print_unit(p1.s, &p1.u, SYNTAX_TL);
		load_ok(&p2, back_src, FLAVOR_TL);
		load_ok(&p3, core_src, FLAVOR_TL);
		char context[16384];
		snprintf(context, sizeof context,
			 "seed %llu\nformula: %s\nC-RASP:\n%s\nback:\n%s",
			 (unsigned long long)seed, tl_src, cr_src, back_src);
		check_depth(&p1, depth, "C-RASP translation", context);
		check_depth(&p2, depth, "TL -> C-RASP -> TL", context);
		check_depth(&p3, depth, "tl-core parsed back", context);
		Variant v[] = {
			{p0.s, f, "the formula"},
			{p1.s, p1.u.output, "the C-RASP program"},
			{p2.s, p2.u.output, "TL -> C-RASP -> TL"},
			{p3.s, p3.u.output, "the tl-core text"},
		};
		check_agree(v, 4, "abc", 8, context);
		unload(&p3);
		unload(&p2);
		unload(&p1);
		unit_free(&p0.u);
		scope_free(p0.sc);
		store_free(p0.s);
		free(back_src);
		free(core_src);
		free(cr_src);
		free(tl_src);
	}
}
END_TEST

/* ---- fixed shapes ------------------------------------------------------ */

START_TEST(core_of_dyck1)
{
	char *text = read_corpus("dyck1.cr");
	Prog p;
	load_ok(&p, text, FLAVOR_CR);
	Node core;
	char *src = core_text(&p, p.u.output, &core);
	/* t = 0 is t < 1, equality two strict comparisons */
	ck_assert_msg(strstr(src, "#[too_many_closes] < 1") != NULL, "%s", src);
	ck_assert_msg(strstr(src, "!(closes < opens)") != NULL, "%s", src);
	free(src);
	unload(&p);
	free(text);
}
END_TEST

START_TEST(large_constants_use_doubling)
{
	Prog p;
	load_ok(&p, "V := #Q_a - 1000 < 3*#Q_b", FLAVOR_CRASP);
	Node core;
	char *src = core_text(&p, p.u.output, &core);
	/* 1000 = 512 + 256 + 128 + 64 + 32 + 8 through k2, k4, ... */
	ck_assert_msg(strstr(src, "let k2 = 1 + 1;") != NULL, "%s", src);
	ck_assert_msg(strstr(src, "k512 + k256 + k128 + k64 + k32 + k8") != NULL,
		      "%s", src);
	ck_assert_msg(strlen(src) < 1000, "%s", src);
	Prog q;
	load_ok(&q, src, FLAVOR_TL);
	Variant v[] = {{p.s, p.u.output, "program"}, {q.s, q.u.output, "core"}};
	check_agree(v, 2, "ab", 8, src);
	check_tables(v, 2, "ab", 8, src);
	unload(&q);
	free(src);
	unload(&p);
}
END_TEST

START_TEST(future_counts_are_refused)
{
	Prog p;
	load_ok(&p, "#>[Q_a] < 2", FLAVOR_TL);
	CraspProgram prog;
	crasp_program(p.s, p.u.output, NULL, &prog);
	Buf b = {0};
	char *err = NULL;
	ck_assert(!crasp_print(&b, p.s, &prog, CRASP_COMPACT, &err));
	ck_assert_str_eq(err, "the formula counts the future (#>[...]): "
			      "two-sided counting has no C-RASP counterpart");
	free(err);
	buf_free(&b);
	crasp_program_free(&prog);
	unload(&p);
}
END_TEST

/* Generated names: C_a for #Q_a, P_a for a letter read by an operation,
 * user names kept, a count of a named formula C_NAME. */
START_TEST(generated_names)
{
	Prog p;
	load_ok(&p, "V := #Q_a < #Q_b\nW := #V >= 1 & Q_a", FLAVOR_CRASP);
	Sym *names = unit_name_map(&p.u, p.s);
	char *text = crasp_text(p.s, p.u.output, names, CRASP_COMPACT);
	ck_assert_str_eq(text, "P_a := Q_a\n"
			       "C_a := #Q_a\n"
			       "C_b := #Q_b\n"
			       "V   := C_a < C_b\n"
			       "C_V := #V\n"
			       "P1  := C_V >= 1\n"
			       "W   := P_a & P1\n");
	free(text);
	text = crasp_text(p.s, p.u.output, names, CRASP_PAPER);
	ck_assert_str_eq(text, "P_a(i) := Q_a(i)\n"
			       "C_a(i) := #[j <= i] Q_a(j)\n"
			       "C_b(i) := #[j <= i] Q_b(j)\n"
			       "V(i)   := C_a(i) < C_b(i)\n"
			       "C_V(i) := #[j <= i] V(j)\n"
			       "P1(i)  := C_V(i) >= 1\n"
			       "W(i)   := P_a(i) & P1(i)\n");
	free(text);
	free(names);
	unload(&p);
}
END_TEST

/* Per layer: counts and position-wise operations (Dyck-1: two heads in
 * layer 1, one in layer 2). */
START_TEST(layers_of_dyck1)
{
	char *text = read_corpus("dyck1.crasp");
	Prog p;
	load_ok(&p, text, FLAVOR_CRASP);
	Sym *names = unit_name_map(&p.u, p.s);
	CraspProgram prog;
	crasp_program(p.s, p.u.output, names, &prog);
	size_t *counts, *pointwise;
	crasp_layers(p.s, &prog, &counts, &pointwise);
	ck_assert_uint_eq(counts[0], 0);
	ck_assert_uint_eq(counts[1], 2);
	ck_assert_uint_eq(counts[2], 1);
	ck_assert_uint_eq(pointwise[0], 0);
	ck_assert_uint_eq(pointwise[1], 2); /* V, B */
	ck_assert_uint_eq(pointwise[2], 2); /* M, D */
	free(counts);
	free(pointwise);
	crasp_program_free(&prog);
	free(names);
	unload(&p);
	free(text);
}
END_TEST

Suite *crasp_suite(void)
{
	Suite *su = suite_create("crasp");
	TCase *tc = tcase_create("known");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, corpus_languages, 0,
			    (int)(sizeof corpus / sizeof corpus[0]));
	tcase_add_loop_test(tc, lk_programs, 0, 15);
	tcase_add_test(tc, core_of_dyck1);
	tcase_add_test(tc, large_constants_use_doubling);
	tcase_add_test(tc, future_counts_are_refused);
	tcase_add_test(tc, generated_names);
	tcase_add_test(tc, layers_of_dyck1);
	suite_add_tcase(su, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 300 * test_multiplier());
	tcase_add_loop_test(tc, random_programs, 0, test_count(8));
	tcase_add_loop_test(tc, random_round_trips, 0, test_count(8));
	suite_add_tcase(su, tc);
	return su;
}
