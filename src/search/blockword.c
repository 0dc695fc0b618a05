/* blockword.c -- run-length words. */
#include <config.h>

#include "search/blockword.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"

bool blockword_push(BlockWord *w, uint8_t letter, uint64_t len)
{
	if (len == 0)
		return true;
	if (len > BLOCKWORD_MAX_LEN - blockword_length(w))
		return false;
	if (w->n && w->letter[w->n - 1] == letter) {
		w->len[w->n - 1] += len;
		return true;
	}
	w->letter = xrealloc(w->letter, (w->n + 1) * sizeof *w->letter);
	w->len = xrealloc(w->len, (w->n + 1) * sizeof *w->len);
	w->letter[w->n] = letter;
	w->len[w->n++] = len;
	return true;
}

void blockword_from(BlockWord *w, const uint8_t *s, size_t n)
{
	*w = (BlockWord){0};
	for (size_t i = 0; i < n; i++)
		blockword_push(w, s[i], 1);
}

uint64_t blockword_length(const BlockWord *w)
{
	uint64_t n = 0;
	for (size_t i = 0; i < w->n; i++)
		n += w->len[i];
	return n;
}

void blockword_copy(BlockWord *dst, const BlockWord *src)
{
	*dst = (BlockWord){0};
	for (size_t i = 0; i < src->n; i++)
		blockword_push(dst, src->letter[i], src->len[i]);
}

void blockword_free(BlockWord *w)
{
	free(w->letter);
	free(w->len);
	*w = (BlockWord){0};
}

char *blockword_text(const BlockWord *w, const char *const *names)
{
	Buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < w->n; i++) {
		const char *s = names[w->letter[i]];
		/* short runs are written out and run together */
		if (i && (w->len[i] > 3 || w->len[i - 1] > 3))
			buf_puts(&b, " ");
		if (w->len[i] <= 3)
			for (uint64_t k = 0; k < w->len[i]; k++)
				buf_puts(&b, s);
		else
			buf_printf(&b, "%s^%" PRIu64, s, w->len[i]);
	}
	return b.data;
}

uint8_t *blockword_expand(const BlockWord *w, uint64_t max)
{
	uint64_t n = blockword_length(w);
	if (n > max)
		return NULL;
	uint8_t *out = xmalloc(n + 1), *p = out;
	for (size_t i = 0; i < w->n; i++) {
		memset(p, w->letter[i], w->len[i]);
		p += w->len[i];
	}
	return out;
}
