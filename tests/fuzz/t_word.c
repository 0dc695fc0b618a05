/* t_word.c -- the word reader: the same bytes fed whole, byte by byte
 * and in pseudo-random chunks give the same words, echoes and errors;
 * also through the filter of the C-RASP interpreter's word files
 * (cr_words.h, `eval --cr-words`) and with the open alphabet. */
#include <config.h>
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/cr_words.h"
#include "core/word.h"
#include "word_log.h"

/* data[0]: bit 0 --tokens, bits 1-2 the alphabet, bit 3 --cr-words,
 * bit 4 the open alphabet. */
FUZZ_TARGET(word)
{
	static const char *const specs[] = {
		"ab", "a,bc,(,\xc3\xa9,abcdefghi,abcdefghijklmnopq",
		"open,close", "()"};
	if (size == 0)
		return 0;
	Store *s = store_new();
	Alphabet a;
	alphabet_init(&a, s, NULL, 0, specs[(data[0] >> 1) & 3]);
	if (data[0] & 16)
		alphabet_open(&a);
	unsigned flags = (data[0] & 1 ? WORD_LOG_TOKENS : 0) |
			 (data[0] & 8 ? WORD_LOG_CR : 0);
	Buf out[3] = {{0}, {0}, {0}};
	for (int mode = 0; mode < 3; mode++)
		word_log_run(&a, flags, (const char *)data + 1,
			     size - 1, mode, 9000, &out[mode]);
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
