/* runeval.c -- run-length words (see runeval.h). */
#include <config.h>
#include "machine/runeval.h"

#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>

#include "base/buf.h"
#include "machine/machine.h"
#include "base/mem.h"

/* MOD periods longer than this are stepped letter by letter. */
#define MAX_PERIOD 1024

struct RunEval {
	const Store *s;
	Node *roots;
	size_t nroots;
	AcceptAt accept;
	bool future;
	Machine m;       /* for words of up to 2^48 letters */
	bool step_mod;   /* a MOD the step program reads */
	bool step_mod_long; /* ... with a period beyond MAX_PERIOD */
	Evaluator *ev;   /* formulas with #> */
};

static bool has_step_mod(const Machine *m)
{
	for (size_t i = 0; i < m->nstep; i++)
		if (m->step[i].op == MI_MOD)
			return true;
	return false;
}

RunEval *runeval_new(const Store *s, const Node *roots, size_t nroots,
		     AcceptAt accept)
{
	RunEval *re = xcalloc(1, sizeof *re);
	re->s = s;
	re->roots = xmalloc((nroots ? nroots : 1) * sizeof *roots);
	memcpy(re->roots, roots, nroots * sizeof *roots);
	re->nroots = nroots;
	re->accept = accept;
	for (size_t r = 0; r < nroots; r++)
		re->future |= store_flags(s, roots[r]) & FLAG_FUTURE;
	if (!re->future) {
		machine_init(&re->m, s, roots, nroots, false);
		re->step_mod = has_step_mod(&re->m);
		re->step_mod_long = re->step_mod &&
				    (re->m.huge_period || re->m.period > MAX_PERIOD);
	} else {
		re->ev = eval_new(s, roots, nroots, accept);
	}
	return re;
}

void runeval_free(RunEval *re)
{
	if (!re)
		return;
	if (!re->future)
		machine_free(&re->m);
	eval_free(re->ev);
	free(re->roots);
	free(re);
}

Sym *runs_expand(const Runs *w, unsigned long max, size_t *n)
{
	fmpz_t len;
	fmpz_init(len);
	runs_length(w, len);
	bool fits = fmpz_cmp_ui(len, max) <= 0;
	*n = fits ? fmpz_get_ui(len) : 0;
	fmpz_clear(len);
	if (!fits)
		return NULL;
	Sym *word = xmalloc((*n ? *n : 1) * sizeof *word);
	size_t k = 0;
	for (size_t i = 0; i < w->n; i++)
		for (ulong j = fmpz_get_ui(&w->count[i]); j > 0; j--)
			word[k++] = w->letter[i];
	return word;
}

static char *message(const char *text)
{
	return xstrdup(text);
}

/* ---- jumping over a run ------------------------------------------------- */

static void value(const Machine *m, const MachineState *st, uint32_t slot,
		  fmpz_t out)
{
	if (m->big[slot])
		fmpz_set(out, &st->B[slot]);
	else
		fmpz_set_si(out, st->V[slot]);
}

/* d = min(d, t); an empty d (*inf) is infinity. */
static void lower(fmpz_t d, bool *inf, const fmpz_t t)
{
	if (*inf || fmpz_cmp(t, d) < 0) {
		fmpz_set(d, t);
		*inf = false;
	}
}

/* How many more positions of letter `code` keep the sign of v + t*r for
 * t = 1..T (v, r: the value and its rate): lowers d to T. */
static void sign_horizon(const fmpz_t v, const fmpz_t r, fmpz_t d, bool *inf)
{
	if (fmpz_is_zero(r) || fmpz_sgn(v) == fmpz_sgn(r))
		return;
	fmpz_t t;
	fmpz_init(t);
	if (!fmpz_is_zero(v)) {
		/* Opposite signs: T = floor((|v| - 1) / |r|). */
		fmpz_t a;
		fmpz_init(a);
		fmpz_abs(t, v);
		fmpz_sub_ui(t, t, 1);
		fmpz_abs(a, r);
		fmpz_fdiv_q(t, t, a);
		fmpz_clear(a);
	}
	lower(d, inf, t);
	fmpz_clear(t);
}

static bool is_min(unsigned op)
{
	return op == MI_MIN || op == MI_BMIN;
}

/* A min (max) of a and b, with diff = a - b now and rate its change per
 * step: which argument is the min (max) from the next step on (true:
 * a), and how many steps it stays so (lowers d).  Clobbers diff, rate. */
static bool choice_horizon(bool min, fmpz_t diff, fmpz_t rate, fmpz_t d,
			   bool *inf)
{
	int c = fmpz_sgn(diff), cr = fmpz_sgn(rate);
	bool pick_a = min ? (c < 0 || (c == 0 && cr <= 0))
			  : (c > 0 || (c == 0 && cr >= 0));
	/* gap = other - chosen (min) or chosen - other (max) is >= 0 now;
	 * it shrinks by |rate| per step when the rate works against the
	 * choice. */
	if (pick_a == min)
		fmpz_neg(diff, diff);
	else
		fmpz_neg(rate, rate);
	if (fmpz_sgn(rate) > 0) {
		fmpz_fdiv_q(diff, diff, rate);
		lower(d, inf, diff);
	}
	return pick_a;
}

/* The rates of every slot in a run of `code` (R), assuming every Boolean
 * keeps its current value, and the number of further positions d for
 * which that assumption holds (*inf: all of them). */
static void horizon(const Machine *m, const MachineState *st, uint32_t code,
		    fmpz *R, fmpz_t d, bool *inf)
{
	fmpz_t x, y;
	fmpz_init(x);
	fmpz_init(y);
	*inf = true;
	for (size_t i = 0; i < m->nslots; i++)
		fmpz_zero(&R[i]);
	for (size_t i = 0; i < m->nld; i++)
		fmpz_set_si(&R[i], m->delta[i * m->ncodes + code]);
	for (size_t k = 0; k < m->nstep; k++) {
		const MachineInstr *in = &m->step[k];
		fmpz *r = &R[in->dst];
		switch (in->op) {
		case MI_CMP:
		case MI_BCMP:
			value(m, st, in->a, x);
			sign_horizon(x, &R[in->a], d, inf);
			break;
		case MI_PREV:
			/* Y a changes at the next position when a did now. */
			if (st->V[in->dst] != st->V[in->a]) {
				fmpz_zero(d);
				*inf = false;
			}
			break;
		case MI_MOD: fmpz_zero(d); *inf = false; break;
		case MI_COUNT:
		case MI_BCOUNT: fmpz_set_si(r, st->V[in->a] != 0); break;
		case MI_LIN:
		case MI_BLIN:
			for (uint32_t j = 0; j < in->n; j++)
				fmpz_addmul(r, &m->bcoef[in->off + j],
					    &R[m->opnd[in->off + j]]);
			break;
		case MI_ITE:
		case MI_BITE: fmpz_set(r, &R[st->V[in->a] ? in->b : in->c]); break;
		case MI_MIN:
		case MI_MAX:
		case MI_BMIN:
		case MI_BMAX: {
			/* The argument that is the min (max) from the next
			 * position on, and how long it stays so. */
			value(m, st, in->a, x);
			value(m, st, in->b, y);
			fmpz_sub(x, x, y);
			fmpz_sub(y, &R[in->a], &R[in->b]);
			bool pick_a = choice_horizon(is_min(in->op), x, y, d, inf);
			fmpz_set(r, pick_a ? &R[in->a] : &R[in->b]);
			break;
		}
		default: break; /* Booleans of Booleans: constant */
		}
	}
	fmpz_clear(x);
	fmpz_clear(y);
}

/* Advance the persistent slots by j positions of `code` (rates R). */
static void jump(const Machine *m, MachineState *st, const fmpz *R,
		 const fmpz_t j)
{
	fmpz_t t;
	fmpz_init(t);
	for (size_t k = 0; k < m->npslot; k++) {
		uint32_t sl = m->pslot[k];
		if (fmpz_is_zero(&R[sl]))
			continue;
		fmpz_mul(t, &R[sl], j);
		if (m->big[sl]) {
			fmpz_add(&st->B[sl], &st->B[sl], t);
		} else {
			fmpz_add_si(t, t, st->V[sl]);
			st->V[sl] = fmpz_get_si(t);
		}
	}
	fmpz_clear(t);
}

/* The position moves by j (only its phase matters: MOD). */
static void advance(const Machine *m, MachineState *st, const fmpz_t j)
{
	if (m->period && !m->huge_period)
		st->pos = (st->pos + fmpz_fdiv_ui(j, m->period)) % m->period;
	else
		st->pos += fmpz_get_ui(j);
}

static void step(const Machine *m, MachineState *st, uint32_t code)
{
	machine_step(m, st, code);
	if (m->period && !m->huge_period)
		st->pos %= m->period;
}

/* ---- jumping over whole periods (MOD under a count or Y) --------------- */

/* Scratch for the periodic jumps: rec holds three recorded periods,
 * every slot at every phase (rec[(q * P + i) * nslots + slot]). */
typedef struct {
	size_t P, n;
	fmpz *rec;
	fmpz *inc; /* per-period increments of the persistent slots */
} Periods;

static fmpz *at(const Periods *pd, size_t q, size_t i, uint32_t slot)
{
	return &pd->rec[(q * pd->P + i) * pd->n + slot];
}

static void record(const Machine *m, MachineState *st, uint32_t code,
		   Periods *pd, size_t q)
{
	for (size_t i = 0; i < pd->P; i++) {
		step(m, st, code);
		for (uint32_t sl = 0; sl < pd->n; sl++)
			value(m, st, sl, at(pd, q, i, sl));
	}
}

/* Every slot moved by the same amount from period 0 to 1 as from 1 to 2,
 * at every phase: the pattern has settled. */
static bool settled(const Periods *pd)
{
	fmpz_t a, b;
	fmpz_init(a);
	fmpz_init(b);
	bool ok = true;
	for (size_t i = 0; i < pd->P && ok; i++)
		for (uint32_t sl = 0; sl < pd->n && ok; sl++) {
			fmpz_sub(a, at(pd, 1, i, sl), at(pd, 0, i, sl));
			fmpz_sub(b, at(pd, 2, i, sl), at(pd, 1, i, sl));
			ok = fmpz_equal(a, b);
		}
	fmpz_clear(a);
	fmpz_clear(b);
	return ok;
}

/* How many more periods keep every comparison's sign and every min/max
 * choice at every phase (values of the last period, increments from the
 * one before); *inf when no limit. */
static void period_horizon(const Machine *m, const Periods *pd, fmpz_t d,
			   bool *inf)
{
	fmpz_t v, r, x, y;
	fmpz_init(v);
	fmpz_init(r);
	fmpz_init(x);
	fmpz_init(y);
	*inf = true;
	for (size_t i = 0; i < pd->P; i++)
		for (size_t k = 0; k < m->nstep; k++) {
			const MachineInstr *in = &m->step[k];
			bool cmp = in->op == MI_CMP || in->op == MI_BCMP;
			bool mm = in->op == MI_MIN || in->op == MI_MAX ||
				  in->op == MI_BMIN || in->op == MI_BMAX;
			if (cmp) {
				fmpz_set(v, at(pd, 2, i, in->a));
				fmpz_sub(r, v, at(pd, 1, i, in->a));
				sign_horizon(v, r, d, inf);
			} else if (mm) {
				fmpz_sub(x, at(pd, 2, i, in->a), at(pd, 2, i, in->b));
				fmpz_sub(y, at(pd, 1, i, in->a), at(pd, 1, i, in->b));
				fmpz_sub(y, x, y); /* per-period change of a - b */
				choice_horizon(is_min(in->op), x, y, d, inf);
			}
		}
	fmpz_clear(v);
	fmpz_clear(r);
	fmpz_clear(x);
	fmpz_clear(y);
}

/* Reads k letters of `code` when the step program reads MOD: three
 * periods explicitly, then, once the pattern has settled, as many whole
 * periods as keep it, in one jump. */
static void run_periodic(const Machine *m, MachineState *st, uint32_t code,
			 fmpz_t k, Periods *pd)
{
	fmpz_t d, left, P;
	fmpz_init(d);
	fmpz_init(left);
	fmpz_init_set_ui(P, pd->P);
	while (fmpz_sgn(k) > 0) {
		if (fmpz_cmp_ui(k, 3 * pd->P + 1) < 0) {
			step(m, st, code);
			fmpz_sub_ui(k, k, 1);
			continue;
		}
		for (size_t q = 0; q < 3; q++)
			record(m, st, code, pd, q);
		fmpz_submul_ui(k, P, 3);
		if (!settled(pd))
			continue;
		bool inf;
		period_horizon(m, pd, d, &inf);
		/* Whole periods only, and never the last letter. */
		fmpz_sub_ui(left, k, 1);
		fmpz_fdiv_q(left, left, P);
		if (inf || fmpz_cmp(d, left) > 0)
			fmpz_set(d, left);
		if (fmpz_sgn(d) <= 0)
			continue;
		for (size_t j = 0; j < m->npslot; j++) {
			uint32_t sl = m->pslot[j];
			fmpz_sub(&pd->inc[sl], at(pd, 2, pd->P - 1, sl),
				 at(pd, 1, pd->P - 1, sl));
		}
		jump(m, st, pd->inc, d);
		fmpz_submul(k, d, P);
	}
	fmpz_clear(d);
	fmpz_clear(left);
	fmpz_clear(P);
}

/* Reads count letters of `code` into st. */
static void run(const Machine *m, MachineState *st, uint32_t code,
		const fmpz_t count, Periods *pd, fmpz *R)
{
	fmpz_t k, d;
	fmpz_init_set(k, count);
	fmpz_init(d);
	if (pd) {
		/* The first letter of a run changes the letter functions:
		 * explicitly, so that the periods see one letter only. */
		step(m, st, code);
		fmpz_sub_ui(k, k, 1);
		run_periodic(m, st, code, k, pd);
	}
	while (fmpz_sgn(k) > 0) {
		step(m, st, code);
		fmpz_sub_ui(k, k, 1);
		if (fmpz_is_zero(k))
			continue;
		bool inf;
		horizon(m, st, code, R, d, &inf);
		/* Jump at most k - 1: the last position is stepped
		 * explicitly so that every slot is valid at the end. */
		fmpz_sub_ui(k, k, 1);
		if (inf || fmpz_cmp(d, k) > 0)
			fmpz_set(d, k);
		fmpz_add_ui(k, k, 1);
		if (fmpz_sgn(d) > 0) {
			jump(m, st, R, d);
			advance(m, st, d);
			fmpz_sub(k, k, d);
		}
	}
	fmpz_clear(k);
	fmpz_clear(d);
}

static bool stream(RunEval *re, const Machine *m, const Runs *w,
		   bool *accepted)
{
	MachineState st, eos;
	machine_state_init(m, &st);
	slong ns = (slong)(m->nslots ? m->nslots : 1);
	fmpz *R = _fmpz_vec_init(ns);
	Periods pd = {.P = m->period, .n = m->nslots};
	bool periodic = re->step_mod && !re->step_mod_long;
	if (periodic) {
		pd.rec = _fmpz_vec_init(3 * (slong)pd.P * ns);
		pd.inc = _fmpz_vec_init(ns);
	}
	for (size_t i = 0; i < w->n; i++)
		run(m, &st, machine_code(&m->codes, w->letter[i]),
		    &w->count[i], periodic ? &pd : NULL, R);
	if (periodic) {
		_fmpz_vec_clear(pd.rec, 3 * (slong)pd.P * ns);
		_fmpz_vec_clear(pd.inc, ns);
	}
	MachineState *judge = &st;
	if (re->accept == ACCEPT_EOS) {
		machine_state_init(m, &eos);
		machine_state_copy(m, &eos, &st);
		machine_step(m, &eos, (uint32_t)m->ncodes - 1);
		judge = &eos;
	}
	machine_query(m, judge);
	for (size_t r = 0; r < re->nroots; r++)
		accepted[r] = machine_root(m, judge, r);
	if (re->accept == ACCEPT_EOS)
		machine_state_free(m, &eos);
	_fmpz_vec_clear(R, (slong)(m->nslots ? m->nslots : 1));
	machine_state_free(m, &st);
	return true;
}

bool runeval_word(RunEval *re, const Runs *w, bool *accepted, char **err)
{
	*err = NULL;
	fmpz_t len;
	fmpz_init(len);
	runs_length(w, len);
	bool explicit_only = re->future || re->step_mod_long;
	if (explicit_only && fmpz_cmp_ui(len, RUNEVAL_MAX_EXPLICIT) > 0) {
		fmpz_clear(len);
		*err = message(re->future
			       ? "formulas with #> are evaluated letter by "
				 "letter: run-length words of at most 4194304 "
				 "letters"
			       : "MOD periods longer than 1024 under a count or "
				 "Y are evaluated letter by letter: run-length "
				 "words of at most 4194304 letters");
		return false;
	}
	if (re->future) {
		fmpz_clear(len);
		size_t n;
		Sym *word = runs_expand(w, RUNEVAL_MAX_EXPLICIT, &n);
		eval_word(re->ev, word, n, accepted);
		free(word);
		return true;
	}
	/* Beyond 2^48 letters counts may leave int64: a machine whose
	 * slots are sized for this word. */
	if (fmpz_cmp_ui(len, MACHINE_MAX_POSITIONS - 2) > 0) {
		Machine big;
		fmpz_add_ui(len, len, 2);
		machine_init_bounded(&big, re->s, re->roots, re->nroots, false,
				     len);
		fmpz_clear(len);
		if (big.huge_period) {
			machine_free(&big);
			*err = message("MOD periods too large for a run-length "
				       "word this long");
			return false;
		}
		stream(re, &big, w, accepted);
		machine_free(&big);
		return true;
	}
	fmpz_clear(len);
	return stream(re, &re->m, w, accepted);
}

/* ---- text form -------------------------------------------------------------- */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t utf8_len(unsigned char c)
{
	return c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 1;
}

static Sym member(const Alphabet *a, const char *s, size_t n)
{
	Sym l = sym_lookup(a->syms, s, n);
	return l != SYM_NONE && l < a->nmember && a->member[l] ? l : SYM_NONE;
}

static bool fail(char **err, const char *what, const char *s, size_t n)
{
	Buf b = {0};
	buf_printf(&b, "%s '%.*s'", what, (int)(n > 40 ? 40 : n), s);
	*err = buf_take(&b);
	return false;
}

/* One item: LETTERS or LETTERS^N. */
static bool parse_item(const char *s, size_t n, const Alphabet *a, Runs *out,
		       char **err)
{
	size_t body = n;
	fmpz_t count;
	fmpz_init_set_ui(count, 1);
	const char *caret = memchr(s, '^', n);
	if (caret) {
		body = (size_t)(caret - s);
		size_t dn = n - body - 1;
		char *digits = xstrndup(caret + 1, dn);
		bool ok = dn > 0 && strspn(digits, "0123456789") == dn &&
			  fmpz_set_str(count, digits, 10) == 0 &&
			  fmpz_sgn(count) > 0;
		free(digits);
		if (!ok || body == 0) {
			fmpz_clear(count);
			return fail(err, "expected LETTER^N with N >= 1, found",
				    s, n);
		}
	}
	Sym whole = member(a, s, body);
	if (whole != SYM_NONE) {
		runs_push(out, whole, count);
		fmpz_clear(count);
		return true;
	}
	for (size_t i = 0; i < body;) {
		size_t k = utf8_len((unsigned char)s[i]);
		if (i + k > body)
			k = body - i;
		Sym l = member(a, s + i, k);
		if (l == SYM_NONE) {
			fmpz_clear(count);
			return fail(err, "letter not in the alphabet:", s + i, k);
		}
		if (i + k == body)
			runs_push(out, l, count);
		else
			runs_push_ui(out, l, 1);
		i += k;
	}
	fmpz_clear(count);
	return true;
}

bool runs_parse(const char *text, size_t n, const Alphabet *a, Runs *out,
		char **err)
{
	runs_clear(out);
	*err = NULL;
	for (size_t i = 0; i < n;) {
		while (i < n && is_space(text[i]))
			i++;
		size_t j = i;
		while (j < n && !is_space(text[j]))
			j++;
		if (j > i && !parse_item(text + i, j - i, a, out, err))
			return false;
		i = j;
	}
	return true;
}

char *runs_format(const Runs *w, const SymTab *syms, unsigned long plain_max)
{
	Buf b = {0};
	buf_puts(&b, "");
	bool single = true;
	for (size_t i = 0; i < w->n; i++)
		single = single && word_single_char(sym_name(syms, w->letter[i])) &&
			 word_plain_letter(sym_name(syms, w->letter[i]));
	size_t n;
	Sym *word = runs_expand(w, plain_max, &n);
	if (word) {
		for (size_t i = 0; i < n; i++) {
			if (i && !single)
				buf_putc(&b, ' ');
			word_put_letter(&b, sym_name(syms, word[i]));
		}
		free(word);
		return buf_take(&b);
	}
	for (size_t i = 0; i < w->n; i++) {
		if (i)
			buf_putc(&b, ' ');
		word_put_letter(&b, sym_name(syms, w->letter[i]));
		if (!fmpz_is_one(&w->count[i])) {
			char *digits = fmpz_get_str(NULL, 10, &w->count[i]);
			buf_printf(&b, "^%s", digits);
			flint_free(digits);
		}
	}
	return buf_take(&b);
}
