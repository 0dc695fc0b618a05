/* lang_count -- how many words of each length a past-only formula
 * accepts, by dynamic programming over merged machine states.
 *
 * Two prefixes whose machine states (machine.h: the persistent slots and
 * the position modulo the MOD period) are equal have the same future, so
 * the words of length n are counted as a table from state to the number
 * of prefixes reaching it; the next length multiplies through the letter
 * codes (letters no formula tests share one code and count together).
 * The verdict is taken before merging (equal states need not agree at
 * the current position).  Counts are exact (FLINT), of any size; the
 * work is states x letter codes per length, not words.
 *
 * Ownership: borrows the Store and Alphabet; counts handed to emit are
 * valid during the call.  A LangCountLevel owns its rows and counts.
 */
#ifndef TALLY_LANG_COUNT_H
#define TALLY_LANG_COUNT_H

#include <stdbool.h>
#include <stddef.h>

#include <flint/fmpz.h>

#include "machine/eval.h"
#include "machine/rowset.h"
#include "base/limit.h"
#include "core/alphabet.h"

typedef void (*LangCountEmit)(size_t length, const fmpz_t count, void *arg);

/* Calls emit for lengths 0..maxlen in order, each as soon as it is
 * complete.  False when a limit stopped it (the lengths emitted are
 * complete).  Only for formulas without #> (eval_streams()). */
bool lang_count(const Store *s, Node root, const Alphabet *alpha,
		AcceptAt accept, size_t maxlen, Limits *lim,
		LangCountEmit emit, void *arg);

/* When set (tally-mpi: mpi_count.h's distributed count, the same
 * answers), lang_count hands its arguments to it. */
typedef bool (*LangCountFn)(const Store *s, Node root, const Alphabet *alpha,
			    AcceptAt accept, size_t maxlen, Limits *lim,
			    LangCountEmit emit, void *arg);
extern LangCountFn lang_count_hook;

/* One length's merged states and the number of prefixes reaching each
 * (mult[id], for the ids of rows): lang_count's table, and each rank's
 * share of it in tally-mpi's count. */
typedef struct {
	RowSet rows;
	fmpz *mult;
	size_t cap; /* room in mult */
} LangCountLevel;

void lang_count_level_init(LangCountLevel *l, size_t width);
/* Forgets every state (for the next length). */
void lang_count_level_clear(LangCountLevel *l);
void lang_count_level_free(LangCountLevel *l);
/* Adds k prefixes reaching the packed state row. */
void lang_count_level_add(LangCountLevel *l, const int64_t *row,
			  const fmpz_t k);

#endif
