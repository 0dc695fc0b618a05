/* t_word.c -- the word reader: the same bytes fed whole, byte by byte
 * and in pseudo-random chunks give the same words, echoes and errors;
 * also through the filter of the C-RASP interpreter's word files
 * (cr_words.h, `eval --cr-words`) and with the open alphabet. */
#include <config.h>
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cr_words.h"
#include "word.h"

/* What the reader produced, in a canonical form: each finished word as
 * its letters and its echoed text; a restart forgets the current word. */
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
	return ++r->ends < 1000; /* the sink may stop the reader too */
}

/* Feeds data in chunks: mode 0 whole, 1 byte by byte, 2 pseudo-random
 * sizes (a fixed LCG: the run is reproducible from the input alone). */
static void run(const Alphabet *a, bool tokens, bool cr, const uint8_t *data,
		size_t size, int mode, Buf *out)
{
	Record r = {0};
	WordSink sink = {&r, on_letters, on_restart, on_text, on_end};
	Buf diag = {0};
	Diag d = {.capture = &diag};
	WordReader wr;
	word_reader_init(&wr, a, tokens || cr, &sink, &d);
	CrWords cw;
	cr_words_init(&cw, &wr);
	uint32_t lcg = (uint32_t)size * 2654435761u + 1;
	bool ok = true;
	for (size_t i = 0; i < size && ok;) {
		size_t n = size - i;
		if (mode == 1)
			n = 1;
		if (mode == 2) {
			lcg = lcg * 1103515245u + 12345u;
			size_t c = 1 + (lcg >> 16) % 9000;
			n = c < n ? c : n;
		}
		ok = cr ? cr_words_feed(&cw, (const char *)data + i, n)
			: word_feed(&wr, (const char *)data + i, n);
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

/* data[0]: bit 0 --tokens, bits 1-2 the alphabet, bit 3 --cr-words,
 * bit 4 the open alphabet. */
FUZZ_TARGET(word)
{
	static const char *const specs[] = {"ab", "a,bc,(,\xc3\xa9",
					    "open,close", "()"};
	if (size == 0)
		return 0;
	Store *s = store_new();
	Alphabet a;
	alphabet_init(&a, s, NULL, 0, specs[(data[0] >> 1) & 3]);
	if (data[0] & 16)
		alphabet_open(&a);
	Buf out[3] = {{0}, {0}, {0}};
	for (int mode = 0; mode < 3; mode++)
		run(&a, data[0] & 1, data[0] & 8, data + 1, size - 1, mode,
		    &out[mode]);
	for (int mode = 1; mode < 3; mode++) {
		if (out[mode].len != out[0].len ||
		    memcmp(out[mode].data, out[0].data, out[0].len) != 0)
			fprintf(stderr, "whole:\n%.*s\nmode %d:\n%.*s\n",
				(int)out[0].len, out[0].data, mode,
				(int)out[mode].len, out[mode].data);
		FUZZ_CHECK(out[mode].len == out[0].len &&
			   memcmp(out[mode].data, out[0].data, out[0].len) == 0);
	}
	for (int mode = 0; mode < 3; mode++)
		buf_free(&out[mode]);
	alphabet_free(&a);
	store_free(s);
	return 0;
}
