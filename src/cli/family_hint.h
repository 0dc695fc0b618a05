/* family_hint -- what an unknown `--family=NAME` probably meant: the
 * family spelt with '-' where NAME has '_' (first_a is first-a), the
 * family whose formula NAME is as a prelude name (sub_ab is subseq-ab's,
 * L_2 is lk's for k = 2), else a family whose name is a typo away
 * (suggest.h).
 *
 * Ownership: returns a malloc'd text to append to the error message
 * ("; did you mean 'first-a'?"), empty when nothing is close.
 */
#ifndef TALLY_FAMILY_HINT_H
#define TALLY_FAMILY_HINT_H

char *family_hint(const char *name);

/* "tally: error: unknown family 'NAME'; did you mean ...? (see 'tally
 * gen --list'EXTRA)" and EXIT_USAGE; extra may be "". */
int family_unknown(const char *name, const char *extra);

#endif
