/* blockeval -- one long word of one-byte letters on several cores.
 *
 * Counts are prefix sums, so the state after a word is the sum of what
 * each block of it adds, given the state at the block's start.  The
 * persistent slots of a past-only machine (machine.h) are ordered by
 * level: a letter-driven slot has level 1; a count has level 1 + the
 * largest level its operand reads (1 when it reads none).  What a block
 * adds to the slots of level j depends only on the slots of levels below
 * j at its start.  So, over the word's first n - 1 letters cut in
 * blocks:
 *   pass 0   every block counts its letters (in parallel): the
 *            letter-driven slots at every block's start follow by prefix
 *            sums, and a byte that is not a letter is found here;
 *   pass j   (for each level j >= 1 that has counts) every block runs
 *            from the exact slots below level j and 0 at level j; its
 *            end values of level j are what it adds, and prefix sums
 *            give their values at every block's start;
 * and the last letter is one machine_step from the exact persistent
 * state after n - 1 letters, which makes every slot, persistent or
 * not, what the sequential run leaves.  Exact in int64 like the
 * sequential run (machine_facts bounds every slot on words of up to
 * 2^48 letters, so a block's partial sums are bounded too).
 *
 * Machines with Y (the latch depends on the position before a block),
 * #>, or big per-step instructions are not taken (blockeval_supports);
 * the caller runs those sequentially.
 */
#ifndef TALLY_BLOCKEVAL_H
#define TALLY_BLOCKEVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/machine.h"

/* Whether blockeval_run can evaluate words for m. */
bool blockeval_supports(const Machine *m);

/* Reads the n one-byte letters in[0..n) into st, which holds the empty
 * word (machine_reset), with up to jobs threads; code[b] is the letter
 * code of byte b, UINT32_MAX when b is not a letter.  Returns false,
 * with st untouched, when some byte is not a letter (or m is not
 * supported, or n exceeds MACHINE_MAX_POSITIONS): the caller then reads
 * the word the ordinary way, which reports it. */
bool blockeval_run(const Machine *m, MachineState *st, const uint32_t *code,
		   const unsigned char *in, size_t n, unsigned jobs);

#endif
