/* diag -- source texts, locations and caret diagnostics.
 *
 * Locations are byte offsets into a Source; line and column (1-based,
 * columns counted in code points) are computed only when printing.  A Diag
 * is the sink: it writes to a FILE and/or captures text into a Buf (tests,
 * the REPL).  Ownership: a Source owns a copy of its name and text.
 */
#ifndef TALLY_DIAG_H
#define TALLY_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/buf.h"

typedef struct {
	char *name; /* "-f", "<stdin>", a file path */
	char *text; /* NUL-terminated copy; may contain NUL bytes before len */
	size_t len;
	int line_base; /* lines before this text in its file (stdin lines) */
} Source;

typedef struct {
	FILE *out;    /* where diagnostics go (stderr), or NULL */
	Buf *capture; /* also appended here when non-NULL */
	int errors;
	bool at_eof;  /* the last error was "found end of input" */
	bool limit;   /* an error was a built-in limit reached (exit 4) */
	bool unclosed; /* ... inside an open bracket or operator (the REPL
			* reads a continuation line) */
} Diag;

/* The largest input a file, stdin or one stdin line may hold: inputs are
 * read whole, so /dev/zero must end with a message, not exhaust memory. */
#define SOURCE_MAX_BYTES ((size_t)64 << 20)

Source *source_new(const char *name, const char *text, size_t len);
/* Reads a whole file ("-" = stdin); NULL and a diagnostic on failure
 * (d->limit set when it is larger than SOURCE_MAX_BYTES). */
Source *source_read_file(const char *path, Diag *d);
void source_free(Source *s);

void diag_position(const Source *s, size_t off, int *line, int *col);
/* "tally: NAME:LINE:COL: error: MSG", the source line, a caret. */
void diag_error(Diag *d, const Source *s, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "tally: NAME:LINE:COL: warning: MSG", the line, a caret, then the
 * lines of `notes` (NULL: none); not counted in d->errors. */
void diag_warning(Diag *d, const Source *s, size_t off, const char *notes,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* "tally: error: MSG" with no location. */
void diag_plain(Diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
