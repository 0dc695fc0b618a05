/* unary.c -- one-letter alphabets decided by exact piecewise sequences
 * (see unary.h).
 *
 * A Seq is the value of one node at every position i >= 1: pieces sorted
 * by their first position lo, piece k covering [lo_k, lo_{k+1}) and the
 * last one [lo, infinity).  Within a piece, for each residue r = i mod P:
 * a Boolean is bit[r]; an integer is a[r] * floor(i / P) + b[r].  For a
 * residue with no position inside a short piece the entry is an arbitrary
 * extrapolation; nothing reads it at a position outside the piece.
 * Nodes are processed in increasing id order (children first).
 */
#include <config.h>
#include "decide/unary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>
#include <flint/ulong_extras.h>

#include "base/buf.h"
#include "machine/eval.h"
#include "machine/machine.h"
#include "base/mem.h"

/* Past this many pieces in one node the method gives up (unknown). */
#define MAX_PIECES 200000

typedef struct {
	fmpz_t lo;
	unsigned char *bit; /* Boolean: P values */
	fmpz *a, *b;        /* integer: P pairs */
} Piece;

typedef struct {
	size_t n, cap;
	Piece *p;
	bool isint;
} Seq;

typedef struct {
	const Store *s;
	ulong P;
	Seq *seq; /* per node id */
	bool overflow;
} Un;

/* ---- pieces ---------------------------------------------------------- */

static Piece *push_piece(Un *u, Seq *q, const fmpz_t lo)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 4;
		q->p = xrealloc(q->p, q->cap * sizeof *q->p);
	}
	Piece *p = &q->p[q->n++];
	fmpz_init_set(p->lo, lo);
	p->bit = q->isint ? NULL : xcalloc(u->P, 1);
	p->a = q->isint ? _fmpz_vec_init(u->P) : NULL;
	p->b = q->isint ? _fmpz_vec_init(u->P) : NULL;
	if (q->n > MAX_PIECES)
		u->overflow = true;
	return p;
}

static void clear_piece(Un *u, Piece *p)
{
	fmpz_clear(p->lo);
	free(p->bit);
	if (p->a) {
		_fmpz_vec_clear(p->a, u->P);
		_fmpz_vec_clear(p->b, u->P);
	}
}

static void clear_seq(Un *u, Seq *q)
{
	for (size_t k = 0; k < q->n; k++)
		clear_piece(u, &q->p[k]);
	free(q->p);
	memset(q, 0, sizeof *q);
}

static bool same_values(Un *u, const Seq *q, const Piece *x, const Piece *y)
{
	if (!q->isint)
		return memcmp(x->bit, y->bit, u->P) == 0;
	return _fmpz_vec_equal(x->a, y->a, u->P) &&
	       _fmpz_vec_equal(x->b, y->b, u->P);
}

/* Drops the last piece when it repeats the one before (the merged piece
 * then covers both intervals). */
static void merge_last(Un *u, Seq *q)
{
	if (q->n >= 2 && same_values(u, q, &q->p[q->n - 2], &q->p[q->n - 1]))
		clear_piece(u, &q->p[--q->n]);
}

/* The piece of q containing position x >= 1. */
static const Piece *find(const Seq *q, const fmpz_t x)
{
	size_t lo = 0, hi = q->n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (fmpz_cmp(q->p[mid].lo, x) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	return &q->p[lo];
}

/* The value of an integer piece at position i. */
static void value_at(Un *u, const Piece *p, const fmpz_t i, fmpz_t out)
{
	fmpz_t qq;
	fmpz_init(qq);
	ulong r = fmpz_fdiv_ui(i, u->P);
	fmpz_fdiv_q_ui(qq, i, u->P);
	fmpz_mul(out, p->a + r, qq);
	fmpz_add(out, out, p->b + r);
	fmpz_clear(qq);
}

/* The first position >= lo with residue r. */
static void first_with_residue(Un *u, const fmpz_t lo, ulong r, fmpz_t out)
{
	ulong lr = fmpz_fdiv_ui(lo, u->P);
	fmpz_add_ui(out, lo, (r + u->P - lr) % u->P);
}

/* ---- breakpoints ----------------------------------------------------- */

typedef struct {
	size_t n, cap;
	fmpz *x;
} Cuts;

static void cut_add(Cuts *c, const fmpz_t x)
{
	if (c->n == c->cap) {
		size_t old = c->cap;
		c->cap = c->cap ? 2 * c->cap : 16;
		c->x = xrealloc(c->x, c->cap * sizeof *c->x);
		for (size_t k = old; k < c->cap; k++)
			fmpz_init(c->x + k);
	}
	fmpz_set(c->x + c->n++, x);
}

static int cmp_fmpz(const void *a, const void *b)
{
	return fmpz_cmp((const fmpz *)a, (const fmpz *)b);
}

static void cuts_sort(Cuts *c)
{
	qsort(c->x, c->n, sizeof *c->x, cmp_fmpz);
	size_t m = 0;
	for (size_t k = 0; k < c->n; k++)
		if (m == 0 || !fmpz_equal(c->x + m - 1, c->x + k))
			fmpz_swap(c->x + m++, c->x + k);
	c->n = m;
}

static void cuts_free(Cuts *c)
{
	_fmpz_vec_clear(c->x, c->cap);
}

/* Every piece start of the given sequences. */
static void union_cuts(Un *u, const Node *kids, uint32_t nk, Cuts *c)
{
	fmpz_t one;
	fmpz_init_set_ui(one, 1);
	cut_add(c, one);
	for (uint32_t j = 0; j < nk; j++) {
		const Seq *q = &u->seq[kids[j]];
		for (size_t k = 1; k < q->n; k++)
			cut_add(c, q->p[k].lo);
	}
	fmpz_clear(one);
	cuts_sort(c);
}

/* Where a[r] * floor(i/P) + b[r] can change sign inside [lo, hi) (hi NULL:
 * infinite), for each residue: at q = ceil(-b/a) and floor(-b/a) + 1. */
static void sign_cuts(Un *u, const fmpz *a, const fmpz *b, const fmpz_t lo,
		      const fmpz *hi, Cuts *c)
{
	fmpz_t nb, qq, i;
	fmpz_init(nb);
	fmpz_init(qq);
	fmpz_init(i);
	for (ulong r = 0; r < u->P; r++) {
		if (fmpz_is_zero(a + r))
			continue;
		fmpz_neg(nb, b + r);
		for (int k = 0; k < 2; k++) {
			if (k == 0) {
				fmpz_cdiv_q(qq, nb, a + r);
			} else {
				fmpz_fdiv_q(qq, nb, a + r);
				fmpz_add_ui(qq, qq, 1);
			}
			fmpz_mul_ui(i, qq, u->P);
			fmpz_add_ui(i, i, r);
			if (fmpz_cmp(i, lo) > 0 && (!hi || fmpz_cmp(i, hi) < 0))
				cut_add(c, i);
		}
	}
	fmpz_clear(nb);
	fmpz_clear(qq);
	fmpz_clear(i);
}

/* ---- one node -------------------------------------------------------- */

/* Sign of t - v (v NULL: of t) for residue r on the piece starting at lo:
 * evaluated at the first position of that residue. */
static int sign_at(Un *u, const Piece *t, const Piece *v, const fmpz_t lo,
		   ulong r)
{
	fmpz_t i, x, y;
	fmpz_init(i);
	fmpz_init(x);
	fmpz_init(y);
	first_with_residue(u, lo, r, i);
	value_at(u, t, i, x);
	if (v) {
		value_at(u, v, i, y);
		fmpz_sub(x, x, y);
	}
	int sg = fmpz_sgn(x);
	fmpz_clear(i);
	fmpz_clear(x);
	fmpz_clear(y);
	return sg;
}

/* The values of node n on the piece starting at lo (all kids' pieces
 * are constant-shaped there). */
static void fill(Un *u, Node n, const fmpz_t lo, Piece *out)
{
	const Store *s = u->s;
	const Node *k = store_kids(s, n);
	uint32_t nk = store_nkids(s, n);
	const Piece *kp[3] = { NULL, NULL, NULL };
	for (uint32_t j = 0; j < nk && j < 3; j++)
		kp[j] = find(&u->seq[k[j]], lo);
	Op op = store_op(s, n);
	for (ulong r = 0; r < u->P; r++) {
		switch (op) {
		case OP_TRUE:
		case OP_LETTER: out->bit[r] = 1; break;
		case OP_FALSE: out->bit[r] = 0; break;
		case OP_NOT: out->bit[r] = !kp[0]->bit[r]; break;
		case OP_AND:
		case OP_OR: {
			bool v = op == OP_AND;
			for (uint32_t j = 0; j < nk; j++)
				if ((bool)find(&u->seq[k[j]], lo)->bit[r] !=
				    (op == OP_AND))
					v = op != OP_AND;
			out->bit[r] = v;
			break;
		}
		case OP_MOD:
			out->bit[r] = r % store_aux(s, n) == store_aux2(s, n);
			break;
		case OP_CMP:
			out->bit[r] = machine_rel_holds(store_rel(s, n),
						sign_at(u, kp[0], NULL, lo, r));
			break;
		case OP_CONST:
			fmpz_set(out->b + r, store_constant(s, n));
			break;
		case OP_ADD:
			for (uint32_t j = 0; j < nk; j++) {
				const Piece *p = find(&u->seq[k[j]], lo);
				fmpz_add(out->a + r, out->a + r, p->a + r);
				fmpz_add(out->b + r, out->b + r, p->b + r);
			}
			break;
		case OP_MUL:
			fmpz_mul(out->a + r, kp[0]->a + r, store_constant(s, n));
			fmpz_mul(out->b + r, kp[0]->b + r, store_constant(s, n));
			break;
		case OP_ITE: {
			const Piece *p = kp[0]->bit[r] ? kp[1] : kp[2];
			fmpz_set(out->a + r, p->a + r);
			fmpz_set(out->b + r, p->b + r);
			break;
		}
		case OP_MIN:
		case OP_MAX: {
			int sg = sign_at(u, kp[0], kp[1], lo, r);
			const Piece *p = (sg <= 0) == (op == OP_MIN) ? kp[0]
								    : kp[1];
			fmpz_set(out->a + r, p->a + r);
			fmpz_set(out->b + r, p->b + r);
			break;
		}
		default:
			break;
		}
	}
}

/* Extra cuts where a comparison, min or max changes its choice. */
static void node_sign_cuts(Un *u, Node n, const Cuts *base, Cuts *c)
{
	const Store *s = u->s;
	Op op = store_op(s, n);
	if (op != OP_CMP && op != OP_MIN && op != OP_MAX)
		return;
	fmpz *da = _fmpz_vec_init(u->P), *db = _fmpz_vec_init(u->P);
	for (size_t k = 0; k < base->n; k++) {
		const fmpz *hi = k + 1 < base->n ? base->x + k + 1 : NULL;
		const Piece *t = find(&u->seq[store_kid(s, n, 0)], base->x + k);
		_fmpz_vec_set(da, t->a, u->P);
		_fmpz_vec_set(db, t->b, u->P);
		if (op != OP_CMP) {
			const Piece *v = find(&u->seq[store_kid(s, n, 1)],
					      base->x + k);
			_fmpz_vec_sub(da, da, v->a, u->P);
			_fmpz_vec_sub(db, db, v->b, u->P);
		}
		sign_cuts(u, da, db, base->x + k, hi, c);
	}
	_fmpz_vec_clear(da, u->P);
	_fmpz_vec_clear(db, u->P);
}

/* #[phi]: on each piece of phi, k = number of residues where phi holds;
 * count(i) = C + sum over those s of (floor((i-s)/P) - floor((lo-1-s)/P))
 * with C the count at lo - 1, and floor((i-s)/P) = q - [s > r] for
 * i = qP + r. */
static void count_seq(Un *u, Node n, Seq *out)
{
	const Seq *kid = &u->seq[store_kid(u->s, n, 0)];
	fmpz_t c, t, lo1;
	fmpz_init(c);
	fmpz_init(t);
	fmpz_init(lo1);
	for (size_t k = 0; k < kid->n && !u->overflow; k++) {
		const Piece *kp = &kid->p[k];
		fmpz_sub_ui(lo1, kp->lo, 1);
		fmpz_zero(c);
		if (out->n)
			value_at(u, &out->p[out->n - 1], lo1, c);
		Piece *p = push_piece(u, out, kp->lo);
		ulong ones = 0;
		for (ulong s = 0; s < u->P; s++)
			ones += kp->bit[s];
		for (ulong r = 0; r < u->P; r++) {
			fmpz_set_ui(p->a + r, ones);
			fmpz_set(p->b + r, c);
			for (ulong s = 0; s < u->P; s++) {
				if (!kp->bit[s])
					continue;
				fmpz_sub_ui(t, lo1, s);
				fmpz_fdiv_q_ui(t, t, u->P);
				fmpz_sub(p->b + r, p->b + r, t);
				if (s > r)
					fmpz_sub_ui(p->b + r, p->b + r, 1);
			}
		}
		merge_last(u, out);
	}
	fmpz_clear(c);
	fmpz_clear(t);
	fmpz_clear(lo1);
}

/* Y phi: false at position 1, then phi shifted by one position. */
static void prev_seq(Un *u, Node n, Seq *out)
{
	const Seq *kid = &u->seq[store_kid(u->s, n, 0)];
	fmpz_t x;
	fmpz_init_set_ui(x, 1);
	push_piece(u, out, x);
	for (size_t k = 0; k < kid->n && !u->overflow; k++) {
		fmpz_add_ui(x, kid->p[k].lo, 1);
		Piece *p = push_piece(u, out, x);
		for (ulong r = 0; r < u->P; r++)
			p->bit[r] = kid->p[k].bit[(r + u->P - 1) % u->P];
		merge_last(u, out);
	}
	fmpz_clear(x);
}

static void node_seq(Un *u, Node n)
{
	const Store *s = u->s;
	Seq *out = &u->seq[n];
	out->isint = !store_is_bool(s, n);
	Op op = store_op(s, n);
	if (op == OP_COUNT) {
		count_seq(u, n, out);
		return;
	}
	if (op == OP_PREV) {
		prev_seq(u, n, out);
		return;
	}
	Cuts c = { 0 };
	union_cuts(u, store_kids(s, n), store_nkids(s, n), &c);
	size_t nbase = c.n;
	Cuts extra = { 0 };
	node_sign_cuts(u, n, &c, &extra);
	for (size_t k = 0; k < extra.n; k++)
		cut_add(&c, extra.x + k);
	if (c.n != nbase)
		cuts_sort(&c);
	for (size_t k = 0; k < c.n && !u->overflow; k++) {
		Piece *p = push_piece(u, out, c.x + k);
		fill(u, n, c.x + k, p);
		merge_last(u, out);
	}
	cuts_free(&c);
	cuts_free(&extra);
}

/* ---- the decision ---------------------------------------------------- */

static ulong lcm_moduli(const Store *s, const unsigned char *reach, Node top)
{
	ulong P = 1;
	for (Node n = 1; n <= top && P <= UNARY_MAX_PERIOD; n++)
		if (reach[n] && store_op(s, n) == OP_MOD) {
			ulong m = store_aux(s, n);
			ulong g = n_gcd(P, m);
			P = P / g * m;
		}
	return P;
}

/* The first position where the Boolean sequence d holds, or false. */
static bool first_true(Un *u, const Seq *d, fmpz_t at)
{
	fmpz_t i;
	fmpz_init(i);
	bool found = false;
	for (size_t k = 0; k < d->n && !found; k++) {
		const Piece *p = &d->p[k];
		const fmpz *hi = k + 1 < d->n ? d->p[k + 1].lo : NULL;
		for (ulong r = 0; r < u->P; r++) {
			if (!p->bit[r])
				continue;
			first_with_residue(u, p->lo, r, i);
			if (hi && fmpz_cmp(i, hi) >= 0)
				continue;
			if (!found || fmpz_cmp(i, at) < 0)
				fmpz_set(at, i);
			found = true;
		}
	}
	fmpz_clear(i);
	return found;
}

static const char *refusal(const Query *q, ulong P)
{
	const Store *s = q->store;
	if (q->nletters != 1)
		return "applies to one-letter alphabets only";
	if ((store_flags(s, q->root[0]) | store_flags(s, q->root[1])) &
	    FLAG_FUTURE)
		return "past-only formulas only (no #>)";
	if (q->accept != ACCEPT_LAST)
		return "acceptance at the last position only";
	if (P > UNARY_MAX_PERIOD)
		return "the MOD period is too large";
	return NULL;
}

static void verdict(Un *u, const Query *q, const Seq *d, MethodResult *out)
{
	fmpz_t at;
	fmpz_init(at);
	if (method_empty_word_differs(q)) {
		out->status = MR_DIFFERENT;
		out->witness_shortest = true;
	} else if (first_true(u, d, at)) {
		out->status = MR_DIFFERENT;
		out->witness_shortest = true;
		runs_push(&out->witness, q->alphabet[0], at);
	} else {
		out->status = MR_EQUIVALENT;
		if (q->want_certificate) {
			Buf b = { 0 };
			char *lo = fmpz_get_str(NULL, 10, d->p[d->n - 1].lo);
			buf_printf(&b, "unary: on one letter every subformula "
				   "was computed exactly at every position, "
				   "as %zu piece(s) with period %lu; the sides "
				   "agree on the empty word and on every "
				   "piece (from position %s on their "
				   "difference is periodic)\n",
				   d->n, u->P, lo);
			flint_free(lo);
			out->certificate = buf_take(&b);
		}
	}
	fmpz_clear(at);
}

void unary_decide(const Query *q, MethodResult *out)
{
	const Store *s = q->store;
	Node top = q->root[0] > q->root[1] ? q->root[0] : q->root[1];
	unsigned char *reach = store_reachable(s, q->root, 2);
	Un u = { .s = s, .P = lcm_moduli(s, reach, top) };
	const char *why = refusal(q, u.P);
	if (why) {
		out->status = MR_NOT_APPLICABLE;
		out->reason = xstrdup(why);
		free(reach);
		return;
	}
	u.seq = xcalloc(top + 1, sizeof *u.seq);
	for (Node n = 1; n <= top && !u.overflow; n++)
		if (reach[n])
			node_seq(&u, n);
	if (u.overflow) {
		out->status = MR_UNKNOWN;
		out->reason = xstrdup("too many pieces");
	} else {
		/* The difference of the verdicts, as one more sequence. */
		Seq d = { 0 };
		Cuts c = { 0 };
		union_cuts(&u, q->root, 2, &c);
		for (size_t k = 0; k < c.n; k++) {
			Piece *p = push_piece(&u, &d, c.x + k);
			const Piece *x = find(&u.seq[q->root[0]], c.x + k);
			const Piece *y = find(&u.seq[q->root[1]], c.x + k);
			for (ulong r = 0; r < u.P; r++)
				p->bit[r] = x->bit[r] != y->bit[r];
			merge_last(&u, &d);
		}
		cuts_free(&c);
		verdict(&u, q, &d, out);
		clear_seq(&u, &d);
	}
	for (Node n = 1; n <= top; n++)
		clear_seq(&u, &u.seq[n]);
	free(u.seq);
	free(reach);
}
