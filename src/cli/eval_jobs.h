/* eval_jobs -- stdin for tally eval --jobs: whole lines that may be
 * judged block-parallel (machine/blockeval.h), the rest to the word
 * reader.
 *
 * A regular file is mapped whole, so every line of it is whole in
 * memory; a pipe is read in buffers of EVAL_JOBS_BUFFER bytes, and a
 * line longer than that goes to the word reader as it comes (streamed,
 * sequential: a pipe is never spilled).  Every whole line of at least
 * min_line bytes is offered to judge, which returns 1 when it judged and
 * printed it, 0 to leave it to the reader, -1 to stop (an error it
 * reported).  The lines in between go to the reader in runs, so that
 * the result is what reading all of stdin with the reader prints.
 */
#ifndef TALLY_EVAL_JOBS_H
#define TALLY_EVAL_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/word.h"

enum { EVAL_JOBS_BUFFER = 1 << 20 };

/* Default --jobs: stdin files of at least this many bytes ... */
#define EVAL_JOBS_FILE ((size_t)8 << 20)
/* ... and, in them, words of at least this many letters. */
#define EVAL_JOBS_WORD ((size_t)1 << 20)

typedef int EvalJobsJudge(void *ctx, const unsigned char *line, size_t n);

/* The size of stdin when it is a regular file, else 0. */
size_t eval_jobs_file_size(void);

/* One read(2) of stdin into buf[0..cap) (*got = 0 at its end); false
 * after an error, reported. */
bool eval_jobs_read_stdin(char *buf, size_t cap, size_t *got);

/* Reads stdin to its end (word_close included); false after an error
 * (reported). */
bool eval_jobs_read(WordReader *wr, size_t min_line, EvalJobsJudge *judge,
		    void *ctx);

#endif
