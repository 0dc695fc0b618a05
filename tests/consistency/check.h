/* check -- the verdicts of one case against brute force: a method's own
 * MethodResult, and the command a user runs (cmd_equiv / cmd_check in
 * this process, its --json output read back).  A proof or bound that a
 * separating word of brute force contradicts, a witness on which the
 * sides agree (or that is not shortest, or not the first in shortlex
 * order, where that is claimed), an exit status that does not match the
 * verdict, an alphabet that is not the letters the inputs spell, an
 * internal error: each is a failure (report.h).  unknown and "not
 * applicable" never are.
 */
#ifndef TALLY_CONSISTENCY_CHECK_H
#define TALLY_CONSISTENCY_CHECK_H

#include "brute.h"
#include "report.h"

/* Whether the parsed nodes mean what the texts say (brute force's
 * misread word). */
void check_meaning(Run *run, const Input *in, const Problem *p,
		   const Brute *b);
/* c->mi names the method (which has a MethodResult: not auto). */
void check_method(Case *c, const Problem *p, const Brute *b);
/* c->cmd is the command line. */
void check_command(Case *c, const Problem *p, const Brute *b);

#endif
