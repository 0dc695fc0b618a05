/* eval.c -- the exact evaluator: the compiled machine (machine.c) run
 * over the word, once for past-only formulas (streaming: nothing of the
 * word is kept), fdepth + 1 times for formulas with future counts #>
 * (the word is kept as packed letter codes, codebuf.c, and each pass
 * supplies the totals the next one needs; machine.h "Future counts").
 */
#include <config.h>
#include "machine/eval.h"

#include <assert.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/blockeval.h"
#include "machine/codebuf.h"
#include "machine/machine.h"
#include "base/mem.h"
#include "base/vec.h"

struct EvalSnapshot {
	MachineState st;
	const Machine *m;
};

/* What eval_push_bytes builds for one table of one-byte letters (a line
 * of characters has the alphabet's bytes, a line of tokens its codes:
 * alphabet.h), kept for the two tables last used, so that lines of either
 * kind in turn build nothing. */
typedef struct {
	const Sym *sym;       /* the table; NULL: an empty entry */
	MachineByteMap *map;  /* the register kernel's, or NULL */
	uint32_t code[256];   /* byte -> code, UINT32_MAX none */
	uint8_t letter[256];  /* 1 when the byte is a letter */
	size_t nletter;       /* how many bytes are letters, */
	uint8_t letter_byte[MACHINE_KERNEL_BYTES]; /* the first of them */
	MachineAffine *aff;   /* with ext: the affine kernel of aff_pass */
	unsigned aff_pass;
	bool aff_tried;       /* aff is for aff_pass (or NULL) */
} ByteTab;

struct Evaluator {
	const Store *s;
	Node *roots;
	size_t nroots;
	AcceptAt accept;
	bool streams, too_long;
	MachineCodes codes;
	Machine lean;
	MachineBlock blk;
	MachineState st;      /* the streaming state; the passes' state */
	MachineState scratch; /* EOS queries */
	CodeBuf word;         /* with #>: the word pushed since the reset */
	bool judged;          /* with #>: verdict[] is that word's */
	uint64_t *count;      /* with #>: how often each letter code occurs */
	bool *verdict;
	ByteTab tab[2];       /* eval_push_bytes: tab[0] the last used */
	bool ext;             /* passes driven by the caller (eval_pass_begin) */
	unsigned ext_pass;    /* the current one, 0..fdepth */
	uint64_t ext_n;       /* letters pushed in it since the reset */
};

/* ---- the evaluator ------------------------------------------------------ */

static uint32_t code_of(const Evaluator *ev, Sym l)
{
	return machine_code(&ev->codes, l);
}

Evaluator *eval_new(const Store *s, const Node *roots, size_t nroots,
		    AcceptAt accept)
{
	Evaluator *ev = xcalloc(1, sizeof *ev);
	ev->s = s;
	ev->roots = xmalloc((nroots ? nroots : 1) * sizeof *ev->roots);
	memcpy(ev->roots, roots, nroots * sizeof *roots);
	ev->nroots = nroots;
	ev->accept = accept;
	ev->verdict = xcalloc(nroots ? nroots : 1, sizeof *ev->verdict);
	machine_codes_init(&ev->codes, s, roots, nroots);
	machine_init(&ev->lean, s, roots, nroots, false);
	ev->streams = ev->lean.fdepth == 0;
	machine_state_init(&ev->lean, &ev->st);
	machine_state_init(&ev->lean, &ev->scratch);
	machine_block_init(&ev->lean, &ev->blk);
	codebuf_init(&ev->word, ev->codes.ncodes);
	ev->count = xcalloc(ev->codes.ncodes, sizeof *ev->count);
	return ev;
}

void eval_free(Evaluator *ev)
{
	if (!ev)
		return;
	machine_state_free(&ev->lean, &ev->st);
	machine_state_free(&ev->lean, &ev->scratch);
	machine_block_free(&ev->blk);
	machine_free(&ev->lean);
	codebuf_free(&ev->word);
	free(ev->count);
	for (int t = 0; t < 2; t++) {
		free(ev->tab[t].map);
		machine_affine_free(ev->tab[t].aff);
	}
	machine_codes_free(&ev->codes);
	free(ev->verdict);
	free(ev->roots);
	free(ev);
}

bool eval_streams(const Evaluator *ev)
{
	return ev->streams;
}

bool eval_too_long(const Evaluator *ev)
{
	return ev->too_long;
}

size_t eval_word_bytes(const Evaluator *ev)
{
	return codebuf_bytes(&ev->word);
}

unsigned eval_passes(const Evaluator *ev)
{
	return ev->lean.fdepth + 1 - ev->lean.letter_totals;
}

void eval_reset(Evaluator *ev)
{
	ev->too_long = false;
	ev->judged = false;
	ev->ext_n = 0;
	codebuf_clear(&ev->word);
	memset(ev->count, 0, ev->codes.ncodes * sizeof *ev->count);
	machine_reset(&ev->lean, &ev->st);
}

void eval_push(Evaluator *ev, Sym letter)
{
	eval_push_many(ev, &letter, 1);
}

/* Reads the m codes in ev->blk.codes (m <= the block size). */
static void read_block(Evaluator *ev, size_t m)
{
	if (ev->lean.blockable) {
		machine_run_block(&ev->lean, &ev->st, &ev->blk, m);
		return;
	}
	for (size_t i = 0; i < m; i++)
		machine_step(&ev->lean, &ev->st, ev->blk.codes[i]);
}

/* Fewer letters than can be pushed (eval_too_long): n cut to the rest. */
static size_t room(Evaluator *ev, size_t n)
{
	uint64_t read = ev->ext ? ev->ext_n : ev->streams ? ev->st.pos
							   : ev->word.n;
	if (n > MACHINE_MAX_POSITIONS - read) {
		ev->too_long = true;
		n = (size_t)(MACHINE_MAX_POSITIONS - read);
	}
	return n;
}

/* ---- passes driven by the caller (eval.h, eval_pass_begin) ------------- */

/* Pass 0 counts letters when the totals of level 1 follow from them;
 * every other pass runs the machine. */
static bool counting_pass(const Evaluator *ev)
{
	return ev->ext_pass == 0 && ev->lean.letter_totals;
}

static void pass_push(Evaluator *ev, const Sym *letters, size_t n)
{
	ev->ext_n += n;
	if (counting_pass(ev)) {
		for (size_t i = 0; i < n; i++)
			ev->count[code_of(ev, letters[i])]++;
		return;
	}
	for (size_t done = 0, m; done < n; done += m) {
		m = n - done < ev->lean.blk ? n - done : ev->lean.blk;
		for (size_t i = 0; i < m; i++)
			ev->blk.codes[i] = code_of(ev, letters[done + i]);
		read_block(ev, m);
	}
}

/* Counts the bytes b[0..n) into count[] by their codes: four histograms
 * of bytes side by side (a run of one letter would otherwise wait on
 * the same counter), added up by code at the end. */
static void count_bytes(uint64_t *count, const uint32_t *bc,
			const unsigned char *b, size_t n)
{
	enum { PIECE = 1 << 20 }; /* the 32-bit counters cannot overflow */
	uint32_t h[4][256];
	for (size_t from = 0; from < n; from += PIECE) {
		size_t m = n - from < PIECE ? n - from : PIECE, i = 0;
		const unsigned char *p = b + from;
		memset(h, 0, sizeof h);
		for (; i + 4 <= m; i += 4) {
			h[0][p[i]]++;
			h[1][p[i + 1]]++;
			h[2][p[i + 2]]++;
			h[3][p[i + 3]]++;
		}
		for (; i < m; i++)
			h[0][p[i]]++;
		for (int c = 0; c < 256; c++) {
			uint64_t t = (uint64_t)h[0][c] + h[1][c] + h[2][c] + h[3][c];
			if (t)
				count[bc[c]] += t;
		}
	}
}

/* The first of b[0..n) that is not a letter, or n; when at most
 * MACHINE_KERNEL_BYTES bytes are letters, found by counting them by
 * vector compares (a block of 2048 whose count falls short is scanned),
 * and then got[j] is how often ev->letter_byte[j] occurs before it
 * (*counted set); else sixteen bytes at a time with no branch between
 * them. */
static size_t letter_run(const ByteTab *ev, const unsigned char *b,
			 size_t n, uint64_t *got, bool *counted)
{
	const uint8_t *letter = ev->letter;
	size_t k = 0, nb = ev->nletter;
	*counted = nb <= MACHINE_KERNEL_BYTES;
	if (*counted) {
		uint64_t part[MACHINE_KERNEL_BYTES];
		memset(got, 0, MACHINE_KERNEL_BYTES * sizeof *got);
		for (size_t m; k < n; k += m) {
			m = n - k < 2048 ? n - k : 2048;
			bool whole = machine_count_bytes(ev->letter_byte, nb,
							 b + k, m, part) == m;
			if (!whole) {
				size_t j = 0;
				while (j < m && letter[b[k + j]])
					j++;
				machine_count_bytes(ev->letter_byte, nb, b + k,
						    j, part);
				m = j;
			}
			for (size_t j = 0; j < nb; j++)
				got[j] += part[j];
			if (!whole)
				return k + m;
		}
		return n;
	}
	for (; n - k >= 16; k += 16) {
		unsigned all = 1;
#pragma GCC unroll 16
		for (int q = 0; q < 16; q++)
			all &= letter[b[k + q]];
		if (!all)
			break;
	}
	while (k < n && letter[b[k]])
		k++;
	return k;
}

/* The entry of the table byte_sym, made the first (built when it is
 * not one of the two, in place of the one used longer ago). */
static ByteTab *byte_tab(Evaluator *ev, const Sym *byte_sym)
{
	if (ev->tab[0].sym != byte_sym) {
		ByteTab t = ev->tab[1];
		ev->tab[1] = ev->tab[0];
		ev->tab[0] = t;
	}
	ByteTab *t = &ev->tab[0];
	if (t->sym == byte_sym)
		return t;
	free(t->map);
	machine_affine_free(t->aff);
	memset(t, 0, sizeof *t);
	t->sym = byte_sym;
	for (int c = 0; c < 256; c++) {
		t->code[c] = byte_sym[c] == SYM_NONE ? UINT32_MAX
						      : code_of(ev, byte_sym[c]);
		t->letter[c] = byte_sym[c] != SYM_NONE;
		if (t->letter[c] && t->nletter++ < MACHINE_KERNEL_BYTES)
			t->letter_byte[t->nletter - 1] = (uint8_t)c;
	}
	return t;
}

/* The affine kernel of the current pass over t's codes, built once per
 * pass and table; NULL when the pass's program is not of its shape. */
static const MachineAffine *pass_affine(Evaluator *ev, ByteTab *t)
{
	if (t->aff_tried && t->aff_pass == ev->ext_pass)
		return t->aff;
	machine_affine_free(t->aff);
	t->aff = machine_affine_new(&ev->lean, t->code);
	t->aff_pass = ev->ext_pass;
	t->aff_tried = true;
	return t->aff;
}

/* One-byte letters in a pass: each byte's code from a table, straight
 * into the counts or the block, with no array of Syms in between. */
static size_t pass_push_bytes(Evaluator *ev, const unsigned char *b,
			      size_t n, const Sym *byte_sym)
{
	ByteTab *tab = byte_tab(ev, byte_sym);
	const uint32_t *bc = tab->code;
	uint64_t got[MACHINE_KERNEL_BYTES];
	bool counted;
	size_t k = letter_run(tab, b, n, got, &counted);
	size_t taken = k; /* letters beyond the limit are dropped (room) */
	k = room(ev, k);
	ev->ext_n += k;
	if (counting_pass(ev)) {
		if (counted && k == taken)
			for (size_t j = 0; j < tab->nletter; j++)
				ev->count[bc[tab->letter_byte[j]]] += got[j];
		else
			count_bytes(ev->count, bc, b, k);
		return taken;
	}
	const MachineAffine *aff = pass_affine(ev, tab);
	if (aff && k > 1) {
		/* the letters in registers, the last one stepped, so that
		 * every slot is right after it */
		machine_affine_run(aff, &ev->lean, &ev->st, b, k - 1);
		machine_step(&ev->lean, &ev->st, bc[b[k - 1]]);
		return taken;
	}
	for (size_t done = 0, m; done < k; done += m) {
		m = k - done < ev->lean.blk ? k - done : ev->lean.blk;
		uint32_t *codes = ev->blk.codes;
		for (size_t i = 0; i < m; i++)
			codes[i] = bc[b[done + i]];
		read_block(ev, m);
	}
	return taken;
}

unsigned eval_pass_count(const Evaluator *ev)
{
	return ev->lean.fdepth + 1;
}

void eval_pass_begin(Evaluator *ev, unsigned k)
{
	assert(!ev->streams && k <= ev->lean.fdepth);
	ev->ext = true;
	ev->ext_pass = k;
	machine_begin_pass(&ev->lean, k);
	eval_reset(ev);
}

/* The end marker of ACCEPT_EOS, read at the end of every pass. */
static void pass_end_marker(Evaluator *ev)
{
	uint32_t other = (uint32_t)ev->lean.ncodes - 1;
	if (ev->accept != ACCEPT_EOS)
		return;
	if (counting_pass(ev))
		ev->count[other]++;
	else
		machine_step(&ev->lean, &ev->st, other);
}

void eval_pass_end(Evaluator *ev)
{
	assert(ev->ext && ev->ext_pass < ev->lean.fdepth);
	pass_end_marker(ev);
	if (counting_pass(ev))
		machine_letter_totals(&ev->lean, ev->count);
	else
		machine_take_totals(&ev->lean, &ev->st);
}

static void pass_judge(Evaluator *ev)
{
	assert(ev->ext_pass == ev->lean.fdepth);
	pass_end_marker(ev);
	machine_query(&ev->lean, &ev->st);
	for (size_t r = 0; r < ev->nroots; r++)
		ev->verdict[r] = machine_root(&ev->lean, &ev->st, r);
	ev->judged = true;
}

void eval_push_many(Evaluator *ev, const Sym *letters, size_t n)
{
	const Machine *p = &ev->lean;
	MachineState *st = &ev->st;
	n = room(ev, n);
	if (ev->ext) {
		pass_push(ev, letters, n);
		return;
	}
	/* Short pushes (tally lang) step; long ones run in blocks. */
	if (ev->streams && n < 16) {
		for (size_t i = 0; i < n; i++)
			machine_step(p, st, code_of(ev, letters[i]));
		return;
	}
	ev->judged = false;
	for (size_t done = 0, m; done < n; done += m) {
		m = n - done < p->blk ? n - done : p->blk;
		uint32_t *codes = ev->blk.codes;
#pragma GCC unroll 4
		for (size_t i = 0; i < m; i++)
			codes[i] = code_of(ev, letters[done + i]);
		if (ev->streams) {
			read_block(ev, m);
			continue;
		}
		/* kept for the passes of eval_accepts */
		codebuf_push_many(&ev->word, ev->blk.codes, m);
		if (p->letter_totals)
			for (size_t i = 0; i < m; i++)
				ev->count[ev->blk.codes[i]]++;
	}
}

/* eval_push_bytes without the kernel: as letters, 1024 at a time. */
static size_t push_bytes_as_letters(Evaluator *ev, const unsigned char *b,
				    size_t n, const Sym *byte_sym)
{
	Sym l[1024];
	size_t done = 0;
	while (done < n) {
		size_t m = 0;
		while (m < 1024 && done + m < n &&
		       (l[m] = byte_sym[b[done + m]]) != SYM_NONE)
			m++;
		eval_push_many(ev, l, m);
		done += m;
		if (m < 1024)
			break;
	}
	return done;
}

size_t eval_push_bytes(Evaluator *ev, const unsigned char *bytes, size_t n,
		       const Sym *byte_sym)
{
	if (ev->ext)
		return pass_push_bytes(ev, bytes, n, byte_sym);
	/* the kernel for long runs that cannot make the word too long */
	if (!ev->lean.kernel.on || n < 16 ||
	    n > MACHINE_MAX_POSITIONS - ev->st.pos)
		return push_bytes_as_letters(ev, bytes, n, byte_sym);
	ByteTab *t = byte_tab(ev, byte_sym);
	if (!t->map) {
		uint8_t code[256]; /* the kernel's codes fit a byte */
		for (int b = 0; b < 256; b++)
			code[b] = t->code[b] == UINT32_MAX ? 0xff
							   : (uint8_t)t->code[b];
		t->map = xmalloc(sizeof *t->map);
		machine_byte_map(&ev->lean, t->map, code);
	}
	return machine_run_mapped(&ev->lean, &ev->st, t->map, bytes, n);
}

/* Formulas with #>: fdepth passes over the kept word, each giving the
 * totals of one more level of #>, then the pass that decides.  When the
 * #> of level 1 count letters only, the letter counts replace pass 0. */
static void judge(Evaluator *ev)
{
	Machine *p = &ev->lean;
	/* chunks of whole bytes of packed codes: blk is at least 16 */
	size_t n = ev->word.n, chunk = p->blk & ~(size_t)7;
	uint32_t other = (uint32_t)p->ncodes - 1;
	unsigned first = 0;
	if (p->letter_totals) {
		ev->count[other] += ev->accept == ACCEPT_EOS;
		machine_letter_totals(p, ev->count);
		ev->count[other] -= ev->accept == ACCEPT_EOS;
		first = 1;
	}
	for (unsigned k = first; k <= p->fdepth; k++) {
		machine_begin_pass(p, k);
		machine_reset(p, &ev->st);
		for (size_t done = 0; done < n;) {
			size_t m = n - done < chunk ? n - done : chunk;
			codebuf_get(&ev->word, done, m, ev->blk.codes);
			read_block(ev, m);
			done += m;
		}
		if (ev->accept == ACCEPT_EOS)
			machine_step(p, &ev->st, other);
		if (k < p->fdepth)
			machine_take_totals(p, &ev->st);
	}
	machine_query(p, &ev->st);
	for (size_t r = 0; r < ev->nroots; r++)
		ev->verdict[r] = machine_root(p, &ev->st, r);
	ev->judged = true;
}

bool eval_accepts(Evaluator *ev, size_t root)
{
	if (ev->ext) {
		if (!ev->judged)
			pass_judge(ev);
		return ev->verdict[root];
	}
	if (!ev->streams) {
		if (!ev->judged)
			judge(ev);
		return ev->verdict[root];
	}
	const Machine *p = &ev->lean;
	MachineState *st = &ev->st;
	if (ev->accept == ACCEPT_EOS) {
		machine_state_copy(p, &ev->scratch, st);
		st = &ev->scratch;
		machine_step(p, st, (uint32_t)p->ncodes - 1);
	}
	machine_query(p, st);
	return machine_root(p, st, root);
}

EvalSnapshot *eval_snapshot_new(const Evaluator *ev)
{
	assert(ev->streams); /* with #> a verdict needs the whole word */
	EvalSnapshot *snap = xcalloc(1, sizeof *snap);
	snap->m = &ev->lean;
	machine_state_init(snap->m, &snap->st);
	return snap;
}

void eval_save_to(const Evaluator *ev, EvalSnapshot *snap)
{
	machine_state_copy(&ev->lean, &snap->st, &ev->st);
}

EvalSnapshot *eval_save(const Evaluator *ev)
{
	EvalSnapshot *snap = eval_snapshot_new(ev);
	eval_save_to(ev, snap);
	return snap;
}

void eval_restore(Evaluator *ev, const EvalSnapshot *snap)
{
	machine_state_copy(&ev->lean, &ev->st, &snap->st);
	ev->too_long = false;
}

void eval_snapshot_free(EvalSnapshot *snap)
{
	if (!snap)
		return;
	machine_state_free(snap->m, &snap->st);
	free(snap);
}

/* ---- tables -------------------------------------------------------------- */

/* One node's values over the recorded positions: int64 (Booleans as 0/1)
 * or fmpz for the nodes whose bound is beyond int64. */
typedef struct {
	int64_t *v;
	fmpz *b;
} Col;

struct EvalTable {
	size_t first, last; /* recorded positions; empty when first > last */
	AcceptAt accept;
	size_t len;
	Node max;
	uint32_t *col_of; /* node -> column, UINT32_MAX when absent */
	Col *cols;
	size_t ncols;
};

static EvalTable *table_new(const MachineFacts *f, AcceptAt accept,
			     size_t first, size_t last)
{
	EvalTable *t = xcalloc(1, sizeof *t);
	t->accept = accept;
	t->first = first;
	t->last = last;
	t->len = first <= last ? last - first + 1 : 0;
	t->max = f->max;
	t->col_of = xmalloc(((size_t)f->max + 1) * sizeof *t->col_of);
	for (Node n = 0; n <= f->max; n++) {
		t->col_of[n] = UINT32_MAX;
		if (n == 0 || !f->reach[n])
			continue;
		t->col_of[n] = (uint32_t)t->ncols++;
	}
	t->cols = xcalloc(t->ncols ? t->ncols : 1, sizeof *t->cols);
	for (Node n = 1; n <= f->max; n++) {
		if (t->col_of[n] == UINT32_MAX)
			continue;
		Col *c = &t->cols[t->col_of[n]];
		if (f->big[n])
			c->b = xcalloc(t->len ? t->len : 1, sizeof *c->b);
		else
			c->v = xcalloc(t->len ? t->len : 1, sizeof *c->v);
	}
	return t;
}

void eval_table_free(EvalTable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++) {
		if (t->cols[i].b)
			for (size_t j = 0; j < t->len; j++)
				fmpz_clear(&t->cols[i].b[j]);
		free(t->cols[i].b);
		free(t->cols[i].v);
	}
	free(t->cols);
	free(t->col_of);
	free(t);
}

size_t eval_table_first(const EvalTable *t) { return t->first; }
size_t eval_table_last(const EvalTable *t) { return t->last; }
AcceptAt eval_table_accept(const EvalTable *t) { return t->accept; }

bool eval_table_has(const EvalTable *t, Node node)
{
	return node > 0 && node <= t->max && t->col_of[node] != UINT32_MAX;
}

/* A node the table was not built for, or a position outside its window,
 * has no value here: asking for one is a bug (a silent 0 once printed
 * traces that were false). */
static const Col *table_col(const EvalTable *t, Node node, size_t pos,
			    size_t *i)
{
	assert(eval_table_has(t, node));
	assert(pos >= t->first && pos <= t->last);
	*i = pos - t->first;
	return &t->cols[t->col_of[node]];
}

bool eval_table_bool(const EvalTable *t, Node node, size_t pos)
{
	size_t i;
	const Col *c = table_col(t, node, pos, &i);
	assert(c->v); /* a Boolean, never big */
	return c->v[i] != 0;
}

void eval_table_int(const EvalTable *t, Node node, size_t pos, fmpz_t out)
{
	size_t i;
	const Col *c = table_col(t, node, pos, &i);
	if (c->b)
		fmpz_set(out, &c->b[i]);
	else
		fmpz_set_si(out, c->v[i]);
}

/* The positions a word is evaluated at: 0 for the empty word, else 1..n,
 * plus the end marker n+1 under ACCEPT_EOS. */
static void word_range(AcceptAt accept, size_t n, size_t *lo, size_t *hi)
{
	*lo = n == 0 && accept == ACCEPT_LAST ? 0 : 1;
	*hi = accept == ACCEPT_EOS ? n + 1 : n;
}

/* The values of every node at the position just read, into column
 * entry i. */
static void record(EvalTable *t, const MachineFacts *f, const Machine *p,
		   const MachineState *st, size_t i)
{
	for (Node nd = 1; nd <= f->max; nd++) {
		if (!f->reach[nd])
			continue;
		Col *c = &t->cols[t->col_of[nd]];
		uint32_t sl = p->slot_of[nd];
		if (c->b)
			fmpz_set(&c->b[i], &st->B[sl]);
		else
			c->v[i] = st->V[sl];
	}
}

/* Every node reachable from nodes at every position of the window
 * wlo..whi: a full machine of its own, with nodes as its roots, run over
 * the word (passes as eval_accepts with #>), recording the window in the
 * last pass.  Letters are coded by that machine, whose roots may mention
 * letters an evaluator's do not. */
EvalTable *eval_table_nodes(const Store *s, const Node *nodes, size_t nn,
			    AcceptAt accept, const Sym *word, size_t n,
			    size_t wlo, size_t whi)
{
	size_t lo, hi;
	word_range(accept, n, &lo, &hi);
	if (wlo < lo)
		wlo = lo;
	if (whi > hi)
		whi = hi;
	Machine p;
	machine_init(&p, s, nodes, nn, true);
	MachineFacts f;
	machine_facts_init(&f, s, nodes, nn, &p.codes,
			   MACHINE_MAX_POSITIONS + 1);
	EvalTable *t = table_new(&f, accept, wlo, whi);
	MachineState st;
	machine_state_init(&p, &st);
	for (unsigned k = 0; k <= p.fdepth; k++) {
		machine_begin_pass(&p, k);
		machine_reset(&p, &st);
		for (size_t pos = lo; pos <= hi; pos++) {
			if (pos >= 1)
				machine_step(&p, &st,
					     pos <= n ? machine_code(&p.codes,
								     word[pos - 1])
						      : (uint32_t)p.ncodes - 1);
			if (k == p.fdepth && pos >= wlo && pos <= whi)
				record(t, &f, &p, &st, pos - wlo);
		}
		if (k < p.fdepth)
			machine_take_totals(&p, &st);
	}
	machine_state_free(&p, &st);
	machine_free(&p);
	machine_facts_free(s, &f);
	return t;
}

EvalTable *eval_table_window(Evaluator *ev, const Sym *word, size_t n,
			     size_t wlo, size_t whi)
{
	return eval_table_nodes(ev->s, ev->roots, ev->nroots, ev->accept, word,
				n, wlo, whi);
}

EvalTable *eval_table(Evaluator *ev, const Sym *word, size_t n)
{
	return eval_table_window(ev, word, n, 0, SIZE_MAX);
}

void eval_word(Evaluator *ev, const Sym *word, size_t n, bool *accepted)
{
	eval_reset(ev);
	eval_push_many(ev, word, n);
	for (size_t r = 0; r < ev->nroots; r++)
		accepted[r] = eval_accepts(ev, r);
}

const char *eval_accept_name(AcceptAt a)
{
	return a == ACCEPT_EOS ? "eos" : "last";
}

bool eval_accept_parse(const char *name, AcceptAt *out)
{
	if (strcmp(name, "last") == 0)
		*out = ACCEPT_LAST;
	else if (strcmp(name, "eos") == 0)
		*out = ACCEPT_EOS;
	else
		return false;
	return true;
}

bool eval_push_word_jobs(Evaluator *ev, const unsigned char *in, size_t n,
			 const Sym *byte_sym, unsigned jobs)
{
	if (!ev->streams || ev->st.pos != 0 || ev->too_long)
		return false;
	if (jobs <= 1) { /* sequential, all the same from the mapping */
		if (eval_push_bytes(ev, in, n, byte_sym) == n)
			return true;
		eval_reset(ev);
		return false;
	}
	uint32_t code[256];
	for (int b = 0; b < 256; b++)
		code[b] = byte_sym[b] == SYM_NONE ? UINT32_MAX
						  : code_of(ev, byte_sym[b]);
	return blockeval_run(&ev->lean, &ev->st, code, in, n, jobs);
}
