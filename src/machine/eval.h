/* eval -- exact evaluation of formulas and programs on words.
 *
 * Semantics (logic/README.md): positions are 1-based; a word is accepted
 * iff the output holds at its last position; the empty word is evaluated
 * at position 0 where every letter test is false, every count is 0, Y is
 * false and MOD(m, r) holds iff r = 0.  Counts are inclusive.  With
 * ACCEPT_EOS the word is judged at an appended end marker (position n+1,
 * where every letter test is false).  Integers are exact: int64 with
 * overflow detection, FLINT fmpz beyond; never floats.
 *
 * Letters are Syms of the Store's symbol table; a letter that no formula
 * mentions is simply a letter where every Q_sigma is false.
 *
 * Ownership: an Evaluator borrows its Store (which must outlive it and
 * must not grow new reachable nodes while it is used) and owns its state.
 */
#ifndef TALLY_EVAL_H
#define TALLY_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include <flint/fmpz.h>

#include "core/store.h"

typedef enum { ACCEPT_LAST, ACCEPT_EOS } AcceptAt;

/* "last" / "eos" (--accept-at). */
const char *eval_accept_name(AcceptAt a);
bool eval_accept_parse(const char *name, AcceptAt *out);

typedef struct Evaluator Evaluator;

/* An evaluator for the given output nodes (all must be Boolean). */
Evaluator *eval_new(const Store *s, const Node *roots, size_t nroots,
		    AcceptAt accept);
void eval_free(Evaluator *ev);

/* True when no root contains a future count: such formulas stream (one
 * pass, nothing of the word kept, cheap verdicts of every prefix,
 * snapshots). */
bool eval_streams(const Evaluator *ev);

/* Whole words.  accepted[r] receives the verdict of roots[r]. */
void eval_word(Evaluator *ev, const Sym *word, size_t n, bool *accepted);

/* Word by word: reset, push letters, ask for the verdict of the word
 * pushed so far at any moment.  Past-only formulas stream.  Formulas with
 * #> keep the pushed word as packed letter codes (codebuf.h: 1, 2, 4 or 8
 * bits per symbol, 16 or 32 when the roots mention more than 255 letters)
 * and eval_accepts() runs eval_passes() passes over it, in memory
 * O(formula) besides the codes; a verdict is computed once per pushed
 * word. */
void eval_reset(Evaluator *ev);
void eval_push(Evaluator *ev, Sym letter);
void eval_push_many(Evaluator *ev, const Sym *letters, size_t n);
bool eval_accepts(Evaluator *ev, size_t root);
/* One-byte letters straight from the input: eval_push_many of
 * byte_sym[bytes[i]] for bytes[0..k), k the first i < n where byte_sym
 * gives SYM_NONE (or n); returns k.  Read by the machine's register
 * kernel when it applies (machine.h), with no array of letters in
 * between.  byte_sym must stay the same table from one call to the
 * next. */
size_t eval_push_bytes(Evaluator *ev, const unsigned char *bytes, size_t n,
		       const Sym *byte_sym);
/* The same for a whole word in[0..n) just after a reset, on up to jobs
 * threads in passes over blocks (blockeval.h; jobs <= 1: read in
 * order, by eval_push_bytes), leaving the evaluator
 * exactly as the pushes would.  False, with nothing pushed, when the
 * formulas or the word are not for blocks (#>, Y, a byte that is not a
 * letter): then push it the ordinary way. */
bool eval_push_word_jobs(Evaluator *ev, const unsigned char *in, size_t n,
			 const Sym *byte_sym, unsigned jobs);
/* True when the word pushed since the last reset is longer than the
 * evaluator supports (2^48 symbols; the extra letters were ignored). */
bool eval_too_long(const Evaluator *ev);
/* Passes over the word a verdict takes: 1 + the largest #>-nesting, one
 * less when every innermost #> counts a Boolean combination of letters
 * (its total is then a sum of letter counts kept while pushing). */
unsigned eval_passes(const Evaluator *ev);
/* Passes the caller drives over a word it can read again (a file), for
 * formulas that do not stream, keeping nothing of the word: for k = 0 ..
 * eval_pass_count() - 1, eval_pass_begin(ev, k) (it resets), push the
 * whole word, then eval_pass_end(ev) after every pass but the last, and
 * eval_accepts() after the last.  eval_reset keeps the pass (a line that
 * turns out to be tokens starts again).  With letter totals (see
 * eval_passes) pass 0 only counts letters.  Verdicts are those of
 * pushing the word once. */
unsigned eval_pass_count(const Evaluator *ev);
void eval_pass_begin(Evaluator *ev, unsigned k);
void eval_pass_end(Evaluator *ev);
/* Bytes of the word kept now (0 for past-only formulas). */
size_t eval_word_bytes(const Evaluator *ev);

/* Snapshots of the streaming state, for depth-first walks over all words
 * (tally lang); only when eval_streams(): save returns an opaque handle;
 * restore rewinds to it. */
typedef struct EvalSnapshot EvalSnapshot;
EvalSnapshot *eval_save(const Evaluator *ev);
void eval_restore(Evaluator *ev, const EvalSnapshot *snap);
void eval_snapshot_free(EvalSnapshot *snap);
/* Reusable snapshots: allocate once, save into it many times. */
EvalSnapshot *eval_snapshot_new(const Evaluator *ev);
void eval_save_to(const Evaluator *ev, EvalSnapshot *snap);

/* The full table: the value of every node reachable from the roots at
 * every position (traces, tests): 8 bytes per node and position (more for
 * integers beyond int64), computed in eval_passes() passes.  Position 0 is used only for the empty
 * word (and positions run to n+1 under ACCEPT_EOS). */
typedef struct EvalTable EvalTable;
EvalTable *eval_table(Evaluator *ev, const Sym *word, size_t n);
void eval_table_free(EvalTable *t);
size_t eval_table_first(const EvalTable *t); /* first position: 0 or 1 */
size_t eval_table_last(const EvalTable *t);  /* judged position */
AcceptAt eval_table_accept(const EvalTable *t);
/* Whether node has values in the table (it is reachable from the nodes
 * the table was built for).  Asking a table for a node it lacks is a
 * bug (an assertion), never a silent 0. */
bool eval_table_has(const EvalTable *t, Node node);
bool eval_table_bool(const EvalTable *t, Node node, size_t pos);
void eval_table_int(const EvalTable *t, Node node, size_t pos, fmpz_t out);
/* Only positions first..last (clamped to the word's positions) are kept,
 * for long words; eval_table_first/last then give the kept range (empty
 * when first > last).  Memory: the window only, besides the word. */
EvalTable *eval_table_window(Evaluator *ev, const Sym *word, size_t n,
			     size_t first, size_t last);
/* The same for any nodes of the Store, Boolean or integer, each from
 * its own node: every node reachable from them gets values, whatever the
 * store shares or flattens elsewhere (a definition merged into a larger
 * & or + keeps its own column).  For traces, which show definitions. */
EvalTable *eval_table_nodes(const Store *s, const Node *nodes, size_t nnodes,
			    AcceptAt accept, const Sym *word, size_t n,
			    size_t first, size_t last);

#endif
