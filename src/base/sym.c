#include <config.h>
#include "base/sym.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

struct SymTab {
	char **names;
	size_t *lens;
	size_t len, cap;
	Sym *slots; /* open addressing; SYM_NONE = empty */
	size_t nslots;
};

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

SymTab *sym_new(void)
{
	SymTab *t = xcalloc(1, sizeof *t);
	t->nslots = 64;
	t->slots = xmalloc(t->nslots * sizeof *t->slots);
	memset(t->slots, 0xff, t->nslots * sizeof *t->slots);
	return t;
}

void sym_free(SymTab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->len; i++)
		free(t->names[i]);
	free(t->names);
	free(t->lens);
	free(t->slots);
	free(t);
}

static size_t find_slot(const SymTab *t, const char *s, size_t n)
{
	size_t mask = t->nslots - 1, i = hash_bytes(s, n) & mask;
	while (t->slots[i] != SYM_NONE) {
		Sym y = t->slots[i];
		if (t->lens[y] == n && memcmp(t->names[y], s, n) == 0)
			break;
		i = (i + 1) & mask;
	}
	return i;
}

static void rehash(SymTab *t)
{
	free(t->slots);
	t->nslots *= 2;
	t->slots = xmalloc(t->nslots * sizeof *t->slots);
	memset(t->slots, 0xff, t->nslots * sizeof *t->slots);
	for (Sym y = 0; y < t->len; y++)
		t->slots[find_slot(t, t->names[y], t->lens[y])] = y;
}

Sym sym_lookup(const SymTab *t, const char *s, size_t n)
{
	return t->slots[find_slot(t, s, n)];
}

Sym sym_intern(SymTab *t, const char *s, size_t n)
{
	size_t i = find_slot(t, s, n);
	if (t->slots[i] != SYM_NONE)
		return t->slots[i];
	if (t->len == t->cap) {
		size_t cap = t->cap;
		mem_grow((void **)&t->names, &cap, t->len + 1, sizeof *t->names);
		t->lens = xrealloc(t->lens, cap * sizeof *t->lens);
		t->cap = cap;
	}
	Sym y = (Sym)t->len++;
	t->names[y] = xstrndup(s, n);
	t->lens[y] = n;
	t->slots[i] = y;
	if (2 * t->len > t->nslots)
		rehash(t);
	return y;
}

const char *sym_name(const SymTab *t, Sym s)
{
	return s < t->len ? t->names[s] : "?";
}

size_t sym_count(const SymTab *t)
{
	return t->len;
}

/* Newest first: the table was filled in Sym order with linear probing,
 * so this restores it exactly (see store_rollback). */
void sym_truncate(SymTab *t, size_t n)
{
	while (t->len > n) {
		Sym y = (Sym)--t->len;
		t->slots[find_slot(t, t->names[y], t->lens[y])] = SYM_NONE;
		free(t->names[y]);
	}
}
