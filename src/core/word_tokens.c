/* word_tokens.c -- a token byte by byte, and quoted letters. */
#include <config.h>

#include "core/word_tokens.h"

#include <stdlib.h>

#include "base/mem.h"
#include "core/word_impl.h"

Sym word_quoted_letter(const WordReader *r, const char *s, size_t n)
{
	if (n < 3 || s[0] != '\'' || s[n - 1] != '\'')
		return SYM_NONE;
	char *name = xmalloc(n);
	size_t k = 0;
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] == '\\' && i + 2 < n && (s[i + 1] == '\'' ||
						    s[i + 1] == '\\'))
			i++;
		name[k++] = s[i];
	}
	Sym l = sym_lookup(r->alpha->syms, name, k);
	free(name);
	return l != SYM_NONE && l < r->alpha->nmember && r->alpha->member[l]
		       ? l : SYM_NONE;
}

bool word_end_token(WordReader *r)
{
	if (r->ntok == 0)
		return true;
	size_t n = r->ntok, kept = r->nkept;
	Sym l = word_lookup(r, r->tok, n);
	if (l == SYM_NONE && kept == n)
		l = word_quoted_letter(r, r->tok, n);
	r->ntok = r->nkept = 0;
	if (l != SYM_NONE) {
		word_emit(r, l);
		return true;
	}
	char text[WORD_SHOW + 1];
	word_show(text, r->tok, kept, kept < n);
	word_report(r, text, r->pos + 1);
	return false;
}

bool word_token_byte(WordReader *r, unsigned char c)
{
	if (word_is_space(c))
		return word_end_token(r);
	/* Only a prefix is kept: a token longer than every letter is
	 * unknown, and its first bytes are enough to name it. */
	if (r->nkept == r->ntok && r->nkept < r->tokcap)
		r->tok[r->nkept++] = (char)c;
	r->ntok++;
	return true;
}
