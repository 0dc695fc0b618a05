/* codebuf.c -- letter codes packed 1, 2, 4, 8, 16 or 32 bits each (see
 * codebuf.h).  Codes narrower than a byte fill each byte from its low
 * bits up. */
#include <config.h>
#include "codebuf.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

void codebuf_init(CodeBuf *b, size_t ncodes)
{
	memset(b, 0, sizeof *b);
	size_t max = ncodes > 1 ? ncodes - 1 : 1;
	b->bits = 1;
	while (b->bits < 32 && max >> b->bits)
		b->bits *= 2;
}

void codebuf_free(CodeBuf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

void codebuf_clear(CodeBuf *b)
{
	b->n = 0;
}

size_t codebuf_bytes(const CodeBuf *b)
{
	return b->bits >= 8 ? b->n * (b->bits / 8)
			    : (b->n + 8 / b->bits - 1) / (8 / b->bits);
}

void codebuf_push(CodeBuf *b, uint32_t code)
{
	if (b->bits < 8) {
		size_t per = 8 / b->bits, at = b->n / per;
		unsigned shift = (unsigned)(b->n % per) * b->bits;
		if (shift == 0) {
			mem_grow((void **)&b->data, &b->cap, at + 1, 1);
			b->data[at] = (uint8_t)code;
		} else {
			b->data[at] |= (uint8_t)(code << shift);
		}
	} else {
		size_t w = b->bits / 8;
		mem_grow((void **)&b->data, &b->cap, (b->n + 1) * w, 1);
		if (w == 1) {
			b->data[b->n] = (uint8_t)code;
		} else if (w == 2) {
			uint16_t c = (uint16_t)code;
			memcpy(b->data + b->n * w, &c, w);
		} else {
			memcpy(b->data + b->n * w, &code, w);
		}
	}
	b->n++;
}

void codebuf_get(const CodeBuf *b, size_t from, size_t m, uint32_t *out)
{
	const uint8_t *d = b->data;
	switch (b->bits) {
	case 8:
		for (size_t i = 0; i < m; i++)
			out[i] = d[from + i];
		return;
	case 16:
		for (size_t i = 0; i < m; i++) {
			uint16_t c;
			memcpy(&c, d + (from + i) * 2, 2);
			out[i] = c;
		}
		return;
	case 32:
		memcpy(out, d + from * 4, m * 4);
		return;
	default: {
		unsigned bits = b->bits, mask = (1u << bits) - 1;
		size_t per = 8 / bits;
		for (size_t i = 0, k = from; i < m; i++, k++)
			out[i] = d[k / per] >> (k % per * bits) & mask;
		return;
	}
	}
}
