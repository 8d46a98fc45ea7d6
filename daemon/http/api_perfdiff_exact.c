// SPDX-License-Identifier: MIT
/*
 * Exact perf diff over HTTP: load the exact profiles of an experiment's
 * variants, diff them (perfdiff_exact.c) and answer in JSON or text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/api_perfdiff_exact.h"
#include "daemon/store/db.h"

#define MAX_SIDES 16

struct xload {
	struct pdx_side sides[MAX_SIDES];
	size_t nsides;
};

static void free_run(struct pdx_run *p)
{
	size_t i;

	for (i = 0; i < p->nr_syms; i++) {
		free((void *)p->syms[i].dso);
		free((void *)p->syms[i].name);
	}
	free((void *)p->syms);
	free((void *)p->source);
}

static void xload_free(struct xload *l)
{
	size_t s, r;

	for (s = 0; s < l->nsides; s++) {
		for (r = 0; r < l->sides[s].nr_runs; r++)
			free_run((struct pdx_run *)&l->sides[s].runs[r]);
		free((void *)l->sides[s].runs);
	}
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return strdup(s ? s : "");
}

static int load_symbols(sqlite3_stmt *st, int64_t run, struct pdx_run *p)
{
	struct pdx_sym *syms = NULL, *ns;
	size_t n = 0, cap = 0;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			ns = realloc(syms, cap * sizeof(*ns));
			if (!ns)
				break;
			syms = ns;
		}
		syms[n].dso = col_dup(st, 0);
		syms[n].name = col_dup(st, 1);
		syms[n].insns = sqlite3_column_int64(st, 2);
		n++;
		if (!syms[n - 1].dso || !syms[n - 1].name)
			break;
	}
	p->syms = syms;
	p->nr_syms = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The runs of variant @v with exact profiles as one side. */
static int load_side(sqlite3 *db, const struct pdx_variant *v,
		     struct pdx_side *side)
{
	sqlite3_stmt *runs, *syms;
	struct pdx_run *p = NULL, *np;
	int rc = -1, step;

	runs = db_prepare(db, "SELECT e.run_id, e.source, e.ios, e.total,"
			      " e.kernel, e.user, e.unattributed FROM runs r"
			      " JOIN exact_profiles e ON e.run_id = r.id"
			      " WHERE r.variant_id = ? ORDER BY r.id");
	syms = db_prepare(db, "SELECT s.dso, s.name, x.insns"
			      " FROM exact_profile_symbols x"
			      " JOIN symbols s ON s.id = x.symbol_id"
			      " WHERE x.run_id = ?");
	*side = (struct pdx_side){ .name = v->name };
	if (!runs || !syms)
		goto out;
	sqlite3_bind_int64(runs, 1, v->id);
	while ((step = sqlite3_step(runs)) == SQLITE_ROW) {
		np = realloc(p, (side->nr_runs + 1) * sizeof(*p));
		if (!np)
			goto out;
		p = np;
		side->runs = p;
		np = &p[side->nr_runs++];
		*np = (struct pdx_run){
			.source = col_dup(runs, 1),
			.ios = sqlite3_column_int64(runs, 2),
			.total = sqlite3_column_int64(runs, 3),
			.kernel = sqlite3_column_int64(runs, 4),
			.user = sqlite3_column_int64(runs, 5),
			.unattributed = sqlite3_column_int64(runs, 6),
		};
		if (!np->source ||
		    load_symbols(syms, sqlite3_column_int64(runs, 0), np))
			goto out;
	}
	rc = step == SQLITE_DONE ? 0 : -1;
out:
	sqlite3_finalize(runs);
	sqlite3_finalize(syms);
	return rc;
}

/*
 * The control and the variant(s) with exact profiles. 0 loaded, 1 none to
 * diff (@why says which side lacks them), -1 database error.
 */
static int load_sides(sqlite3 *db, const struct pdx_variant *v, size_t nv,
		      size_t pick, struct xload *l, const char **why)
{
	size_t i;

	for (i = 0; i < nv && l->nsides < MAX_SIDES; i++) {
		struct pdx_side *s = &l->sides[l->nsides];

		if (i && pick && i != pick)
			continue;
		l->nsides++;
		if (load_side(db, &v[i], s))
			return -1;
		if (s->nr_runs)
			continue;
		if (!i || pick) {
			*why = v[i].name;
			return 1;
		}
		/* all variants: leave out one without exact profiles */
		l->nsides--;
	}
	*why = NULL;
	return l->nsides < 2 ? 1 : 0;
}

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

	rc = load_sides(req->db, v, nv, pick, &l, &why);
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
