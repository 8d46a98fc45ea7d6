// SPDX-License-Identifier: MIT
/*
 * Calibration experiments: A/A and the perflab_canary dose-response
 * ladder; see api_calibration.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/state.h"
#include "daemon/analysis/ladder.h"
#include "daemon/http/api.h"
#include "daemon/http/api_calibration.h"
#include "daemon/http/api_trust.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/calibration.h"
#include "daemon/lab/patches.h"
#include "daemon/lab/planner.h"
#include "common/metric_defs.h"

static int parse_steps(json_t *a, struct calibration *in, struct http_resp *resp)
{
	json_t *s;
	size_t i;
	int zero = 0;

	if (!a) {
		calibration_default_steps(in);
		return 0;
	}
	if (!json_is_array(a) || json_array_size(a) < 2 ||
	    json_array_size(a) > CAL_MAX_STEPS)
		return http_error(resp, 400, "'steps' must be an array of 2 to %d"
				  " canary counts", CAL_MAX_STEPS), -1;
	json_array_foreach(a, i, s) {
		if (!json_is_integer(s) || json_integer_value(s) < 0 ||
		    json_integer_value(s) > CAL_MAX_N)
			return http_error(resp, 400, "steps must be integers in [0, %d]",
					  CAL_MAX_N), -1;
		in->steps[i] = (int)json_integer_value(s);
		for (size_t j = 0; j < i; j++)
			if (in->steps[j] == in->steps[i])
				return http_error(resp, 400, "duplicate step %d",
						  in->steps[i]), -1;
		zero |= in->steps[i] == 0;
	}
	in->nsteps = (int)i;
	if (!zero)
		return http_error(resp, 400, "'steps' must include 0 (the control)"), -1;
	return 0;
}

/* 'patch': patch text or a stored patch id; a ladder defaults to the
 * newest stored perflab_canary patch. */
static int parse_patch(struct http_req *req, json_t *p, struct calibration *in,
		       struct http_resp *resp)
{
	char err[512];
	int k;

	in->npatches = 0;
	if (json_is_integer(p)) {
		in->patch_ids[0] = json_integer_value(p);
		if (db_int(req->db, 0, "SELECT count(*) FROM patches WHERE id = ?",
			   1, in->patch_ids[0]) != 1)
			return http_error(resp, 422, "no stored patch with id %lld",
					  (long long)in->patch_ids[0]), -1;
		in->npatches = 1;
	} else if (json_is_string(p)) {
		k = patches_store_text(req->db, json_string_value(p),
				       json_string_length(p), req->auth.key_id,
				       in->patch_ids, CAL_MAX_PATCHES, NULL, 0, err,
				       sizeof(err));
		if (k < 0)
			return http_error(resp, 400, "'patch' is not a usable patch: %s",
					  err), -1;
		in->npatches = k;
	} else if (p) {
		return http_error(resp, 400, "'patch' must be patch text or a patch id"), -1;
	} else if (!strcmp(in->kind, "ladder")) {
		in->patch_ids[0] = calibration_canary_patch(req->db);
		if (!in->patch_ids[0])
			return http_error(resp, 422, "no perflab_canary patch is stored:"
					  " send kernel-patches/0004-block-perflab_canary-"
					  "calibration-parameter.patch as 'patch'"), -1;
		in->npatches = 1;
	}
	return 0;
}

static int parse_host(struct http_req *req, struct calibration *in,
		      struct http_resp *resp)
{
	int rc;

	if (!in->host)
		return in->label ? 0 :
		       (http_error(resp, 400, "'label' or 'host' is required"), -1);
	rc = calibration_host(req->db, in);
	if (rc > 0)
		return http_error(resp, 422, "unknown host '%s'", in->host), -1;
	return rc;
}

static int parse_bench(json_t *user, struct calibration *in, struct http_resp *resp)
{
	json_t *b = json_loads(calibration_default_bench, 0, NULL), *p;
	char err[256];

	if (!b)
		return -1;
	if (user && !json_is_object(user)) {
		json_decref(b);
		return http_error(resp, 400, "field 'bench' must be an object"), -1;
	}
	if (user)
		json_object_update(b, user);
	p = bench_params_json(b, err, sizeof(err));
	json_decref(b);
	if (!p)
		return http_error(resp, 400, "%s", err), -1;
	in->bench = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(p);
	return in->bench ? 0 : -1;
}

static int parse_body(struct http_req *req, json_t *body, struct calibration *in,
		      struct http_resp *resp)
{
	static const char *const keys[] = { "label", "host", "kind", "runs",
		"max_runs", "steps", "patch", "bench", "backend", NULL };
	const char *badkey;
	json_t *r = json_object_get(body, "runs"), *m = json_object_get(body, "max_runs");

	if (json_check_keys(body, keys, &badkey))
		return http_error(resp, 400, "unknown field '%.64s'", badkey), -1;
	if (api_opt_string(body, "label", 64, &in->label, resp) ||
	    api_opt_string(body, "host", 64, &in->host, resp) ||
	    api_opt_string(body, "backend", 32, &in->backend, resp) ||
	    api_opt_string(body, "kind", 16, &in->kind, resp))
		return -1;
	if ((in->label && !lab_valid_name(in->label)) ||
	    (in->host && !lab_valid_name(in->host)) ||
	    (in->backend && !lab_valid_name(in->backend)))
		return http_error(resp, 400, "label, host and backend must be names"
				  " of [A-Za-z0-9._+-]"), -1;
	if (!in->kind || (strcmp(in->kind, "aa") && strcmp(in->kind, "ladder")))
		return http_error(resp, 400, "'kind' must be \"aa\" or \"ladder\""), -1;
	in->runs = !strcmp(in->kind, "aa") ? 10 : 5;
	if (r && (!json_is_integer(r) || json_integer_value(r) < 2 ||
		  json_integer_value(r) > 100))
		return http_error(resp, 400, "'runs' must be an integer in [2, 100]"), -1;
	in->runs = r ? (int)json_integer_value(r) : in->runs;
	if (m && (!json_is_integer(m) || json_integer_value(m) < in->runs ||
		  json_integer_value(m) > 500))
		return http_error(resp, 400, "'max_runs' must be an integer in"
				  " [runs, 500]"), -1;
	in->max_runs = m ? (int)json_integer_value(m) : in->runs;
	if (json_object_get(body, "steps") && strcmp(in->kind, "ladder"))
		return http_error(resp, 400, "'steps' is for a ladder only"), -1;
	if (parse_steps(json_object_get(body, "steps"), in, resp) ||
	    parse_host(req, in, resp) ||
	    parse_bench(json_object_get(body, "bench"), in, resp) ||
	    parse_patch(req, json_object_get(body, "patch"), in, resp))
		return -1;
	calibration_variants(in);
	return 0;
}

static int created(struct http_req *req, struct http_resp *resp,
		   const struct calibration *in, int64_t exp)
{
	api_experiment_queued(req, resp, exp);
	return http_json(resp, 201, json_pack("{s:I,s:s,s:s,s:i,s:i}", "id",
		(json_int_t)exp, "url", resp->location, "kind", in->kind, "variants",
		in->nsteps, "jobs", in->nsteps * in->runs));
}

int api_calibrations_post(struct http_req *req, struct http_resp *resp)
{
	struct calibration *in = calloc(1, sizeof(*in));
	json_t *body = http_json_body(req, resp);
	char err[512];
	int64_t exp;
	int ret = 0, status;

	if (!body || !in) {
		ret = body ? -1 : 0;
		goto out;
	}
	if (server_write_begin(req)) {
		ret = http_error(resp, 503, "database busy");
		goto out;
	}
	/* The perflab_canary=N command lines are made by the lab from
	 * integers, not taken from the request: no allowlist check. */
	if (parse_body(req, body, in, resp) ||
	    api_trust_request(req, resp, in->backend, in->nsteps * in->runs))
		goto rollback;
	exp = calibration_create(req->db, in, req->auth.key_id, &status, err,
				 sizeof(err));
	if (exp < 0) {
		ret = status == 500 ? -1 : http_error(resp, status, "%s", err);
		goto rollback;
	}
	if (db_commit(req->db)) {
		ret = -1;
		goto rollback;
	}
	ret = created(req, resp, in, exp);
	goto out;
rollback:
	db_rollback(req->db);
out:
	if (in)
		free(in->bench);
	free(in);
	json_decref(body);
	return ret;
}

/* ---- GET ------------------------------------------------------------- */

static json_t *one_row(sqlite3 *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *o = NULL;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		o = json_row(st);
	sqlite3_finalize(st);
	return o;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The stored fit, completed by refitting its points (cost, noise, MDE). */
static json_t *ladder_json(sqlite3 *db, int64_t exp)
{
	json_t *o = one_row(db, "SELECT metric, slope_pct, intercept_pct, r2,"
			    " slope_se, mde_units, points AS points_json FROM"
			    " ladder_fits WHERE experiment_id = ? ORDER BY id DESC"
			    " LIMIT 1", exp);
	json_t *pts = json_object_get(o, "points"), *p;
	size_t i, np = json_array_size(pts);
	double *n = calloc(np + 1, sizeof(*n)), *v = calloc(np + 1, sizeof(*v));
	const struct metric_def *md;
	struct verdict_opts vo;
	struct ladder_fit f;

	if (!o || !n || !v || !np || !json_object_get(json_array_get(pts, 0), "value"))
		goto out;
	json_array_foreach(pts, i, p) {
		n[i] = json_number_value(json_object_get(p, "n"));
		v[i] = json_number_value(json_object_get(p, "value"));
	}
	verdict_opts_default(&vo);
	if (ladder_fit(n, v, np, &vo, &f))
		goto out;
	json_object_set_new(o, "control_value", num_or_null(f.ctrl_median));
	json_object_set_new(o, "cost_per_unit", num_or_null(f.cost_per_unit));
	md = metric_def_find(json_string_value(json_object_get(o, "metric")));
	json_object_set_new(o, "cost_unit", json_string(md ? md->label : "?"));
	json_object_set_new(o, "noise_pct", num_or_null(f.noise_pct));
	json_object_set_new(o, "mde_pct", num_or_null(f.mde_pct));
	json_object_set_new(o, "mde_runs", json_integer((json_int_t)f.runs));
out:
	free(n);
	free(v);
	return o ? o : json_null();
}

/* The newest comparison of every variant against the control. */
static json_t *steps_json(sqlite3 *db, int64_t exp, long *min_n)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT v.name AS variant, v.cmdline, c.metric, c.verdict,"
		" c.delta_pct, c.ci_low, c.ci_high, c.p_value, c.mde_pct, c.runs"
		" FROM comparisons c JOIN variants v ON v.id = c.variant_id WHERE"
		" c.id IN (SELECT max(id) FROM comparisons WHERE experiment_id = ?"
		" GROUP BY variant_id) ORDER BY v.idx");
	json_t *a, *s;
	size_t i;

	*min_n = -1;
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, exp);
	a = json_rows(st);
	sqlite3_finalize(st);
	json_array_foreach(a, i, s) {
		const char *c = json_string_value(json_object_get(s, "cmdline"));
		const char *k = json_string_value(json_object_get(s, "verdict"));
		const char *p = c ? strstr(c, "perflab_canary=") : NULL;
		long n = p ? strtol(p + strlen("perflab_canary="), NULL, 10) : -1;
		int dist = k && (!strcmp(k, "regression") || !strcmp(k, "improvement"));

		if (n >= 0)
			json_object_set_new(s, "n", json_integer(n));
		json_object_set_new(s, "distinguished", json_boolean(dist));
		if (dist && n > 0 && (*min_n < 0 || n < *min_n))
			*min_n = n;
	}
	return a;
}

static int add_results(sqlite3 *db, json_t *c)
{
	int64_t exp = json_integer_value(json_object_get(c, "id"));
	json_t *steps, *noise;
	long min_n;

	noise = one_row(db, "SELECT metric, runs, noise_pct, mde_pct, computed_at"
			" FROM host_calibration WHERE experiment_id = ? ORDER BY id"
			" DESC LIMIT 1", exp);
	steps = steps_json(db, exp, &min_n);
	if (!steps)
		return -1;
	json_object_set_new(c, "noise", noise ? noise : json_null());
	json_object_set_new(c, "comparisons", steps);
	if (strcmp(json_string_value(json_object_get(c, "kind")), "ladder"))
		return 0;
	json_object_set_new(c, "fit", ladder_json(db, exp));
	json_object_set_new(c, "smallest_distinguished_n",
			    min_n >= 0 ? json_integer(min_n) : json_null());
	return 0;
}

int api_calibrations_list(struct http_req *req, struct http_resp *resp)
{
	const char *label = http_query(req, "label"), *host = http_query(req, "host");
	const char *lim = http_query(req, "limit");
	long limit = lim ? strtol(lim, NULL, 10) : 50;
	sqlite3_stmt *st;
	json_t *a, *c;
	size_t i;

	if (limit < 1 || limit > 500)
		return http_error(resp, 400, "limit must be in [1, 500]");
	st = db_prepare(req->db,
		"SELECT e.id, CASE WHEN (SELECT count(DISTINCT cmdline) FROM variants"
		"  WHERE experiment_id = e.id AND cmdline LIKE '%perflab_canary=%') >= 2"
		"  THEN 'ladder' ELSE 'aa' END AS kind, e.title, e.state, e.label,"
		" h.name AS host, COALESCE(e.backend, h.backend) AS backend, e.runs,"
		" e.bench AS bench_json, e.created_at FROM experiments e LEFT JOIN"
		" hosts h ON h.id = e.host_id WHERE e.kind = 'calibration' AND"
		" (?1 IS NULL OR e.label = ?1) AND (?2 IS NULL OR h.name = ?2)"
		" ORDER BY e.id DESC LIMIT ?3");
	if (!st)
		return -1;
	if (label)
		sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (host)
		sqlite3_bind_text(st, 2, host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, limit);
	a = json_rows(st);
	sqlite3_finalize(st);
	if (!a)
		return -1;
	json_array_foreach(a, i, c)
		if (add_results(req->db, c)) {
			json_decref(a);
			return -1;
		}
	return http_json(resp, 200, json_pack("{s:o}", "calibrations", a));
}
