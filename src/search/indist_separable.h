/* indist_separable -- the decision for two count vectors: does some
 * comparison of the class tell apart two positions with these counts of
 * the classes below?  A class counted alone decides at once; otherwise,
 * weight set by weight set, the reachable (X1, Delta) over the classes
 * whose counts differ is a bitset (or, with few of them, every choice is
 * tried), and the classes whose counts agree add a shift, a bitset of its
 * own kept per weight set (the same along a run).  When tracking, the
 * separating comparison is rebuilt by walking back through the layers
 * and appended to the level as an atom.
 *
 * Ownership: the scratch it uses is the Indist's.
 */
#ifndef TALLY_INDIST_SEPARABLE_H
#define TALLY_INDIST_SEPARABLE_H

#include "search/indist_tree.h"

/* Does some comparison of depth k separate the nodes with counts cx and
 * cy (r coordinates below)?  1 yes (when tracking, with an atom appended to
 * l and its value at cx in *vp), 0 no, -1 undecided (too large). */
int indist_separable(Indist *x, Level *l, const uint32_t *cx,
		      const uint32_t *cy, uint32_t r, bool *vp);

#endif
