/* svg -- a small writer of SVG documents, for the plots of `tally
 * hierarchy --plot` and `tally simulate --find-breakdown --plot`, and the
 * file a plot goes to.
 *
 * A document is built in memory: svg_begin() writes the header (size,
 * title, style), element functions append, svg_finish() closes it.
 * Every string handed in (formulas, words, file names, messages) is
 * XML-escaped, and bytes that XML 1.0 cannot hold (control characters,
 * invalid UTF-8) become '?', so any input gives a well-formed document.
 * Texts use one monospace font (set by the style), so the caller lays
 * out with svg_text_width() and wraps long lines with svg_wrap().
 *
 * The file: svg_file_open() creates a temporary file next to the
 * target at once (an unwritable place fails before any work is done);
 * svg_file_commit() writes the document there and renames it over the
 * target, so a reader never sees half a plot; svg_file_discard() removes
 * it.
 *
 * Ownership: an Svg owns its Buf (svg_finish hands the text over); an
 * SvgFile owns its temporary file until committed or discarded.
 */
#ifndef TALLY_SVG_H
#define TALLY_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/* The font size every text is measured at is the caller's; this is the
 * monospace advance per character as a fraction of it (DejaVu Sans Mono
 * and Liberation Mono: 0.60), rounded up for safety. */
#define SVG_ADVANCE 0.62

typedef struct {
	Buf b;
	const char *open; /* the element whose start tag is open, or NULL */
} Svg;

/* Header: width x height user units (also the viewBox), a <title>, and
 * the CSS of the document (font-family monospace is added). */
void svg_begin(Svg *g, double w, double h, const char *title,
	       const char *css);
/* Closes the document; the text is the caller's (free). */
char *svg_finish(Svg *g);

/* Element start tags, left open for svg_attr(); end them with
 * svg_close() or svg_close_title() (a tooltip). */
void svg_rect(Svg *g, double x, double y, double w, double h,
	      const char *cls);
void svg_line(Svg *g, double x1, double y1, double x2, double y2,
	      const char *cls);
/* name="value" (escaped) on the open tag. */
void svg_attr(Svg *g, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void svg_close(Svg *g);
void svg_close_title(Svg *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A complete <text> element at (x, y) (the baseline). */
void svg_text(Svg *g, double x, double y, const char *cls,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* text in lines of at most cols characters (breaking at spaces when it
 * can), line height lh; returns the number of lines. */
size_t svg_text_wrapped(Svg *g, double x, double y, double lh,
			const char *cls, size_t cols, const char *text);
/* How many lines svg_text_wrapped() takes. */
size_t svg_wrap_count(const char *text, size_t cols);
/* The width of text at font size px (an upper estimate). */
double svg_text_width(const char *text, double px);
/* The characters (code points) of a UTF-8 text. */
size_t svg_chars(const char *text);
/* text cut to at most cols characters, ending in "..." when cut
 * (malloc'd). */
char *svg_clip(const char *text, size_t cols);

/* Appends s escaped for XML text and attribute values. */
void svg_escape(Buf *b, const char *s);

typedef struct SvgFile SvgFile;
/* NULL with *err (malloc'd, naming the path) when no file can be
 * created next to path. */
SvgFile *svg_file_open(const char *path, char **err);
/* Writes doc and renames the file to the path; false with *err (the
 * temporary file removed).  Frees f either way. */
bool svg_file_commit(SvgFile *f, const char *doc, char **err);
/* Removes the temporary file; f may be NULL. */
void svg_file_discard(SvgFile *f);

#endif
