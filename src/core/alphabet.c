/* alphabet.c -- an alphabet made from formulas and --alphabet, and
 * letters written as words and lists write them. */
#include <config.h>

#include "core/alphabet.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

static void add_letter(Alphabet *a, Sym l)
{
	if (l >= a->nmember) {
		size_t old = a->nmember;
		mem_grow((void **)&a->member, &a->nmember, (size_t)l + 1, 1);
		memset(a->member + old, 0, a->nmember - old);
	}
	if (a->member[l])
		return;
	a->member[l] = 1;
	size_t cap = a->n;
	mem_grow((void **)&a->letters, &cap, a->n + 1, sizeof *a->letters);
	a->letters[a->n++] = l;
}

static const SymTab *sort_syms;

static int by_name(const void *x, const void *y)
{
	return strcmp(sym_name(sort_syms, *(const Sym *)x),
		      sym_name(sort_syms, *(const Sym *)y));
}

void alphabet_init(Alphabet *a, Store *s, const Node *roots, size_t nroots,
		   const char *spec)
{
	alphabet_init_with(a, s, roots, nroots, NULL, 0, spec);
}

void alphabet_init_with(Alphabet *a, Store *s, const Node *roots,
			size_t nroots, const Sym *extra, size_t nextra,
			const char *spec)
{
	memset(a, 0, sizeof *a);
	a->syms = store_syms(s);
	a->other = SYM_NONE;
	if (spec) {
		a->given = true;
		bool split = strpbrk(spec, ", \t") != NULL;
		for (size_t i = 0, len = strlen(spec); i < len;) {
			size_t j = i;
			if (split)
				while (j < len && spec[j] != ',' &&
				       !word_is_space(spec[j]))
					j++;
			else
				j = i + word_utf8_len((unsigned char)spec[i]);
			if (j > len)
				j = len;
			if (j > i)
				add_letter(a, sym_intern(a->syms, spec + i, j - i));
			i = split && j == i ? j + 1 : j;
		}
	}
	size_t given = a->n;
	size_t nl;
	/* one sweep: the roots may be every definition of a long program */
	Sym *ls = store_letters_of(s, roots, nroots, &nl);
	for (size_t i = 0; i < nl; i++)
		add_letter(a, ls[i]);
	free(ls);
	for (size_t i = 0; i < nextra; i++)
		add_letter(a, extra[i]);
	sort_syms = a->syms;
	if (a->n > given) /* qsort's base must not be NULL, even for 0 items */
		qsort(a->letters + given, a->n - given, sizeof *a->letters,
		      by_name);
	for (size_t i = 0; i < 256; i++) {
		a->byte_sym[i] = SYM_NONE;
		a->code_sym[i] = i < a->n && i < WORD_CODES ? a->letters[i]
							    : SYM_NONE;
	}
	for (size_t i = 0; i < a->n; i++) {
		const char *name = sym_name(a->syms, a->letters[i]);
		size_t len = strlen(name);
		if (len > a->maxlen)
			a->maxlen = len;
		if (len == 1 && !word_is_space((unsigned char)name[0]))
			a->byte_sym[(unsigned char)name[0]] = a->letters[i];
	}
}

void alphabet_init_units(Alphabet *a, Store *s, const Node *roots,
			 size_t nroots, const Unit *units, size_t nunits,
			 const char *spec)
{
	size_t n = 0;
	for (size_t i = 0; i < nunits; i++)
		n += units[i].nletters;
	Sym *spelled = xmalloc((n ? n : 1) * sizeof *spelled);
	n = 0;
	for (size_t i = 0; i < nunits; i++)
		for (size_t j = 0; j < units[i].nletters; j++)
			spelled[n++] = units[i].letters[j];
	alphabet_init_with(a, s, roots, nroots, spelled, n, spec);
	free(spelled);
}

void alphabet_free(Alphabet *a)
{
	free(a->letters);
	free(a->member);
	memset(a, 0, sizeof *a);
}

/* Whether a letter's name can be written as it is in a word or a list
 * of letters: not empty, no blank, quote, backslash or control
 * character, not ε (the empty word) and no ^ (a^3 is a run). */
static bool plain_letter(const char *name)
{
	if (!*name || strcmp(name, "\xce\xb5") == 0)
		return false;
	for (const char *c = name; *c; c++)
		if (word_is_space((unsigned char)*c) || *c == '\'' || *c == '\\' ||
		    *c == '^' || (unsigned char)*c < 0x20 || *c == 0x7f)
			return false;
	return true;
}

bool word_plain_letter(const char *name)
{
	return plain_letter(name);
}

/* Letters that are not plain are quoted as in TL ('a b', 'ε'), so a list
 * or a word reads back unambiguously and ε always means the empty
 * word. */
void word_put_letter(Buf *b, const char *name)
{
	if (plain_letter(name)) {
		buf_puts(b, name);
		return;
	}
	buf_putc(b, '\'');
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (*c == '\'' || *c == '\\')
			buf_printf(b, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			buf_printf(b, "\\x%02x", *c);
		else
			buf_putc(b, (char)*c);
	}
	buf_putc(b, '\'');
}

bool word_single_char(const char *name)
{
	size_t n = strlen(name);
	return n > 0 && n == word_utf8_len((unsigned char)name[0]);
}

bool alphabet_spaced(const Alphabet *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (!word_single_char(sym_name(a->syms, a->letters[i])))
			return true;
	return false;
}

char *letters_describe(const SymTab *syms, const Sym *letters, size_t n)
{
	Buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_putc(&b, ' ');
		word_put_letter(&b, sym_name(syms, letters[i]));
	}
	return buf_take(&b);
}

char *alphabet_describe(const Alphabet *a)
{
	return letters_describe(a->syms, a->letters, a->n);
}

void letters_print_line(FILE *out, const SymTab *syms, const Sym *letters,
			size_t n)
{
	char *text = letters_describe(syms, letters, n);
	fprintf(out, "alphabet: %s\n", *text ? text : "(none)");
	free(text);
}
