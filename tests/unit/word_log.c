/* word_log.c -- the word reader's output as text (word_log.h). */
#include <config.h>
#include "word_log.h"

#include <stdint.h>
#include <stdio.h>

#include "core/cr_words.h"

typedef struct {
	Buf log, cur, text;
	unsigned ends;
} Record;

static void on_letters(void *ctx, const Sym *syms, size_t n)
{
	Record *r = ctx;
	for (size_t i = 0; i < n; i++)
		buf_printf(&r->cur, "%u,", (unsigned)syms[i]);
}

/* WordBytes: the letters of b[] until the table has none */
static size_t on_bytes(void *ctx, const unsigned char *b, size_t n,
		       const Sym *byte_sym)
{
	Record *r = ctx;
	size_t k = 0;
	for (; k < n && byte_sym[b[k]] != SYM_NONE; k++)
		buf_printf(&r->cur, "%u,", (unsigned)byte_sym[b[k]]);
	return k;
}

/* the line turned out to be tokens: its letters so far are forgotten */
static void on_restart(void *ctx)
{
	Record *r = ctx;
	r->cur.len = 0;
}

static void on_text(void *ctx, const char *bytes, size_t n)
{
	Record *r = ctx;
	buf_append(&r->text, bytes, n);
}

static bool on_end(void *ctx)
{
	Record *r = ctx;
	buf_printf(&r->log, "[%.*s|", (int)r->cur.len,
		   r->cur.data ? r->cur.data : "");
	buf_append(&r->log, r->text.data ? r->text.data : "", r->text.len);
	buf_puts(&r->log, "]\n");
	r->cur.len = r->text.len = 0;
	return ++r->ends < 1000;
}

void word_log_run(const Alphabet *a, unsigned flags, const char *data,
		  size_t size, int mode, size_t max_chunk, Buf *out)
{
	Record r = {0};
	WordSink sink = {&r, on_letters, on_restart, on_text, on_end};
	Buf diag = {0};
	Diag d = {.capture = &diag};
	WordReader wr;
	word_reader_init(&wr, a, (flags & ~WORD_LOG_BYTES_SINK) != 0, &sink, &d);
	if (flags & WORD_LOG_BYTES_SINK)
		word_reader_bytes(&wr, on_bytes);
	bool cr = flags & WORD_LOG_CR;
	CrWords cw;
	cr_words_init(&cw, &wr);
	uint32_t lcg = (uint32_t)size * 2654435761u + 1;
	bool ok = true;
	for (size_t i = 0; i < size && ok;) {
		size_t n = size - i;
		if (mode == WORD_LOG_BYTES)
			n = 1;
		if (mode == WORD_LOG_CHUNKS) {
			lcg = lcg * 1103515245u + 12345u;
			size_t c = 1 + (lcg >> 16) % max_chunk;
			n = c < n ? c : n;
		}
		ok = cr ? cr_words_feed(&cw, data + i, n)
			: word_feed(&wr, data + i, n);
		i += n;
	}
	if (ok)
		ok = cr ? cr_words_close(&cw) : word_close(&wr);
	cr_words_free(&cw);
	word_reader_free(&wr);
	buf_append(out, r.log.data ? r.log.data : "", r.log.len);
	buf_printf(out, "ok=%d\n", ok);
	buf_append(out, diag.data ? diag.data : "", diag.len);
	buf_free(&r.log);
	buf_free(&r.cur);
	buf_free(&r.text);
	buf_free(&diag);
}
