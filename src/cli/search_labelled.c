/* search_labelled.c -- the labelled words of tally search: read, checked,
 * a share held out (see search_cmd.h). */
#include <config.h>
#include "cli/search_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/vec.h"
#include "cli/commands.h"
#include "cli/search_cli.h"
#include "core/json.h"
#include "core/prelude.h"
#include "core/print.h"
#include "core/alphabet.h"
#include "search/holdout.h"

size_t search_labelled_letter(Search *s, const char *name, size_t n)
{
	Sym sym = sym_intern(store_syms(s->in.store), name, n);
	for (size_t x = 0; x < s->nletters; x++)
		if (s->letters[x] == sym)
			return x;
	if (s->nletters >= 255)
		return SIZE_MAX;
	s->letters = xrealloc(s->letters, (s->nletters + 1) * sizeof *s->letters);
	s->letters[s->nletters] = sym;
	return s->nletters++;
}

/* One word of a line: whitespace-separated tokens when the line has
 * whitespace, else one letter per UTF-8 character. */
static bool parse_word(Search *s, const char *line, size_t len, SampleWord *w)
{
	bool tokens = strpbrk(line, " \t") != NULL;
	w->w = xmalloc(len + 1);
	w->len = 0;
	for (size_t i = 0; i < len;) {
		size_t n = 1;
		if (tokens) {
			if (line[i] == ' ' || line[i] == '\t') {
				i++;
				continue;
			}
			while (i + n < len && line[i + n] != ' ' && line[i + n] != '\t')
				n++;
		} else {
			unsigned char c = (unsigned char)line[i];
			n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
			if (i + n > len)
				n = len - i;
		}
		size_t x = search_labelled_letter(s, line + i, n);
		if (x == SIZE_MAX)
			return false;
		w->w[w->len++] = (uint8_t)x;
		i += n;
	}
	return true;
}

static bool read_words(Search *s, const char *path, bool label)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!f) {
		status_usage_error("cannot read '%s'", path);
		return false;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	bool ok = true;
	while (ok && (got = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)got;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		SampleWord w;
		ok = parse_word(s, line, len, &w);
		if (!ok) {
			free(w.w);
			status_usage_error("%s: too many letters (at most 255)", path);
			break;
		}
		VEC_PUSH(s->words, w);
		VEC_PUSH(s->labels, label);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ok;
}

/* The same word with both labels is an error (naming the word);
 * duplicates are merged. */
static bool check_labels(Search *s)
{
	for (size_t i = 0; i < s->words.len; i++)
		for (size_t j = i + 1; j < s->words.len; j++)
			if (s->words.data[i].len == s->words.data[j].len &&
			    memcmp(s->words.data[i].w, s->words.data[j].w,
				   s->words.data[i].len) == 0 &&
			    s->labels.data[i] != s->labels.data[j]) {
				Buf b = {0};
				for (size_t k = 0; k < s->words.data[i].len; k++) {
					const char *name = sym_name(store_syms(s->in.store),
								    s->letters[s->words.data[i].w[k]]);
					buf_printf(&b, "%s%s", k && strlen(name) > 1 ? " " : "",
						   name);
				}
				status_usage_error("the word \"%s\" is in both --positive and "
						"--negative", b.data ? b.data : "");
				buf_free(&b);
				return false;
			}
	return true;
}

/* The words the search sees: those not held out (holdout.h). */
static void hold_out(Search *s)
{
	holdout_split(&s->hold, s->words.data, s->labels.data, s->words.len,
		      s->holdout, s->o.seed);
	for (size_t i = 0; i < s->words.len; i++)
		if (!s->hold.held[i]) {
			VEC_PUSH(s->train, s->words.data[i]);
			VEC_PUSH(s->train_labels, s->labels.data[i]);
		}
}

int search_labelled_target(Search *s)
{
	if (!read_words(s, s->pos, true) || !read_words(s, s->neg, false) ||
	    !check_labels(s))
		return EXIT_USAGE;
	hold_out(s);
	s->tg = (Target){.kind = TARGET_LABELS, .words = s->train.data,
			 .labels = s->train_labels.data, .nwords = s->train.len};
	s->target_text = xstrdup("the labelled words");
	return EXIT_YES;
}

/* The letters of --alphabet (parsed as everywhere, alphabet.h), in order. */
void search_labelled_alphabet(Search *s, const char *spec)
{
	if (!spec)
		return;
	Alphabet a;
	alphabet_init(&a, s->in.store, NULL, 0, spec);
	for (size_t i = 0; i < a.n; i++) {
		const char *name = sym_name(a.syms, a.letters[i]);
		search_labelled_letter(s, name, strlen(name));
	}
	alphabet_free(&a);
}
