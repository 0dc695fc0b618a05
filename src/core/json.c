#include <config.h>
#include "core/json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>


static const char *command_name = "tally";

void json_set_command(const char *name)
{
	command_name = name;
}

json_t *json_envelope(void)
{
	json_t *o = json_object();
	json_object_set_new(o, "tally_version", json_string(PACKAGE_VERSION));
	json_object_set_new(o, "command", json_string(command_name));
	return o;
}

void json_set_input(json_t *o, size_t index, const Source *src)
{
	json_object_set_new(o, "input", json_integer((json_int_t)index));
	if (!src)
		return;
	if (src->line_base <= 0) {
		json_object_set_new(o, "source", json_string(src->name));
		return;
	}
	char where[4096];
	snprintf(where, sizeof where, "%s:%d", src->name, src->line_base + 1);
	json_object_set_new(o, "source", json_string(where));
}

json_t *json_fmpz(const fmpz_t v)
{
	/* 2^53: beyond it JSON readers lose precision, so use a string */
	if (fmpz_bits(v) <= 53)
		return json_integer((json_int_t)fmpz_get_si(v));
	char *digits = fmpz_get_str(NULL, 10, v);
	json_t *j = json_string(digits);
	flint_free(digits);
	return j;
}

static const char *const rel_names[] = {"<", "<=", "=", "!=", ">=", ">"};

static json_t *node_object(const Store *s, Node n)
{
	json_t *o = json_object();
	Op op = store_op(s, n);
	json_object_set_new(o, "id", json_integer(n));
	json_object_set_new(o, "op", json_string(store_op_name(op)));
	json_object_set_new(o, "depth", json_integer(store_depth(s, n)));
	switch (op) {
	case OP_LETTER:
		json_object_set_new(
			o, "letter",
			json_string(sym_name(store_syms((Store *)s),
					     store_letter_sym(s, n))));
		break;
	case OP_CMP:
		json_object_set_new(o, "rel", json_string(rel_names[store_rel(s, n)]));
		json_object_set_new(o, "rhs", json_integer(0));
		break;
	case OP_MOD:
		json_object_set_new(o, "m", json_integer(store_aux(s, n)));
		json_object_set_new(o, "r", json_integer(store_aux2(s, n)));
		break;
	case OP_CONST:
		json_object_set_new(o, "value", json_fmpz(store_constant(s, n)));
		break;
	case OP_MUL:
		json_object_set_new(o, "coef", json_fmpz(store_constant(s, n)));
		break;
	default:
		break;
	}
	if (store_nkids(s, n)) {
		json_t *kids = json_array();
		for (uint32_t i = 0; i < store_nkids(s, n); i++)
			json_array_append_new(kids, json_integer(store_kid(s, n, i)));
		json_object_set_new(o, "args", kids);
	}
	return o;
}

json_t *json_formula(const Store *s, Node root)
{
	unsigned char *mark = store_reachable(s, &root, 1);
	json_t *nodes = json_array();
	for (Node n = 1; n <= root; n++)
		if (mark[n])
			json_array_append_new(nodes, node_object(s, n));
	free(mark);
	json_t *o = json_object();
	json_object_set_new(o, "root", json_integer(root));
	json_object_set_new(o, "nodes", nodes);
	return o;
}

void json_emit(json_t *v)
{
	char *text = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (text) {
		puts(text);
		free(text);
	}
	json_decref(v);
}

json_t *json_size(uint64_t v)
{
	char digits[32];
	if (v < (UINT64_C(1) << 53)) /* as json_fmpz */
		return json_integer((json_int_t)v);
	if (v == UINT64_MAX)
		snprintf(digits, sizeof digits, ">%llu",
			 (unsigned long long)(UINT64_MAX - 1));
	else
		snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
	return json_string(digits);
}

json_t *json_letters(const SymTab *syms, const Sym *letters, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_string(sym_name(syms, letters[i])));
	return arr;
}
