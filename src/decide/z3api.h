/* z3api -- Z3's C API, loaded on first use.
 *
 * Loading libz3 costs about 2.3 ms of every process start (its tens of
 * thousands of relocations are bound eagerly), while only the
 * presburger and chc methods use it.  So tally does not link it: the
 * functions it calls are pointers in the table Z3, filled by dlopen on
 * the first z3api_load(), and called as Z3.mk_add(...) where the API
 * writes Z3_mk_add(...).  Their types are the API's own (<z3.h>), so a
 * call is checked as a direct one would be.
 *
 * To call a new Z3 function, add it to Z3_API_FUNCTIONS.
 */
#ifndef TALLY_Z3API_H
#define TALLY_Z3API_H

#include <stdbool.h>

#include <z3.h>

#define Z3_API_FUNCTIONS(X) \
	X(ast_to_string) \
	X(del_config) \
	X(del_context) \
	X(fixedpoint_add_rule) \
	X(fixedpoint_dec_ref) \
	X(fixedpoint_get_cover_delta) \
	X(fixedpoint_get_num_levels) \
	X(fixedpoint_get_reason_unknown) \
	X(fixedpoint_inc_ref) \
	X(fixedpoint_query) \
	X(fixedpoint_register_relation) \
	X(fixedpoint_set_params) \
	X(get_ast_kind) \
	X(get_bool_value) \
	X(get_numeral_string) \
	X(mk_add) \
	X(mk_and) \
	X(mk_app) \
	X(mk_bool_sort) \
	X(mk_config) \
	X(mk_const) \
	X(mk_context) \
	X(mk_eq) \
	X(mk_false) \
	X(mk_fixedpoint) \
	X(mk_forall_const) \
	X(mk_func_decl) \
	X(mk_ge) \
	X(mk_gt) \
	X(mk_implies) \
	X(mk_int64) \
	X(mk_int_sort) \
	X(mk_ite) \
	X(mk_le) \
	X(mk_lt) \
	X(mk_mod) \
	X(mk_mul) \
	X(mk_not) \
	X(mk_numeral) \
	X(mk_optimize) \
	X(mk_or) \
	X(mk_params) \
	X(mk_simple_solver) \
	X(mk_string_symbol) \
	X(mk_true) \
	X(mk_unsigned_int64) \
	X(mk_xor) \
	X(model_dec_ref) \
	X(model_eval) \
	X(model_inc_ref) \
	X(optimize_assert) \
	X(optimize_check) \
	X(optimize_dec_ref) \
	X(optimize_get_model) \
	X(optimize_inc_ref) \
	X(optimize_minimize) \
	X(optimize_set_params) \
	X(params_dec_ref) \
	X(params_inc_ref) \
	X(params_set_symbol) \
	X(params_set_uint) \
	X(set_error_handler) \
	X(simplify) \
	X(solver_assert) \
	X(solver_check) \
	X(solver_dec_ref) \
	X(solver_get_model) \
	X(solver_get_reason_unknown) \
	X(solver_inc_ref) \
	X(solver_pop) \
	X(solver_push) \
	X(solver_set_params) \
	X(substitute) \
	X(substitute_vars) \
	X(to_app)

typedef struct {
#define Z3_API_POINTER(name) __typeof__(Z3_##name) *name;
	Z3_API_FUNCTIONS(Z3_API_POINTER)
#undef Z3_API_POINTER
} Z3Api;

extern Z3Api Z3;

/* Loads libz3 once; false (and *why, static text) when it cannot be
 * loaded or lacks a function tally calls. */
bool z3api_load(const char **why);

#endif
