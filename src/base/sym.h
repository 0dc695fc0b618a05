/* sym -- interned strings: letters of alphabets and definition names.
 *
 * A Sym is a dense index; equal strings get equal Syms.  The SymTab owns
 * every string; sym_name() returns a borrowed pointer valid for the table's
 * lifetime.  Strings may contain any bytes except NUL.
 */
#ifndef TALLY_SYM_H
#define TALLY_SYM_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t Sym;
#define SYM_NONE UINT32_MAX

typedef struct SymTab SymTab;

SymTab *sym_new(void);
void sym_free(SymTab *t);
Sym sym_intern(SymTab *t, const char *s, size_t n);
/* SYM_NONE when the string was never interned. */
Sym sym_lookup(const SymTab *t, const char *s, size_t n);
const char *sym_name(const SymTab *t, Sym s);
/* The number of Syms (they are 0..count-1). */
size_t sym_count(const SymTab *t);
/* Forgets the Syms >= n (store_rollback). */
void sym_truncate(SymTab *t, size_t n);

#endif
