// SPDX-License-Identifier: MIT
/*
 * Exact perf diff over HTTP: load the exact profiles of an experiment's
 * variants, diff them (perfdiff_exact.c) and answer in JSON or text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/api_perfdiff_exact.h"
#include "daemon/lab/exact_load.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

/* ---- JSON ----------------------------------------------------------------- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *flag(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *stat_json(const struct pdx_stat *s)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "mean", num(s->mean), "min",
			 num(s->min), "max", num(s->max), "sd", num(s->sd));
}

static json_t *side_json(const struct pdx_side_info *si, bool base)
{
	return json_pack("{s:s, s:b, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:I}",
			 "variant", si->name, "baseline", base, "runs",
			 (json_int_t)si->nr_runs, "ios", (json_int_t)si->ios,
			 "total_per_io", stat_json(&si->total), "kernel_per_io",
			 stat_json(&si->kernel), "user_per_io",
			 stat_json(&si->user), "unattributed_per_io",
			 stat_json(&si->unattributed), "runs_differ",
			 flag(si->unstable), "unstable_symbols",
			 (json_int_t)si->nr_unstable);
}

static json_t *totals_json(const struct pdx_side_info *b,
			   const struct pdx_side_info *n)
{
	double d = n->total.mean - b->total.mean;

	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "variant", n->name,
			 "total", num(d), "total_pct",
			 num(b->total.mean > 0 ? d * 100 / b->total.mean : NAN),
			 "kernel", num(n->kernel.mean - b->kernel.mean), "user",
			 num(n->user.mean - b->user.mean));
}

static double spread_of(const struct pdx_cell *c)
{
	return c->unstable < 0 ? NAN : c->per_io.max - c->per_io.min;
}

/* The fields of compared cell @c into @o. */
static int cell_json(json_t *o, const struct pdx_cell *b,
		     const struct pdx_cell *c)
{
	double sb = spread_of(b), sc = spread_of(c);
	int un = b->unstable == 1 || c->unstable == 1 ? 1 :
		 b->unstable < 0 && c->unstable < 0   ? -1 :
							0;

	return json_object_set_new(o, "new_per_io", num(c->per_io.mean)) ||
	       json_object_set_new(o, "new_min", num(c->per_io.min)) ||
	       json_object_set_new(o, "new_max", num(c->per_io.max)) ||
	       json_object_set_new(o, "new_sd", num(c->per_io.sd)) ||
	       json_object_set_new(o, "new_spread", num(sc)) ||
	       json_object_set_new(o, "new_share", num(c->share)) ||
	       json_object_set_new(o, "new_unstable", flag(c->unstable)) ||
	       json_object_set_new(o, "delta_per_io", num(c->delta)) ||
	       json_object_set_new(o, "spread_per_io",
				   num(isnan(sb) ? sc :
				       isnan(sc) ? sb :
						   fmax(sb, sc))) ||
	       json_object_set_new(o, "unstable", flag(un));
}

static json_t *row_json(const struct pdx_result *r, const struct pdx_row *row)
{
	const struct pdx_cell *b = &row->cells[0];
	json_t *o, *diffs, *d;
	size_t s;

	o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "dso",
		      row->dso, "symbol", row->name, "base_per_io",
		      num(b->per_io.mean), "base_min", num(b->per_io.min),
		      "base_max", num(b->per_io.max), "base_sd",
		      num(b->per_io.sd), "base_spread", num(spread_of(b)),
		      "base_share", num(b->share), "base_unstable",
		      flag(b->unstable));
	if (!o || cell_json(o, b, &row->cells[r->opts.sort_idx]))
		goto fail;
	if (r->nr_sides == 2)
		return o;
	diffs = json_array();
	if (!diffs || json_object_set_new(o, "diffs", diffs))
		goto fail;
	for (s = 1; s < r->nr_sides; s++) {
		d = json_pack("{s:s}", "variant", r->sides[s].name);
		if (!d || json_array_append_new(diffs, d) ||
		    cell_json(d, b, &row->cells[s]))
			goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

json_t *perfdiff_exact_json(const struct pdx_result *r)
{
	json_t *o, *sides, *totals, *rows;
	struct pd_opts po = { .sort = r->opts.sort };
	size_t i;

	o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:{s:f, s:f},"
		      " s:o, s:o, s:o}",
		      "kind", "instructions", "unit", "instructions per IO",
		      "source", r->source, "sort",
		      r->opts.sort == PD_SORT_DEFAULT ? "delta-abs" :
							perfdiff_sort_name(&po),
		      "symbols", (json_int_t)r->nr_symbols, "shown",
		      (json_int_t)r->nr_rows, "tolerance", "abs_per_io",
		      r->opts.tol_abs, "rel", r->opts.tol_rel, "sides",
		      sides = json_array(), "totals", totals = json_array(),
		      "rows", rows = json_array());
	if (!o || !sides || !totals || !rows)
		goto fail;
	for (i = 0; i < r->nr_sides; i++) {
		if (json_array_append_new(sides,
					  side_json(&r->sides[i], i == 0)))
			goto fail;
		if (i &&
		    json_array_append_new(totals, totals_json(&r->sides[0],
							      &r->sides[i])))
			goto fail;
	}
	for (i = 0; i < r->nr_rows; i++)
		if (json_array_append_new(rows, row_json(r, &r->rows[i])))
			goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

/* ---- the endpoint ------------------------------------------------------- */

static int reply(struct http_req *req, struct http_resp *resp,
		 const struct pdx_result *r, bool text)
{
	size_t len;
	char *buf;
	json_t *j;

	if (text) {
		buf = perfdiff_exact_text(r, &len);
		return buf ? http_take(resp, 200, "text/plain; charset=utf-8",
				       buf, len) :
			     -1;
	}
	j = perfdiff_exact_json(r);
	if (!j)
		return -1;
	json_object_set_new(j, "experiment_id",
			    json_integer(http_param_id(req, "id")));
	/* whether ?kind=samples has anything to show (qemu-icount: no) */
	json_object_set_new(
		j, "sampled_runs",
		json_integer(
			db_int(req->db, 0,
			       "SELECT count(*) FROM profiles p JOIN runs r"
			       " ON r.id = p.run_id WHERE r.experiment_id = ?",
			       1, http_param_id(req, "id"))));
	return http_json(resp, 200, j);
}

int api_perfdiff_exact(struct http_req *req, struct http_resp *resp,
		       const struct pdx_variant *v, size_t nv, size_t pick,
		       const struct pd_opts *o, bool text, bool required)
{
	struct xload l = { .nsides = 0 };
	struct pdx_result *r = NULL;
	struct pdx_opts xo;
	const char *why;
	char err[256];
	int rc;

	rc = xload_sides(req->db, v, nv, pick, &l, &why);
	if (rc < 0)
		goto out;
	if (rc && !required) {
		rc = 0;
		goto out;
	}
	if (rc) {
		rc = why ? http_error(
				   resp, 409,
				   "variant '%s' has no runs with exact profiles",
				   why) :
			   http_error(
				   resp, 409,
				   "no variant has runs with exact profiles");
		rc = rc < 0 ? -1 : 1;
		goto out;
	}
	perfdiff_exact_default_opts(&xo);
	xo.sort = o->sort;
	xo.sort_idx = o->sort_idx;
	xo.limit = o->limit;
	if ((size_t)xo.sort_idx >= l.nsides) {
		rc = http_error(resp, 400,
				"order: only %zu variant(s) compared",
				l.nsides - 1);
		rc = rc < 0 ? -1 : 1;
		goto out;
	}
	r = perfdiff_exact_compute(l.sides, l.nsides, &xo, err, sizeof(err));
	if (!r)
		rc = strstr(err, "out of memory") ?
			     -1 :
			     http_error(resp, 422,
					"exact profiles cannot be compared: %s",
					err);
	else
		rc = reply(req, resp, r, text);
	rc = rc < 0 ? -1 : 1;
out:
	perfdiff_exact_free(r);
	xload_free(&l);
	return rc;
}
