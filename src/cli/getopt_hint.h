/* getopt_hint -- option errors that say what was meant: getopt_long with
 * tally's own messages ("unknown option '--metod'; did you mean
 * '--method'?", "option '--method' needs a value"), and the same "did
 * you mean" for an option's value among its choices.
 */
#ifndef TALLY_GETOPT_HINT_H
#define TALLY_GETOPT_HINT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>


/* getopt_long(argc, argv, shortopts, longopts, NULL), but an unknown or
 * ambiguous option, a missing value or a value given to a switch prints
 * "tally: error: ..." (with the closest long option when one is a typo
 * away) and returns '?'. */
int cli_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/* "; did you mean 'CHOICE'?" for the choice closest to value, or "" when
 * none is a typo away.  The text is static: use it before the next
 * call. */
const char *choice_hint(const char *value, const char *const *choices,
			size_t n);

#endif
