/* compile.c -- formulas to rounded transformers (see compile.h). */
#include <config.h>
#include "transformer/compile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "transformer/fixed.h"
#include "core/lower.h"
#include "base/mem.h"
#include "core/print.h"
#include "transformer/sim.h"
#include "base/vec.h"

typedef VEC(Entry) Entries;

typedef struct {
	Store *st;
	const CompileOptions *o;
	Model *m;
	uint32_t *bool_comp; /* by node id: component of a Boolean, or 0 */
	Sym *label;          /* by node id: "cN" for component N, once made */
	uint32_t *head_comp; /* by node id: head component of a comparison */
	bool *at0;           /* by node id: Boolean value at BOS (position 0) */
	uint32_t *lay;       /* by node id: the layer computing a Boolean */
	uint32_t *hid;       /* by node id: first hidden component of a Y */
	double slope;
	double t5c; /* C of the T5 Y heads */
	Node core;        /* the largest lowered root */
	Node *cores;      /* the lowered roots of the readout (readout_roots) */
	size_t ncores;
	Linear ratio;     /* the ratio readout's term, its counted Booleans */
	Node *ratio_psi;  /* (lowered), its head component and layer */
	uint32_t ratio_comp, ratio_layer;
	bool has_ratio;   /* c->ratio holds a form (to free) */
	uint32_t one;     /* a component that is 1 everywhere (RoPE MOD), or 0 */
	double *rope_a;   /* by node id: A of a RoPE MOD head */
	VEC(Feature) feats;
	VEC(Component) comps;
	double range;
	size_t fanin;     /* the largest gate fan-in */
	char *err;
} Compiler;

static const char *const pe_names[] = {"nope", "alibi", "sinusoidal",
				       "rope", "t5", "urpe"};

bool pe_kind_parse(const char *text, PeKind *out)
{
	for (int k = 0; k <= PE_URPE; k++)
		if (strcmp(text, pe_names[k]) == 0) {
			*out = (PeKind)k;
			return true;
		}
	return false;
}

const char *pe_kind_name(PeKind pe)
{
	return pe_names[pe];
}

static char *message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *message(const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	return xstrdup(tmp);
}

static void note_range(Compiler *c, double x)
{
	if (fabs(x) > c->range)
		c->range = fabs(x);
}

/* A comparison as L' < 0 with L' = sign * L + shift (L the kid). */
static bool strict_form(Rel rel, int *sign, long *shift)
{
	switch (rel) {
	case REL_LT: *sign = 1; *shift = 0; return true;  /* L < 0 */
	case REL_LE: *sign = 1; *shift = -1; return true; /* L - 1 < 0 */
	case REL_GT: *sign = -1; *shift = 0; return true; /* -L < 0 */
	case REL_GE: *sign = -1; *shift = -1; return true;
	default: return false;
	}
}

/* Value of a depth-0 or position-0 Boolean node: `token` is the letter at
 * the position (SYM_NONE at BOS, where counts are 0). */
static bool value_at(Compiler *c, Node n, Sym token, const bool *val)
{
	Store *st = c->st;
	const Node *k = store_kids(st, n);
	uint32_t nk = store_nkids(st, n);
	switch (store_op(st, n)) {
	case OP_TRUE: return true;
	case OP_FALSE: return false;
	case OP_LETTER: return token != SYM_NONE && store_letter_sym(st, n) == token;
	/* at BOS only (position 0): what the model's MOD and Y compute */
	case OP_MOD: return store_aux2(st, n) == 0;
	case OP_PREV: return false;
	case OP_NOT: return !val[k[0]];
	case OP_AND:
		for (uint32_t i = 0; i < nk; i++)
			if (!val[k[i]])
				return false;
		return true;
	case OP_OR:
		for (uint32_t i = 0; i < nk; i++)
			if (val[k[i]])
				return true;
		return false;
	case OP_CMP: {
		/* all counts are 0 here (BOS), or there are none (depth 0) */
		Linear l;
		store_linear(st, k[0], &l);
		int sign;
		long shift;
		bool ok = strict_form(store_rel(st, n), &sign, &shift);
		bool v = ok && (sign * fmpz_sgn(l.constant) < 0 ||
				(fmpz_is_zero(l.constant) && shift < 0));
		store_linear_free(&l);
		return v;
	}
	default: return false;
	}
}

/* Components are labelled with their subformula, written out when small;
 * a larger one names the components of its Boolean subformulas ("c7"),
 * so that the labels of a deep formula stay linear in it, not quadratic. */
enum { COMP_LABEL_SIZE = 64 };

static char *label_of(const Compiler *c, Node n)
{
	return tl_print(c->st, n, SYNTAX_TL,
			store_size(c->st, n) > COMP_LABEL_SIZE ? c->label
								: NULL);
}

static uint32_t add_comp(Compiler *c, CompKind kind, uint32_t layer,
			 Node n)
{
	Component comp = {.kind = kind, .layer = layer};
	if (n != NODE_NONE)
		comp.formula = label_of(c, n);
	VEC_PUSH(c->comps, comp);
	return (uint32_t)(c->comps.len - 1);
}

/* Boolean n now has component k: larger labels refer to it by name. */
static void name_comp(Compiler *c, Node n, uint32_t k)
{
	char name[24];
	int len = snprintf(name, sizeof name, "c%u", k);
	c->label[n] = sym_intern(store_syms(c->st), name, (size_t)len);
}

/* Weights are exact in the model, but the construction keeps them in
 * doubles and the precision is at most 32 bits: 40 bits is the bound. */
enum { COMPILE_MAX_WEIGHT_BITS = 40 };

static bool fits(const fmpz_t x)
{
	return fmpz_bits(x) <= COMPILE_MAX_WEIGHT_BITS;
}

static char *too_wide(const fmpz_t x, const char *what)
{
	return message("a %s of %lu bits: the compiler takes at most %d "
		       "(no precision p <= 32 could hold its weight)",
		       what, (unsigned long)fmpz_bits(x),
		       COMPILE_MAX_WEIGHT_BITS);
}

/* The head of the comparison sign * L + shift < 0 (L the linear form l,
 * whose count atoms hold the Booleans psi[i]) into component comp: value
 * weights and the component's counts.  Its sum over BOS and the prefix
 * is -(sign * L + shift + 1). */
static bool head_linear(Compiler *c, const Linear *l, const Node *psi,
			int sign, long shift, uint32_t comp_at, Head *h)
{
	if (!fits(l->constant)) {
		c->err = too_wide(l->constant, "constant");
		return false;
	}
	Component *comp = &c->comps.data[comp_at];
	comp->counts = xcalloc(l->n ? l->n : 1, sizeof *comp->counts);
	h->wv.rows = 1;
	h->wv.e = xcalloc(l->n + 1, sizeof *h->wv.e);
	double cst = sign * (double)fmpz_get_si(l->constant) + (double)shift;
	double bos = -(cst + 1);
	for (size_t i = 0; i < l->n; i++) {
		if (!fits(&l->coefs[i])) {
			c->err = too_wide(&l->coefs[i], "coefficient");
			return false;
		}
		double a = sign * (double)fmpz_get_si(&l->coefs[i]);
		h->wv.e[h->wv.n++] = (Entry){0, c->bool_comp[psi[i]], -a};
		if (c->at0[psi[i]])
			bos += a; /* cancel psi's own value at BOS */
		comp->counts[comp->ncounts++] =
			(CountTerm){a, label_of(c, psi[i])};
	}
	comp->constant = cst;
	h->wv.e[h->wv.n++] = (Entry){0, 0, bos};
	double sum = 0;
	for (size_t i = 0; i < h->wv.n; i++)
		sum += fabs(h->wv.e[i].w);
	note_range(c, sum);
	h->out = comp_at;
	return true;
}

/* The Booleans counted by a linear form's atoms, or false when an atom
 * is not a past count. */
static bool counted(const Store *st, const Linear *l, Node *psi)
{
	for (size_t i = 0; i < l->n; i++) {
		if (store_op(st, l->atoms[i]) != OP_COUNT)
			return false;
		psi[i] = store_kid(st, l->atoms[i], 0);
	}
	return true;
}

/* The head of comparison n. */
static bool build_head(Compiler *c, Node n, Head *h)
{
	Store *st = c->st;
	Linear l;
	store_linear(st, store_kid(st, n, 0), &l);
	int sign;
	long shift;
	Node *psi = xcalloc(l.n + 1, sizeof *psi);
	bool ok = false;
	if (!strict_form(store_rel(st, n), &sign, &shift))
		c->err = message("internal: a comparison the lowering should "
				 "have removed");
	else if (!counted(st, &l, psi))
		c->err = message("internal: a linear form over something "
				 "else than counts");
	else
		ok = head_linear(c, &l, psi, sign, shift, c->head_comp[n], h);
	free(psi);
	store_linear_free(&l);
	return ok;
}

/* ---- the ReLU realisation of the gates -------------------------------- */

typedef struct {
	Entries w1, w2;
	VEC(double) b1;
	uint32_t hidden;
} BlockBuilder;

static uint32_t unit(BlockBuilder *b, double bias)
{
	VEC_PUSH(b->b1, bias);
	return b->hidden++;
}

static void in_w(BlockBuilder *b, uint32_t u, uint32_t col, double w)
{
	VEC_PUSH(b->w1, ((Entry){u, col, w}));
}

static void out_w(BlockBuilder *b, uint32_t comp, uint32_t u, double w)
{
	VEC_PUSH(b->w2, ((Entry){comp, u, w}));
}

static void finish_block(Compiler *c, BlockBuilder *bb, Layer *ly)
{
	mem_grow((void **)&ly->blocks, &(size_t){ly->nblocks}, ly->nblocks + 1,
		 sizeof *ly->blocks);
	Block *b = &ly->blocks[ly->nblocks++];
	b->w1 = (Sparse){bb->hidden, bb->w1.data, bb->w1.len};
	b->w2 = (Sparse){c->m->d, bb->w2.data, bb->w2.len};
	b->b1 = bb->b1.data ? bb->b1.data : xcalloc(1, sizeof *b->b1);
	b->b2 = xcalloc(c->m->d, sizeof *b->b2);
	memset(bb, 0, sizeof *bb);
}

/* o = min(1, relu(x + eps)) in {0} u [eps, 1], then doubling stages of
 * 2^m (clipped at 1) until o is 0 or 1; saturation-safe (see the note). */
static void relu_ge0(Compiler *c, Layer *ly, uint32_t x, double bias,
		     uint32_t o)
{
	int s = c->o->s, p = c->o->p;
	double eps = ldexp(1, -s);
	BlockBuilder b = {0};
	uint32_t u1 = unit(&b, bias + eps), u2 = unit(&b, bias + eps - 1);
	in_w(&b, u1, x, 1);
	in_w(&b, u2, x, 1);
	out_w(&b, o, u1, 1);
	out_w(&b, o, u2, -1);
	finish_block(c, &b, ly);
	for (int done = 0; done < s;) {
		int m = s - done < p - 2 - s ? s - done : p - 2 - s;
		double f = ldexp(1, m);
		note_range(c, f);
		uint32_t a = unit(&b, 0), d = unit(&b, -1), id = unit(&b, 0);
		in_w(&b, a, o, f);
		in_w(&b, d, o, f);
		in_w(&b, id, o, 1);
		out_w(&b, o, a, 1);
		out_w(&b, o, d, -1);
		out_w(&b, o, id, -1);
		finish_block(c, &b, ly);
		done += m;
	}
}

static void relu_gate(Compiler *c, Layer *ly, const Gate *g)
{
	if (g->op == GATE_GE0) {
		relu_ge0(c, ly, g->in[0], g->bias, g->out);
		return;
	}
	BlockBuilder b = {0};
	double k = (double)g->nin;
	uint32_t u;
	switch (g->op) {
	case GATE_NOT: /* relu(1 - x) */
		u = unit(&b, 1);
		in_w(&b, u, g->in[0], -1);
		out_w(&b, g->out, u, 1);
		break;
	case GATE_AND: /* relu(sum - (k - 1)) */
		u = unit(&b, 1 - k);
		for (size_t i = 0; i < g->nin; i++)
			in_w(&b, u, g->in[i], 1);
		out_w(&b, g->out, u, 1);
		note_range(c, k);
		break;
	case GATE_OR: { /* relu(sum) - relu(sum - 1) */
		uint32_t v = unit(&b, 0), w = unit(&b, -1);
		for (size_t i = 0; i < g->nin; i++) {
			in_w(&b, v, g->in[i], 1);
			in_w(&b, w, g->in[i], 1);
		}
		out_w(&b, g->out, v, 1);
		out_w(&b, g->out, w, -1);
		note_range(c, k);
		break;
	}
	default: break;
	}
	finish_block(c, &b, ly);
}

/* ---- the layers ------------------------------------------------------- */

static Gate gate_of(Compiler *c, Node n)
{
	Store *st = c->st;
	Gate g = {.out = c->bool_comp[n]};
	uint32_t nk = store_nkids(st, n);
	switch (store_op(st, n)) {
	case OP_CMP: g.op = GATE_GE0; nk = 1; break;
	case OP_NOT: g.op = GATE_NOT; break;
	case OP_AND: g.op = GATE_AND; break;
	default: g.op = GATE_OR; break;
	}
	g.in = xcalloc(nk, sizeof *g.in);
	g.nin = nk;
	for (uint32_t i = 0; i < nk; i++)
		g.in[i] = store_op(st, n) == OP_CMP
				  ? c->head_comp[n]
				  : c->bool_comp[store_kid(st, n, i)];
	return g;
}

static void add_gate(Compiler *c, Layer *ly, Gate g, size_t *gcap)
{
	if (g.nin > c->fanin)
		c->fanin = g.nin;
	if (c->o->ffn == FFN_RELU) {
		relu_gate(c, ly, &g);
		free(g.in);
		return;
	}
	mem_grow((void **)&ly->gates, gcap, ly->ngates + 1, sizeof *ly->gates);
	ly->gates[ly->ngates++] = g;
}

static Gate gate2(GateOp op, uint32_t out, uint32_t a, uint32_t b, size_t n)
{
	Gate g = {.op = op, .out = out, .nin = n};
	g.in = xcalloc(2, sizeof *g.in);
	g.in[0] = a;
	g.in[1] = b;
	return g;
}

/* The value of a Y psi head: k [psi(j)], with psi's value at BOS
 * cancelled (Y is false at position 1). */
static void prev_value(Compiler *c, Node n, Head *h, double k)
{
	Node psi = store_kid(c->st, n, 0);
	h->wv.rows = 1;
	h->wv.e = xcalloc(2, sizeof *h->wv.e);
	h->wv.e[h->wv.n++] = (Entry){0, c->bool_comp[psi], k};
	if (c->at0[psi])
		h->wv.e[h->wv.n++] = (Entry){0, 0, -k};
}

/* Y psi: an ALiBi head averaging psi over {i-1, i}, c; then psi(i-1) =
 * (!psi(i) & c > 0) | (psi(i) & c >= 1) (see compile_alibi_slope). */
static void build_prev(Compiler *c, Node n, Head *h, Layer *ly, size_t *gcap)
{
	Node psi = store_kid(c->st, n, 0);
	uint32_t x = c->head_comp[n], k = c->hid[n], v = c->bool_comp[psi];
	prev_value(c, n, h, 1);
	h->slope = c->slope;
	h->out = x;
	note_range(c, 2);
	note_range(c, c->slope);
	Gate g = gate2(GATE_GE0, k, x, 0, 1);
	g.bias = -ldexp(1, -c->o->s);
	add_gate(c, ly, g, gcap);
	g = gate2(GATE_GE0, k + 1, x, 0, 1);
	g.bias = -1;
	add_gate(c, ly, g, gcap);
	add_gate(c, ly, gate2(GATE_NOT, k + 2, v, 0, 1), gcap);
	add_gate(c, ly, gate2(GATE_AND, k + 3, k + 2, k, 2), gcap);
	add_gate(c, ly, gate2(GATE_AND, k + 4, v, k + 1, 2), gcap);
	add_gate(c, ly, gate2(GATE_OR, c->bool_comp[n], k + 3, k + 4, 2), gcap);
}

/* The Boolean of n read off its head: ge0(head + bias), and when
 * not_bos also false at BOS, through the two hidden components of n
 * (ge0 into the first, not(BOS) into the second, then and): a URPE Y
 * head gives 0 at BOS and a RoPE MOD head 1, while the logic has Y false
 * and MOD(m, r) = [r = 0] at position 0. */
static void read_head(Compiler *c, Layer *ly, Node n, double bias,
		      bool not_bos, size_t *gcap)
{
	uint32_t h = c->hid[n], b = c->bool_comp[n];
	Gate g = gate2(GATE_GE0, not_bos ? h : b, c->head_comp[n], 0, 1);
	g.bias = bias;
	add_gate(c, ly, g, gcap);
	if (!not_bos)
		return;
	add_gate(c, ly, gate2(GATE_NOT, h + 1, 0, 0, 1), gcap);
	add_gate(c, ly, gate2(GATE_AND, b, h, h + 1, 2), gcap);
}

/* Y psi through T5 buckets: weight 1 at distance 1, 0 elsewhere, so the
 * head outputs psi(i-1) (0 at position 1: BOS's value is cancelled). */
static void build_prev_t5(Compiler *c, Node n, Head *h)
{
	prev_value(c, n, h, 1);
	h->t5 = xcalloc(1, sizeof *h->t5);
	*h->t5 = (T5Bias){32, 128, false, xcalloc(32, sizeof(double))};
	for (int b = 0; b < 32; b++)
		h->t5->bias[b] = b == 1 ? 0 : -c->t5c;
	note_range(c, c->t5c);
	h->out = c->bool_comp[n];
}

/* Y psi through URPE: uniform weights times c(1) = 1, value 2 psi - 1
 * (-1 at BOS), then the gate ge0 of floor((2 psi(i-1) - 1)/(i+1)). */
static void build_prev_urpe(Compiler *c, Node n, Head *h, Layer *ly,
			    size_t *gcap)
{
	prev_value(c, n, h, 2);
	h->bv = -1;
	h->nurpe = 2;
	h->urpe = xcalloc(2, sizeof *h->urpe);
	h->urpe[1] = 1;
	note_range(c, 3);
	h->out = c->head_comp[n];
	read_head(c, ly, n, 0, true, gcap);
}

/* MOD(m, r) through RoPE: query (A cos phi, A sin phi, A) of the constant
 * component, phi = -2 pi r/m, the first two rows rotated by i 2 pi/m; key
 * (1, 0, -1) at BOS and (0, 0, -1) elsewhere.  The logit to BOS is
 * about A (cos(2 pi (i-r)/m) - 1), every other logit -A: A makes all of
 * them round to weight 0 except BOS's when i = r (mod m).  The head then
 * outputs BOS's value 1; otherwise every weight is 0 and it outputs the
 * plain average floor(2^s/(i+1))/2^s < 1 (the zero-denominator rule), so
 * MOD is the gate ge0(head - 1) (and not BOS when r != 0).  Checked on
 * two periods by check_rope_mod. */
static void build_mod_rope(Compiler *c, Node n, Head *h, Layer *ly,
			   size_t *gcap)
{
	uint32_t m = store_aux(c->st, n), r = store_aux2(c->st, n);
	Semantics kd = {.kind = SEM_KNEEDEEP, .p = c->o->p, .s = c->o->s};
	Angle th = {.num = 2, .den = m};
	double cs, sn, a = c->rope_a[n];
	pe_rotation(&kd, &th, m - r, &cs, &sn); /* phi = (m - r) 2 pi/m */
	h->nrope = 1;
	h->rope = xcalloc(1, sizeof *h->rope);
	h->rope[0] = m % 2 ? th : (Angle){.num = 1, .den = m / 2};
	h->wq = (Sparse){3, xcalloc(3, sizeof(Entry)), 3};
	h->wq.e[0] = (Entry){0, c->one, a * cs};
	h->wq.e[1] = (Entry){1, c->one, a * sn};
	h->wq.e[2] = (Entry){2, c->one, a};
	h->wk = (Sparse){3, xcalloc(2, sizeof(Entry)), 2};
	h->wk.e[0] = (Entry){0, 0, 1};
	h->wk.e[1] = (Entry){2, c->one, -1};
	h->wv = (Sparse){1, xcalloc(1, sizeof(Entry)), 1};
	h->wv.e[0] = (Entry){0, 0, 1};
	h->out = c->head_comp[n];
	note_range(c, 2 * a);
	read_head(c, ly, n, -1, r != 0, gcap);
}

static bool build_layer(Compiler *c, Node core, uint32_t l, Layer *ly)
{
	Store *st = c->st;
	size_t hcap = 0, gcap = 0;
	for (Node n = 1; n <= core; n++) {
		if (!c->bool_comp[n] || c->lay[n] != l)
			continue;
		Op op = store_op(st, n);
		if (op == OP_CMP || op == OP_PREV || op == OP_MOD) {
			mem_grow((void **)&ly->heads, &hcap, ly->nheads + 1,
				 sizeof *ly->heads);
			Head *h = &ly->heads[ly->nheads++];
			memset(h, 0, sizeof *h);
			if (op == OP_MOD) {
				build_mod_rope(c, n, h, ly, &gcap);
				continue;
			}
			if (op == OP_PREV) {
				if (c->o->pe == PE_T5)
					build_prev_t5(c, n, h);
				else if (c->o->pe == PE_URPE)
					build_prev_urpe(c, n, h, ly, &gcap);
				else
					build_prev(c, n, h, ly, &gcap);
				continue;
			}
			if (!build_head(c, n, h))
				return false;
		}
		add_gate(c, ly, gate_of(c, n), &gcap);
	}
	return true;
}

/* The layer of a Boolean: like its depth, with Y counted like a count. */
static uint32_t layer_of(Compiler *c, Node n)
{
	Store *st = c->st;
	const Node *k = store_kids(st, n);
	uint32_t l = 0;
	switch (store_op(st, n)) {
	case OP_NOT:
	case OP_AND:
	case OP_OR:
		for (uint32_t i = 0; i < store_nkids(st, n); i++)
			if (c->lay[k[i]] > l)
				l = c->lay[k[i]];
		return l;
	case OP_PREV: return c->lay[k[0]] + 1;
	case OP_MOD: return c->o->pe == PE_ROPE; /* a head of layer 1 */
	case OP_CMP: {
		Linear lin;
		store_linear(st, k[0], &lin);
		for (size_t i = 0; i < lin.n; i++) {
			Node a = lin.atoms[i];
			uint32_t la = store_op(st, a) == OP_COUNT
					      ? c->lay[store_kid(st, a, 0)] + 1
					      : store_depth(st, a);
			if (la > l)
				l = la;
		}
		store_linear_free(&lin);
		return l;
	}
	default: return 0;
	}
}

double compile_alibi_slope(int p, int s)
{
	Semantics kd = {.kind = SEM_KNEEDEEP, .p = p, .s = s};
	double eps = ldexp(1, -s);
	for (int64_t m = 1; m <= fixed_max_m(p); m++) {
		double a = ldexp((double)m, -s);
		double e1 = sem_exp(&kd, -a);
		if (e1 == 0)
			return 0; /* steeper slopes only shrink e1 */
		if (sem_exp(&kd, sem_affine(&kd, NULL, NULL, 0, -2 * a)) == 0 &&
		    sem_div(&kd, e1, sem_add(&kd, 1, e1)) >= eps)
			return a;
	}
	return 0;
}

double compile_t5_bias(int p, int s)
{
	Semantics kd = {.kind = SEM_KNEEDEEP, .p = p, .s = s};
	for (int64_t cc = 1; cc <= fixed_max_m(p) >> s; cc++)
		if (sem_exp(&kd, -(double)cc) == 0)
			return -(double)cc;
	return 0;
}

/* The largest modulus of a MOD reachable from root (0: none). */
static uint32_t max_mod(Store *st, Node root)
{
	unsigned char *mark = store_reachable(st, &root, 1);
	uint32_t top = 0;
	for (Node n = 1; n <= root; n++)
		if (mark[n] && store_op(st, n) == OP_MOD && store_aux(st, n) > top)
			top = store_aux(st, n);
	free(mark);
	return top;
}

static bool check_fragment(Compiler *c, Node root)
{
	unsigned f = store_flags(c->st, root);
	PeKind pe = c->o->pe;
	if (f & FLAG_FUTURE)
		c->err = message("future counts #> cannot be compiled: the "
				 "transformer is future-masked");
	else if ((f & FLAG_MOD) && pe != PE_SINUSOIDAL && pe != PE_ROPE)
		c->err = message("MOD needs a periodic positional encoding: "
				 "use --pe=sinusoidal or --pe=rope");
	else if ((f & FLAG_PREV) &&
		 !(pe == PE_ALIBI || pe == PE_T5 || pe == PE_URPE))
		c->err = message("Y needs a relative positional encoding: use "
				 "--pe=alibi, --pe=t5 or --pe=urpe%s",
				 pe == PE_SINUSOIDAL || pe == PE_ROPE
					 ? " (sinusoidal and RoPE features "
					   "are periodic and cannot single "
					   "out position i-1 at every length)"
					 : "");
	else if ((f & FLAG_MOD) && pe == PE_ROPE &&
		 max_mod(c->st, root) > COMPILE_ROPE_MAX_MOD)
		c->err = message("MOD(%u, .) through RoPE: the compiler checks "
				 "each RoPE head on two periods and takes moduli "
				 "up to %d", max_mod(c->st, root),
				 COMPILE_ROPE_MAX_MOD);
	else if ((f & FLAG_PREV) && pe == PE_ALIBI && c->slope == 0)
		c->err = message("no ALiBi slope in F_{%d,%d} gives a window of "
				 "exactly 2 that the gates can read: more "
				 "fractional bits are needed",
				 c->o->p, c->o->s);
	else if ((f & FLAG_PREV) && pe == PE_T5 && c->t5c == 0)
		c->err = message("no T5 bias in F_{%d,%d} makes a weight round "
				 "to 0: more integer bits are needed",
				 c->o->p, c->o->s);
	return c->err == NULL;
}

/* A for MOD(m, .) through RoPE: the logits A (cos(2 pi k/m) - 1), k != 0,
 * must round to weight 0; C (compile_t5_bias) is the least integer
 * logit magnitude that does, and one more absorbs the rounding of the
 * rotation; A >= C as well for the keys after BOS. */
static double rope_amplitude(Compiler *c, uint32_t m)
{
	double gap = 1 - cos(2 * M_PI / m), a = ceil((c->t5c + 1) / gap);
	return a > c->t5c ? a : c->t5c; /* the other keys' logit is -A */
}

/* The RoPE MOD heads on two periods: the logit to every key after BOS is
 * -A, and the one to BOS repeats with period m (the rotations are exact
 * functions of i mod m), so two periods decide every length.  The
 * simulator visits every key of a RoPE head, so the check costs about
 * (2m)^2/2 key visits: moduli are bounded (COMPILE_ROPE_MAX_MOD). */
static bool check_rope_mod(Compiler *c, Node core)
{
	if (c->m->nletters == 0)
		return true; /* only the empty word */
	uint32_t top = 0;
	for (Node n = 1; n <= core; n++)
		if (c->bool_comp[n] && store_op(c->st, n) == OP_MOD &&
		    store_aux(c->st, n) > top)
			top = store_aux(c->st, n);
	Semantics kd = {.kind = SEM_KNEEDEEP, .p = c->o->p, .s = c->o->s};
	Sim *sim = sim_new(c->m, &kd);
	bool ok = true;
	for (size_t i = 1; i <= 2 * (size_t)top && ok; i++) {
		sim_push(sim, 1);
		for (Node n = 1; n <= core && ok; n++) {
			if (!c->bool_comp[n] || store_op(c->st, n) != OP_MOD)
				continue;
			uint32_t m = store_aux(c->st, n), r = store_aux2(c->st, n);
			if (i > 2 * (size_t)m)
				continue;
			bool want = i % m == r;
			ok = (sim_residual(sim, i, 1)[c->bool_comp[n]] > 0) == want;
			if (!ok)
				c->err = message("the RoPE head of MOD(%u, %u) is "
						 "not exact in F_{%d,%d} (position "
						 "%zu): more bits are needed",
						 m, r, c->o->p, c->o->s, i);
		}
	}
	sim_free(sim);
	return ok;
}

/* A Boolean of layer 0 that depends on the position (MOD): computed by
 * the input block, not by the embedding. */
static bool positional(Compiler *c, Node n)
{
	return store_flags(c->st, n) & FLAG_MOD;
}

/* MOD(m, r): the feature cos(pi (2i - 2r)/m) into component x, then
 * ge0(x - 1). */
static void build_mod(Compiler *c, Node n, size_t *gcap)
{
	uint32_t m = store_aux(c->st, n), r = store_aux2(c->st, n);
	Feature f = {.angle = {.num = 2, .den = m}, .pnum = -2 * (int64_t)r,
		     .pden = m, .out = c->hid[n]};
	int64_t g = f.angle.den % 2 == 0 ? 2 : 1; /* reduce 2/m, -2r/m */
	f.angle.num /= g;
	f.angle.den /= g;
	f.pnum /= g;
	f.pden /= g;
	VEC_PUSH(c->feats, f);
	Gate gt = gate2(GATE_GE0, c->bool_comp[n], c->hid[n], 0, 1);
	gt.bias = -1;
	add_gate(c, &c->m->input, gt, gcap);
}

/* The input block: the positional Booleans of layer 0, in order. */
static void build_input(Compiler *c, Node core)
{
	size_t gcap = 0;
	for (Node n = 1; n <= core; n++) {
		if (!c->bool_comp[n] || c->lay[n] != 0 || !positional(c, n))
			continue;
		if (store_op(c->st, n) == OP_MOD)
			build_mod(c, n, &gcap);
		else
			add_gate(c, &c->m->input, gate_of(c, n), &gcap);
	}
}

static void embed(Compiler *c, Node core, const Sym *letters, size_t nl)
{
	Model *m = c->m;
	m->embed = xcalloc((nl + 1) * m->d, sizeof *m->embed);
	bool *val = xcalloc((size_t)core + 1, sizeof *val);
	for (size_t t = 0; t <= nl; t++) {
		Sym tok = t ? letters[t - 1] : SYM_NONE;
		double *row = m->embed + t * m->d;
		row[0] = t == 0;
		if (c->one)
			row[c->one] = 1;
		for (Node n = 1; n <= core; n++) {
			if (!c->bool_comp[n] || c->lay[n] != 0 || positional(c, n))
				continue;
			val[n] = value_at(c, n, tok, val);
			row[c->bool_comp[n]] = val[n];
		}
	}
	free(val);
}

/* The Booleans a readout needs, before lowering: the root itself (accept,
 * per_position), [t >= k] for k = lo+1..hi (class), the counted psi_k of
 * the linear term (ratio, kept in c->ratio).  NULL with c->err when the
 * readout cannot read the root. */
static Node *readout_roots(Compiler *c, Node root, size_t *n)
{
	Store *st = c->st;
	const CompileOptions *o = c->o;
	bool term = !store_is_bool(st, root);
	*n = 0;
	if (term && !readout_counts(o->readout)) {
		c->err = message("the output is an integer term: a component of "
				 "the fixed-precision stream is bounded and a "
				 "count grows with the length, so it needs a "
				 "readout: --readout=class:LO:HI (the integer "
				 "min(max(t, LO), HI)) or --readout=ratio "
				 "(floor(t/(i+1)) at precision s, for a linear "
				 "term)");
		return NULL;
	}
	if (!term && readout_counts(o->readout)) {
		c->err = message("--readout=%s reads an integer term, and the "
				 "output is a formula (--per-position reads a "
				 "formula at every position)",
				 readout_name(o->readout));
		return NULL;
	}
	if (o->readout == READOUT_CLASS) {
		if (o->hi - o->lo > COMPILE_MAX_CLASSES) {
			c->err = message("--readout=class:%lld:%lld needs %lld "
					 "comparisons (one per boundary); the "
					 "compiler takes at most %d",
					 (long long)o->lo, (long long)o->hi,
					 (long long)(o->hi - o->lo),
					 COMPILE_MAX_CLASSES);
			return NULL;
		}
		Node *r = xcalloc((size_t)(o->hi - o->lo) + 1, sizeof *r);
		for (int64_t k = o->lo + 1; k <= o->hi; k++)
			r[(*n)++] = store_make_cmp(st, REL_GE, root,
						   store_make_const_si(st, (long)k));
		return r;
	}
	if (o->readout == READOUT_RATIO) {
		store_linear(st, root, &c->ratio);
		c->has_ratio = true;
		Node *r = xcalloc(c->ratio.n + 1, sizeof *r);
		if (!counted(st, &c->ratio, r)) {
			c->err = message("--readout=ratio needs a linear term "
					 "sum_k a_k #[psi_k] + c, read by one "
					 "uniform head; this one has min, max or a "
					 "conditional, which picks between counts "
					 "by a Boolean, and the construction has no "
					 "gate that selects a head's value: use "
					 "--readout=class:LO:HI");
			free(r);
			return NULL;
		}
		*n = c->ratio.n;
		return r;
	}
	Node *r = xcalloc(1, sizeof *r);
	r[(*n)++] = root;
	return r;
}

/* Lowers the readout's roots into c->cores (c->core the largest). */
static bool lower_roots(Compiler *c, Node root)
{
	size_t n;
	Node *roots = readout_roots(c, root, &n);
	if (!roots)
		return false;
	Lowering *lw = lower_new(c->st);
	c->cores = xcalloc(n + 1, sizeof *c->cores);
	for (size_t i = 0; i < n && !c->err; i++) {
		char *lerr = NULL;
		c->cores[i] = lower_formula(lw, roots[i], &lerr);
		if (c->cores[i] == NODE_NONE)
			c->err = lerr;
		else if (c->cores[i] > c->core)
			c->core = c->cores[i];
		c->ncores++;
	}
	lower_free(lw);
	free(roots);
	return c->err == NULL;
}

/* The components of the Booleans (and their heads) reachable from the
 * lowered roots. */
static void make_components(Compiler *c, Node root, CompileInfo *info)
{
	Store *st = c->st;
	Node core = c->core;
	unsigned char *mark = store_reachable(st, c->cores, c->ncores);
	size_t top = (size_t)core + 1;
	c->bool_comp = xcalloc(top, sizeof *c->bool_comp);
	c->label = xmalloc(top * sizeof *c->label);
	for (size_t i = 0; i < top; i++)
		c->label[i] = SYM_NONE;
	c->head_comp = xcalloc(top, sizeof *c->head_comp);
	c->at0 = xcalloc(top, sizeof *c->at0);
	c->lay = xcalloc(top, sizeof *c->lay);
	c->hid = xcalloc(top, sizeof *c->hid);
	c->rope_a = xcalloc(top, sizeof *c->rope_a);
	add_comp(c, COMP_BOS, 0, NODE_NONE);
	if (c->o->pe == PE_ROPE && (store_flags(st, root) & FLAG_MOD))
		c->one = add_comp(c, COMP_HIDDEN, 0, NODE_NONE);
	for (Node n = 1; n <= core; n++) {
		if (!mark[n] || !store_is_bool(st, n))
			continue;
		uint32_t l = c->lay[n] = layer_of(c, n);
		Op op = store_op(st, n);
		PeKind pe = c->o->pe;
		if ((op == OP_CMP && l > 0) || (op == OP_PREV && pe != PE_T5))
			c->head_comp[n] = add_comp(c, COMP_HEAD, l, n);
		if (op == OP_PREV && pe != PE_T5)
			c->comps.data[c->head_comp[n]].window = true;
		if (op == OP_PREV && pe == PE_ALIBI) {
			c->hid[n] = add_comp(c, COMP_HIDDEN, l, NODE_NONE);
			for (int i = 1; i < 5; i++)
				add_comp(c, COMP_HIDDEN, l, NODE_NONE);
		}
		if (op == OP_MOD && pe == PE_SINUSOIDAL) /* the feature */
			c->hid[n] = add_comp(c, COMP_HIDDEN, l, NODE_NONE);
		if ((op == OP_MOD && pe == PE_ROPE) ||
		    (op == OP_PREV && pe == PE_URPE)) {
			c->hid[n] = add_comp(c, COMP_HIDDEN, l, NODE_NONE);
			add_comp(c, COMP_HIDDEN, l, NODE_NONE);
		}
		if (op == OP_MOD && pe == PE_ROPE) {
			c->head_comp[n] = add_comp(c, COMP_HEAD, l, n);
			c->comps.data[c->head_comp[n]].window = true;
			c->rope_a[n] = rope_amplitude(c, store_aux(st, n));
			if (c->rope_a[n] > info->rope_amplitude)
				info->rope_amplitude = c->rope_a[n];
		}
		c->bool_comp[n] = add_comp(c, COMP_BOOL, l, n);
		name_comp(c, n, c->bool_comp[n]);
		c->at0[n] = value_at(c, n, SYM_NONE, c->at0);
	}
	free(mark);
}

/* The ratio readout's head: one layer after its counted Booleans, the
 * head of the comparison t >= 0 (sign -1, shift -1), whose sum is t. */
static void make_ratio_comp(Compiler *c, Node root)
{
	c->ratio_layer = 1;
	for (size_t i = 0; i < c->ncores; i++)
		if (c->lay[c->cores[i]] + 1 > c->ratio_layer)
			c->ratio_layer = c->lay[c->cores[i]] + 1;
	Node ge = store_make_cmp(c->st, REL_GE, root,
				 store_make_const_si(c->st, 0));
	Component comp = {.kind = COMP_HEAD, .layer = c->ratio_layer,
			  .formula = tl_print(c->st, ge, SYNTAX_TL, NULL)};
	VEC_PUSH(c->comps, comp);
	c->ratio_comp = (uint32_t)(c->comps.len - 1);
}

static bool build_ratio_head(Compiler *c)
{
	Layer *ly = &c->m->layers[c->ratio_layer - 1];
	ly->heads = xrealloc(ly->heads, (ly->nheads + 1) * sizeof *ly->heads);
	Head *h = &ly->heads[ly->nheads++];
	memset(h, 0, sizeof *h);
	return head_linear(c, &c->ratio, c->cores, -1, -1, c->ratio_comp, h);
}

/* The output row: the root's Boolean; the class comparisons with weight
 * 1 each (merged where two lower alike) and the bias lo; the ratio
 * head. */
static void readout_row(Compiler *c)
{
	Model *m = c->m;
	Readout r = c->o->readout;
	m->readout = r;
	double *w = xcalloc(m->d, sizeof *w);
	if (r == READOUT_RATIO)
		w[c->ratio_comp] = 1;
	else
		for (size_t i = 0; i < c->ncores; i++)
			w[c->bool_comp[c->cores[i]]] += 1;
	if (r == READOUT_CLASS) {
		m->class_lo = c->o->lo;
		m->class_hi = c->o->hi;
		m->bout = (double)c->o->lo;
		note_range(c, fabs((double)c->o->lo));
		note_range(c, fabs((double)c->o->hi));
	}
	m->wout.rows = 1;
	m->wout.e = xcalloc(c->ncores + 1, sizeof *m->wout.e);
	for (uint32_t k = 0; k < m->d; k++)
		if (w[k] != 0) {
			m->wout.e[m->wout.n++] = (Entry){0, k, w[k]};
			note_range(c, w[k]);
		}
	free(w);
}

static bool build(Compiler *c, Node root, const Sym *letters, size_t nl,
		  CompileInfo *info)
{
	Store *st = c->st;
	Model *m = c->m;
	if (!check_fragment(c, root) || !lower_roots(c, root))
		return false;
	make_components(c, root, info);
	if (c->o->readout == READOUT_RATIO)
		make_ratio_comp(c, root);
	Node core = c->core;
	m->d = (uint32_t)c->comps.len;
	m->comps = c->comps.data;
	c->range = 1;
	embed(c, core, letters, nl);
	build_input(c, core);
	m->feats = c->feats.data;
	m->nfeats = c->feats.len;
	m->nlayers = c->ratio_layer;
	for (size_t i = 0; i < c->ncores; i++)
		if (c->lay[c->cores[i]] > m->nlayers)
			m->nlayers = c->lay[c->cores[i]];
	m->layers = xcalloc(m->nlayers ? m->nlayers : 1, sizeof *m->layers);
	for (uint32_t l = 1; l <= m->nlayers; l++)
		if (!build_layer(c, core, l, &m->layers[l - 1]))
			return false;
	if (c->o->readout == READOUT_RATIO && !build_ratio_head(c))
		return false;
	readout_row(c);
	info->range = c->range;
	info->depth = store_depth(st, root);
	info->heads = model_nheads(m);
	info->features = m->nfeats;
	info->max_fanin = c->fanin;
	if ((store_flags(st, root) & FLAG_PREV) && c->o->pe == PE_T5)
		info->t5_bias = -c->t5c;
	if ((store_flags(st, root) & FLAG_PREV) && c->o->pe == PE_ALIBI) {
		info->slope = c->slope;
		Semantics kd = {.kind = SEM_KNEEDEEP, .p = m->p, .s = m->s};
		info->window = sim_alibi_window(&kd, c->slope);
	}
	return true;
}

int compile_min_p(const CompileInfo *info, FfnKind ffn, int s)
{
	for (int p = s + 2; p <= FIXED_MAX_P; p++) {
		if (ffn == FFN_RELU && s > 0 && p < s + 3)
			continue;
		if ((double)fixed_max_m(p) >= ldexp(info->range, s))
			return p;
	}
	return 0;
}

bool compile_formula(Store *s, Node root, const Sym *letters,
		     size_t nletters, const char *source,
		     const CompileOptions *o, Model *out, CompileInfo *info,
		     char **err)
{
	memset(out, 0, sizeof *out);
	memset(info, 0, sizeof *info);
	out->p = o->p;
	out->s = o->s;
	out->ffn = o->ffn;
	out->pe = xstrdup(pe_kind_name(o->pe));
	out->formula = source ? xstrdup(source) : NULL;
	out->alphabet = xcalloc(nletters + 1, sizeof *out->alphabet);
	for (size_t i = 0; i < nletters; i++)
		out->alphabet[i] = xstrdup(sym_name(store_syms(s), letters[i]));
	out->nletters = nletters;
	Compiler c = {.st = s, .o = o, .m = out};
	if (o->pe == PE_ALIBI)
		c.slope = compile_alibi_slope(o->p, o->s);
	if (o->pe == PE_T5 || o->pe == PE_ROPE)
		c.t5c = -compile_t5_bias(o->p, o->s);
	bool ok = build(&c, root, letters, nletters, info);
	if (ok && (o->p < compile_min_p(info, o->ffn, o->s) ||
		   compile_min_p(info, o->ffn, o->s) == 0)) {
		int need = compile_min_p(info, o->ffn, o->s);
		c.err = need ? message("precision %d,%d is too small: this "
				       "construction needs p >= %d at s = %d",
				       o->p, o->s, need, o->s)
			     : message("no p <= %d suffices at s = %d",
				       FIXED_MAX_P, o->s);
		ok = false;
	}
	if (ok && c.one && !check_rope_mod(&c, c.core))
		ok = false;
	if (!ok) {
		if (!out->comps)
			out->comps = c.comps.data, out->d = (uint32_t)c.comps.len;
		if (!out->feats)
			VEC_FREE(c.feats);
		model_free(out);
		*err = c.err;
	}
	free(c.bool_comp);
	free(c.cores);
	if (c.has_ratio)
		store_linear_free(&c.ratio);
	free(c.label);
	free(c.head_comp);
	free(c.at0);
	free(c.lay);
	free(c.hid);
	free(c.rope_a);
	return ok;
}
