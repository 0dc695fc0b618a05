/* compile_state.h -- what a Compiler holds while it builds one model,
 * shared by compile.c (the frame: components, layers, embedding),
 * compile_state.c (messages, the range of the weights, labels),
 * compile_heads.c (a comparison's head), compile_gates.c (the gates,
 * as gate lists or ReLU units), compile_positional.c (Y and MOD through
 * the positional encodings) and compile_readout.c (the output row).
 * Private to them: the interface is compile.h (which they do not
 * include: the types they share with it are compile_options.h). */
#ifndef TALLY_TRANSFORMER_COMPILE_STATE_H
#define TALLY_TRANSFORMER_COMPILE_STATE_H

#include "base/vec.h"
#include "core/store.h"
#include "transformer/compile_options.h"
#include "transformer/model.h"

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

/* ---- compile_state.c: services to the parts ---------------------------- */

/* A malloc'd message for c->err. */
char *compiler_message(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Widens the range of weights and values (CompileInfo.range) to |x|. */
void compiler_note_range(Compiler *c, double x);
/* The label of a component computing n (malloc'd). */
char *compiler_label(const Compiler *c, Node n);

/* ---- compile_heads.c ------------------------------------------------- */

/* A comparison as L' < 0 with L' = sign * L + shift (L the kid); false
 * for a relation the lowering removes. */
bool compiler_strict_form(Rel rel, int *sign, long *shift);
/* The head of the comparison sign * L + shift < 0 (L = l over the
 * counted Booleans psi) into component comp_at; false with c->err. */
bool compiler_head_linear(Compiler *c, const Linear *l, const Node *psi,
			  int sign, long shift, uint32_t comp_at, Head *h);
/* The Booleans counted by l's atoms into psi; false when an atom is not
 * a past count. */
bool compiler_counted(const Store *st, const Linear *l, Node *psi);
/* The head of comparison n; false with c->err. */
bool compiler_build_head(Compiler *c, Node n, Head *h);

/* ---- compile_gates.c ------------------------------------------------- */

/* The gate computing Boolean n from its kids' (or its head's)
 * components. */
Gate compiler_gate_of(Compiler *c, Node n);
/* Adds g to the layer: as a gate, or as ReLU blocks (--ffn=relu); takes
 * g.in.  gcap: the capacity of ly->gates. */
void compiler_add_gate(Compiler *c, Layer *ly, Gate g, size_t *gcap);
/* A gate of n inputs (at most 2: a, b) into out. */
Gate compiler_gate2(GateOp op, uint32_t out, uint32_t a, uint32_t b,
		    size_t n);

/* ---- compile_positional.c -------------------------------------------- */

/* Whether the encoding carries root's operators (no future counts; Y and
 * MOD each through an encoding that can make them); false with c->err. */
bool compiler_check_fragment(Compiler *c, Node root);
/* Y psi as a head of its layer, through ALiBi (gates in ly), T5 or URPE
 * (gates in ly). */
void compiler_build_prev(Compiler *c, Node n, Head *h, Layer *ly,
			 size_t *gcap);
void compiler_build_prev_t5(Compiler *c, Node n, Head *h);
void compiler_build_prev_urpe(Compiler *c, Node n, Head *h, Layer *ly,
			      size_t *gcap);
/* MOD(m, r) as a RoPE head of layer 1, its gates in ly. */
void compiler_build_mod_rope(Compiler *c, Node n, Head *h, Layer *ly,
			     size_t *gcap);
/* A for the RoPE heads of MOD(m, .). */
double compiler_rope_amplitude(Compiler *c, uint32_t m);
/* The RoPE MOD heads checked by the simulator; false with c->err. */
bool compiler_check_rope_mod(Compiler *c, Node core);
/* Whether a Boolean of layer 0 depends on the position (the input block
 * computes it, not the embedding). */
bool compiler_positional(Compiler *c, Node n);
/* The input block: the positional Booleans of layer 0. */
void compiler_build_input(Compiler *c, Node core);

/* ---- compile_readout.c ----------------------------------------------- */

/* Lowers the Booleans the readout needs into c->cores; false with
 * c->err. */
bool compiler_lower_roots(Compiler *c, Node root);
/* The ratio readout's head component, and its head once the layers are
 * made (false with c->err). */
void compiler_make_ratio_comp(Compiler *c, Node root);
bool compiler_build_ratio_head(Compiler *c);
/* The output row. */
void compiler_readout_row(Compiler *c);

#endif
