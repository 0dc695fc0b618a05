/* mem -- allocation that never returns NULL.
 *
 * Out-of-memory is fatal in exactly one place (mem_fatal_oom); every other
 * module may assume allocations succeed.  Ownership: whoever calls x*alloc
 * frees with free().
 */
#ifndef TALLY_MEM_H
#define TALLY_MEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Routes GMP's and FLINT's allocations through the functions above, so
 * that their out-of-memory is exit 4 too rather than an abort (main()
 * calls it first). */
void mem_install(void);
/* Grow *p (holding *cap elements of size elem) to hold at least need. */
void mem_grow(void **p, size_t *cap, size_t need, size_t elem);

#endif
