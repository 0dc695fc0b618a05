/* word_log -- what the word reader makes of some bytes, as text, for
 * tests that compare readers and ways of feeding them (tests/unit/
 * check_word.c, tests/fuzz/t_word.c).
 *
 * Each finished word is one line "[LETTERS|ECHO]": its letters as Sym
 * numbers ("3,1,"), then the bytes the reader passed on for echoing;
 * the reader stops after 1000 words (the sink may stop it too).  Then
 * "ok=0" or "ok=1" and the messages.
 */
#ifndef TALLY_WORD_LOG_H
#define TALLY_WORD_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "core/word.h"

enum { WORD_LOG_WHOLE, WORD_LOG_BYTES, WORD_LOG_CHUNKS };

/* flags of word_log_run: --tokens, and --cr-words (the C-RASP
 * interpreter's word files through cr_words.h; implies tokens); with
 * WORD_LOG_BYTES_SINK the reader hands runs of one-byte letters and
 * token codes to a WordBytes (as to the evaluator), logged as the
 * letters its table gives. */
enum { WORD_LOG_TOKENS = 1, WORD_LOG_CR = 2, WORD_LOG_BYTES_SINK = 4 };

/* Feeds data[0..size) to a new reader: whole, byte by byte, or in
 * chunks of 1 to max_chunk bytes (a fixed LCG seeded by size: the run is
 * reproducible from the input alone); appends the log to out. */
void word_log_run(const Alphabet *a, unsigned flags, const char *data,
		  size_t size, int mode, size_t max_chunk, Buf *out);

#endif
