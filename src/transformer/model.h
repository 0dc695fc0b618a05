/* model -- a future-masked transformer with a BOS token, as `tally
 * compile` writes it and `tally simulate` runs it (the JSON format is
 * described in man/tally-compile.1).
 *
 * The residual stream has d components.  Token 0 is BOS, token t >= 1 the
 * letter alphabet[t-1]; the embedding plus the sinusoidal features of
 * the position, then the input block (position-wise, like the embedding),
 * give the stream at layer 0.  Each layer is a set of attention heads
 * followed by a feed-forward block.  A head computes q_i = Wq h_i,
 * k_j = Wk h_j (pairs of rows rotated by i and j times the RoPE angles),
 * logits q_i.k_j - slope*(i-j) + t5bias[bucket(i-j)] (ALiBi, T5; all
 * absent is NoPE), the value v_j = wv.h_j + bv, averages the values over
 * j = 0 (BOS) .. i with softmax weights (each times c(i-j) with URPE) and
 * adds the result to component `out`.  The feed-forward block is either a list of gates
 * (`table`: ge0 (x + bias >= 0), not, and, or on 0/1 components, a finite position-wise
 * function) or a list of residual ReLU blocks (`relu`: h += W2
 * ReLU(W1 h + b1) + b2).  The output is w.h + b; under the readout
 * "accept" (the default) it is read at the last position and the word is
 * accepted iff it is > 0; the sequence readouts read it at every
 * position (the model is future-masked, so position i's output is that
 * of the prefix of length i): "per_position" as a Boolean (> 0),
 * "class" as the integer min(max(t, lo), hi) of a count-valued term t,
 * "ratio" as the number floor_s(t/(i+1)) (logic/README.md §2.7;
 * man/tally-compile.1).  Every weight is a dyadic rational
 * (a double here; in F_{p,s} for a model tally compile writes).
 *
 * Components carry the subformula they hold (for --trace).
 *
 * Ownership: a Model owns all its arrays and strings; model_free releases
 * them.
 */
#ifndef TALLY_MODEL_H
#define TALLY_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "transformer/pe.h"

typedef struct {
	uint32_t row, col;
	double w;
} Entry;

/* A sparse rows x cols matrix. */
typedef struct {
	uint32_t rows;
	Entry *e;
	size_t n;
} Sparse;

/* The T5 bias of a head: logit += bias[bucket(i - j)]. */
typedef struct {
	uint32_t buckets, max_distance;
	bool bidirectional;
	double *bias; /* buckets entries */
} T5Bias;

typedef struct {
	Sparse wq, wk; /* same number of rows (0: content-free logits) */
	Sparse wv;     /* one row */
	double bv;
	double slope;  /* ALiBi: logit -= slope * (i - j) */
	Angle *rope;   /* RoPE: query/key rows 2k, 2k+1 rotated by pos*rope[k] */
	size_t nrope;
	T5Bias *t5;    /* or NULL */
	double *urpe;  /* URPE: weight (i,j) times c(i-j): urpe[d] for d < */
	size_t nurpe;  /* nurpe, urpe_beyond after; NULL: no URPE */
	double urpe_beyond;
	uint32_t out;
} Head;

/* A sinusoidal feature: cos(i * angle + phase * pi) at position i (BOS is
 * 0), rounded and added to component out of the embedding. */
typedef struct {
	Angle angle;
	int64_t pnum, pden;
	uint32_t out;
} Feature;

typedef enum { GATE_GE0, GATE_NOT, GATE_AND, GATE_OR } GateOp;

typedef struct {
	GateOp op;
	double bias; /* ge0 tests in + bias >= 0 */
	uint32_t out;
	uint32_t *in;
	size_t nin;
} Gate;

typedef struct {
	Sparse w1; /* hidden x d */
	double *b1;
	Sparse w2; /* d x hidden */
	double *b2; /* d */
} Block;

typedef struct {
	Head *heads;
	size_t nheads;
	Gate *gates;
	size_t ngates;
	Block *blocks;
	size_t nblocks;
} Layer;

typedef enum { COMP_BOS, COMP_BOOL, COMP_HEAD, COMP_HIDDEN } CompKind;

/* A count of a head's linear form: coef * #[formula]. */
typedef struct {
	double coef;
	char *formula;
} CountTerm;

typedef struct {
	CompKind kind;
	uint32_t layer;
	char *formula;     /* the subformula held (Booleans, heads), or NULL */
	CountTerm *counts; /* heads: the comparison sum_k coef_k #[..] + c < 0 */
	bool window;       /* a head that reads a window (Y, ALiBi), no counts */
	size_t ncounts;
	double constant;
} Component;

typedef enum { FFN_TABLE, FFN_RELU } FfnKind;

/* How the output is read (the JSON's output.readout). */
typedef enum {
	READOUT_ACCEPT, READOUT_PER_POSITION, READOUT_CLASS, READOUT_RATIO
} Readout;

/* "accept", "per_position", "class", "ratio": false for another name. */
bool readout_parse(const char *text, Readout *out);
const char *readout_name(Readout r);
/* A count readout (class, ratio): the output is a number, not a bit. */
bool readout_counts(Readout r);

typedef struct {
	int p, s;
	FfnKind ffn;
	char *pe; /* "nope", "alibi", "sinusoidal", "rope", "t5" or "urpe" */
	char *formula; /* the source formula (TL text), or NULL */
	char **alphabet;
	size_t nletters;
	uint32_t d;
	Component *comps; /* d of them */
	double *embed;    /* (nletters + 1) x d, row 0 = BOS */
	Feature *feats;   /* sinusoidal features, added to the embedding */
	size_t nfeats;
	Layer input;      /* position-wise gates or blocks on the embedding
			     plus features (no heads), before layer 1 */
	Layer *layers;
	size_t nlayers;
	Sparse wout; /* one row */
	double bout;
	Readout readout;
	int64_t class_lo, class_hi; /* READOUT_CLASS: the bounds */
} Model;

void model_free(Model *m);
size_t model_nheads(const Model *m);
/* The JSON form (a new reference). */
json_t *model_to_json(const Model *m);
/* Reads a model (model_read.c), checking every field: false with a
 * message in *err (malloc'd) that starts with the path of the first
 * field found wrong ("layers[0].heads[1].out: ..."). */
bool model_from_json(json_t *j, Model *m, char **err);

#endif
