/* z3util -- the few things every Z3-based method (presburger, chc) needs:
 * a context that never exits the process on an API error, exact integer
 * numerals from FLINT integers and back, and the time limit as Z3
 * parameters.
 *
 * Ownership: z3u_new() returns a context the caller deletes with
 * Z3_del_context() (which frees every term, solver and model made in it).
 * Z3 objects that are reference-counted (solvers, models, params) are
 * counted by the caller as usual.
 */
#ifndef TALLY_Z3UTIL_H
#define TALLY_Z3UTIL_H

#include <stdbool.h>

#include <flint/fmpz.h>
#include "decide/z3api.h"

#include "decide/method.h"
#include "core/store.h"

/* Whether Z3 can be used (loading it on the first call); when not, sets
 * out to MR_UNKNOWN with the reason and returns false. */
bool z3u_ready(MethodResult *out);
/* A fresh context (after z3u_ready); API errors are recorded, never
 * fatal. */
Z3_context z3u_new(void);
/* The Int numeral of c, exactly (any number of digits). */
Z3_ast z3u_numeral(Z3_context z, const fmpz_t c);
Z3_ast z3u_int(Z3_context z, long c);
/* The value of an Int numeral into out; false when a is not one. */
bool z3u_get_fmpz(Z3_context z, Z3_ast a, fmpz_t out);
/* The Boolean term "t REL 0" (a store comparison). */
Z3_ast z3u_cmp_zero(Z3_context z, Rel rel, Z3_ast t);
/* Params with "timeout" set from seconds (0 = none); the caller
 * dec_refs them. */
Z3_params z3u_params(Z3_context z, double seconds);
/* A plain (incremental) solver with the time limit; the caller
 * dec_refs it. */
Z3_solver z3u_solver(Z3_context z, double seconds);
/* Whether Z3 gave up because of the time limit (its reason text). */
bool z3u_reason_is_timeout(const char *reason);

#endif
