/* t_eval.c -- parse, then evaluate on every short word: the evaluator
 * (whole words, and streaming when it streams) against the naive
 * reference evaluator of tests/unit/ref_eval.c, under both acceptance
 * conventions. */
#include <config.h>
#include "fuzz.h"

#include <stdlib.h>

#include "machine/eval.h"
#include "ref_eval.h"

/* The reference is exponential in the count depth: small formulas and
 * words of length <= 4 over at most 3 letters (121 words). */
enum { MAX_SIZE = 300, MAX_DEPTH = 3, MAX_LETTERS = 3, MAX_LEN = 4 };

static void check_word(const Store *s, Node f, Evaluator *ev[2],
		       const Sym *w, size_t n)
{
	for (int eos = 0; eos < 2; eos++) {
		bool got;
		eval_word(ev[eos], w, n, &got);
		bool want = ref_accepts(s, f, w, n, eos);
		FUZZ_CHECK(got == want);
		if (eval_streams(ev[eos])) {
			eval_reset(ev[eos]);
			eval_push_many(ev[eos], w, n);
			FUZZ_CHECK(eval_accepts(ev[eos], 0) == want);
		}
	}
}

static void all_words(const Store *s, Node f, Evaluator *ev[2],
		      const Sym *letters, size_t k)
{
	Sym w[MAX_LEN];
	size_t idx[MAX_LEN];
	for (size_t n = 0; n <= MAX_LEN; n++) {
		for (size_t i = 0; i < n; i++)
			idx[i] = 0;
		for (;;) {
			for (size_t i = 0; i < n; i++)
				w[i] = letters[idx[i]];
			check_word(s, f, ev, w, n);
			size_t i = n; /* the next word: an odometer */
			while (i > 0 && ++idx[i - 1] == k)
				idx[--i] = 0;
			if (i == 0)
				break;
		}
	}
}

FUZZ_TARGET(eval)
{
	FuzzParse fp;
	fuzz_parse(&fp, data, size, FLAVOR_TL);
	Store *s = fp.s;
	Node f = fp.u.output;
	if (fp.ok && store_size(s, f) <= MAX_SIZE &&
	    store_depth(s, f) <= MAX_DEPTH) {
		size_t k;
		Sym *letters = store_letters(s, f, &k);
		if (k == 0) { /* still try a letter the formula ignores */
			free(letters);
			letters = malloc(sizeof *letters);
			letters[0] = sym_intern(store_syms(s), "z", 1);
			k = 1;
		}
		if (k <= MAX_LETTERS) {
			Evaluator *ev[2] = {eval_new(s, &f, 1, ACCEPT_LAST),
					    eval_new(s, &f, 1, ACCEPT_EOS)};
			all_words(s, f, ev, letters, k);
			eval_free(ev[0]);
			eval_free(ev[1]);
		}
		free(letters);
	}
	fuzz_parse_free(&fp);
	return 0;
}
