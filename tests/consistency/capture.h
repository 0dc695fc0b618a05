/* capture -- runs a tally command function (cmd_equiv, cmd_check) in
 * this process, as main() would, with its standard output and error
 * going to scratch files, and hands back what it wrote and its exit
 * status.  The harness reports through capture_report(), which writes
 * to the real standard output even while a command runs (the crash
 * handler uses it).
 *
 * Ownership: a Captured owns its two strings; captured_free() releases
 * them.  The scratch files and the saved descriptors live until
 * capture_finish().
 */
#ifndef TALLY_CONSISTENCY_CAPTURE_H
#define TALLY_CONSISTENCY_CAPTURE_H

#include <stdio.h>

typedef struct {
	int status;
	char *out, *err;
} Captured;

typedef int (*CommandFn)(int argc, char **argv);

/* Once, before the first capture_run(). */
void capture_init(void);
void capture_finish(void);
void capture_run(CommandFn fn, int argc, char **argv, Captured *c);
void captured_free(Captured *c);
/* The real standard output (for reports while nothing is captured too). */
FILE *capture_report(void);
/* Its descriptor, for async-signal-safe writes. */
int capture_report_fd(void);

#endif
