/* lower -- C-RASP (and sugared TL[#]) to the papers' core grammar, and the
 * core printer (logic.md §4.2, `tally print --to=tl-core`).
 *
 * Lowering eliminates conditionals, min, max, subtraction, negative and
 * non-unit constants, disjunction and every relation but `<` by guarded
 * linear pieces: each integer node becomes a list of (guard formula,
 * linear form over counts) pairs whose guards partition the positions;
 * pieces with equal forms are merged.  A comparison becomes the
 * disjunction over its pieces of guard & (form < 0), each written as
 * positive part < negative part.  The result is a node of the same Store
 * built only from letters, !, &, comparisons `L < 0` over linear forms of
 * counts, and counts (plus #>, Y and MOD when the input has them), with
 * the same value at every position and exactly the depth of the input:
 * when the Store's simplifications drop the deepest count (a branch only
 * reachable under a contradictory guard), a true conjunct
 * !(#[...] < 0) of that depth restores it.  The lowered formula stays a
 * DAG; its piece lists are bounded (LOWER_MAX_PIECES) so that a program
 * whose lowering explodes is reported instead of exhausting memory.
 *
 * The core printer writes only Q, !, &, <, #, +, 1 (and #>, Y, MOD for
 * two-sided or positional inputs), with `let` definitions for every node
 * used more than once, so that the text stays as small as the DAG;
 * constants and constant multiples are repeated sums, through doubling
 * `let`s (k2 = 1 + 1, k4 = k2 + k2, ...) when they are large.
 *
 * Ownership: a Lowering borrows its Store (which grows) and owns its
 * memo tables; returned strings and name arrays are malloc'd for the
 * caller.
 */
#ifndef TALLY_LOWER_H
#define TALLY_LOWER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/store.h"
#include "core/unit.h"

/* Most pieces one integer node may have. */
#define LOWER_MAX_PIECES 4096
/* Most pieces one lowering (lower_node call) may handle in total, about
 * five seconds of work. */
#define LOWER_MAX_WORK 262144

typedef struct Lowering Lowering;

Lowering *lower_new(Store *s);
void lower_free(Lowering *lw);

/* The core form of a Boolean node or of a count, without the depth
 * padding; NODE_NONE and a message in *err (malloc'd) when a piece list
 * would exceed LOWER_MAX_PIECES or the whole lowering LOWER_MAX_WORK. */
Node lower_node(Lowering *lw, Node n, char **err);

/* The core form of the Boolean root with exactly its depth. */
Node lower_formula(Lowering *lw, Node root, char **err);

/* Names for the lowered nodes of the unit's definitions (Booleans and
 * counts; the root under the unit's output name); indexed by node id of
 * the Store as it is now, SYM_NONE elsewhere.  core is lower_formula's
 * result for u->output. */
Sym *lower_unit_names(Lowering *lw, const Unit *u, Node core);

/* The core text of a lowered node (names: optional, indexed by node id).
 * *size receives the number of symbols written (letters, operators, 1s
 * and name references), the size of the let-program. */
char *lower_print(Store *s, Node core, const Sym *names, size_t *size);

#endif
