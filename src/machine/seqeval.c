/* seqeval.c -- output sequences by a full machine (seqeval.h). */
#include <config.h>
#include "machine/seqeval.h"

#include <assert.h>

#include "base/mem.h"
#include "machine/machine.h"

struct SeqEval {
	Machine m;
	MachineState st;
	AcceptAt accept;
	Node *roots;
	size_t nroots;
	size_t n; /* letters pushed since the reset */
	SeqEmit emit;
	void *ctx;
};

SeqEval *seqeval_new(const Store *s, const Node *roots, size_t nroots,
		     AcceptAt accept, SeqEmit emit, void *ctx)
{
	SeqEval *se = xcalloc(1, sizeof *se);
	machine_init(&se->m, s, roots, nroots, true);
	machine_state_init(&se->m, &se->st);
	se->accept = accept;
	se->roots = xmalloc((nroots ? nroots : 1) * sizeof *roots);
	for (size_t r = 0; r < nroots; r++)
		se->roots[r] = roots[r];
	se->nroots = nroots;
	se->emit = emit;
	se->ctx = ctx;
	return se;
}

void seqeval_free(SeqEval *se)
{
	if (!se)
		return;
	machine_state_free(&se->m, &se->st);
	machine_free(&se->m);
	free(se->roots);
	free(se);
}

bool seqeval_streams(const SeqEval *se)
{
	return se->m.fdepth == 0;
}

void seqeval_reset(SeqEval *se)
{
	machine_reset(&se->m, &se->st);
	se->n = 0;
}

void seqeval_push(SeqEval *se, Sym letter)
{
	assert(seqeval_streams(se));
	machine_step(&se->m, &se->st, machine_code(&se->m.codes, letter));
	se->emit(se->ctx, se, ++se->n);
}

/* After the word's letters: the end marker, or the empty word's
 * position 0 (the reset state). */
static void finish(SeqEval *se, size_t n, bool last_pass)
{
	if (se->accept == ACCEPT_EOS) {
		machine_step(&se->m, &se->st, (uint32_t)se->m.ncodes - 1);
		if (last_pass)
			se->emit(se->ctx, se, n + 1);
	} else if (n == 0 && last_pass) {
		se->emit(se->ctx, se, 0);
	}
}

void seqeval_end(SeqEval *se)
{
	finish(se, se->n, true);
}

void seqeval_word(SeqEval *se, const Sym *word, size_t n)
{
	Machine *m = &se->m;
	for (unsigned k = 0; k <= m->fdepth; k++) {
		bool last = k == m->fdepth;
		machine_begin_pass(m, k);
		machine_reset(m, &se->st);
		for (size_t i = 0; i < n; i++) {
			machine_step(m, &se->st,
				     machine_code(&m->codes, word[i]));
			if (last)
				se->emit(se->ctx, se, i + 1);
		}
		finish(se, n, last);
		if (!last)
			machine_take_totals(m, &se->st);
	}
}

void seqeval_value(const SeqEval *se, size_t r, fmpz_t out)
{
	uint32_t sl = se->m.slot_of[se->roots[r]];
	if (se->m.big[sl])
		fmpz_set(out, &se->st.B[sl]);
	else
		fmpz_set_si(out, se->st.V[sl]);
}

/* Digits by hand: a dataset writes a value per position, and printf
 * was most of the time of `tally gen` on a count-valued program. */
void seqeval_put(Buf *b, const fmpz_t v)
{
	if (fmpz_fits_si(v)) {
		char digits[24], *p = digits + sizeof digits;
		long x = fmpz_get_si(v);
		/* as unsigned: the magnitude of LONG_MIN fits */
		unsigned long m = x < 0 ? 0UL - (unsigned long)x : (unsigned long)x;
		do
			*--p = (char)('0' + m % 10);
		while ((m /= 10) != 0);
		if (x < 0)
			*--p = '-';
		buf_append(b, p, (size_t)(digits + sizeof digits - p));
		return;
	}
	char *digits = fmpz_get_str(NULL, 10, v);
	buf_puts(b, digits);
	flint_free(digits);
}
