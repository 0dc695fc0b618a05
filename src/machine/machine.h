/* machine -- the compiled streaming machine of formulas.
 *
 * A set of Boolean roots compiles into a machine: a vector of value slots
 * and per-letter update rules.  Reading a letter is one step; the verdict
 * of every root at the position just read is a function of the slots.
 * Past-only roots (no #>) need one pass over the word; roots with future
 * counts need fdepth + 1 passes over the whole word (see "Future counts"
 * below); only the evaluator (eval.c) compiles those.  The evaluator,
 * the state explorer (explore.c) and the Horn-clause translation (chc.c)
 * all use this one module, so the update rules exist once: compiled in
 * machine_compile.c, run in machine.c.
 *
 * Semantics are those of eval.h: positions are 1-based, position 0 is the
 * empty word (every letter test false, counts 0, Y false, MOD(m, r) iff
 * r = 0), counts are inclusive.
 *
 * ---- Letters ------------------------------------------------------------
 * Letters are numbered by codes 0..ncodes-1: the letters the roots mention
 * (in order of first mention), then one code, ncodes-1, for "other": any
 * letter no root mentions (every Q_sigma false there).  machine_code()
 * maps a Sym.
 *
 * ---- Slots ---------------------------------------------------------------
 * Slot i holds an integer (Booleans as 0/1): int64 in V[i], or an fmpz in
 * B[i] when big[i] (a value that could leave int64 on words of up to 2^48
 * letters).  Mathematically every slot is an unbounded integer; the
 * int64/fmpz split is an implementation detail a symbolic user may ignore.
 * The slots come in four kinds, in this order:
 *   [0, nld)           letter-driven integers (LD): counts of letter
 *                      functions and linear forms over those.  Reading
 *                      letter c adds delta[i * ncodes + c]; initial value
 *                      init[i] (a linear form's constant, 0 for a count).
 *   [nld, nld+nlf)     letter functions (LF): Boolean combinations of
 *                      letter tests.  Reading letter c sets slot nld+j to
 *                      lfrow[c * nlf + j]; at position 0 they take the row
 *                      of "other" (all letter tests false).
 *   constants          slots of OP_CONST nodes: init[i] (binit[i] when
 *                      big), never written.
 *   the rest           computed by instructions (dst), plus one latch slot
 *                      per Y (see MI_PREV).
 * node_of[i] is the store node slot i computes (NODE_NONE for a latch);
 * slot_of[node] is the reverse (UINT32_MAX when the node has no slot).
 * root_slot[r] is the slot holding the verdict of roots[r].
 *
 * ---- Persistent state ----------------------------------------------------
 * The slots that carry information from one position to the next are the
 * persistent ones (persistent[i]): LD slots, the dst of every MI_COUNT
 * and MI_BCOUNT, and the latch of every MI_PREV and MI_FCOUNT (whose
 * state also includes its total); plus the position modulo
 * `period` (the lcm of the MOD moduli; 0 = no MOD).  Every other slot is
 * recomputed by each step from the persistent slots and the letter.
 * Persistent slots are never big, except in machine_init_bounded machines
 * (big_persistent; the hash and pack functions are not for those).  Two
 * prefixes with equal persistent state and equal position agree on every
 * continuation (but not necessarily at the current position: compare
 * verdicts before merging).
 *
 * ---- One step (machine_step, reading letter code c) ----------------------
 *   pos += 1;
 *   V[i] += delta[i*ncodes + c]        for every LD slot i;
 *   V[nld + j] = lfrow[c*nlf + j]      for every LF slot;
 *   then the instructions step[0..nstep) in order (operands always have
 *   lower indices in the order of evaluation: topological).
 * A verdict query (machine_query) then runs query[0..nquery) on the same
 * state: the Boolean structure above the counts that only the verdict
 * needs.  Reset (position 0) sets slots to init, LF slots to the "other"
 * row and runs the step instructions in "position 0" mode (MI_COUNT
 * dst = 0, MI_PREV dst = latch = 0).
 *
 * ---- Future counts ------------------------------------------------------
 * #>[phi] at position i is total(phi) - #[phi](i-1), where total(phi) is
 * the number of positions of the whole word (to n+1 under --accept-at=eos)
 * where phi holds.  Each #> node has a latch that counts phi over the
 * positions read before the current one, and a total, total[k] (k its
 * ordinal, latch slot future_latch[k]), which the caller supplies.  Its
 * level, future_level[k], is its #>-nesting depth (1 for #>[Q_a]).  A
 * pass over the whole word in which the totals of every level below d
 * are right gives the totals of level d at the end.  So a verdict takes
 * fdepth + 1 passes (fdepth = the largest #>-nesting of a root, 0 for
 * past-only roots): for k = 0 .. fdepth - 1, machine_begin_pass(k),
 * reset, read the word, machine_take_totals (level k + 1); then
 * machine_begin_pass(fdepth) and the pass that gives values and
 * verdicts.  Pass k < fdepth runs only the step instructions that the
 * #> of level k + 1 need (pstep[pstep_off[k] .. pstep_off[k+1])); the
 * other slots are stale then.  When every #> of level 1 counts a letter
 * function (#>[Q_a], #>[Q_a | Q_b]: letter_totals), its total follows
 * from how often each letter code occurs, and machine_letter_totals
 * replaces pass 0.  A future count is exact in int64 like a past one.
 *
 * ---- Instructions (MachineInstr; V = values, n-ary operands are
 *      opnd[off..off+n), with coef[] / bcoef[] parallel to opnd) ---------
 *   MI_NOT   dst = !a
 *   MI_AND   dst = AND of the n operands;  MI_OR: OR
 *   MI_CMP   dst = (a REL 0), rel = (Rel) rel; MI_BCMP the same, a big
 *   MI_COUNT dst = dst + a  (a is 0/1: the count of a at this position);
 *            MI_BCOUNT the same, dst big (only in machine_init_bounded
 *            machines for words longer than 2^48)
 *   MI_PREV  dst = b; b = a  (b is the latch: a at the previous position;
 *            so dst = Y a)
 *   MI_FCOUNT dst = total[k] - b; b = b + a  (b is the latch: the count
 *            of a before this position; so dst = #>[a] once total[k] is
 *            right)
 *   MI_MOD   dst = (pos mod a == b)  (a = m >= 1, b = r < m)
 *   MI_LIN   dst = k + sum_j coef[off+j] * V[opnd[off+j]]
 *   MI_BLIN  the same in fmpz: bconst[k] + sum_j bcoef[off+j] * opnd_j
 *            (bcoef is filled for MI_LIN too: the exact coefficients)
 *   MI_ITE   dst = a ? b : c;  MI_BITE the same, dst big
 *   MI_MIN   dst = min(a, b);  MI_MAX: max;  MI_BMIN/MI_BMAX in fmpz
 * A "B" instruction's integer operands may be small or big slots.
 *
 * Ownership: a Machine borrows its Store (which must outlive it) and owns
 * its arrays; a MachineState belongs to one Machine's layout.
 */
#ifndef TALLY_MACHINE_H
#define TALLY_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <flint/fmpz.h>

#include "core/store.h"

/* Words longer than this are refused (eval_too_long): the static bounds
 * that make int64 arithmetic exact assume it. */
#define MACHINE_MAX_POSITIONS ((uint64_t)1 << 48)

typedef enum {
	MI_NOT, MI_AND, MI_OR, MI_CMP, MI_BCMP, MI_COUNT, MI_PREV, MI_MOD,
	MI_LIN, MI_BLIN, MI_ITE, MI_BITE, MI_MIN, MI_MAX, MI_BMIN, MI_BMAX,
	MI_BCOUNT, MI_FCOUNT,
} MachineOp;

typedef struct {
	uint8_t op, rel;       /* MachineOp; Rel for MI_CMP/MI_BCMP */
	uint32_t dst, a, b, c; /* slots (MI_MOD: a = m, b = r) */
	uint32_t n, off;       /* n-ary operands: opnd[off..off+n) */
	int64_t k;             /* MI_LIN constant; MI_BLIN: index in bconst */
} MachineInstr;

/* Sym -> letter code. */
typedef struct {
	uint32_t *symcode;
	size_t nsymcode, ncodes; /* ncodes includes "other" */
	Sym *letters;            /* letters[c] for c < ncodes - 1 */
} MachineCodes;

void machine_codes_init(MachineCodes *c, const Store *s, const Node *roots,
			size_t nroots);
void machine_codes_free(MachineCodes *c);
static inline uint32_t machine_code(const MachineCodes *c, Sym l)
{
	return l < c->nsymcode ? c->symcode[l] : (uint32_t)c->ncodes - 1;
}

/* ---- The register kernel --------------------------------------------------
 * The common small shape (Dyck-1, majority, thresholds): past-only, no
 * letter function slots, at most MACHINE_KERNEL_LD letter-driven slots, at most
 * MACHINE_KERNEL_CODES letter codes,
 * and a step program of comparisons of those slots (MI_CMP), their
 * negations (MI_NOT) and counts of those (MI_COUNT), at most
 * MACHINE_KERNEL_COUNTS tests.
 * machine_compile.c derives its description from the step program; the
 * kernel then keeps every slot in a register and reads letters with no
 * dispatch, no columns and no branch per letter.  A comparison "x REL 0"
 * is the sign bit of y = s*x + t, or, for = and !=, of y | -y, flipped
 * by f: one formula for the six relations, chosen when compiling.
 * Counts stay int64: the static bounds of machine_facts (words of at
 * most 2^48 letters) make them exact, as in the other paths. */
enum { MACHINE_KERNEL_LD = 2, MACHINE_KERNEL_COUNTS = 4 };
enum { MACHINE_KERNEL_CODES = 255 }; /* a code fits a byte, 0xff aside */

typedef struct {
	uint32_t ld;   /* the compared letter-driven slot */
	uint32_t cmp;  /* the slot of the comparison */
	uint32_t dst;  /* the slot of its count, UINT32_MAX when uncounted */
	int64_t s, t;  /* y = s*x + t */
	uint64_t e, f; /* e: all ones for = and != (y | -y); f: flip */
} MachineTest;

typedef struct {
	bool on;
	size_t ntest;
	MachineTest test[MACHINE_KERNEL_COUNTS];
} MachineKernel;

typedef struct {
	const Store *s;
	Node *roots;
	size_t nroots;
	MachineCodes codes;
	size_t nslots, nld, nlf;
	size_t ncodes;           /* = codes.ncodes */
	int64_t *delta;          /* nld x ncodes */
	int64_t *lfrow;          /* ncodes x nlf */
	int64_t *init;           /* initial values of small slots */
	bool *big;               /* per slot */
	fmpz *binit;             /* initial values of big slots */
	MachineInstr *step, *query;
	size_t nstep, nquery;
	uint32_t *opnd;
	int64_t *coef;           /* small coefficients, parallel to opnd */
	fmpz *bcoef;             /* exact coefficients, parallel to opnd */
	fmpz *bconst;            /* MI_BLIN constants */
	size_t nopnd, nbconst;
	Node maxnode;
	uint32_t *slot_of;       /* node id -> slot, UINT32_MAX when absent */
	Node *node_of;           /* slot -> node, NODE_NONE for latches */
	bool *persistent;        /* per slot */
	uint32_t *pslot;         /* the persistent slots, increasing */
	size_t npslot;
	uint64_t period;         /* lcm of MOD moduli, 0 when none (or huge:
				  * then the whole position is kept) */
	bool huge_period;
	bool big_persistent;     /* some persistent slot is big */
	uint32_t *root_slot;     /* per root */
	int64_t *total;          /* per #> node: its total */
	uint32_t *future_latch;  /* per #> node: the slot of its latch */
	unsigned *future_level;  /* per #> node: its #>-nesting depth */
	uint32_t *future_operand; /* per #> node: the slot it counts */
	bool letter_totals;      /* every #> of level 1 counts letters */
	size_t nfuture;
	unsigned fdepth;         /* largest #>-nesting of a root, 0 if none */
	unsigned pass;           /* the current pass (initially fdepth) */
	MachineInstr *pstep;     /* the step programs of passes < fdepth */
	size_t *pstep_off;
	bool blockable;          /* no big instruction runs per step */
	size_t blk;              /* positions per block */
	MachineKernel kernel;    /* the register kernel, when it applies */
} Machine;

typedef struct {
	int64_t *V;
	fmpz *B;
	uint64_t pos;
} MachineState;

/* Compile roots (Boolean).  full: every reachable
 * node gets a slot computed at every position (tables); otherwise only
 * what the roots need, the part above the counts in query[] ("lean"). */
void machine_init(Machine *m, const Store *s, const Node *roots,
		  size_t nroots, bool full);
/* The same for words of up to npos letters (run-length words): slots
 * whose values could leave int64 on such words are big. */
void machine_init_bounded(Machine *m, const Store *s, const Node *roots,
			  size_t nroots, bool full, const fmpz_t npos);
void machine_free(Machine *m);

/* A state of m's layout, reset to the empty word (machine_reset). */
void machine_state_init(const Machine *m, MachineState *st);
void machine_state_free(const Machine *m, MachineState *st);
void machine_state_copy(const Machine *m, MachineState *dst,
			const MachineState *src);
/* The empty word (position 0). */
void machine_reset(const Machine *m, MachineState *st);
/* Read one letter (a code). */
void machine_step(const Machine *m, MachineState *st, uint32_t code);
/* Passes (see "Future counts"): which pass the next steps belong to
 * (0..fdepth), and after pass k < fdepth over the whole word, the totals
 * of the #> nodes of level k + 1 from their latches. */
void machine_begin_pass(Machine *m, unsigned k);
/* The step program of the current pass: n instructions. */
const MachineInstr *machine_program(const Machine *m, size_t *n);
void machine_take_totals(Machine *m, const MachineState *st);
/* Only when m->letter_totals: the totals of level 1 from count[c], the
 * number of positions with letter code c (the end marker as "other"). */
void machine_letter_totals(Machine *m, const uint64_t *count);
/* Run the query instructions; then machine_root() reads verdicts. */
void machine_query(const Machine *m, MachineState *st);
static inline bool machine_root(const Machine *m, const MachineState *st,
				size_t r)
{
	return st->V[m->root_slot[r]] != 0;
}

/* Persistent state: hash and equality (position modulo the period
 * included, the position itself not), and a packed form for storing many
 * states: machine_packed_len() int64s (the persistent slots, then the
 * phase), with machine_packed_hash(p, len) == machine_state_hash() of the
 * state packed.  machine_unpack restores the persistent slots and sets
 * the position; the other slots are stale until the next machine_step
 * (do not query an unpacked state before stepping). */
uint64_t machine_state_hash(const Machine *m, const MachineState *st);
bool machine_state_equal(const Machine *m, const MachineState *a,
			 const MachineState *b);
size_t machine_packed_len(const Machine *m);
void machine_pack(const Machine *m, const MachineState *st, int64_t *out);
uint64_t machine_packed_hash(const int64_t *p, size_t len);
void machine_unpack(const Machine *m, MachineState *st, const int64_t *in,
		    uint64_t pos);

/* Block execution (long words): the step program over up to m->blk
 * positions at once, one tight loop per instruction; only when
 * m->blockable. */
typedef struct {
	int64_t *col; /* nslots x blk */
	uint32_t *codes;
} MachineBlock;
void machine_block_init(const Machine *m, MachineBlock *bk);
void machine_block_free(MachineBlock *bk);
/* Read bk->codes[0..n), n <= m->blk. */
void machine_run_block(const Machine *m, MachineState *st, MachineBlock *bk,
		       size_t n);

/* The kernel's input: one-byte letters, each byte's deltas looked up
 * directly (no letter code in between); built once per byte -> code
 * table (machine_kernel.c).  code[b] is the letter code of byte b, or
 * 0xff when b is not a letter.  Only the counted tests are stepped per
 * letter; every other value follows at the end from the letter-driven
 * slots, which are counted letter by letter when at most four bytes are
 * letters (vector compares) and stepped otherwise. */
enum { MACHINE_KERNEL_BYTES = 4 };
typedef struct {
	uint8_t other[256];  /* 1 when the byte is not a letter */
	size_t nbyte;        /* how many bytes are letters */
	uint8_t byte[MACHINE_KERNEL_BYTES]; /* them, when at most that many */
	int64_t dx[MACHINE_KERNEL_LD][256];    /* deltas of the LD slots */
	size_t ncount;                          /* the counted tests */
	MachineTest count[MACHINE_KERNEL_COUNTS];
	int64_t dy[MACHINE_KERNEL_COUNTS][256]; /* s * the tested slot's */
} MachineByteMap;
void machine_byte_map(const Machine *m, MachineByteMap *map,
		      const uint8_t *code);
/* Read the letters in[0..k), k the first i < n whose byte is not a
 * letter (or n); returns k.  Only when m->kernel.on. */
size_t machine_run_mapped(const Machine *m, MachineState *st,
			  const MachineByteMap *map, const unsigned char *in,
			  size_t n);

/* How often each of byte[0..nbyte) (1 <= nbyte <= MACHINE_KERNEL_BYTES)
 * occurs in p[0..n), into got[]: vector compares, no branch per byte.
 * Returns the sum of the counts (n when every byte is one of them). */
uint64_t machine_count_bytes(const uint8_t *byte, size_t nbyte,
			     const unsigned char *p, size_t n, uint64_t *got);

/* The affine kernel (machine_affine.c): the step program of the current
 * pass, #> of letter functions included, with every value in a
 * register, for one-byte letters.  It takes the programs whose integers
 * are affine in the letter-driven slots, the latches of #> of letter
 * functions and the totals, plus a number per letter, compared (at most
 * four comparisons that depend on more than the letter), combined by
 * NOT, AND and OR, and counted.  code[b]: byte b's letter code,
 * UINT32_MAX for a byte that is not a letter.  NULL when the program is
 * not of that shape.  The machine's pass must stay the same while it is
 * used. */
typedef struct MachineAffine MachineAffine;
MachineAffine *machine_affine_new(const Machine *m, const uint32_t *code);
void machine_affine_free(MachineAffine *k);
/* Reads in[0..n), every byte a letter: the persistent slots exact
 * after it, the others stale (step the last letter with machine_step
 * before a query). */
void machine_affine_run(const MachineAffine *k, const Machine *m,
			MachineState *st, const unsigned char *in, size_t n);

/* ---- per-node analysis, shared with the tables of eval.c -------------- */
typedef struct {
	Node max;
	unsigned char *reach;
	bool *lf;     /* letter function */
	uint8_t *lfv; /* [node * ncodes + code] value of a letter function */
	bool *big;    /* int node whose bound (npos positions) reaches 2^62 */
	Linear *lin;  /* ADD/MUL: the flattened linear form */
	size_t ncodes;
} MachineFacts;

void machine_facts_init(MachineFacts *f, const Store *s, const Node *roots,
			size_t nroots, const MachineCodes *c, uint64_t npos);
void machine_facts_free(const Store *s, MachineFacts *f);

/* Whether "x REL 0" holds for a value of sign sg (-1, 0, 1). */
bool machine_rel_holds(Rel rel, int sg);

#endif
