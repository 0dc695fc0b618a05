/* gen_write.c -- dataset records (see gen_write.h).  JSON is written by
 * hand from letter names escaped once: a record per word must cost about
 * as much as the word's bytes. */
#include <config.h>

#include "gen/gen_write.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "machine/seqeval.h"

struct GenOut {
	const GenSpec *sp;
	FILE *f;
	size_t nl;
	bool spaced;  /* some letter is longer than one character */
	bool bytes;   /* every letter is one byte: byte[letter] */
	char *byte;
	char **name;  /* per letter */
	char **json;  /* per letter, JSON-escaped without the quotes */
	Buf line;
};

static char *escaped(const char *s)
{
	json_t *j = json_string(s);
	char *q = json_dumps(j, JSON_ENCODE_ANY);
	json_decref(j);
	size_t len = strlen(q);
	char *out = xmalloc(len - 1);
	memcpy(out, q + 1, len - 2); /* without the quotes */
	out[len - 2] = '\0';
	free(q);
	return out;
}

GenOut *gen_out_new(const GenSpec *sp, FILE *f)
{
	GenOut *o = xcalloc(1, sizeof *o);
	const Alphabet *a = sp->alpha;
	o->sp = sp;
	o->f = f;
	o->nl = a->n;
	o->spaced = alphabet_spaced(a);
	o->name = xmalloc((a->n + 1) * sizeof *o->name);
	o->json = xmalloc((a->n + 1) * sizeof *o->json);
	o->byte = xmalloc(a->n + 1);
	o->bytes = true;
	for (size_t i = 0; i < a->n; i++) {
		o->name[i] = xstrdup(sym_name(a->syms, a->letters[i]));
		o->json[i] = escaped(o->name[i]);
		o->bytes &= strlen(o->name[i]) == 1;
		o->byte[i] = o->name[i][0];
	}
	return o;
}

void gen_out_free(GenOut *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nl; i++) {
		free(o->name[i]);
		free(o->json[i]);
	}
	free(o->name);
	free(o->json);
	free(o->byte);
	buf_free(&o->line);
	free(o);
}

static void put_word(const GenOut *o, Buf *b, const uint32_t *w, size_t n)
{
	if (o->bytes) { /* letters of one byte: written as a block */
		mem_grow((void **)&b->data, &b->cap, b->len + n + 1, 1);
		char *at = b->data + b->len;
		for (size_t i = 0; i < n; i++)
			at[i] = o->byte[w[i]];
		b->len += n;
		b->data[b->len] = '\0';
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i && o->spaced)
			buf_putc(b, ' ');
		buf_puts(b, o->name[w[i]]);
	}
}

char *gen_out_word(const GenOut *o, const uint32_t *w, size_t n)
{
	Buf b = {0};
	buf_puts(&b, "");
	put_word(o, &b, w, n);
	return buf_take(&b);
}

static void put_bits(Buf *b, const uint8_t *bits, size_t n, const char *sep)
{
	for (size_t i = 0; i < n; i++) {
		if (i && *sep)
			buf_puts(b, sep);
		buf_putc(b, bits[i] ? '1' : '0');
	}
}

static void put_values(Buf *b, const fmpz *v, size_t n, const char *sep)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_puts(b, sep);
		seqeval_put(b, &v[i]);
	}
}

static void put_label(Buf *b, const GenRecord *r)
{
	if (r->value)
		seqeval_put(b, r->value);
	else
		buf_putc(b, r->label ? '1' : '0');
}

/* One prediction row as a JSON list: the letters, then the end. */
static void put_next(const GenOut *o, Buf *b, const uint8_t *row)
{
	bool any = false;
	buf_putc(b, '[');
	for (size_t a = 0; a <= o->nl; a++) {
		if (!row[a])
			continue;
		buf_puts(b, any ? ", \"" : "\"");
		buf_puts(b, a < o->nl ? o->json[a] : GEN_EOS);
		buf_putc(b, '"');
		any = true;
	}
	buf_putc(b, ']');
}

static void json_record(const GenOut *o, Buf *b, const GenRecord *r)
{
	/* The word as the reader reads it: a string whatever its letters,
	 * with spaces between letters longer than one character. */
	buf_puts(b, "{\"word\": \"");
	for (size_t i = 0; i < r->n; i++) {
		if (i && o->spaced)
			buf_putc(b, ' ');
		buf_puts(b, o->json[r->w[i]]);
	}
	buf_putc(b, '"');
	buf_puts(b, ", \"label\": ");
	put_label(b, r);
	buf_printf(b, ", \"length\": %zu", r->n);
	if (r->split)
		buf_printf(b, ", \"split\": \"%s\"", r->split);
	if (r->pos) {
		buf_puts(b, ", \"labels\": [");
		put_bits(b, r->pos, r->n + 1, ", ");
		buf_putc(b, ']');
	} else if (r->pred) {
		buf_puts(b, ", \"labels\": [");
		for (size_t i = 0; i <= r->n; i++) {
			if (i)
				buf_puts(b, ", ");
			put_next(o, b, r->pred + i * (o->nl + 1));
		}
		buf_printf(b, "], \"horizon\": %zu", o->sp->horizon);
	} else if (r->vals) {
		buf_puts(b, ", \"values\": [");
		put_values(b, r->vals, r->n, ", ");
		buf_putc(b, ']');
	}
	buf_puts(b, "}\n");
}

void gen_out_record(GenOut *o, const GenRecord *r)
{
	o->line.len = 0;
	gen_out_format(o, &o->line, r);
	fwrite(o->line.data, 1, o->line.len, o->f);
}

void gen_out_format(const GenOut *o, Buf *b, const GenRecord *r)
{
	switch (o->sp->format) {
	case GEN_FORMAT_JSONL:
		json_record(o, b, r);
		break;
	case GEN_FORMAT_TSV:
		put_word(o, b, r->w, r->n);
		buf_putc(b, '\t');
		put_label(b, r);
		if (r->pos) {
			buf_putc(b, '\t');
			put_bits(b, r->pos, r->n + 1, "");
		} else if (r->vals) {
			buf_putc(b, '\t');
			put_values(b, r->vals, r->n, ",");
		}
		if (r->split)
			buf_printf(b, "\t%s", r->split);
		buf_putc(b, '\n');
		break;
	case GEN_FORMAT_CR:
		buf_puts(b, "// label=");
		put_label(b, r);
		buf_printf(b, " length=%zu", r->n);
		if (r->split)
			buf_printf(b, " split=%s", r->split);
		if (r->pos) {
			buf_puts(b, " labels=");
			put_bits(b, r->pos, r->n + 1, "");
		} else if (r->vals) {
			buf_puts(b, " values=");
			put_values(b, r->vals, r->n, ",");
		}
		buf_putc(b, '\n');
		for (size_t i = 0; i < r->n; i++) {
			if (i)
				buf_putc(b, ' ');
			buf_puts(b, o->name[r->w[i]]);
		}
		buf_putc(b, '\n');
		break;
	}
}
