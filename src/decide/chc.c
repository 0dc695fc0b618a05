/* chc.c -- the product machine as constrained Horn clauses (see chc.h).
 *
 * The symbolic step below follows machine.h's documented instruction
 * semantics one instruction at a time, with Z3 terms in place of slot
 * values (Bool terms for Boolean slots, Int terms for integer ones); it
 * reads the compiled program and never the DAG, so the update rules stay
 * those of the machine module.
 */
#include <config.h>
#include "decide/chc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "machine/machine.h"
#include "base/mem.h"
#include "core/print.h"
#include "machine/eval.h"
#include "base/limit.h"
#include "decide/z3util.h"

typedef struct {
	Z3_context z;
	const Query *q;
	Machine m;
	bool *isbool;       /* per slot */
	size_t ncols;       /* letter counts, persistent non-LD slots, then
			     * the position column */
	uint32_t *col_code; /* a count column's letter code, else UINT32_MAX */
	uint32_t *col_slot; /* a slot column's slot, else UINT32_MAX */
	size_t *cnt_col;    /* code -> column of its letter count */
	size_t ncnt;
	bool pos_col;       /* MOD present: position (mod period) column */
	Z3_sort *sorts;
	Z3_ast *x;          /* the columns as named constants */
	QueryCodes qc;      /* the alphabet's codes and the end marker's */
	Z3_func_decl inv, bad;
	double timeout;
} Chc;

/* ---- the symbolic machine ------------------------------------------- */

static Z3_ast as_int(Chc *c, uint32_t slot, Z3_ast v)
{
	if (!c->isbool[slot])
		return v;
	return Z3.mk_ite(c->z, v, z3u_int(c->z, 1), z3u_int(c->z, 0));
}

static Z3_ast constant(Chc *c, uint32_t slot)
{
	const Machine *m = &c->m;
	if (c->isbool[slot])
		return m->init[slot] ? Z3.mk_true(c->z) : Z3.mk_false(c->z);
	if (m->big[slot])
		return z3u_numeral(c->z, m->binit + slot);
	return Z3.mk_int64(c->z, m->init[slot], Z3.mk_int_sort(c->z));
}

/* dst = k + sum coef_j * opnd_j, exactly (MI_LIN and MI_BLIN). */
static Z3_ast linear(Chc *c, const MachineInstr *in, Z3_ast *val)
{
	const Machine *m = &c->m;
	Z3_context z = c->z;
	Z3_ast *t = xmalloc((in->n + 1) * sizeof *t);
	t[0] = in->op == MI_BLIN ? z3u_numeral(z, m->bconst + in->k)
				 : Z3.mk_int64(z, in->k, Z3.mk_int_sort(z));
	for (uint32_t j = 0; j < in->n; j++) {
		uint32_t o = m->opnd[in->off + j];
		Z3_ast f[2] = { z3u_numeral(z, m->bcoef + in->off + j),
				as_int(c, o, val[o]) };
		t[j + 1] = Z3.mk_mul(z, 2, f);
	}
	Z3_ast r = Z3.mk_add(z, in->n + 1, t);
	free(t);
	return r;
}

static Z3_ast nary(Chc *c, const MachineInstr *in, Z3_ast *val)
{
	Z3_ast *t = xmalloc((in->n ? in->n : 1) * sizeof *t);
	for (uint32_t j = 0; j < in->n; j++)
		t[j] = val[c->m.opnd[in->off + j]];
	Z3_ast r = in->op == MI_AND ? Z3.mk_and(c->z, in->n, t)
				    : Z3.mk_or(c->z, in->n, t);
	free(t);
	return r;
}

/* One instruction list over val (pos0: the empty word's position). */
static void sym_run(Chc *c, Z3_ast *val, const MachineInstr *code, size_t n,
		    Z3_ast pos, bool pos0)
{
	Z3_context z = c->z;
	for (size_t i = 0; i < n; i++) {
		const MachineInstr *in = &code[i];
		/* MI_MOD's a and b are numbers, not slots. */
		Z3_ast a = in->op == MI_MOD ? NULL : val[in->a], r = NULL;
		switch (in->op) {
		case MI_NOT: r = Z3.mk_not(z, a); break;
		case MI_AND:
		case MI_OR: r = nary(c, in, val); break;
		case MI_CMP:
		case MI_BCMP: r = z3u_cmp_zero(z, (Rel)in->rel, a); break;
		case MI_COUNT:
		case MI_BCOUNT: {
			Z3_ast t[2] = { val[in->dst], as_int(c, in->a, a) };
			r = pos0 ? z3u_int(z, 0) : Z3.mk_add(z, 2, t);
			break;
		}
		case MI_PREV:
			r = pos0 ? Z3.mk_false(z) : val[in->b];
			val[in->b] = pos0 ? Z3.mk_false(z) : a;
			break;
		case MI_MOD:
			r = Z3.mk_eq(z, Z3.mk_mod(z, pos, z3u_int(z, in->a)),
				     z3u_int(z, in->b));
			break;
		case MI_LIN:
		case MI_BLIN: r = linear(c, in, val); break;
		case MI_ITE:
		case MI_BITE: r = Z3.mk_ite(z, a, val[in->b], val[in->c]); break;
		case MI_MIN:
		case MI_BMIN:
			r = Z3.mk_ite(z, Z3.mk_le(z, a, val[in->b]), a,
				      val[in->b]);
			break;
		case MI_MAX:
		case MI_BMAX:
			r = Z3.mk_ite(z, Z3.mk_ge(z, a, val[in->b]), a,
				      val[in->b]);
			break;
		}
		val[in->dst] = r;
	}
}

/* How many letters k there are after reading code (0 at position 0). */
static Z3_ast letter_count(Chc *c, const Z3_ast *x, uint32_t code,
			   uint32_t k)
{
	/* A code no alphabet letter has (the end marker's) has no column:
	 * it is read at most once, as the last step. */
	bool column = c->qc.is_letter[k];
	if (!x || !column)
		return z3u_int(c->z, x && k == code ? 1 : 0);
	if (k != code)
		return x[c->cnt_col[k]];
	Z3_ast t[2] = { x[c->cnt_col[k]], z3u_int(c->z, 1) };
	return Z3.mk_add(c->z, 2, t);
}

/* A letter-driven slot is init + sum over letters of delta * count: the
 * columns hold the letter counts rather than these linear forms, whose
 * linear dependencies make Spacer's job much harder (Dyck-1: a proof in
 * 0.05 s instead of no answer in 20 s). */
static Z3_ast letter_driven(Chc *c, const Z3_ast *x, uint32_t code, size_t i)
{
	const Machine *m = &c->m;
	Z3_context z = c->z;
	Z3_ast *t = xmalloc((m->ncodes + 1) * sizeof *t);
	unsigned n = 0;
	t[n++] = constant(c, (uint32_t)i);
	for (uint32_t k = 0; k < m->ncodes; k++) {
		int64_t d = m->delta[i * m->ncodes + k];
		/* The letters read so far, and the one read now (the end
		 * marker's code too: dropping it was issue 18's false
		 * proofs under eos). */
		if (d == 0 || (!c->qc.is_letter[k] && k != code))
			continue;
		Z3_ast f[2] = { Z3.mk_int64(z, d, Z3.mk_int_sort(z)),
				letter_count(c, x, code, k) };
		t[n++] = Z3.mk_mul(z, 2, f);
	}
	Z3_ast r = Z3.mk_add(z, n, t);
	free(t);
	return r;
}

/* The state after reading letter code from state x (or the empty word's
 * state when x is NULL) into next[ncols]; the verdicts there into
 * verdict[2] when verdict is not NULL. */
static void sym_step(Chc *c, const Z3_ast *x, uint32_t code, Z3_ast *next,
		     Z3_ast *verdict)
{
	const Machine *m = &c->m;
	Z3_context z = c->z;
	bool pos0 = x == NULL;
	Z3_ast *val = xmalloc((m->nslots ? m->nslots : 1) * sizeof *val);
	size_t col = c->ncnt;
	for (size_t i = 0; i < m->nslots; i++) {
		if (i < m->nld) {
			val[i] = pos0 ? constant(c, (uint32_t)i)
				      : letter_driven(c, x, code, i);
		} else if (i < m->nld + m->nlf) {
			int64_t v = m->lfrow[(size_t)code * m->nlf + i - m->nld];
			val[i] = v ? Z3.mk_true(z) : Z3.mk_false(z);
		} else if (m->persistent[i]) {
			val[i] = pos0 ? constant(c, (uint32_t)i) : x[col];
			col++;
		} else {
			val[i] = constant(c, (uint32_t)i);
		}
	}
	Z3_ast pos = z3u_int(z, 0);
	if (c->pos_col && !pos0) {
		Z3_ast t[2] = { x[c->ncols - 1], z3u_int(z, 1) };
		pos = Z3.mk_add(z, 2, t);
		if (!m->huge_period)
			pos = Z3.mk_ite(z, Z3.mk_eq(z, pos, Z3.mk_unsigned_int64(
					z, m->period, Z3.mk_int_sort(z))),
					z3u_int(z, 0), pos);
	}
	sym_run(c, val, m->step, m->nstep, pos, pos0);
	for (uint32_t k = 0; k < m->ncodes; k++)
		if (c->qc.is_letter[k])
			next[c->cnt_col[k]] = letter_count(c, x, code, k);
	col = c->ncnt;
	for (size_t k = 0; k < m->npslot; k++)
		if (m->pslot[k] >= m->nld)
			next[col++] = val[m->pslot[k]];
	if (c->pos_col)
		next[c->ncols - 1] = pos;
	if (verdict) {
		sym_run(c, val, m->query, m->nquery, pos, false);
		for (int r = 0; r < 2; r++)
			verdict[r] = val[m->root_slot[r]];
	}
	free(val);
}

/* ---- columns and their names ---------------------------------------- */

/* What slot holds, as text: the subformula it computes, or for a Y
 * latch the operand it remembers from the last position. */
static char *slot_name(Chc *c, uint32_t slot)
{
	const Machine *m = &c->m;
	Node n = m->node_of[slot];
	if (n != NODE_NONE)
		return tl_print_brief(m->s, n, SYNTAX_TL);
	for (size_t i = 0; i < m->nstep; i++)
		if (m->step[i].op == MI_PREV && m->step[i].b == slot) {
			char *t = tl_print_brief(m->s, m->node_of[m->step[i].a],
						 SYNTAX_TL);
			Buf b = { 0 };
			buf_printf(&b, "Y-latch[%s]", t);
			free(t);
			return buf_take(&b);
		}
	return xstrdup("?");
}

static void add_column(Chc *c, char *name, bool isb, uint32_t code,
		       uint32_t slot)
{
	Z3_context z = c->z;
	size_t k = c->ncols++;
	c->col_code[k] = code;
	c->col_slot[k] = slot;
	c->sorts[k] = isb ? Z3.mk_bool_sort(z) : Z3.mk_int_sort(z);
	c->x[k] = Z3.mk_const(z, Z3.mk_string_symbol(z, name), c->sorts[k]);
	free(name);
}

static void make_columns(Chc *c)
{
	const Machine *m = &c->m;
	c->pos_col = m->period > 0 || m->huge_period;
	size_t nc = m->ncodes + m->npslot + 1;
	c->sorts = xmalloc(nc * sizeof *c->sorts);
	c->x = xmalloc(nc * sizeof *c->x);
	c->cnt_col = xcalloc(m->ncodes, sizeof *c->cnt_col);
	c->col_code = xmalloc(nc * sizeof *c->col_code);
	c->col_slot = xmalloc(nc * sizeof *c->col_slot);
	for (uint32_t k = 0; k < m->ncodes; k++) {
		if (!c->qc.is_letter[k])
			continue;
		Buf b = { 0 };
		if (k + 1 < m->ncodes) {
			buf_puts(&b, "#[");
			tl_print_letter(&b, m->s, m->codes.letters[k],
					SYNTAX_TL);
			buf_puts(&b, "]");
		} else {
			buf_puts(&b, "#[letters neither side tests]");
		}
		c->cnt_col[k] = c->ncols;
		add_column(c, buf_take(&b), false, k, UINT32_MAX);
	}
	c->ncnt = c->ncols;
	for (size_t k = 0; k < m->npslot; k++)
		if (m->pslot[k] >= m->nld)
			add_column(c, slot_name(c, m->pslot[k]),
				   c->isbool[m->pslot[k]], UINT32_MAX,
				   m->pslot[k]);
	if (c->pos_col) {
		Buf b = { 0 };
		if (m->huge_period)
			buf_puts(&b, "position");
		else
			buf_printf(&b, "position mod %llu",
				   (unsigned long long)m->period);
		add_column(c, buf_take(&b), false, UINT32_MAX, UINT32_MAX);
	}
}

/* ---- clauses, query, re-check --------------------------------------- */

static Z3_ast forall(Chc *c, Z3_ast body)
{
	if (c->ncols == 0)
		return body;
	Z3_app *b = xmalloc(c->ncols * sizeof *b);
	for (size_t k = 0; k < c->ncols; k++)
		b[k] = Z3.to_app(c->z, c->x[k]);
	Z3_ast r = Z3.mk_forall_const(c->z, 0, (unsigned)c->ncols, b, 0, NULL,
				      body);
	free(b);
	return r;
}

static Z3_ast inv_at(Chc *c, Z3_ast *args)
{
	return Z3.mk_app(c->z, c->inv, (unsigned)c->ncols, args);
}

/* The codes Bad is checked after: each letter, or the end marker (all
 * letter tests false: the code "other") under eos. */
static bool judged_after(const Chc *c, uint32_t code)
{
	if (c->q->accept == ACCEPT_EOS)
		return code == c->qc.end_code;
	return c->qc.is_letter[code];
}

static Z3_ast differ(Chc *c, Z3_ast *v)
{
	return Z3.mk_xor(c->z, v[0], v[1]);
}

/* The Horn clauses; also fills init[] (the empty word's state). */
static void add_rules(Chc *c, Z3_fixedpoint fp, Z3_ast *init)
{
	Z3_context z = c->z;
	size_t nc = c->ncols ? c->ncols : 1;
	Z3_ast *next = xmalloc(nc * sizeof *next);
	sym_step(c, NULL, c->qc.end_code, init, NULL);
	Z3.fixedpoint_add_rule(z, fp, inv_at(c, init), NULL);
	Z3_ast now = inv_at(c, c->x);
	for (uint32_t code = 0; code < c->m.ncodes; code++) {
		if (!c->qc.is_letter[code] && !judged_after(c, code))
			continue;
		Z3_ast v[2];
		sym_step(c, c->x, code, next, v);
		if (c->qc.is_letter[code])
			Z3.fixedpoint_add_rule(z, fp, forall(c, Z3.mk_implies(
				z, now, inv_at(c, next))), NULL);
		if (judged_after(c, code)) {
			Z3_ast body[2] = { now, differ(c, v) };
			Z3.fixedpoint_add_rule(z, fp, forall(c, Z3.mk_implies(
				z, Z3.mk_and(z, 2, body),
				Z3.mk_app(z, c->bad, 0, NULL))), NULL);
		}
	}
	free(next);
}

static bool unsat(Chc *c, Z3_ast f)
{
	Z3_context z = c->z;
	Z3_solver s = z3u_solver(z, c->timeout);
	Z3.solver_assert(z, s, f);
	bool r = Z3.solver_check(z, s) == Z3_L_FALSE;
	Z3.solver_dec_ref(z, s);
	return r;
}

/* The invariant I(x) re-checked: initiation, consecution under every
 * letter, safety at every judged position.  Count of obligations into
 * *n. */
static bool recheck(Chc *c, Z3_ast inv, Z3_ast *init, size_t *n)
{
	Z3_context z = c->z;
	size_t nc = c->ncols ? c->ncols : 1;
	Z3_ast *next = xmalloc(nc * sizeof *next);
	Z3_ast at_init = Z3.substitute(z, inv, (unsigned)c->ncols, c->x, init);
	bool ok = unsat(c, Z3.mk_not(z, at_init));
	*n = 1;
	for (uint32_t code = 0; ok && code < c->m.ncodes; code++) {
		Z3_ast v[2];
		sym_step(c, c->x, code, next, v);
		if (c->qc.is_letter[code]) {
			Z3_ast after = Z3.substitute(z, inv, (unsigned)c->ncols,
						     c->x, next);
			Z3_ast f[2] = { inv, Z3.mk_not(z, after) };
			ok = unsat(c, Z3.mk_and(z, 2, f));
			++*n;
		}
		if (ok && judged_after(c, code)) {
			Z3_ast f[2] = { inv, differ(c, v) };
			ok = unsat(c, Z3.mk_and(z, 2, f));
			++*n;
		}
	}
	free(next);
	return ok;
}

/* ---- the invariant on real words ----------------------------------------- */

/* The initiation/consecution/safety re-check above uses this file's own
 * encoding, which an encoding error passes.  So the invariant is also
 * evaluated on the columns' real values: every prefix of every word of
 * INV_WORDS_MAX letter combinations, the values taken from the
 * evaluator's table (eval.h), not from the symbolic step. */
#define INV_WORDS_MAX 256
#define INV_UNARY_LENGTH 64

/* The column's value at position p of word (p = 0: the empty word, from
 * t0); NULL when it cannot be told. */
static Z3_ast column_value(Chc *c, size_t k, const EvalTable *t,
			   const EvalTable *t0, const uint32_t *codes,
			   size_t p)
{
	Z3_context z = c->z;
	const Machine *m = &c->m;
	if (c->col_code[k] != UINT32_MAX) {
		long n = 0;
		for (size_t i = 0; i < p; i++)
			n += codes[i] == c->col_code[k];
		return z3u_int(z, n);
	}
	if (c->col_slot[k] == UINT32_MAX) { /* the position */
		unsigned long long v = p;
		if (!m->huge_period)
			v %= m->period;
		return Z3.mk_unsigned_int64(z, v, Z3.mk_int_sort(z));
	}
	uint32_t slot = c->col_slot[k];
	Node n = m->node_of[slot];
	if (n == NODE_NONE) { /* a Y latch: its operand's value now */
		for (size_t i = 0; i < m->nstep && n == NODE_NONE; i++)
			if (m->step[i].op == MI_PREV && m->step[i].b == slot)
				n = m->node_of[m->step[i].a];
		if (n == NODE_NONE)
			return NULL;
		if (p == 0)
			return Z3.mk_false(z);
	}
	const EvalTable *at = p == 0 ? t0 : t;
	if (c->isbool[slot])
		return eval_table_bool(at, n, p) ? Z3.mk_true(z)
						 : Z3.mk_false(z);
	fmpz_t v;
	fmpz_init(v);
	eval_table_int(at, n, p, v);
	Z3_ast r = z3u_numeral(z, v);
	fmpz_clear(v);
	return r;
}

/* Is inv true at every position of word?  False with the evidence in
 * *why. */
static bool inv_on_word(Chc *c, Z3_ast inv, Evaluator *ev,
			const EvalTable *t0, const Sym *word,
			const uint32_t *codes, size_t n, char **why)
{
	Z3_context z = c->z;
	EvalTable *t = n ? eval_table(ev, word, n) : NULL;
	Z3_ast *val = xmalloc((c->ncols ? c->ncols : 1) * sizeof *val);
	bool ok = true;
	for (size_t p = 0; p <= n && ok; p++) {
		bool known = true;
		for (size_t k = 0; k < c->ncols && known; k++)
			known = (val[k] = column_value(c, k, t, t0, codes, p));
		if (!known)
			continue;
		Z3_ast at = Z3.simplify(z, Z3.substitute(
			z, inv, (unsigned)c->ncols, c->x, val));
		if (Z3.get_bool_value(z, at) != Z3_L_FALSE)
			continue;
		ok = false;
		Buf b = { 0 };
		buf_puts(&b, "the invariant Spacer returned is false on the "
			     "real values after the prefix '");
		for (size_t i = 0; i < p; i++)
			buf_printf(&b, "%s%s", i ? " " : "",
				   sym_name(store_syms((Store *)c->m.s),
					    word[i]));
		buf_puts(&b, "' (a bug in the encoding)");
		*why = buf_take(&b);
	}
	free(val);
	if (t)
		eval_table_free(t);
	return ok;
}

static bool inv_on_words(Chc *c, Z3_ast inv, char **why)
{
	const QueryCodes *qc = &c->qc;
	size_t len = 0;
	if (qc->n == 1)
		len = INV_UNARY_LENGTH;
	else if (qc->n > 1)
		for (size_t w = qc->n; w <= INV_WORDS_MAX; w *= qc->n)
			len++;
	Evaluator *ev = eval_new(c->m.s, c->q->root, 2, ACCEPT_LAST);
	Sym none = SYM_NONE;
	EvalTable *t0 = eval_table(ev, &none, 0);
	size_t *digit = xcalloc(len + 1, sizeof *digit);
	Sym *word = xmalloc((len + 1) * sizeof *word);
	uint32_t *codes = xmalloc((len + 1) * sizeof *codes);
	bool ok = true;
	do {
		for (size_t i = 0; i < len; i++) {
			word[i] = qc->sym[digit[i]];
			codes[i] = qc->code[digit[i]];
		}
		ok = inv_on_word(c, inv, ev, t0, word, codes, len, why);
		size_t i = len;
		while (i > 0 && ++digit[i - 1] == qc->n)
			digit[--i] = 0;
		if (i == 0)
			break;
	} while (ok);
	free(digit);
	free(word);
	free(codes);
	eval_table_free(t0);
	eval_free(ev);
	return ok;
}

static char *certificate(Chc *c, Z3_ast inv, size_t obligations)
{
	Buf b = { 0 };
	buf_printf(&b, "chc: an inductive invariant of the product machine, "
		   "re-checked by %zu solver calls (initiation, consecution "
		   "for every letter, safety)\ncolumns (the subformulas the "
		   "machine keeps from one position to the next):\n",
		   obligations);
	for (size_t k = 0; k < c->ncols; k++)
		buf_printf(&b, "  %s\n", Z3.ast_to_string(c->z, c->x[k]));
	buf_printf(&b, "invariant:\n  %s\n",
		   Z3.ast_to_string(c->z, Z3.simplify(c->z, inv)));
	return buf_take(&b);
}

static void proved(Chc *c, Z3_fixedpoint fp, Z3_ast *init, MethodResult *out)
{
	Z3_context z = c->z;
	Z3_ast cover = Z3.fixedpoint_get_cover_delta(z, fp, -1, c->inv);
	size_t obligations = 0;
	Z3_ast inv = cover ? Z3.substitute_vars(z, cover, (unsigned)c->ncols,
						c->x)
			   : NULL;
	if (!inv || !recheck(c, inv, init, &obligations)) {
		/* Never a verdict: report it so that it gets fixed. */
		out->status = MR_UNKNOWN;
		out->reason = xstrdup("the invariant Spacer returned did "
				      "not re-check (a bug)");
		return;
	}
	char *why = NULL;
	if (!inv_on_words(c, inv, &why)) {
		out->status = MR_INTERNAL;
		out->reason = why;
		return;
	}
	out->status = MR_EQUIVALENT;
	if (c->q->want_certificate)
		out->certificate = certificate(c, inv, obligations);
}

static void solve(Chc *c, MethodResult *out)
{
	Z3_context z = c->z;
	Z3_fixedpoint fp = Z3.mk_fixedpoint(z);
	Z3.fixedpoint_inc_ref(z, fp);
	Z3_params p = z3u_params(z, c->timeout);
	Z3.params_set_symbol(z, p, Z3.mk_string_symbol(z, "engine"),
			     Z3.mk_string_symbol(z, "spacer"));
	Z3.fixedpoint_set_params(z, fp, p);
	Z3.params_dec_ref(z, p);
	c->inv = Z3.mk_func_decl(z, Z3.mk_string_symbol(z, "Inv"),
				 (unsigned)c->ncols, c->sorts,
				 Z3.mk_bool_sort(z));
	c->bad = Z3.mk_func_decl(z, Z3.mk_string_symbol(z, "Bad"), 0, NULL,
				 Z3.mk_bool_sort(z));
	Z3.fixedpoint_register_relation(z, fp, c->inv);
	Z3.fixedpoint_register_relation(z, fp, c->bad);
	Z3_ast *init = xmalloc((c->ncols ? c->ncols : 1) * sizeof *init);
	add_rules(c, fp, init);
	double start = limit_now();
	Z3_lbool r = Z3.fixedpoint_query(z, fp, Z3.mk_app(z, c->bad, 0, NULL));
	if (r == Z3_L_FALSE) {
		proved(c, fp, init, out);
	} else if (r == Z3_L_TRUE) {
		out->status = MR_UNKNOWN;
		out->bound = Z3.fixedpoint_get_num_levels(z, fp, c->inv) + 1;
		out->reason = xstrdup("Spacer found a reachable "
				      "difference (explore finds the "
				      "shortest word)");
	} else {
		const char *why = Z3.fixedpoint_get_reason_unknown(z, fp);
		/* Spacer's reason after a time-out is not always "timeout". */
		bool limit = z3u_reason_is_timeout(why) ||
			     (c->timeout > 0 &&
			      limit_now() - start >= 0.9 * c->timeout);
		out->status = limit ? MR_LIMIT : MR_UNKNOWN;
		Buf b = { 0 };
		buf_printf(&b, limit ? "Spacer ran out of its time budget "
				       "(Z3's reason: %s)"
				     : "Spacer gave up (%s)", why ? why : "?");
		out->reason = buf_take(&b);
	}
	free(init);
	Z3.fixedpoint_dec_ref(z, fp);
}

void chc_decide(const Query *q, MethodResult *out)
{
	const Store *s = q->store;
	if ((store_flags(s, q->root[0]) | store_flags(s, q->root[1])) &
	    FLAG_FUTURE) {
		out->status = MR_NOT_APPLICABLE;
		out->reason = xstrdup("past-only formulas only: with #> "
				      "the state depends on the unread "
				      "suffix");
		return;
	}
	Chc c = { .q = q, .timeout = q->timeout };
	/* Under the default convention the empty word is judged at
	 * position 0, which no step reaches. */
	if (q->accept == ACCEPT_LAST && method_empty_word_differs(q)) {
		out->status = MR_DIFFERENT;
		out->witness_shortest = true;
		return;
	}
	if (!z3u_ready(out))
		return;
	machine_init(&c.m, s, q->root, 2, false);
	const Machine *m = &c.m;
	c.isbool = xmalloc((m->nslots ? m->nslots : 1) * sizeof *c.isbool);
	for (size_t i = 0; i < m->nslots; i++)
		c.isbool[i] = m->node_of[i] == NODE_NONE ||
			      store_is_bool(s, m->node_of[i]);
	query_codes_init(&c.qc, q, &m->codes);
	c.z = z3u_new();
	make_columns(&c);
	solve(&c, out);
	Z3.del_context(c.z);
	free(c.sorts);
	free(c.x);
	free(c.cnt_col);
	free(c.col_code);
	free(c.col_slot);
	query_codes_free(&c.qc);
	free(c.isbool);
	machine_free(&c.m);
}
