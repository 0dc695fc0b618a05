/* names -- fresh definition names for the printers that invent them
 * (C-RASP programs, core-TL let-definitions).
 *
 * A NameSet records which symbols are taken; names_fresh() returns base,
 * or base_2, base_3, ... for the first one free, and takes it.  The set
 * owns its table; the symbols belong to the SymTab.
 */
#ifndef TALLY_NAMES_H
#define TALLY_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/sym.h"

typedef struct {
	SymTab *syms;
	unsigned char *taken; /* indexed by Sym */
	size_t cap;
} NameSet;

void names_init(NameSet *ns, SymTab *syms);
void names_free(NameSet *ns);
bool names_taken(const NameSet *ns, Sym sym);
void names_take(NameSet *ns, Sym sym);
Sym names_fresh(NameSet *ns, const char *base);

#endif
