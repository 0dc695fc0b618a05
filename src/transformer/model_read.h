/* model_read.h -- the model reader's state and its parts, shared by
 * model_read.c (the model: alphabet, components, the top level),
 * model_read_fields.c (paths, messages, typed fields, the one spelling of
 * numbers) and model_read_layers.c (who writes what, matrices, heads,
 * feed-forward blocks, layers).  Private to them: the interface is
 * model_from_json (model.h).  Every rd_ function reports the first
 * problem through rd_fail, with the path of the field, and returns false
 * (or NULL, or -1). */
#ifndef TALLY_TRANSFORMER_MODEL_READ_H
#define TALLY_TRANSFORMER_MODEL_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transformer/model.h"

/* Dimensions a model may declare (each also costs JSON text, except
 * the number of query/key rows, whose cost the simulator's limits
 * bound). */
#define MODEL_MAX_DIM (1 << 20)
#define MODEL_MAX_RATIONAL ((int64_t)1 << 40)

enum { PATH_CAP = 200 };

/* Who writes a component (the checks of rd_note_write). */
typedef enum { BY_EMBEDDING, BY_HEAD, BY_FFN, BY_FEATURE } Writer;

typedef struct {
	Model *m;
	char *err;
	char path[PATH_CAP];
	size_t plen;
	unsigned char *nheads; /* per component: heads writing it (max 2) */
	unsigned char *written;
	json_t *layers; /* n_layers is checked against its length */
} Reader;

/* The kinds of component, by Component.kind (NULL-terminated). */
extern const char *const rd_comp_kinds[];

/* ---- model_read_fields.c: the path, its messages, typed fields ---------- */

/* rd_enter/rd_enter_at extend the path by a key or an index and return
 * the mark rd_leave goes back to. */
size_t rd_enter(Reader *r, const char *key);
size_t rd_enter_at(Reader *r, size_t i);
void rd_leave(Reader *r, size_t at);
bool rd_fail(Reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool rd_expected(Reader *r, json_t *j, const char *what);
json_t *rd_member(Reader *r, json_t *o, const char *key, bool required);
bool rd_object(Reader *r, json_t *j, const char *const *keys);
bool rd_array(Reader *r, json_t *j, size_t want);
bool rd_integer(Reader *r, json_t *j, int64_t lo, int64_t hi,
		int64_t *out);
bool rd_index_of(Reader *r, json_t *j, uint32_t bound, const char *what,
		 uint32_t *out);
const char *rd_string(Reader *r, json_t *j);
int rd_one_of(Reader *r, json_t *j, const char *const *names,
	      const char *what);
bool rd_field_int(Reader *r, json_t *o, const char *key, int64_t lo,
		  int64_t hi, int64_t *out);
bool rd_field_index(Reader *r, json_t *o, const char *key, uint32_t *out);
bool rd_weight(Reader *r, json_t *j, double *out);
bool rd_field_weight(Reader *r, json_t *o, const char *key, double *out);
bool rd_weights(Reader *r, json_t *a, size_t n, double *out);
bool rd_rational(Reader *r, json_t *j, int64_t *num, int64_t *den);
bool rd_angle(Reader *r, json_t *j, Angle *a);

/* ---- model_read_layers.c: who writes what, matrices, layers ------------- */

bool rd_note_write(Reader *r, uint32_t c, uint32_t l, Writer by);
bool rd_check_written(Reader *r);
bool rd_field_entries(Reader *r, json_t *o, const char *key,
		      uint32_t rows, uint32_t cols, bool one_row,
		      const char *what, Sparse *sp);
bool rd_uses(Reader *r, const char *want);
bool rd_ffn(Reader *r, json_t *o, Layer *ly, uint32_t layer);
bool rd_layer(Reader *r, json_t *o, Layer *ly, uint32_t l);

#endif
