/* gen_report -- the leakage report of `tally gen`'s datasets: the class
 * balance per split and per length, the lengths left out and why, the
 * duplicates removed, where the non-members came from, and the accuracy
 * of trivial baselines on each split: the majority class, the length's
 * parity, the last letter, and the best depth-1 formula (gen_depth1.h:
 * one comparison of a linear combination of counts of letters, of
 * letters at odd or even positions or of adjacent pairs with a
 * constant, combined with the atoms at the last position), printed as a
 * TL formula that `tally eval` can check; and the share of uniformly
 * random non-members reached, against --random's.  A summary goes to
 * stderr; --report=FILE writes it as JSON.
 *
 * The depth-1 search takes integer coefficients up to a small bound
 * (gen_report.c) on the words of the split (a fixed-seed reservoir of
 * them beyond GEN_REPORT_KEEP words): a lower bound on what depth 1
 * can do, exact for the formula it prints.
 *
 * A sequence output adds the distribution of its values (gen_values.h);
 * a count-valued one has no classes, so its splits give the words per
 * length, the values and the accuracy of always answering the most
 * frequent last value instead of the class balance and baselines.
 *
 * Ownership: a GenReport borrows the spec and owns what it collects.
 */
#ifndef TALLY_GEN_REPORT_H
#define TALLY_GEN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <flint/fmpz.h>

#include "gen/gen_data.h"

/* Where a word came from. */
typedef enum {
	GEN_KIND_MEMBER,  /* a member, uniform at its length */
	GEN_KIND_SWAP,    /* a member with two letters exchanged: same
			   * letter counts, same last letter */
	GEN_KIND_CHANGE,  /* a member with one letter changed, not the last */
	GEN_KIND_ANY,     /* a member with any one letter changed */
	GEN_KIND_RANDOM,  /* a non-member, uniform at its length */
	GEN_KIND_LISTED,  /* every word of the lengths (no sampling) */
	GEN_KINDS
} GenKind;

enum { GEN_REPORT_KEEP = 1 << 20 };

typedef struct GenReport GenReport;

GenReport *gen_report_new(const GenSpec *sp);
void gen_report_free(GenReport *r);

void gen_report_word(GenReport *r, size_t split, const uint32_t *w,
		     size_t n, bool label, GenKind kind);
/* A sequence output's values: at positions 1..n (vals) and at the
 * judged one (last). */
void gen_report_values(GenReport *r, size_t split, const fmpz *vals,
		       size_t n, const fmpz_t last);
/* A length of a split left out (why: "no members", ...). */
void gen_report_left_out(GenReport *r, size_t split, size_t n,
			 const char *why);
void gen_report_duplicates(GenReport *r, uint64_t k);
/* A line for the notes (how the words were found, shortfalls). */
void gen_report_note(GenReport *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The summary on f (unless NULL) and, when path is set, the JSON file;
 * false (after a message) when the file cannot be written. */
bool gen_report_finish(GenReport *r, FILE *f, const char *path);

#endif
