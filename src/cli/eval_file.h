/* eval_file -- `tally eval` of formulas with future counts #> over a file
 * on stdin, in passes that read each line again from the file, so that
 * nothing of the word is kept (eval.h, eval_pass_begin): memory is the
 * past-only machine's whatever the word's length.
 *
 * Each pass has its own WordReader that sees every line once, in order,
 * so its errors (an unknown letter and its position) are the ones the
 * one-pass reading reports; the last pass goes through the command's own
 * reader, whose sink echoes and prints as for any other input.
 */
#ifndef TALLY_EVAL_FILE_H
#define TALLY_EVAL_FILE_H

#include <stdbool.h>

#include "base/diag.h"
#include "core/word.h"
#include "machine/eval.h"

/* Whether fd is a regular file that can be read again from where it
 * stands (a pipe or a terminal cannot). */
bool eval_file_usable(int fd);

/* Reads fd from its offset to the end: for every line, the passes of ev
 * (which must not stream) through readers of their own, then the last
 * pass through last (whose sink judges and prints, eval_accepts).
 * tokens_only as last's.  False after an error (reported). */
bool eval_file_read(int fd, Evaluator *ev, WordReader *last,
		    const Alphabet *alpha, bool tokens_only, Diag *d);

#endif
