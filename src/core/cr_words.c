/* cr_words.c -- the interpreter's word files: a line filter in front of
 * the word reader, and the open alphabet. */
#include <config.h>
#include "core/cr_words.h"

#include <string.h>

enum {
	AT_START, /* nothing of the line seen yet */
	AT_SLASH, /* the line starts with one '/' (held back) */
	IN_BLANK, /* only whitespace so far (dropped) */
	IN_WORD,  /* a line with tokens: passed on */
	IN_SKIP,  /* a "//" line: dropped */
};

/* Python's str.split() whitespace, as far as ASCII goes. */
static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

void cr_words_init(CrWords *w, WordReader *r)
{
	memset(w, 0, sizeof *w);
	w->r = r;
	w->state = AT_START;
}

void cr_words_free(CrWords *w)
{
	buf_free(&w->out);
}

static void line_byte(CrWords *w, char c)
{
	switch (w->state) {
	case AT_START:
	case IN_BLANK:
		if (c == '\n') {
			w->state = AT_START; /* a blank line: no word */
		} else if (blank(c)) {
			w->state = IN_BLANK;
		} else if (c == '/' && w->state == AT_START) {
			w->state = AT_SLASH; /* "//" only counts at column 1 */
		} else {
			buf_putc(&w->out, c);
			w->state = IN_WORD;
		}
		return;
	case AT_SLASH:
		if (c == '/') {
			w->state = IN_SKIP;
			return;
		}
		buf_putc(&w->out, '/');
		buf_putc(&w->out, c);
		w->state = c == '\n' ? AT_START : IN_WORD;
		return;
	case IN_SKIP:
		if (c == '\n')
			w->state = AT_START;
		return;
	default:
		buf_putc(&w->out, c);
		if (c == '\n')
			w->state = AT_START;
		return;
	}
}

/* Passes on the bytes line_byte kept from this chunk. */
static bool pass_kept(CrWords *w)
{
	bool ok = word_feed(w->r, w->out.data ? w->out.data : "", w->out.len);
	w->out.len = 0;
	return ok;
}

bool cr_words_feed(CrWords *w, const char *buf, size_t n)
{
	w->out.len = 0;
	for (size_t i = 0; i < n;) {
		if (w->state != IN_WORD && w->state != IN_SKIP) {
			line_byte(w, buf[i++]);
			continue;
		}
		/* the rest of the line at once: passed on as it stands (no
		 * copy), or dropped */
		const char *nl = memchr(buf + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - buf) + 1 : n;
		if (w->state == IN_WORD &&
		    !(pass_kept(w) && word_feed(w->r, buf + i, end - i)))
			return false;
		if (nl)
			w->state = AT_START;
		i = end;
	}
	return pass_kept(w);
}

bool cr_words_close(CrWords *w)
{
	if (w->state == AT_SLASH && !word_feed(w->r, "/", 1))
		return false;
	return word_close(w->r);
}

void alphabet_open(Alphabet *a)
{
	char name[64] = "<other>";
	Sym s;
	/* a name no formula tests for */
	while ((s = sym_intern(a->syms, name, strlen(name))) < a->nmember &&
	       a->member[s] && strlen(name) + 1 < sizeof name)
		strcat(name, "'");
	a->other = s;
	if (a->n < WORD_CODES) /* the token reader's code for it */
		a->code_sym[a->n] = s;
}
