/* compile_positional.c -- what the positional encodings let the
 * compiler build (see compile.h): Y psi through ALiBi, T5 or URPE heads,
 * MOD(m, r) through RoPE heads or sinusoidal features in the input
 * block; the RoPE heads' amplitude, the check that a formula's
 * operators have an encoding that carries them, and the simulator's
 * check of the RoPE heads. */
#include <config.h>
#include "transformer/compile_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "transformer/fixed.h"
#include "transformer/pe.h"
#include "transformer/sim.h"

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

bool compiler_check_fragment(Compiler *c, Node root)
{
	unsigned f = store_flags(c->st, root);
	PeKind pe = c->o->pe;
	if (f & FLAG_FUTURE)
		c->err = compiler_message("future counts #> cannot be "
					  "compiled: the transformer is "
					  "future-masked");
	else if ((f & FLAG_MOD) && pe != PE_SINUSOIDAL && pe != PE_ROPE)
		c->err = compiler_message("MOD needs a periodic positional "
					  "encoding: use --pe=sinusoidal or "
					  "--pe=rope");
	else if ((f & FLAG_PREV) &&
		 !(pe == PE_ALIBI || pe == PE_T5 || pe == PE_URPE))
		c->err = compiler_message("Y needs a relative positional "
					  "encoding: use --pe=alibi, --pe=t5 "
					  "or --pe=urpe%s",
					  pe == PE_SINUSOIDAL || pe == PE_ROPE
						  ? " (sinusoidal and RoPE "
						    "features are periodic "
						    "and cannot single out "
						    "position i-1 at every "
						    "length)"
						  : "");
	else if ((f & FLAG_MOD) && pe == PE_ROPE &&
		 max_mod(c->st, root) > COMPILE_ROPE_MAX_MOD)
		c->err = compiler_message("MOD(%u, .) through RoPE: the "
					  "compiler checks each RoPE head on "
					  "two periods and takes moduli up to "
					  "%d", max_mod(c->st, root),
					  COMPILE_ROPE_MAX_MOD);
	else if ((f & FLAG_PREV) && pe == PE_ALIBI && c->slope == 0)
		c->err = compiler_message("no ALiBi slope in F_{%d,%d} gives "
					  "a window of exactly 2 that the "
					  "gates can read: more fractional "
					  "bits are needed",
					  c->o->p, c->o->s);
	else if ((f & FLAG_PREV) && pe == PE_T5 && c->t5c == 0)
		c->err = compiler_message("no T5 bias in F_{%d,%d} makes a "
					  "weight round to 0: more integer "
					  "bits are needed",
					  c->o->p, c->o->s);
	return c->err == NULL;
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
void compiler_build_prev(Compiler *c, Node n, Head *h, Layer *ly, size_t *gcap)
{
	Node psi = store_kid(c->st, n, 0);
	uint32_t x = c->head_comp[n], k = c->hid[n], v = c->bool_comp[psi];
	prev_value(c, n, h, 1);
	h->slope = c->slope;
	h->out = x;
	compiler_note_range(c, 2);
	compiler_note_range(c, c->slope);
	Gate g = compiler_gate2(GATE_GE0, k, x, 0, 1);
	g.bias = -ldexp(1, -c->o->s);
	compiler_add_gate(c, ly, g, gcap);
	g = compiler_gate2(GATE_GE0, k + 1, x, 0, 1);
	g.bias = -1;
	compiler_add_gate(c, ly, g, gcap);
	compiler_add_gate(c, ly, compiler_gate2(GATE_NOT, k + 2, v, 0, 1),
			  gcap);
	compiler_add_gate(c, ly, compiler_gate2(GATE_AND, k + 3, k + 2, k, 2),
			  gcap);
	compiler_add_gate(c, ly, compiler_gate2(GATE_AND, k + 4, v, k + 1, 2),
			  gcap);
	compiler_add_gate(c, ly, compiler_gate2(GATE_OR, c->bool_comp[n], k + 3,
						k + 4, 2),
			  gcap);
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
	Gate g = compiler_gate2(GATE_GE0, not_bos ? h : b, c->head_comp[n], 0,
				1);
	g.bias = bias;
	compiler_add_gate(c, ly, g, gcap);
	if (!not_bos)
		return;
	compiler_add_gate(c, ly, compiler_gate2(GATE_NOT, h + 1, 0, 0, 1),
			  gcap);
	compiler_add_gate(c, ly, compiler_gate2(GATE_AND, b, h, h + 1, 2),
			  gcap);
}

/* Y psi through T5 buckets: weight 1 at distance 1, 0 elsewhere, so the
 * head outputs psi(i-1) (0 at position 1: BOS's value is cancelled). */
void compiler_build_prev_t5(Compiler *c, Node n, Head *h)
{
	prev_value(c, n, h, 1);
	h->t5 = xcalloc(1, sizeof *h->t5);
	*h->t5 = (T5Bias){32, 128, false, xcalloc(32, sizeof(double))};
	for (int b = 0; b < 32; b++)
		h->t5->bias[b] = b == 1 ? 0 : -c->t5c;
	compiler_note_range(c, c->t5c);
	h->out = c->bool_comp[n];
}

/* Y psi through URPE: uniform weights times c(1) = 1, value 2 psi - 1
 * (-1 at BOS), then the gate ge0 of floor((2 psi(i-1) - 1)/(i+1)). */
void compiler_build_prev_urpe(Compiler *c, Node n, Head *h, Layer *ly,
			    size_t *gcap)
{
	prev_value(c, n, h, 2);
	h->bv = -1;
	h->nurpe = 2;
	h->urpe = xcalloc(2, sizeof *h->urpe);
	h->urpe[1] = 1;
	compiler_note_range(c, 3);
	h->out = c->head_comp[n];
	read_head(c, ly, n, 0, true, gcap);
}

/* A for MOD(m, .) through RoPE: the logits A (cos(2 pi k/m) - 1), k != 0,
 * must round to weight 0; C (compile_t5_bias) is the least integer
 * logit magnitude that does, and one more absorbs the rounding of the
 * rotation; A >= C as well for the keys after BOS. */
double compiler_rope_amplitude(Compiler *c, uint32_t m)
{
	double gap = 1 - cos(2 * M_PI / m), a = ceil((c->t5c + 1) / gap);
	return a > c->t5c ? a : c->t5c; /* the other keys' logit is -A */
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
void compiler_build_mod_rope(Compiler *c, Node n, Head *h, Layer *ly,
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
	compiler_note_range(c, 2 * a);
	read_head(c, ly, n, -1, r != 0, gcap);
}

/* The RoPE MOD heads on two periods: the logit to every key after BOS is
 * -A, and the one to BOS repeats with period m (the rotations are exact
 * functions of i mod m), so two periods decide every length.  The
 * simulator visits every key of a RoPE head, so the check costs about
 * (2m)^2/2 key visits: moduli are bounded (COMPILE_ROPE_MAX_MOD). */
bool compiler_check_rope_mod(Compiler *c, Node core)
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
				c->err = compiler_message(
					"the RoPE head of MOD(%u, %u) is not "
					"exact in F_{%d,%d} (position %zu): "
					"more bits are needed", m, r, c->o->p,
					c->o->s, i);
		}
	}
	sim_free(sim);
	return ok;
}

/* A Boolean of layer 0 that depends on the position (MOD): computed by
 * the input block, not by the embedding. */
bool compiler_positional(Compiler *c, Node n)
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
	Gate gt = compiler_gate2(GATE_GE0, c->bool_comp[n], c->hid[n], 0, 1);
	gt.bias = -1;
	compiler_add_gate(c, &c->m->input, gt, gcap);
}

/* The input block: the positional Booleans of layer 0, in order. */
void compiler_build_input(Compiler *c, Node core)
{
	size_t gcap = 0;
	for (Node n = 1; n <= core; n++) {
		if (!c->bool_comp[n] || c->lay[n] != 0 ||
		    !compiler_positional(c, n))
			continue;
		if (store_op(c->st, n) == OP_MOD)
			build_mod(c, n, &gcap);
		else
			compiler_add_gate(c, &c->m->input,
					  compiler_gate_of(c, n), &gcap);
	}
}
