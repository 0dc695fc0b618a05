/* ast_eval.c -- the naive evaluator of the harness's trees, one case per
 * construct, from the semantics table of logic/README.md §3: positions
 * 1..n, the empty word at position 0, inclusive counts, eos judging at an
 * end marker n + 1 that carries no letter. */
#include <config.h>
#include "ast.h"

#include <stdlib.h>

typedef struct {
	const int *w; /* letters; the end marker is -1 */
	size_t len;   /* positions 1..len */
} Word;

static bool holds(const Word *x, const Tree *e, size_t i);

static void value(const Word *x, const Tree *e, size_t i, fmpz_t out);

static void count(const Word *x, const Tree *body, size_t lo, size_t hi,
		  fmpz_t out)
{
	fmpz_zero(out);
	for (size_t j = lo; j <= hi; j++)
		if (holds(x, body, j))
			fmpz_add_ui(out, out, 1);
}

static bool letter_at(const Word *x, int letter, size_t i)
{
	return i >= 1 && i <= x->len && x->w[i - 1] == letter;
}

static bool compare(int rel, int sign)
{
	switch (rel) {
	case 0: return sign < 0;
	case 1: return sign <= 0;
	case 2: return sign == 0;
	case 3: return sign != 0;
	case 4: return sign >= 0;
	default: return sign > 0;
	}
}

static bool holds(const Word *x, const Tree *e, size_t i)
{
	switch (e->kind) {
	case E_LETTER: return letter_at(x, e->letter, i);
	case E_TRUE: case E_TAUT: return true;
	case E_FALSE: case E_CONTRA: return false;
	case E_NOT: return !holds(x, e->k[0], i);
	case E_AND: return holds(x, e->k[0], i) && holds(x, e->k[1], i);
	case E_OR: return holds(x, e->k[0], i) || holds(x, e->k[1], i);
	case E_IMPLIES: return !holds(x, e->k[0], i) || holds(x, e->k[1], i);
	case E_IFF: return holds(x, e->k[0], i) == holds(x, e->k[1], i);
	case E_PREV: return i >= 2 && holds(x, e->k[0], i - 1);
	case E_MOD: return i % e->m == e->r % e->m;
	case E_CMP: {
		fmpz_t a, b;
		fmpz_init(a);
		fmpz_init(b);
		value(x, e->k[0], i, a);
		value(x, e->k[1], i, b);
		bool r = compare(e->rel, fmpz_cmp(a, b));
		fmpz_clear(a);
		fmpz_clear(b);
		return r;
	}
	default:
		abort();
	}
}

static void value(const Word *x, const Tree *e, size_t i, fmpz_t out)
{
	fmpz_t a;
	switch (e->kind) {
	case E_CONST: fmpz_set(out, e->num); return;
	case E_ZERO: fmpz_zero(out); return;
	case E_COUNT: count(x, e->k[0], 1, i, out); return;
	case E_FCOUNT: count(x, e->k[0], i < 1 ? 1 : i, x->len, out); return;
	case E_SCALE:
		value(x, e->k[0], i, out);
		fmpz_mul(out, out, e->num);
		return;
	case E_ITE:
		value(x, e->k[holds(x, e->k[0], i) ? 1 : 2], i, out);
		return;
	default:
		break;
	}
	fmpz_init(a);
	value(x, e->k[0], i, out);
	value(x, e->k[1], i, a);
	switch (e->kind) {
	case E_ADD: fmpz_add(out, out, a); break;
	case E_SUB: fmpz_sub(out, out, a); break;
	case E_MIN: if (fmpz_cmp(a, out) < 0) fmpz_set(out, a); break;
	case E_MAX: if (fmpz_cmp(a, out) > 0) fmpz_set(out, a); break;
	default: abort();
	}
	fmpz_clear(a);
}

bool ast_accepts(const Tree *e, const int *w, size_t n, bool eos)
{
	int buf[64];
	if (!eos) {
		Word x = {w, n};
		return holds(&x, e, n);
	}
	if (n + 1 > sizeof buf / sizeof buf[0])
		abort();
	for (size_t i = 0; i < n; i++)
		buf[i] = w[i];
	buf[n] = -1;
	Word x = {buf, n + 1};
	return holds(&x, e, n + 1);
}
