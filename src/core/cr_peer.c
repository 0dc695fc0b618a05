/* cr_peer.c -- .cr statements grouped exactly as the interpreter's ANTLR
 * parser groups them.
 *
 * The grammar (antlr/crasp.g4) is ambiguous and untyped; ANTLR's ALL(*)
 * prediction takes, at every decision, the lowest-numbered alternative
 * that still leads to a parse of the whole statement (loops prefer
 * another round to leaving).  That is the first complete derivation in
 * depth-first order.  Whether the rest of a statement parses depends only
 * on where a sub-parse ends, so each (rule, precedence, start) is
 * computed once: the list of its end positions in the order the
 * depth-first search meets them, each with the tree met first.  This is
 * polynomial where a plain backtracking parser is exponential.
 *
 * Precedence levels are those of the generated parser: bool `&&` 7, `||`
 * 6, the operand of `!` 5; count `+` 7, `-` 6, `if` 2, the operand of
 * `k *` 5, the else branch 3.  Alternatives, in the grammar's order:
 * bool: string, comparisons (< > == != <= >=), !, true, false, name,
 * ( bool ); count: # bool, #[name] bool, name, number, number * count,
 * max, min, ( count ).
 */
#include <config.h>
#include "core/cr_peer.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* Tree nodes one statement may create before we call it too complex. */
enum { PEER_BUDGET = 4000000, PEER_MAX_NESTING = 1000 };

typedef struct {
	size_t end;
	uint32_t tree;
} End;

typedef struct {
	End *v;
	size_t n, cap;
	size_t *set, setcap; /* long lists: ends + 1, open addressing */
	bool done;
} Ends;

enum { BOOL, COUNT, NPREC = 9 };

typedef struct {
	CrTree *t;
	size_t start, stop; /* the statement's tokens [start, stop) */
	Ends *memo;         /* [rule][prec][pos - start] */
	unsigned *seen[2];  /* loop states visited, by enumeration stamp */
	unsigned stamp;
	size_t far;         /* farthest token any parse reached */
	int depth;
	bool fatal;
} Peer;

static CrTokKind tok(const Peer *p, size_t i)
{
	return i < p->stop ? p->t->toks.data[i].kind : CT_NL;
}

static uint32_t make(Peer *p, CrKind k, size_t optok, uint32_t a, uint32_t b,
		     uint32_t c)
{
	if (p->t->nodes.len > PEER_BUDGET)
		p->fatal = true;
	CrNode n = {.kind = k, .op = p->t->toks.data[optok].start,
		    .kid = {a, b, c}, .tok = optok,
		    .sym = p->t->toks.data[optok].sym};
	VEC_PUSH(p->t->nodes, n);
	return (uint32_t)(p->t->nodes.len - 1);
}

/* Inserts end + 1 into the set (setcap a power of two, load <= 1/2). */
static bool set_insert(Ends *l, size_t end)
{
	size_t mask = l->setcap - 1, h = (end * 0x9E3779B97F4A7C15u) & mask;
	for (; l->set[h]; h = (h + 1) & mask)
		if (l->set[h] == end + 1)
			return false;
	l->set[h] = end + 1;
	return true;
}

static void set_grow(Ends *l)
{
	free(l->set);
	l->setcap = l->setcap ? l->setcap * 2 : 64;
	l->set = xcalloc(l->setcap, sizeof *l->set);
	for (size_t i = 0; i < l->n; i++)
		set_insert(l, l->v[i].end);
}

/* Whether end is new to the list (long lists keep a hash set, so a chain
 * of n operators costs O(n), not O(n^2)). */
static bool fresh(Ends *l, size_t end)
{
	if (l->n < 16) {
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i].end == end)
				return false;
		return true;
	}
	if (2 * (l->n + 1) > l->setcap)
		set_grow(l);
	return set_insert(l, end);
}

static void add(Peer *p, Ends *l, size_t end, uint32_t tree)
{
	if (!fresh(l, end))
		return; /* an earlier derivation ends here: it wins */
	mem_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = (End){end, tree};
	if (end > p->far)
		p->far = end;
}

static const Ends *ends(Peer *p, int rule, int prec, size_t pos);

/* Each derivation of the rule's primary feeds the precedence loop. */
typedef struct {
	Ends *out;
	int prec;
	unsigned stamp;
} Loop;

static void bool_loop(Peer *p, Loop *lp, uint32_t left, size_t pos);
static void count_loop(Peer *p, Loop *lp, uint32_t left, size_t pos);

/* The loop's state at pos was explored already in this enumeration:
 * every end it reaches is in the list, with an earlier tree. */
static bool visited(Peer *p, int rule, Loop *lp, size_t pos)
{
	unsigned *s = &p->seen[rule][pos - p->start];
	if (*s == lp->stamp)
		return true;
	*s = lp->stamp;
	return false;
}

static void bool_loop(Peer *p, Loop *lp, uint32_t left, size_t pos)
{
	if (p->fatal || visited(p, BOOL, lp, pos))
		return;
	CrTokKind k = tok(p, pos);
	if ((k == CT_AND && lp->prec <= 7) || (k == CT_OR && lp->prec <= 6)) {
		const Ends *r = ends(p, BOOL, k == CT_AND ? 8 : 7, pos + 1);
		for (size_t i = 0; i < r->n; i++)
			bool_loop(p, lp,
				  make(p, k == CT_AND ? CN_AND : CN_OR, pos, left,
				       r->v[i].tree, 0),
				  r->v[i].end);
	}
	add(p, lp->out, pos, left);
}

static void count_loop(Peer *p, Loop *lp, uint32_t left, size_t pos)
{
	if (p->fatal || visited(p, COUNT, lp, pos))
		return;
	CrTokKind k = tok(p, pos);
	if ((k == CT_PLUS && lp->prec <= 7) || (k == CT_MINUS && lp->prec <= 6)) {
		const Ends *r = ends(p, COUNT, k == CT_PLUS ? 8 : 7, pos + 1);
		for (size_t i = 0; i < r->n; i++)
			count_loop(p, lp,
				   make(p, k == CT_PLUS ? CN_ADD : CN_SUB, pos,
					left, r->v[i].tree, 0),
				   r->v[i].end);
	} else if (k == CT_IF && lp->prec <= 2) {
		const Ends *c = ends(p, BOOL, 0, pos + 1);
		for (size_t i = 0; i < c->n; i++) {
			if (tok(p, c->v[i].end) != CT_ELSE)
				continue;
			const Ends *e = ends(p, COUNT, 3, c->v[i].end + 1);
			for (size_t j = 0; j < e->n; j++)
				count_loop(p, lp,
					   make(p, CN_IF, pos, left,
						c->v[i].tree, e->v[j].tree),
					   e->v[j].end);
		}
	}
	add(p, lp->out, pos, left);
}

static void comparisons(Peer *p, Loop *lp, size_t pos)
{
	static const CrTokKind order[] = {CT_LT, CT_GT, CT_EQ, CT_NE, CT_LE,
					  CT_GE};
	for (size_t r = 0; r < 6; r++) {
		const Ends *a = ends(p, COUNT, 0, pos);
		for (size_t i = 0; i < a->n; i++) {
			size_t at = a->v[i].end;
			if (tok(p, at) != order[r])
				continue;
			const Ends *b = ends(p, COUNT, 0, at + 1);
			for (size_t j = 0; j < b->n; j++) {
				uint32_t n = make(p, CN_CMP, at, a->v[i].tree,
						  b->v[j].tree, 0);
				p->t->nodes.data[n].rel =
					(Rel)(REL_LT + (order[r] - CT_LT));
				bool_loop(p, lp, n, b->v[j].end);
			}
		}
	}
}

static void bool_primaries(Peer *p, Loop *lp, size_t pos)
{
	CrTokKind k = tok(p, pos);
	if (k == CT_STR)
		bool_loop(p, lp, make(p, CN_STR, pos, 0, 0, 0), pos + 1);
	comparisons(p, lp, pos);
	if (k == CT_NOT) {
		const Ends *a = ends(p, BOOL, 5, pos + 1);
		for (size_t i = 0; i < a->n; i++)
			bool_loop(p, lp, make(p, CN_NOT, pos, a->v[i].tree, 0, 0),
				  a->v[i].end);
	}
	if (k == CT_TRUE || k == CT_FALSE || k == CT_VAR)
		bool_loop(p, lp,
			  make(p, k == CT_TRUE	  ? CN_TRUE
				  : k == CT_FALSE ? CN_FALSE
						  : CN_NAME,
			       pos, 0, 0, 0),
			  pos + 1);
	if (k == CT_LPAREN) {
		const Ends *a = ends(p, BOOL, 0, pos + 1);
		for (size_t i = 0; i < a->n; i++)
			if (tok(p, a->v[i].end) == CT_RPAREN)
				bool_loop(p, lp, a->v[i].tree, a->v[i].end + 1);
	}
}

/* max(a, b) / min(a, b) */
static void extremum(Peer *p, Loop *lp, size_t pos)
{
	if (tok(p, pos + 1) != CT_LPAREN)
		return;
	const Ends *a = ends(p, COUNT, 0, pos + 2);
	for (size_t i = 0; i < a->n; i++) {
		if (tok(p, a->v[i].end) != CT_COMMA)
			continue;
		const Ends *b = ends(p, COUNT, 0, a->v[i].end + 1);
		for (size_t j = 0; j < b->n; j++)
			if (tok(p, b->v[j].end) == CT_RPAREN)
				count_loop(p, lp,
					   make(p, tok(p, pos) == CT_MIN ? CN_MIN
									  : CN_MAX,
						pos, a->v[i].tree, b->v[j].tree,
						0),
					   b->v[j].end + 1);
	}
}

static void count_primaries(Peer *p, Loop *lp, size_t pos)
{
	CrTokKind k = tok(p, pos);
	if (k == CT_COUNT) {
		bool guarded = tok(p, pos + 1) == CT_LBRACK &&
			       tok(p, pos + 2) == CT_VAR &&
			       tok(p, pos + 3) == CT_RBRACK;
		const Ends *a = ends(p, BOOL, 0, pos + (guarded ? 4 : 1));
		for (size_t i = 0; i < a->n; i++) {
			uint32_t n = make(p, guarded ? CN_GCOUNT : CN_COUNT,
					  pos, a->v[i].tree, 0, 0);
			if (guarded) { /* the guard's name and token */
				p->t->nodes.data[n].tok = pos + 2;
				p->t->nodes.data[n].sym =
					p->t->toks.data[pos + 2].sym;
			}
			count_loop(p, lp, n, a->v[i].end);
		}
	}
	if (k == CT_VAR || k == CT_INT)
		count_loop(p, lp, make(p, k == CT_VAR ? CN_NAME : CN_INT, pos, 0,
				       0, 0),
			   pos + 1);
	if (k == CT_INT && tok(p, pos + 1) == CT_TIMES) {
		uint32_t num = make(p, CN_INT, pos, 0, 0, 0);
		const Ends *a = ends(p, COUNT, 5, pos + 2);
		for (size_t i = 0; i < a->n; i++)
			count_loop(p, lp,
				   make(p, CN_MUL, pos + 1, num, a->v[i].tree, 0),
				   a->v[i].end);
	}
	if (k == CT_MAX)
		extremum(p, lp, pos);
	if (k == CT_MIN)
		extremum(p, lp, pos);
	if (k == CT_LPAREN) {
		const Ends *a = ends(p, COUNT, 0, pos + 1);
		for (size_t i = 0; i < a->n; i++)
			if (tok(p, a->v[i].end) == CT_RPAREN)
				count_loop(p, lp, a->v[i].tree, a->v[i].end + 1);
	}
}

static const Ends *ends(Peer *p, int rule, int prec, size_t pos)
{
	size_t width = p->stop - p->start + 1;
	Ends *e = &p->memo[((size_t)rule * NPREC + (size_t)prec) * width +
			   (pos - p->start)];
	if (pos > p->far) /* the tokens before pos were read */
		p->far = pos;
	if (e->done || pos >= p->stop || p->fatal)
		return e;
	e->done = true; /* no rule reaches itself without reading a token */
	if (++p->depth > PEER_MAX_NESTING) {
		p->fatal = true;
		p->depth--;
		return e;
	}
	Loop lp = {e, prec, ++p->stamp};
	if (rule == BOOL)
		bool_primaries(p, &lp, pos);
	else
		count_primaries(p, &lp, pos);
	p->depth--;
	return e;
}

/* What the reader would like to see instead of the token at i. */
static const char *hint(CrTokKind k)
{
	switch (k) {
	case CT_QUESTION:
	case CT_COLON:
		return "; a conditional is written 'A if P else B'";
	case CT_ASSIGN:
		return "; '=' only starts a statement, compare with '=='";
	case CT_TIMES:
		return "; '*' multiplies a number by a count: 'k * C'";
	case CT_LBRACK:
		return "; a guarded count is written '#[pred] P'";
	default:
		return "";
	}
}

/* Brackets are balanced in every statement the grammar reads, so an
 * unbalanced one is the first thing to report, at the bracket itself.
 * False when the brackets of tokens [start, stop) balance. */
static bool bracket_error(const CrTree *t, size_t start, size_t stop,
			  const Source *src, Diag *d)
{
	size_t *open = xmalloc((stop - start + 1) * sizeof *open), n = 0;
	bool bad = true;
	for (size_t i = start; i < stop; i++) {
		const CrTok *k = &t->toks.data[i];
		if (k->kind == CT_LPAREN || k->kind == CT_LBRACK) {
			open[n++] = i;
			continue;
		}
		if (k->kind != CT_RPAREN && k->kind != CT_RBRACK)
			continue;
		CrTokKind want = k->kind == CT_RPAREN ? CT_LPAREN : CT_LBRACK;
		if (n == 0) {
			diag_error(d, src, k->start, "'%s' closes nothing: no "
				   "'%s' is open", cr_tok_name(k->kind),
				   cr_tok_name(want));
			goto done;
		}
		const CrTok *o = &t->toks.data[open[n - 1]];
		if (o->kind != want) {
			int line, col;
			diag_position(src, o->start, &line, &col);
			diag_error(d, src, k->start, "expected '%s' to close "
				   "'%s' at %d:%d, found '%s'",
				   o->kind == CT_LPAREN ? ")" : "]",
				   cr_tok_name(o->kind), line, col,
				   cr_tok_name(k->kind));
			goto done;
		}
		n--;
	}
	if (n > 0) {
		const CrTok *o = &t->toks.data[open[n - 1]];
		diag_error(d, src, o->start, "this '%s' is never closed: "
			   "expected '%s' before the statement ends",
			   cr_tok_name(o->kind),
			   o->kind == CT_LPAREN ? ")" : "]");
		goto done;
	}
	bad = false;
done:
	free(open);
	return bad;
}

/* A word of another notation where the grammar has an operator: 'and',
 * 'or' and 'not' are names in .cr files.  The offending word is the
 * token at far, or for 'not' the one before it (`not "b"` reads 'not' as
 * a name and stops at "b").  False when neither is such a word. */
static bool word_error(const CrTree *t, size_t start, size_t far,
		       const Source *src, Diag *d)
{
	static const struct {
		const char *word, *op;
	} words[] = {{"and", "&&"}, {"or", "||"}, {"not", "!"}};
	for (size_t back = 0; back < 2 && back <= far - start; back++) {
		const CrTok *k = &t->toks.data[far - back];
		if (k->kind != CT_VAR)
			continue;
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
			size_t n = strlen(words[w].word);
			if (back == 1 && strcmp(words[w].word, "not") != 0)
				continue;
			if (k->end - k->start != n ||
			    memcmp(src->text + k->start, words[w].word, n) != 0)
				continue;
			diag_error(d, src, k->start, "'%s' is a name in .cr "
				   "files, not an operator: use %s for %s",
				   words[w].word, words[w].op, words[w].word);
			return true;
		}
	}
	return false;
}

uint32_t cr_peer_rhs(CrTree *t, size_t *pos, const Source *src, Diag *d)
{
	Peer p = {.t = t, .start = *pos, .stop = *pos};
	while (t->toks.data[p.stop].kind != CT_NL &&
	       t->toks.data[p.stop].kind != CT_EOF)
		p.stop++;
	size_t width = p.stop - p.start + 1;
	p.memo = xcalloc(2 * NPREC * width, sizeof *p.memo);
	p.seen[BOOL] = xcalloc(width, sizeof *p.seen[BOOL]);
	p.seen[COUNT] = xcalloc(width, sizeof *p.seen[COUNT]);
	p.far = p.start;
	uint32_t root = 0;
	/* statement: NAME = (bool_expr | count_expr), in that order */
	for (int rule = BOOL; rule <= COUNT && !root && !p.fatal; rule++) {
		const Ends *e = ends(&p, rule, 0, p.start);
		for (size_t i = 0; i < e->n && !root; i++)
			if (e->v[i].end == p.stop)
				root = e->v[i].tree;
	}
	if (!root) {
		const CrTok *bad = &t->toks.data[p.far];
		if (bracket_error(t, p.start, p.stop, src, d) ||
		    word_error(t, p.start, p.far, src, d))
			;
		else if (p.fatal)
			diag_error(d, src, t->toks.data[p.start].start,
				   "statement too complex or too deeply nested "
				   "for the .cr reader (split it)");
		else if (bad->kind == CT_NL || bad->kind == CT_EOF)
			diag_error(d, src, bad->start,
				   "the statement ends too early for the "
				   "interpreter's grammar (antlr/crasp.g4)");
		else
			diag_error(d, src, bad->start,
				   "the interpreter's grammar (antlr/crasp.g4) "
				   "cannot read '%.*s' here%s",
				   (int)(bad->end - bad->start > 30
						 ? 30 : bad->end - bad->start),
				   src->text + bad->start, hint(bad->kind));
	}
	for (size_t i = 0; i < 2 * NPREC * width; i++) {
		free(p.memo[i].v);
		free(p.memo[i].set);
	}
	free(p.memo);
	free(p.seen[BOOL]);
	free(p.seen[COUNT]);
	*pos = p.stop;
	return root;
}
