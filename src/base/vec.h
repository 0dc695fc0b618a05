/* vec -- growable arrays as a struct of {data, len, cap}.
 *
 * Declare with VEC(Type) name; push with VEC_PUSH(v, x); release with
 * VEC_FREE(v).  The vector owns its buffer; elements are copied in.
 */
#ifndef TALLY_VEC_H
#define TALLY_VEC_H

#include <stdlib.h>
#include "base/mem.h"

#define VEC(T) struct { T *data; size_t len, cap; }
#define VEC_PUSH(v, x)                                                        \
	do {                                                                  \
		mem_grow((void **)&(v).data, &(v).cap, (v).len + 1,           \
			 sizeof *(v).data);                                   \
		(v).data[(v).len++] = (x);                                    \
	} while (0)
#define VEC_FREE(v)                                                           \
	do {                                                                  \
		free((v).data);                                               \
		(v).data = NULL;                                              \
		(v).len = (v).cap = 0;                                        \
	} while (0)

#endif
