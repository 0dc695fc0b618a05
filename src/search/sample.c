/* sample.c -- the prefix-tree sample, its bit layout and counting by
 * shifts; and the independent evaluation of a formula on it. */
#include <config.h>

#include "search/sample.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "machine/eval.h"
#include "base/mem.h"
#include "base/splitmix.h"
#include "base/vec.h"

/* Bits [from, to) of a. */
static void set_range(Word64 *a, size_t from, size_t to)
{
	while (from < to) {
		size_t w = from >> 6, b = from & 63;
		size_t take = 64 - b < to - from ? 64 - b : to - from;
		Word64 m = take == 64 ? ~(Word64)0
				      : (((Word64)1 << take) - 1) << b;
		a[w] |= m;
		from += take;
	}
}

static void layout_tree(Sample *S)
{
	size_t off = 0, size = 1;
	for (unsigned L = 0; L <= S->n; L++, size *= S->nletters) {
		if (size % 64 == 0)
			off = (off + 63) & ~(size_t)63;
		S->lvl_off[L] = off;
		S->lvl_size[L] = size;
		off += size;
	}
	S->nbits = off;
}

size_t sample_node(const Sample *S, const uint8_t *w, size_t len)
{
	if (len <= S->n) {
		size_t v = 0, p = 1;
		for (size_t i = 0; i < len; i++, p *= S->nletters)
			v += w[i] * p;
		return S->lvl_off[len] + v;
	}
	for (size_t c = 0; c < S->nchains; c++) {
		const Chain *ch = &S->chains[c];
		if (ch->word.len >= len && memcmp(ch->word.w, w, len) == 0)
			return ch->first + (len - S->n - 1);
	}
	abort(); /* callers only ask for words of the sample */
}

/* Fills parent, length, valid and the letter signatures. */
static void fill_nodes(Sample *S)
{
	size_t A = S->nletters;
	for (size_t i = 0; i < S->nbits; i++)
		S->parent[i] = UINT32_MAX;
	sig_set(S->valid, 0);
	for (unsigned L = 1; L <= S->n; L++) {
		size_t sz = S->lvl_size[L], psz = S->lvl_size[L - 1];
		set_range(S->valid, S->lvl_off[L], S->lvl_off[L] + sz);
		for (size_t u = 0; u < sz; u++) {
			size_t b = S->lvl_off[L] + u;
			S->parent[b] = (uint32_t)(S->lvl_off[L - 1] + u % psz);
			S->length[b] = L;
		}
		for (size_t x = 0; x < A; x++)
			set_range(S->letter + x * S->nwords,
				  S->lvl_off[L] + x * psz,
				  S->lvl_off[L] + (x + 1) * psz);
	}
	for (size_t c = 0; c < S->nchains; c++) {
		const Chain *ch = &S->chains[c];
		for (size_t k = S->n; k < ch->word.len; k++) {
			size_t b = ch->first + (k - S->n);
			sig_set(S->valid, b);
			S->parent[b] = (uint32_t)(k == S->n ? ch->base : b - 1);
			S->length[b] = (uint32_t)(k + 1);
			sig_set(S->letter + ch->word.w[k] * S->nwords, b);
		}
	}
}

Sample *sample_build(const SymTab *syms, const Sym *letters, size_t nletters,
		     unsigned n, const SampleWord *extra, size_t nextra,
		     const char *extra_desc)
{
	Sample *S = xcalloc(1, sizeof *S);
	S->nletters = nletters;
	S->letters = xmalloc(nletters * sizeof *letters);
	memcpy(S->letters, letters, nletters * sizeof *letters);
	S->names = xcalloc(nletters, sizeof *S->names);
	for (size_t x = 0; x < nletters; x++) {
		S->names[x] = xstrdup(sym_name(syms, letters[x]));
		if (strlen(S->names[x]) != 1)
			S->spaced = true;
	}
	S->n = n;
	S->lvl_off = xcalloc(n + 1, sizeof *S->lvl_off);
	S->lvl_size = xcalloc(n + 1, sizeof *S->lvl_size);
	layout_tree(S);
	S->chains = xcalloc(nextra ? nextra : 1, sizeof *S->chains);
	for (size_t i = 0; i < nextra; i++) {
		if (extra[i].len <= n)
			continue;
		Chain *ch = &S->chains[S->nchains++];
		ch->word.len = extra[i].len;
		ch->word.w = xmalloc(extra[i].len);
		memcpy(ch->word.w, extra[i].w, extra[i].len);
		ch->base = sample_node(S, extra[i].w, n);
		ch->first = S->nbits;
		S->nbits += extra[i].len - n;
	}
	S->nwords = (S->nbits + 63) / 64;
	S->valid = xcalloc(S->nwords, sizeof(Word64));
	S->letter = xcalloc(S->nwords * nletters, sizeof(Word64));
	S->parent = xmalloc(S->nbits * sizeof *S->parent);
	S->length = xcalloc(S->nbits, sizeof *S->length);
	fill_nodes(S);
	S->npoints = sig_popcount(S->valid, S->nwords);
	Buf b = {0};
	size_t words = 0;
	for (unsigned L = 0; L <= n; L++)
		words += S->lvl_size[L];
	buf_printf(&b, "all %zu words of length <= %u", words, n);
	if (extra_desc && S->nchains)
		buf_printf(&b, " + %s", extra_desc);
	buf_printf(&b, " (%zu positions)", S->npoints);
	S->desc = buf_take(&b);
	return S;
}

void sample_free(Sample *S)
{
	if (!S)
		return;
	for (size_t c = 0; c < S->nchains; c++)
		free(S->chains[c].word.w);
	free(S->chains);
	free(S->letters);
	for (size_t x = 0; x < S->nletters; x++)
		free(S->names[x]);
	free(S->names);
	free(S->lvl_off);
	free(S->lvl_size);
	free(S->valid);
	free(S->letter);
	free(S->parent);
	free(S->length);
	free(S->desc);
	free(S);
}

size_t sample_word(const Sample *S, size_t bit, uint8_t *w)
{
	size_t len = S->length[bit];
	for (size_t b = bit, k = len; k > 0; b = S->parent[b], k--) {
		for (size_t x = 0; x < S->nletters; x++)
			if (sig_bit(S->letter + x * S->nwords, b))
				w[k - 1] = (uint8_t)x;
	}
	return len;
}

char *sample_word_text(const Sample *S, size_t bit)
{
	uint8_t *w = xmalloc(S->length[bit] + 1);
	size_t len = sample_word(S, bit, w);
	Buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < len; i++)
		buf_printf(&b, "%s%s", S->spaced && i ? " " : "",
			   S->names[w[i]]);
	free(w);
	return buf_take(&b);
}

char *sample_word_brief(const Sample *S, size_t bit)
{
	if (S->spaced || S->length[bit] <= SAMPLE_BRIEF_LEN)
		return sample_word_text(S, bit);
	uint8_t *w = xmalloc(S->length[bit] + 1);
	size_t len = sample_word(S, bit, w);
	Buf b = {0};
	bool letters = false; /* the last token is plain letters */
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && w[j] == w[i])
			j++;
		if (j - i >= 3) {
			buf_printf(&b, "%s%s^%zu", b.len ? " " : "", S->names[w[i]],
				   j - i);
			letters = false;
		} else {
			if (!letters && b.len)
				buf_puts(&b, " ");
			for (size_t k = i; k < j; k++)
				buf_puts(&b, S->names[w[k]]);
			letters = true;
		}
		i = j;
	}
	free(w);
	return buf_take(&b);
}

/* Level L from level L-1 when the parent level fills whole words: each
 * child block is the parent block with psi's letter-x slice applied. */
static void level_words(const Sample *S, unsigned L, const Word64 *psi,
			unsigned C, Word64 *planes)
{
	size_t nw = S->nwords, sw = S->lvl_size[L - 1] / 64;
	size_t pw0 = S->lvl_off[L - 1] / 64, cw0 = S->lvl_off[L] / 64;
	for (size_t x = 0; x < S->nletters; x++)
		for (size_t j = 0; j < sw; j++) {
			size_t pw = pw0 + j, cw = cw0 + x * sw + j;
			Word64 p = psi[cw], below = ~(Word64)0;
			for (unsigned c = 0; c < C; c++) {
				Word64 g = planes[c * nw + pw];
				planes[c * nw + cw] = g | (p & below);
				below = g;
			}
		}
}

/* The bits [off, off + n) of a, n <= 64, when they lie in one word. */
static bool in_word(size_t off, size_t n)
{
	return n <= 64 && (off >> 6) == ((off + n - 1) >> 6);
}

static Word64 get_bits(const Word64 *a, size_t off, size_t n)
{
	Word64 w = a[off >> 6] >> (off & 63);
	return n == 64 ? w : w & (((Word64)1 << n) - 1);
}

/* A level whose block and parent block each fit in one word: the parent
 * block is repeated A times by shifts. */
static void level_small(const Sample *S, unsigned L, const Word64 *psi,
			unsigned C, Word64 *planes)
{
	size_t nw = S->nwords, ps = S->lvl_size[L - 1], cs = S->lvl_size[L];
	size_t po = S->lvl_off[L - 1], co = S->lvl_off[L];
	Word64 p = get_bits(psi, co, cs), below = cs == 64 ? ~(Word64)0
							    : ((Word64)1 << cs) - 1;
	for (unsigned c = 0; c < C; c++) {
		Word64 g = get_bits(planes + c * nw, po, ps), rep = 0;
		for (size_t x = 0; x < S->nletters; x++)
			rep |= g << (x * ps);
		planes[c * nw + (co >> 6)] |= (rep | (p & below)) << (co & 63);
		below = rep;
	}
}

/* The same, node by node, for the small levels packed in front. */
static void level_bits(const Sample *S, unsigned L, const Word64 *psi,
		       unsigned C, Word64 *planes)
{
	size_t nw = S->nwords;
	for (size_t u = 0; u < S->lvl_size[L]; u++) {
		size_t b = S->lvl_off[L] + u, pb = S->parent[b];
		if (!sig_bit(psi, b)) {
			for (unsigned c = 0; c < C; c++)
				if (sig_bit(planes + c * nw, pb))
					sig_set(planes + c * nw, b);
				else
					break;
			continue;
		}
		/* count = parent's + 1: plane c holds when plane c-1 did */
		for (unsigned c = 0; c < C; c++)
			if (c == 0 || sig_bit(planes + (c - 1) * nw, pb))
				sig_set(planes + c * nw, b);
			else
				break;
	}
}

/* A chain: its first thresholds come from its parent in the tree, the
 * next ones start at psi's next set bits along the chain. */
static void chain_thresholds(const Sample *S, const Chain *ch,
			     const Word64 *psi, unsigned C, Word64 *planes)
{
	size_t nw = S->nwords, from = ch->first;
	size_t to = ch->first + (ch->word.len - S->n);
	unsigned k = 0;
	while (k < C && sig_bit(planes + k * nw, ch->base))
		k++;
	for (unsigned c = 0; c < k; c++)
		set_range(planes + c * nw, from, to);
	size_t w = from >> 6;
	Word64 m = psi[w] & (~(Word64)0 << (from & 63));
	while (k < C) {
		while (!m && ++w <= (to - 1) >> 6)
			m = psi[w];
		if (!m)
			break;
		size_t b = (w << 6) + (size_t)__builtin_ctzll(m);
		if (b >= to)
			break;
		m &= m - 1;
		set_range(planes + k * nw, b, to);
		k++;
	}
}

void sample_thresholds(const Sample *S, const Word64 *psi, unsigned C,
		       Word64 *planes)
{
	memset(planes, 0, C * S->nwords * sizeof(Word64));
	for (unsigned L = 1; L <= S->n; L++)
		if (S->lvl_size[L - 1] % 64 == 0)
			level_words(S, L, psi, C, planes);
		else if (in_word(S->lvl_off[L], S->lvl_size[L]) &&
			 in_word(S->lvl_off[L - 1], S->lvl_size[L - 1]))
			level_small(S, L, psi, C, planes);
		else
			level_bits(S, L, psi, C, planes);
	for (size_t c = 0; c < S->nchains; c++)
		chain_thresholds(S, &S->chains[c], psi, C, planes);
}

size_t sample_chain_end(const Sample *S, size_t c)
{
	return S->chains[c].first + (S->chains[c].word.len - S->n - 1);
}

void sample_fcounts(const Sample *S, const Word64 *psi, int32_t *cnt)
{
	memset(cnt, 0, S->nbits * sizeof *cnt);
	for (size_t c = 0; c < S->nchains; c++) {
		int32_t k = 0;
		for (size_t b = sample_chain_end(S, c) + 1; b-- > S->chains[c].first;) {
			k += sig_bit(psi, b);
			cnt[b] = k;
		}
	}
}

void sample_fthresholds(const Sample *S, const Word64 *psi, unsigned C,
			Word64 *planes)
{
	size_t nw = S->nwords;
	memset(planes, 0, C * nw * sizeof(Word64));
	for (size_t c = 0; c < S->nchains; c++) {
		unsigned k = 0;
		for (size_t b = sample_chain_end(S, c) + 1; b-- > S->chains[c].first;) {
			if (k < C && sig_bit(psi, b))
				k++;
			for (unsigned t = 0; t < k; t++)
				sig_set(planes + t * nw, b);
		}
	}
}

Sample *sample_build_whole(const SymTab *syms, const Sym *letters,
			   size_t nletters, unsigned n, const SampleWord *extra,
			   size_t nextra, const char *extra_desc)
{
	VEC(SampleWord) all = {0};
	size_t total = 0;
	uint8_t w[64];
	for (unsigned L = 1; L <= n && L < sizeof w; L++) {
		size_t count = 1;
		for (unsigned i = 0; i < L; i++)
			count *= nletters;
		for (size_t v = 0; v < count; v++) {
			size_t x = v;
			for (unsigned i = 0; i < L; i++, x /= nletters)
				w[i] = (uint8_t)(x % nletters);
			SampleWord c = {xmalloc(L), L};
			memcpy(c.w, w, L);
			VEC_PUSH(all, c);
			total++;
		}
	}
	for (size_t i = 0; i < nextra; i++) {
		SampleWord c = {xmalloc(extra[i].len + 1), extra[i].len};
		memcpy(c.w, extra[i].w, extra[i].len);
		if (c.len)
			VEC_PUSH(all, c);
		else
			free(c.w);
	}
	Sample *S = sample_build(syms, letters, nletters, 0, all.data, all.len, NULL);
	S->whole = true;
	S->whole_n = n;
	free(S->desc);
	Buf b = {0};
	buf_printf(&b, "whole words: all %zu words of length 1..%u", total, n);
	if (extra_desc && nextra)
		buf_printf(&b, " + %s", extra_desc);
	buf_printf(&b, " (%zu positions)", S->npoints);
	S->desc = buf_take(&b);
	sample_words_free(all.data, all.len);
	return S;
}

void sample_counts(const Sample *S, const Word64 *psi, int32_t *cnt)
{
	/* parents come before their children in bit order */
	for (size_t b = 0; b < S->nbits; b++)
		cnt[b] = S->parent[b] == UINT32_MAX
				 ? 0
				 : cnt[S->parent[b]] + sig_bit(psi, b);
}

void sample_prev(const Sample *S, const Word64 *phi, Word64 *out)
{
	memset(out, 0, S->nwords * sizeof(Word64));
	for (size_t b = 0; b < S->nbits; b++)
		if (S->length[b] >= 2 && sig_bit(phi, S->parent[b]))
			sig_set(out, b);
}

void sample_mod(const Sample *S, unsigned m, unsigned r, Word64 *out)
{
	memset(out, 0, S->nwords * sizeof(Word64));
	for (size_t b = 0; b < S->nbits; b++)
		if (sig_bit(S->valid, b) && S->length[b] % m == r % m)
			sig_set(out, b);
}

typedef struct {
	const Sample *S;
	Evaluator *ev;
	EvalSnapshot **snap; /* per level */
	Word64 *out;
} Walk;

/* Depth-first over the tree: the evaluator state of the parent is saved
 * once and each child extends it by one letter. */
static void walk(Walk *wk, unsigned L, size_t u)
{
	const Sample *S = wk->S;
	eval_save_to(wk->ev, wk->snap[L]);
	for (size_t x = 0; x < S->nletters; x++) {
		if (x)
			eval_restore(wk->ev, wk->snap[L]);
		eval_push(wk->ev, S->letters[x]);
		size_t v = u + x * S->lvl_size[L];
		if (eval_accepts(wk->ev, 0))
			sig_set(wk->out, S->lvl_off[L + 1] + v);
		if (L + 1 < S->n)
			walk(wk, L + 1, v);
	}
}

/* Every word judged whole: the tree's words one by one, the chains at
 * their ends. */
static void eval_whole(const Sample *S, Evaluator *ev, Word64 *out)
{
	Sym *w = xmalloc((S->nbits + 1) * sizeof *w);
	uint8_t *ix = xmalloc(S->nbits + 1);
	for (size_t b = 0; b < S->nbits; b++) {
		if (!sig_bit(S->valid, b) || S->length[b] > S->n)
			continue;
		size_t len = sample_word(S, b, ix);
		for (size_t i = 0; i < len; i++)
			w[i] = S->letters[ix[i]];
		eval_reset(ev);
		eval_push_many(ev, w, len);
		if (eval_accepts(ev, 0))
			sig_set(out, b);
	}
	/* a chain's positions are words too, unless the sample is of whole
	 * words (then only its end is one) */
	for (size_t c = 0; c < S->nchains; c++) {
		const Chain *ch = &S->chains[c];
		for (size_t L = S->whole ? ch->word.len : S->n + 1; L <= ch->word.len;
		     L++) {
			eval_reset(ev);
			for (size_t k = 0; k < L; k++)
				eval_push(ev, S->letters[ch->word.w[k]]);
			if (eval_accepts(ev, 0))
				sig_set(out, ch->first + (L - S->n - 1));
		}
	}
	free(w);
	free(ix);
}

bool sample_eval(const Sample *S, const Store *st, Node f, Word64 *out)
{
	Evaluator *ev = eval_new(st, &f, 1, ACCEPT_LAST);
	memset(out, 0, S->nwords * sizeof(Word64));
	if (S->whole || !eval_streams(ev)) {
		eval_whole(S, ev, out);
		eval_free(ev);
		return true;
	}
	eval_reset(ev);
	if (eval_accepts(ev, 0))
		sig_set(out, 0);
	Walk wk = {S, ev, xcalloc(S->n + 1, sizeof(EvalSnapshot *)), out};
	for (unsigned L = 0; L <= S->n; L++)
		wk.snap[L] = eval_snapshot_new(ev);
	if (S->n > 0)
		walk(&wk, 0, 0);
	for (size_t c = 0; c < S->nchains; c++) {
		const Chain *ch = &S->chains[c];
		eval_reset(ev);
		for (size_t k = 0; k < ch->word.len; k++) {
			eval_push(ev, S->letters[ch->word.w[k]]);
			if (k >= S->n && eval_accepts(ev, 0))
				sig_set(out, ch->first + (k - S->n));
		}
	}
	for (unsigned L = 0; L <= S->n; L++)
		eval_snapshot_free(wk.snap[L]);
	free(wk.snap);
	eval_free(ev);
	return true;
}

bool sample_eval_positions(const Sample *S, const Store *st, Node f, Word64 *out)
{
	if (!S->whole)
		return sample_eval(S, st, f, out);
	Evaluator *ev = eval_new(st, &f, 1, ACCEPT_LAST);
	memset(out, 0, S->nwords * sizeof(Word64));
	eval_reset(ev);
	if (eval_accepts(ev, 0)) /* the empty word, at the root */
		sig_set(out, 0);
	Sym *w = xmalloc((S->nbits + 1) * sizeof *w);
	bool ok = true;
	for (size_t c = 0; c < S->nchains && ok; c++) {
		const Chain *ch = &S->chains[c];
		for (size_t k = 0; k < ch->word.len; k++)
			w[k] = S->letters[ch->word.w[k]];
		EvalTable *t = eval_table(ev, w, ch->word.len);
		ok = eval_table_first(t) <= 1 && eval_table_last(t) >= ch->word.len;
		for (size_t k = 0; ok && k < ch->word.len; k++)
			if (eval_table_bool(t, f, k + 1))
				sig_set(out, ch->first + k);
		eval_table_free(t);
	}
	free(w);
	eval_free(ev);
	return ok;
}

void sample_witness_pair(const unsigned *blocks, unsigned d, SampleWord *out)
{
	size_t len = 0;
	for (unsigned i = 0; i < d; i++)
		len += blocks[i];
	uint8_t *u = xmalloc(len + 4);
	len = 0;
	for (unsigned blk = 0; blk < d; blk++)
		for (unsigned j = 0; j < blocks[blk]; j++)
			u[len++] = (uint8_t)(blk & 1);
	uint8_t s = (uint8_t)((d - 1) & 1), t = (uint8_t)(1 - s);
	const uint8_t tail[2][4] = {{s, s, t, t}, {s, t, s, t}};
	for (int p = 0; p < 2; p++) {
		out[p].w = xmalloc(len + 4);
		memcpy(out[p].w, u, len);
		memcpy(out[p].w + len, tail[p], 4);
		out[p].len = len + 4;
	}
	free(u);
}

void sample_middle_pair(const unsigned *blocks, unsigned d, SampleWord *out)
{
	size_t len = 0;
	for (unsigned i = 0; i < d; i++)
		len += blocks[i];
	out[0].w = xmalloc(len + 1);
	out[0].len = len;
	len = 0;
	size_t cut = 0; /* the first letter of the middle block's successor */
	for (unsigned blk = 0; blk < d; blk++) {
		if (blk == d / 2 + 1)
			cut = len;
		for (unsigned j = 0; j < blocks[blk]; j++)
			out[0].w[len++] = (uint8_t)(blk & 1);
	}
	out[1].w = xmalloc(len + 1);
	out[1].len = len;
	memcpy(out[1].w, out[0].w, len);
	out[1].w[cut - 1] = out[0].w[cut];
	out[1].w[cut] = out[0].w[cut - 1];
}

void sample_random_blocks(unsigned d, unsigned lo, unsigned hi, uint64_t *rng,
			  unsigned *blocks)
{
	for (unsigned i = 0; i < d; i++)
		blocks[i] = lo + (unsigned)(splitmix64_next(rng) % (hi - lo + 1));
}

SampleWord *sample_witness_pairs(unsigned count, unsigned dmin, unsigned dmax,
				 unsigned lo, unsigned hi, uint64_t seed)
{
	SampleWord *out = xcalloc(2 * (size_t)count + 1, sizeof *out);
	uint64_t rng = seed;
	unsigned *blocks = xmalloc((dmax + 1) * sizeof *blocks);
	for (unsigned i = 0; i < count; i++) {
		unsigned d = dmin + i % (dmax - dmin + 1);
		/* deeper formulas count further: blocks grow with d */
		unsigned f = 1u << (d - 1 < 4 ? d - 1 : 4);
		sample_random_blocks(d, lo * f, hi * f, &rng, blocks);
		sample_witness_pair(blocks, d, &out[2 * i]);
	}
	free(blocks);
	return out;
}

void sample_words_free(SampleWord *w, size_t n)
{
	if (!w)
		return;
	for (size_t i = 0; i < n; i++)
		free(w[i].w);
	free(w);
}
