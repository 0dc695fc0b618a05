/* gen_mutant -- `tally gen`'s hard non-members: a member of the chunk
 * with two letters exchanged (the letter counts and the last letter
 * stay), else one letter changed before the last, else any one letter;
 * a try is kept when its class is "non-member" and the word is new at
 * this length.  A try's class is walked on the state graph from its
 * first change (gen_unrank.h); with threads, the tries are made ahead in
 * windows and taken in order, so the random numbers and the words are
 * those of the tries made one by one.
 *
 * Ownership: works on a GenDraw's batches and scratch (gen_draw.h).
 */
#ifndef TALLY_GEN_MUTANT_H
#define TALLY_GEN_MUTANT_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/gen_draw.h"

/* The scratch of gen_mutant in d, for words up to maxlen (freed by
 * gen_draw_free). */
void gen_mutant_init(GenDraw *d, size_t maxlen);
/* A new non-member of length n made from a member, added to the
 * non-members' batch; false when none was found (or a limit stopped
 * the tries: d->stopped). */
bool gen_mutant(GenDraw *d, size_t n);

#endif
