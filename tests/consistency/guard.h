/* guard -- a crash or a hang inside a method or command must still say
 * which case it was: the harness names the step it enters, and a fatal
 * signal, a sanitizer's report or a case running for minutes (a watchdog
 * thread) prints that step's reproduction lines on the real standard
 * output before the process ends.
 *
 * Ownership: one guard per process; the step's text is copied into a
 * static buffer (the handlers only write it).
 */
#ifndef TALLY_CONSISTENCY_GUARD_H
#define TALLY_CONSISTENCY_GUARD_H

#include "input.h"

/* reproduce: the harness's command line up to --input= (seed, budget);
 * budget: the per-method seconds (a hang is far beyond it). */
void guard_install(const char *reproduce, double budget);
/* The step about to run: input in (only its number is used), a word for
 * the step, the command line (or NULL). */
void guard_enter(unsigned id, const char *what, const Argv *a);
/* Between inputs: nothing runs that could hang. */
void guard_leave(void);

#endif
