/* z3util.c -- see z3util.h. */
#include <config.h>
#include "decide/z3util.h"

#include <string.h>

#include "base/mem.h"

/* The default handler aborts the process; the methods instead check
 * results (an undef verdict, a NULL model) and answer "unknown". */
static void ignore_error(Z3_context z, Z3_error_code e)
{
	(void)z;
	(void)e;
}

bool z3u_ready(MethodResult *out)
{
	const char *why;
	if (z3api_load(&why))
		return true;
	out->status = MR_UNKNOWN;
	out->reason = xstrdup(why);
	return false;
}

Z3_context z3u_new(void)
{
	Z3_config cfg = Z3.mk_config();
	Z3_context z = Z3.mk_context(cfg);
	Z3.del_config(cfg);
	Z3.set_error_handler(z, ignore_error);
	return z;
}

Z3_ast z3u_numeral(Z3_context z, const fmpz_t c)
{
	char *text = fmpz_get_str(NULL, 10, c);
	Z3_ast a = Z3.mk_numeral(z, text, Z3.mk_int_sort(z));
	flint_free(text);
	return a;
}

Z3_ast z3u_int(Z3_context z, long c)
{
	return Z3.mk_int64(z, c, Z3.mk_int_sort(z));
}

bool z3u_get_fmpz(Z3_context z, Z3_ast a, fmpz_t out)
{
	if (a == NULL || Z3.get_ast_kind(z, a) != Z3_NUMERAL_AST)
		return false;
	return fmpz_set_str(out, Z3.get_numeral_string(z, a), 10) == 0;
}

Z3_params z3u_params(Z3_context z, double seconds)
{
	Z3_params p = Z3.mk_params(z);
	Z3.params_inc_ref(z, p);
	if (seconds > 0) {
		double ms = seconds * 1000.0;
		unsigned limit = ms >= 4e9 ? 4000000000u : (unsigned)ms + 1;
		Z3.params_set_uint(z, p, Z3.mk_string_symbol(z, "timeout"),
				   limit);
	}
	return p;
}

bool z3u_reason_is_timeout(const char *reason)
{
	return reason && (strstr(reason, "timeout") ||
			  strstr(reason, "canceled") ||
			  strstr(reason, "cancelled"));
}

Z3_ast z3u_cmp_zero(Z3_context z, Rel rel, Z3_ast t)
{
	Z3_ast zero = z3u_int(z, 0);
	switch (rel) {
	case REL_LT: return Z3.mk_lt(z, t, zero);
	case REL_LE: return Z3.mk_le(z, t, zero);
	case REL_EQ: return Z3.mk_eq(z, t, zero);
	case REL_NE: return Z3.mk_not(z, Z3.mk_eq(z, t, zero));
	case REL_GE: return Z3.mk_ge(z, t, zero);
	case REL_GT: return Z3.mk_gt(z, t, zero);
	}
	return NULL;
}


Z3_solver z3u_solver(Z3_context z, double seconds)
{
	/* The simple solver skips the tactic set-up of Z3_mk_solver (about
	 * 40 ms per context on this Z3), which would dominate small proofs. */
	Z3_solver s = Z3.mk_simple_solver(z);
	Z3.solver_inc_ref(z, s);
	Z3_params p = z3u_params(z, seconds);
	Z3.solver_set_params(z, s, p);
	Z3.params_dec_ref(z, p);
	return s;
}
