/* input -- one input of the consistency harness: a task (equivalence,
 * satisfiability, validity, implication) and one or two sides, each a
 * tree (ast.h) printed as a TL formula, a .crasp or a .cr program (then
 * written to a file), made from the harness's seed and the input's
 * number alone, so that any input can be made again by itself; inputs 0
 * to INPUT_FIXED - 1 are the reproducers of issue 18.  Also the command
 * line a user would type to decide it with one method.
 *
 * Ownership: an Input owns its trees (its Pool), texts and file names;
 * input_free() releases them and removes the files unless told to keep
 * them.  An Argv owns its strings.
 */
#ifndef TALLY_CONSISTENCY_INPUT_H
#define TALLY_CONSISTENCY_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "cli/decide.h"

typedef enum { IN_TL, IN_CRASP, IN_CR } InSyntax;

typedef struct {
	Tree *e;
	InSyntax syn;
	char *text;  /* the formula, or the program's text */
	char *path;  /* the program's file, or NULL */
} Side;

typedef struct {
	unsigned id;
	DecideTask task;
	const char *origin;  /* how it was made, for the report */
	const char *profile; /* for which method's fragment */
	Side side[2];
	size_t nsides;
	int extra;           /* --alphabet letter (0 = a), or -1 */
	Pool pool;
} Input;

enum { INPUT_FIXED = 3 };

/* "equiv", "check --sat", ... by DecideTask. */
extern const char *const input_task_names[];

/* Makes input id of the seed, writing programs into dir; false after a
 * message when a file cannot be written (input_free it all the same). */
bool input_make(Input *in, unsigned id, uint64_t seed, const char *dir);
void input_free(Input *in, bool keep_files);
/* A program side's file name and text, indented (nothing for a
 * formula, which the command line shows). */
void input_print_side(FILE *f, const Input *in, size_t i);

typedef struct {
	char *arg[24];
	int n;
} Argv;

/* tally equiv|check --json --quiet --method=M --accept-at=A
 * --timeout=BUDGET --max-length=N [--alphabet=X] INPUTS, argv[0] being
 * "tally equiv" or "tally check" as main() makes it. */
void input_command(const Input *in, const char *method, AcceptAt accept,
		   double budget, size_t maxlen, Argv *a);
void argv_free(Argv *a);
/* On one line, indented, quoted for a POSIX shell. */
void argv_print(FILE *f, const Argv *a);

#endif
