/* decide_seq -- equiv and check of sequence outputs (logic/README.md
 * §2.7, §9.5): count-valued inputs and --per-position readings.
 *
 * A question about sequences ("do these two agree at every position of
 * every word", "is this count never negative") is a property P of the
 * values at one position that must hold at every position.  The
 * decision engine answers questions about the judged position only, so
 * the question goes to it as the formula "P held everywhere so far",
 * #[!P] = 0 & P at the judged position (one count deeper than P; P
 * itself when P is past-only and words are judged at their last letter,
 * since every position is then the judged one of a prefix).  What the
 * engine answers about that formula is then checked a second way that
 * shares nothing with the reduction: the seqeval evaluator runs the
 * inputs' own outputs, finds the first position of a counterexample
 * where P fails (and the values there, which the verdict prints), and
 * re-evaluates every position of every short word before a proof or a
 * bounded answer is printed.
 *
 * Ownership: a SeqQuestion borrows its Store (it adds the reduction's
 * nodes); a SeqSpot owns its integers (seq_spot_clear).
 */
#ifndef TALLY_DECIDE_SEQ_H
#define TALLY_DECIDE_SEQ_H

#include <stdbool.h>
#include <stddef.h>

#include <flint/fmpz.h>

#include "cli/decide.h"
#include "machine/runs.h"

typedef struct {
	DecideTask task;
	Store *s;
	Node out[2];   /* the inputs' outputs (out[1]: equiv, --implies) */
	size_t nout;
	bool is_int;   /* the outputs are integer terms */
	size_t bound;  /* TASK_BOUNDED: K in -K <= T <= K */
	AcceptAt accept;
} SeqQuestion;

/* Where P fails first on a word: its position (0 for the empty word's
 * only one, n + 1 for the end marker under eos) and the outputs' values
 * there (a Boolean as 0 or 1). */
typedef struct {
	bool found;
	size_t pos;
	fmpz_t value[2];
} SeqSpot;

void seq_spot_init(SeqSpot *sp);
void seq_spot_clear(SeqSpot *sp);

/* Whether the task on these outputs is a question about sequences:
 * an integer output, --per-position, --nonneg or --bounded. */
bool seq_wanted(const Store *s, const Node *out, size_t nout, DecideTask task,
		bool per_position);

/* Sets up q (outputs, sorts) or reports the usage error of a mix of
 * sorts the task cannot take (returns false).  side[i] names input i in
 * messages. */
bool seq_question(SeqQuestion *q, Store *s, DecideTask task,
		  const Node *out, size_t nout, size_t bound, AcceptAt accept,
		  const char *const *side);

/* The engine's two roots: the formula "P held everywhere" against true
 * (for --sat: "P failed somewhere", against false, as check --sat asks
 * its formula against false). */
void seq_roots(const SeqQuestion *q, Node root[2]);

/* The first position of word[0..n) where P fails (sp->found false when
 * there is none). */
void seq_first_failure(const SeqQuestion *q, const Sym *word, size_t n,
		       SeqSpot *sp);

/* Every position of every word over letters[0..nletters) up to `length`
 * letters: true when P holds everywhere, else false with the first word
 * (shortlex) in *bad (its position in *sp). */
bool seq_recheck(const SeqQuestion *q, const Sym *letters, size_t nletters,
		 size_t length, Runs *bad, SeqSpot *sp);

/* The length up to which seq_recheck runs: every word up to it number
 * at most SEQ_RECHECK_WORDS, and at most max_length when it is > 0. */
#define SEQ_RECHECK_WORDS 4096
size_t seq_recheck_length(size_t nletters, size_t max_length);

/* "position 3: first 2, second 1" (a Boolean as true/false); malloc'd.
 * label[i] names output i. */
char *seq_spot_text(const SeqQuestion *q, const SeqSpot *sp,
		    const char *const *label);

#endif
