// SPDX-License-Identifier: MIT
/*
 * perfdiff_json - the JSON form of a perf diff of any kind, over its
 * fields and web columns (perfdiff.h; the shapes are in docs/api.md):
 *
 *	{"kind", ["unit",] EVENT_KEY, ["compute",] "sort", "symbols",
 *	 "shown", ["noise_rule" | "tolerance",] "sides": [...], the kind's
 *	 tail, "columns": [web columns], "rows": [...]}
 *
 * A row has "dso", "symbol", the baseline fields, the first compared
 * side's fields and, with several compared sides, "diffs": one entry per
 * compared side ("variant" and its fields).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"

#define NOISE_RULE \
	"not a discovery: Welch t test per symbol, Benjamini-Hochberg over the symbols at FDR 0.05"

static json_t *val_json(const struct perfdiff_val *v)
{
	switch (v->type) {
	case PERFDIFF_NUM:
		return isfinite(v->num) ? json_real(v->num) : json_null();
	case PERFDIFF_INT:
		return json_integer(v->i);
	case PERFDIFF_BOOL:
		return json_boolean(v->i);
	default:
		return json_null();
	}
}

/* The fields of @side (PERFDIFF_BASE or PERFDIFF_NEW) into @o. */
static int fields_json(const struct perfdiff_result *r,
		       const struct perfdiff_row *row, unsigned bit,
		       size_t side, json_t *o)
{
	const struct perfdiff_kind *k = r->kind;
	size_t i;

	for (i = 0; i < k->nr_fields; i++) {
		const struct perfdiff_field *fl = &k->fields[i];
		struct perfdiff_val v = { .type = PERFDIFF_NONE };

		if (!fl->key || fl->side != bit)
			continue;
		fl->get(r, row, side, &v);
		if (json_object_set_new(o, fl->key, val_json(&v)))
			return -1;
	}
	return 0;
}

static json_t *row_json(const struct perfdiff_result *r,
			const struct perfdiff_row *row)
{
	json_t *o, *diffs, *d;
	size_t s;

	o = json_pack("{s:s, s:s}", "dso", row->dso, "symbol", row->name);
	if (!o || fields_json(r, row, PERFDIFF_BASE, 0, o) ||
	    fields_json(r, row, PERFDIFF_NEW, 1, o))
		goto fail;
	if (r->nr_sides == 2)
		return o;
	diffs = json_array();
	if (json_object_set_new(o, "diffs", diffs))
		goto fail;
	for (s = 1; s < r->nr_sides; s++) {
		d = json_pack("{s:s}", "variant", r->sides[s].name);
		if (json_array_append_new(diffs, d) ||
		    fields_json(r, row, PERFDIFF_NEW, s, d))
			goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *columns_json(const struct perfdiff_kind *k)
{
	json_t *a = json_array(), *c;
	size_t i;

	for (i = 0; a && i < k->nr_web; i++) {
		const struct perfdiff_web_col *w = &k->web[i];

		c = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:b}",
			      "label", w->label, "title", w->title, "format",
			      w->format, "base", str_or_null(w->base), "new",
			      str_or_null(w->new), "hint", str_or_null(w->hint),
			      "mark", str_or_null(w->mark), "sort",
			      str_or_null(w->sort), "brief", w->brief);
		if (json_array_append_new(a, c)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *sides_json(const struct perfdiff_result *r)
{
	json_t *a = json_array(), *x;
	size_t s;

	for (s = 0; a && s < r->nr_sides; s++) {
		x = json_pack("{s:s, s:b, s:I}", "variant", r->sides[s].name,
			      "baseline", s == 0, "runs",
			      (json_int_t)r->sides[s].nr_runs);
		if (json_array_append_new(a, x) ||
		    (r->kind->side_json && r->kind->side_json(r, s, x))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* "kind" to "shown", and the noise rule or the tolerance. */
static json_t *head_json(const struct perfdiff_result *r)
{
	const struct perfdiff_kind *k = r->kind;
	char cbuf[64];
	json_t *o = json_pack("{s:s}", "kind", k->name);
	int err = !o;

	if (!err && k->unit)
		err |= json_object_set_new(o, "unit", json_string(k->unit));
	if (!err)
		err |= json_object_set_new(o, k->event_key,
					   json_string(r->event));
	if (!err && k->computes)
		err |= json_object_set_new(
			o, "compute",
			json_string(perfdiff_compute_name(&r->opts, cbuf,
							  sizeof(cbuf))));
	if (!err)
		err |= json_object_set_new(
			       o, "sort",
			       json_string(perfdiff_sort_name(r->sort))) ||
		       json_object_set_new(o, "symbols",
					   json_integer(r->nr_symbols)) ||
		       json_object_set_new(o, "shown",
					   json_integer(r->nr_rows));
	if (!err && k->noise)
		err |= json_object_set_new(o, "noise_rule",
					   json_string(NOISE_RULE));
	if (!err && k->exact)
		err |= json_object_set_new(o, "tolerance",
					   json_pack("{s:f, s:f}", "abs_per_io",
						     r->opts.tol_abs, "rel",
						     r->opts.tol_rel));
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *perfdiff_json(const struct perfdiff_result *r)
{
	json_t *o = head_json(r), *rows = NULL;
	size_t i;

	if (!o || json_object_set_new(o, "sides", sides_json(r)) ||
	    (r->kind->tail_json && r->kind->tail_json(r, o)) ||
	    json_object_set_new(o, "columns", columns_json(r->kind)) ||
	    json_object_set_new(o, "rows", rows = json_array()))
		goto fail;
	for (i = 0; i < r->nr_rows; i++)
		if (json_array_append_new(rows, row_json(r, &r->rows[i])))
			goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}
