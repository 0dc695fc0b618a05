/* claim -- what a depth search may claim, worded to its evidence (issue
 * 28, item 6; logic/README.md §6): "least depth d" only when a formula of
 * depth d is found and verified *and* a pair of words that no formula of
 * depth <= d - 1 of the class separates is certified by two exact checks
 * that share no code; otherwise "depth <= d found" and how far the lower
 * bound is certified.  The bank's own comparisons never bound the depth
 * from below: they are a heuristic, not the class.
 *
 * A pair certified at depth e bounds every shallower depth too (the
 * formulas of depth e' < e are among those of depth e), so a claim keeps
 * only the deepest certified depth.  tally search, tally hierarchy and
 * the count-valued search all word their results through claim_text
 * (and search_json_claim, cli/search_cli.h, in JSON).
 *
 * Ownership: a DepthClaim is a plain value.
 */
#ifndef TALLY_CLAIM_H
#define TALLY_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

#include "search/search.h"

struct Limits;

typedef struct {
	bool found;      /* a verified formula of depth `upper` */
	unsigned upper;
	int lower;       /* the deepest depth certified by a pair: no formula
			  * of depth <= lower within the class defines the
			  * target; -1 when none is */
} DepthClaim;

/* found: a verified formula of depth upper (upper is ignored otherwise);
 * lower as in DepthClaim. */
DepthClaim claim_make(bool found, unsigned upper, int lower);
/* The least depth is settled: found, and depth upper - 1 certified
 * (and no deeper one: that would contradict the formula found, said by
 * claim_text). */
bool claim_least(const DepthClaim *c);
/* The least depth the evidence proves the target needs: lower + 1
 * (0 when nothing is certified); the sound lower bound whatever was
 * found. */
unsigned claim_lower_bound(const DepthClaim *c);
/* "least depth d", "depth <= d found; lower bound certified to depth e"
 * or "depth <= d found; no lower bound certified" (found); "lower bound
 * certified to depth e" or "no lower bound certified" (not found). */
void claim_text(const DepthClaim *c, char *out, size_t n);

/* The refuted depths of r above floor whose pairs the exact check
 * (indist) certified, re-checked by blockcheck (a second check that
 * shares no code with indist): the deepest depth one of whose pairs both
 * certify, or -1.
 * Returns CLAIM_DISAGREE (and *depth, *pair set) when blockcheck
 * separates a pair indist certified, CLAIM_STOPPED at a limit, else
 * CLAIM_OK with the depth in *out. */
typedef enum { CLAIM_OK, CLAIM_DISAGREE, CLAIM_STOPPED } ClaimStatus;
ClaimStatus claim_sample_lower(const SearchResult *r, const Sample *S,
			       int floor, struct Limits *lim, int *out,
			       unsigned *depth, WordPair *pair);

#endif
