/* codebuf.c -- letter codes packed 1, 2, 4, 8, 16 or 32 bits each (see
 * codebuf.h).  Codes narrower than a byte fill each byte from its low
 * bits up. */
#include <config.h>
#include "machine/codebuf.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

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
	codebuf_push_many(b, &code, 1);
}

/* Packs whole bytes: out[0..nbytes) from in[0..nbytes * 8 / bits). */
static inline void pack(const uint32_t *in, size_t nbytes, unsigned bits,
			uint8_t *out)
{
	unsigned per = 8 / bits;
	for (size_t i = 0; i < nbytes; i++, in += per) {
		unsigned byte = 0;
		for (unsigned j = 0; j < per; j++)
			byte |= in[j] << (j * bits);
		out[i] = (uint8_t)byte;
	}
}

/* The reverse of pack. */
static inline void unpack(const uint8_t *in, size_t nbytes, unsigned bits,
			  uint32_t *out)
{
	unsigned per = 8 / bits, mask = (1u << bits) - 1;
	for (size_t i = 0; i < nbytes; i++, out += per)
		for (unsigned j = 0; j < per; j++)
			out[j] = in[i] >> (j * bits) & mask;
}

/* One code into a sub-byte buffer with room for it. */
static void put(CodeBuf *b, uint32_t code)
{
	size_t per = 8 / b->bits;
	unsigned shift = (unsigned)(b->n % per) * b->bits;
	if (shift == 0)
		b->data[b->n / per] = 0;
	b->data[b->n / per] |= (uint8_t)(code << shift);
	b->n++;
}

void codebuf_push_many(CodeBuf *b, const uint32_t *codes, size_t m)
{
	size_t w = b->bits / 8;
	if (w) {
		mem_grow((void **)&b->data, &b->cap, (b->n + m) * w, 1);
		uint8_t *d = b->data + b->n * w;
		for (size_t i = 0; i < m; i++, d += w) {
			if (w == 1) {
				*d = (uint8_t)codes[i];
			} else if (w == 2) {
				uint16_t c = (uint16_t)codes[i];
				memcpy(d, &c, 2);
			} else {
				memcpy(d, &codes[i], 4);
			}
		}
		b->n += m;
		return;
	}
	size_t per = 8 / b->bits;
	mem_grow((void **)&b->data, &b->cap, (b->n + m + per - 1) / per, 1);
	size_t i = 0;
	/* one code at a time up to a byte boundary, then whole bytes (the
	 * constant widths let the compiler unroll), then the rest */
	for (; i < m && (b->n % per || m - i < per); i++)
		put(b, codes[i]);
	size_t whole = (m - i) / per;
	uint8_t *d = b->data + b->n / per;
	switch (b->bits) {
	case 1: pack(codes + i, whole, 1, d); break;
	case 2: pack(codes + i, whole, 2, d); break;
	default: pack(codes + i, whole, 4, d); break;
	}
	i += whole * per;
	b->n += whole * per;
	for (; i < m; i++)
		put(b, codes[i]);
}

/* One code of a sub-byte buffer. */
static uint32_t code_at(const CodeBuf *b, size_t k)
{
	size_t per = 8 / b->bits;
	return b->data[k / per] >> (k % per * b->bits) & ((1u << b->bits) - 1);
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
	}
	size_t per = 8 / b->bits, i = 0, k = from, end = from + m;
	for (; k < end && k % per; k++)
		out[i++] = code_at(b, k);
	size_t whole = (end - k) / per;
	switch (b->bits) {
	case 1: unpack(d + k / per, whole, 1, out + i); break;
	case 2: unpack(d + k / per, whole, 2, out + i); break;
	default: unpack(d + k / per, whole, 4, out + i); break;
	}
	i += whole * per;
	k += whole * per;
	for (; k < end; k++)
		out[i++] = code_at(b, k);
}
