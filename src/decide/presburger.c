/* presburger.c -- depth <= 1 decided in QF_LIA (see presburger.h).
 *
 * The DAG is translated into Z3 terms once per "context", node by node in
 * increasing id order (children first, no recursion):
 *  - a letter context tau translates the depth-0 nodes as they hold at a
 *    position carrying tau; a count #[psi] is then the sum of v_tau over
 *    the letters where psi holds (plus 1 for the end marker under eos);
 *  - the judged context translates everything at the last position
 *    (letter sigma, or no letter for the empty word and the end marker),
 *    with the counts above, or 0 for the empty word.
 */
#include <config.h>
#include "decide/presburger.h"

#include <flint/fmpz_vec.h>

#include "base/buf.h"
#include "base/mem.h"
#include "core/print.h"
#include "base/limit.h"
#include "decide/z3util.h"

typedef struct {
	Z3_context z;
	const Query *q;
	const Store *s;
	Node top;             /* largest root id */
	unsigned char *reach; /* reachable from a root, ids 0..top */
	Z3_ast *v;            /* v[t]: occurrences of alphabet[t] */
	Z3_ast *count;        /* count node id -> its value at the end */
	Z3_ast *memo;         /* node id -> term in the current context */
	double deadline;      /* CLOCK_MONOTONIC seconds, 0 = none */
	bool timed_out, unknown;
} Pres;

static bool in_fragment(const Store *s, Node r)
{
	return store_depth(s, r) <= 1 &&
	       !(store_flags(s, r) & (FLAG_FUTURE | FLAG_PREV | FLAG_MOD));
}

/* The term of node n from its children's terms in p->memo.  letter is
 * the letter at the position (SYM_NONE: none); counts is NULL where
 * every count is 0 (the empty word). */
static Z3_ast node_term(Pres *p, Node n, Sym letter, Z3_ast *counts)
{
	Z3_context z = p->z;
	const Store *s = p->s;
	const Node *k = store_kids(s, n);
	uint32_t nk = store_nkids(s, n);
	Z3_ast args[nk ? nk : 1];
	for (uint32_t i = 0; i < nk && store_op(s, n) != OP_COUNT; i++)
		args[i] = p->memo[k[i]];
	switch (store_op(s, n)) {
	case OP_TRUE: return Z3.mk_true(z);
	case OP_FALSE: return Z3.mk_false(z);
	case OP_LETTER:
		return store_letter_sym(s, n) == letter ? Z3.mk_true(z)
						       : Z3.mk_false(z);
	case OP_NOT: return Z3.mk_not(z, args[0]);
	case OP_AND: return Z3.mk_and(z, nk, args);
	case OP_OR: return Z3.mk_or(z, nk, args);
	case OP_CMP: return z3u_cmp_zero(z, store_rel(s, n), args[0]);
	case OP_CONST: return z3u_numeral(z, store_constant(s, n));
	case OP_COUNT: return counts ? counts[n] : z3u_int(z, 0);
	case OP_ITE: return Z3.mk_ite(z, args[0], args[1], args[2]);
	case OP_MIN:
		return Z3.mk_ite(z, Z3.mk_le(z, args[0], args[1]), args[0],
				 args[1]);
	case OP_MAX:
		return Z3.mk_ite(z, Z3.mk_ge(z, args[0], args[1]), args[0],
				 args[1]);
	case OP_ADD: return Z3.mk_add(z, nk, args);
	case OP_MUL: {
		Z3_ast f[2] = { z3u_numeral(z, store_constant(s, n)), args[0] };
		return Z3.mk_mul(z, 2, f);
	}
	default: /* Y, MOD, #>: outside the fragment, refused earlier */
		return NULL;
	}
}

/* Fills p->memo for the reachable nodes (only depth 0 when shallow). */
static void translate(Pres *p, Sym letter, Z3_ast *counts, bool shallow)
{
	for (Node n = 1; n <= p->top; n++)
		if (p->reach[n] && (!shallow || store_depth(p->s, n) == 0))
			p->memo[n] = node_term(p, n, letter, counts);
}

/* Whether depth-0 node n holds at a position with the letter of the last
 * translate() call (depth-0 terms are closed, so they simplify to a
 * constant). */
static bool holds(Pres *p, Node n)
{
	return Z3.get_bool_value(p->z, Z3.simplify(p->z, p->memo[n])) ==
	       Z3_L_TRUE;
}

/* p->count[c] for every reachable count c = #[psi]: the sum of v_tau over
 * the letters tau where psi holds, plus 1 when psi holds at the end
 * marker (eos).  The marker is no letter: SYM_NONE. */
static void build_counts(Pres *p)
{
	const Query *q = p->q;
	size_t nl = q->nletters;
	size_t nterms = nl + 1;
	Z3_ast **parts = xcalloc(p->top + 1, sizeof *parts);
	size_t *np = xcalloc(p->top + 1, sizeof *np);
	for (size_t t = 0; t <= nl; t++) {
		bool marker = t == nl;
		if (marker && q->accept != ACCEPT_EOS)
			break;
		translate(p, marker ? SYM_NONE : q->alphabet[t], NULL, true);
		for (Node c = 1; c <= p->top; c++) {
			if (!p->reach[c] || store_op(p->s, c) != OP_COUNT ||
			    !holds(p, store_kid(p->s, c, 0)))
				continue;
			if (!parts[c])
				parts[c] = xmalloc(nterms * sizeof **parts);
			parts[c][np[c]++] =
				marker ? z3u_int(p->z, 1) : p->v[t];
		}
	}
	for (Node c = 1; c <= p->top; c++) {
		if (!p->reach[c] || store_op(p->s, c) != OP_COUNT)
			continue;
		p->count[c] = np[c] ? Z3.mk_add(p->z, (unsigned)np[c], parts[c])
				    : z3u_int(p->z, 0);
		free(parts[c]);
	}
	free(parts);
	free(np);
}

/* The two verdicts in the judged context (letter, counts). */
static void verdicts(Pres *p, Sym letter, Z3_ast *counts, Z3_ast out[2])
{
	translate(p, letter, counts, false);
	for (int i = 0; i < 2; i++)
		out[i] = Z3.simplify(p->z, p->memo[p->q->root[i]]);
}

static double remaining(const Pres *p)
{
	if (p->deadline == 0)
		return 0;
	double r = p->deadline - limit_now();
	return r > 0.001 ? r : 0.001;
}

/* The Parikh vector of model m into vec. */
static bool model_vector(Pres *p, Z3_model m, fmpz *vec)
{
	bool ok = true;
	Z3.model_inc_ref(p->z, m);
	for (size_t t = 0; t < p->q->nletters; t++) {
		Z3_ast val = NULL;
		if (!Z3.model_eval(p->z, m, p->v[t], true, &val) ||
		    !z3u_get_fmpz(p->z, val, vec + t))
			ok = false;
	}
	Z3.model_dec_ref(p->z, m);
	return ok;
}

static Z3_ast length_term(Pres *p)
{
	size_t nl = p->q->nletters;
	return nl ? Z3.mk_add(p->z, (unsigned)nl, p->v) : z3u_int(p->z, 0);
}

static void gave_up(Pres *p, const char *reason)
{
	p->unknown = true;
	if (z3u_reason_is_timeout(reason))
		p->timed_out = true;
}

/* s's assertions plus "length <= bound" (bound NULL: none); on sat the
 * model's vector goes to vec. */
static Z3_lbool check_within(Pres *p, Z3_solver s, const fmpz *bound,
			     fmpz *vec)
{
	Z3_context z = p->z;
	Z3.solver_push(z, s);
	if (bound)
		Z3.solver_assert(z, s, Z3.mk_le(z, length_term(p),
						z3u_numeral(z, bound)));
	Z3_lbool r = Z3.solver_check(z, s);
	if (r == Z3_L_TRUE && !model_vector(p, Z3.solver_get_model(z, s), vec))
		r = Z3_L_UNDEF;
	if (r == Z3_L_UNDEF)
		gave_up(p, Z3.solver_get_reason_unknown(z, s));
	Z3.solver_pop(z, s, 1);
	return r;
}

static void length_of(const fmpz *vec, size_t n, fmpz_t len)
{
	fmpz_zero(len);
	for (size_t t = 0; t < n; t++)
		fmpz_add(len, len, vec + t);
}

/* Z3's optimiser on cond, for at most budget seconds. */
static Z3_lbool optimise(Pres *p, Z3_ast cond, double budget, fmpz *vec)
{
	Z3_context z = p->z;
	Z3_optimize o = Z3.mk_optimize(z);
	Z3.optimize_inc_ref(z, o);
	Z3_params prm = z3u_params(z, budget);
	Z3.optimize_set_params(z, o, prm);
	Z3.params_dec_ref(z, prm);
	Z3.optimize_assert(z, o, cond);
	Z3.optimize_minimize(z, o, length_term(p));
	Z3_lbool r = Z3.optimize_check(z, o, 0, NULL);
	if (r == Z3_L_TRUE && !model_vector(p, Z3.optimize_get_model(z, o), vec))
		r = Z3_L_UNDEF;
	Z3.optimize_dec_ref(z, o);
	return r;
}

/* vec is a solution of s; binary search on the length bound makes it a
 * shortest one (about log2(length) plain checks). */
static void bisect(Pres *p, Z3_solver s, size_t last, fmpz *vec)
{
	size_t nl = p->q->nletters;
	fmpz *tmp = _fmpz_vec_init(nl ? nl : 1);
	fmpz_t lo, hi, mid;
	fmpz_init_set_ui(lo, last < nl ? 1 : 0);
	fmpz_init(hi);
	fmpz_init(mid);
	length_of(vec, nl, hi);
	while (fmpz_cmp(lo, hi) < 0) {
		fmpz_add(mid, lo, hi);
		fmpz_fdiv_q_2exp(mid, mid, 1);
		Z3_lbool r = check_within(p, s, mid, tmp);
		if (r == Z3_L_UNDEF)
			break;
		if (r == Z3_L_TRUE) {
			_fmpz_vec_set(vec, tmp, nl);
			length_of(vec, nl, hi);
		} else {
			fmpz_add_ui(lo, mid, 1);
		}
	}
	_fmpz_vec_clear(tmp, nl ? nl : 1);
	fmpz_clear(lo);
	fmpz_clear(hi);
	fmpz_clear(mid);
}

/* The optimiser gets this share of the budget before the binary search
 * takes over: on some huge-coefficient inputs it needs seconds where the
 * search needs milliseconds. */
#define OPTIMISE_SLICE 0.25

/* Minimises the length of a word that ends with alphabet[last] (or with
 * no letter: last == nletters) and separates the sides.  True with the
 * Parikh vector in vec when there is one; false when none or unknown
 * (p->unknown / p->timed_out set). */
static bool shortest(Pres *p, size_t last, Z3_ast diff, fmpz *vec)
{
	Z3_context z = p->z;
	size_t nl = p->q->nletters;
	Z3_ast *conds = xmalloc((nl + 1) * sizeof *conds);
	for (size_t t = 0; t < nl; t++)
		conds[t] = Z3.mk_ge(z, p->v[t], z3u_int(z, t == last ? 1 : 0));
	conds[nl] = diff;
	Z3_ast cond = Z3.mk_and(z, (unsigned)nl + 1, conds);
	free(conds);
	/* Most cases are unsatisfiable (equivalent sides): a plain check is
	 * much cheaper than the optimiser, which runs only on a yes. */
	Z3_solver s = z3u_solver(z, remaining(p));
	Z3.solver_assert(z, s, cond);
	bool found = check_within(p, s, NULL, vec) == Z3_L_TRUE;
	if (found) {
		double budget = remaining(p);
		if (budget == 0 || budget > OPTIMISE_SLICE)
			budget = OPTIMISE_SLICE;
		if (optimise(p, cond, budget, vec) != Z3_L_TRUE)
			bisect(p, s, last, vec);
	}
	Z3.solver_dec_ref(z, s);
	return found;
}

/* The word: every other letter's run, then the last letter's (so the
 * word ends with it; under eos any order does). */
static void vector_to_runs(const Query *q, size_t last, const fmpz *vec,
			   Runs *out)
{
	for (size_t t = 0; t < q->nletters; t++)
		if (t != last && !fmpz_is_zero(vec + t))
			runs_push(out, q->alphabet[t], vec + t);
	if (last < q->nletters)
		runs_push(out, q->alphabet[last], vec + last);
}

static void certify_line(Pres *p, Buf *cert, const char *where,
			 const Z3_ast v[2])
{
	buf_printf(cert, "%s:\n  first:  %s\n", where,
		   Z3.ast_to_string(p->z, v[0]));
	buf_printf(cert, "  second: %s\n", Z3.ast_to_string(p->z, v[1]));
}

/* The judged contexts in order: index nl is the empty word (last) or
 * the end marker (eos), then each last letter. */
static void decide_all(Pres *p, MethodResult *out)
{
	const Query *q = p->q;
	size_t nl = q->nletters;
	SymTab *syms = store_syms((Store *)p->s);
	fmpz *vec = _fmpz_vec_init(nl ? nl : 1), *best = _fmpz_vec_init(nl ? nl : 1);
	fmpz_t len, best_len;
	fmpz_init(len);
	fmpz_init(best_len);
	size_t best_last = SIZE_MAX;
	Buf cert = { 0 };
	bool eos = q->accept == ACCEPT_EOS;
	buf_puts(&cert, "presburger: at the judged position both sides are "
			"linear conditions on the letter counts\n");
	for (size_t c = 0; c <= nl; c++) {
		size_t last = c == 0 ? nl : c - 1; /* nl: no letter */
		if (eos && c > 0)
			break;
		Z3_ast v[2];
		Sym letter = last < nl ? q->alphabet[last] : SYM_NONE;
		verdicts(p, letter, eos || last < nl ? p->count : NULL, v);
		Z3_ast diff = Z3.mk_xor(p->z, v[0], v[1]);
		char where[256];
		if (last == nl)
			snprintf(where, sizeof where, "%s",
				 eos ? "at the end marker" : "empty word");
		else
			snprintf(where, sizeof where, "last letter %.200s",
				 sym_name(syms, letter));
		certify_line(p, &cert, where, v);
		if (!shortest(p, last, diff, vec))
			continue;
		length_of(vec, nl, len);
		if (best_last == SIZE_MAX || fmpz_cmp(len, best_len) < 0) {
			best_last = last;
			fmpz_set(best_len, len);
			_fmpz_vec_set(best, vec, nl);
		}
	}
	if (best_last != SIZE_MAX) {
		out->status = MR_DIFFERENT;
		vector_to_runs(q, best_last, best, &out->witness);
		out->witness_shortest = !p->unknown;
	} else if (p->unknown) {
		out->status = p->timed_out ? MR_LIMIT : MR_UNKNOWN;
		out->reason = xstrdup(p->timed_out ? "time limit"
						   : "Z3 gave up");
	} else {
		out->status = MR_EQUIVALENT;
		buf_puts(&cert, "for each case the two conditions are "
				"equivalent (Z3: their difference is "
				"unsatisfiable)\n");
		if (q->want_certificate)
			out->certificate = buf_take(&cert);
	}
	buf_free(&cert);
	_fmpz_vec_clear(vec, nl ? nl : 1);
	_fmpz_vec_clear(best, nl ? nl : 1);
	fmpz_clear(len);
	fmpz_clear(best_len);
}

void presburger_decide(const Query *q, MethodResult *out)
{
	const Store *s = q->store;
	for (int i = 0; i < 2; i++)
		if (!in_fragment(s, q->root[i])) {
			out->status = MR_NOT_APPLICABLE;
			out->reason = xstrdup(
				"applies to count depth "
				"<= 1 without Y, MOD or #>");
			return;
		}
	if (!z3u_ready(out))
		return;
	Pres p = { .q = q, .s = s };
	p.z = z3u_new();
	p.top = q->root[0] > q->root[1] ? q->root[0] : q->root[1];
	p.reach = store_reachable(s, q->root, 2);
	p.memo = xcalloc(p.top + 1, sizeof *p.memo);
	p.count = xcalloc(p.top + 1, sizeof *p.count);
	p.v = xmalloc((q->nletters ? q->nletters : 1) * sizeof *p.v);
	p.deadline = q->timeout > 0 ? limit_now() + q->timeout : 0;
	for (size_t t = 0; t < q->nletters; t++) {
		/* Named as the formulas would write the count: #[Q_a]. */
		Buf name = { 0 };
		buf_puts(&name, "#[");
		tl_print_letter(&name, s, q->alphabet[t], SYNTAX_TL);
		buf_puts(&name, "]");
		p.v[t] = Z3.mk_const(p.z, Z3.mk_string_symbol(p.z, name.data),
				     Z3.mk_int_sort(p.z));
		buf_free(&name);
	}
	build_counts(&p);
	decide_all(&p, out);
	free(p.v);
	free(p.count);
	free(p.memo);
	free(p.reach);
	Z3.del_context(p.z);
}
