// SPDX-License-Identifier: MIT
/*
 * Calibration experiments: making them and showing them; see
 * calibration.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/default_base.h"
#include "common/metric_defs.h"
#include "daemon/analysis/ladder.h"
#include "daemon/lab/calibration.h"
#include "daemon/lab/patches.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

static const int default_steps[] = { 0, 1, 2, 4, 8, 16, 64, 256 };

const char calibration_default_bench[] =
	"{\"runtime\":2,\"warmup\":1,\"ios\":100000,\"profile\":false,"
	"\"target\":\"nullb\"}";

void calibration_default_steps(struct calibration *c)
{
	c->nsteps = (int)(sizeof(default_steps) / sizeof(default_steps[0]));
	memcpy(c->steps, default_steps, sizeof(default_steps));
}

/* The newest stored perflab_canary patch: its id, 0 if none. */
static int64_t canary_patch(sqlite3 *db)
{
	return db_int(db, 0, "SELECT COALESCE(max(id), 0) FROM patches WHERE"
		      " subject LIKE '%perflab_canary%'", 0);
}

/* Look up @c->host: sets host_id and host_backend (and backend when
 * unset). 0, or -1 LAB_REJECTED (no such host). */
static int find_host(sqlite3 *db, struct calibration *c, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, backend FROM hosts"
				      " WHERE name = ?");

	if (!st)
		return lab_fail_db(e, db);
	c->host_id = 0;
	sqlite3_bind_text(st, 1, c->host, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		c->host_id = sqlite3_column_int64(st, 0);
		snprintf(c->host_backend, sizeof(c->host_backend), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		if (!c->backend)
			c->backend = c->host_backend;
	}
	sqlite3_finalize(st);
	return c->host_id ? 0 : lab_fail(e, LAB_REJECTED, "unknown host '%s'",
					 c->host);
}

/* The variants of @c from its kind and steps (an A/A has two). */
static void calibration_variants(struct calibration *in)
{
	int n = !strcmp(in->kind, "aa") ? 2 : in->nsteps;

	for (int i = 0; i < n; i++) {
		struct variant_spec *v = &in->v[i];

		if (!strcmp(in->kind, "aa")) {
			snprintf(in->names[i], sizeof(in->names[i]), i ? "base-aa" : "base");
			in->cmdlines[i][0] = '\0';
			v->is_control = i == 0;
		} else {
			snprintf(in->names[i], sizeof(in->names[i]), "canary-%d", in->steps[i]);
			snprintf(in->cmdlines[i], sizeof(in->cmdlines[i]),
				 "perflab_canary=%d", in->steps[i]);
			v->is_control = in->steps[i] == 0;
		}
		v->name = in->names[i];
		v->cmdline = in->cmdlines[i];
		v->setup = "";
		v->patch_ids = in->patch_ids;
		v->npatches = in->npatches;
	}
	in->nsteps = n;
}

/* Queue the experiment of @c, pinned to @c->host_id when set, inside the
 * caller's transaction. Its id, or -1 (LAB_REJECTED: no default base). */
static int64_t create(sqlite3 *db, struct calibration *c, int64_t key_id,
		      struct lab_err *e)
{
	struct experiment_spec spec;
	char title[160];
	int64_t exp;

	snprintf(title, sizeof(title), "Calibration %s on %s", c->kind,
		 c->host ? c->host : c->label);
	spec = (struct experiment_spec){
		.title = title, .kind = "calibration", .label = c->label,
		.backend = c->backend, .config = NULL, .base_id = 0,
		.bench_json = c->bench, .runs = c->runs, .max_runs = c->max_runs,
		.submitter_key_id = key_id, .variants = c->v,
		.nvariants = c->nsteps,
	};
	spec.base_id = db_int(db, 0, "SELECT id FROM bases WHERE name ="
			      " '" PERFLAB_DEFAULT_BASE "'", 0);
	if (spec.base_id <= 0)
		return lab_fail(e, LAB_REJECTED,
				"unknown base '" PERFLAB_DEFAULT_BASE "'");
	exp = planner_create(db, &spec, e);
	if (exp < 0)
		return -1;
	/* A calibration measures one host: pin it there. */
	if (c->host_id && db_int(db, -1, "UPDATE experiments SET host_id = ?"
				 " WHERE id = ? RETURNING 0", 2, c->host_id,
				 exp) != 0)
		return lab_fail_db(e, db);
	return exp;
}

/* 'patch': patch text or a stored patch id; a ladder defaults to the
 * newest stored perflab_canary patch. */
static int resolve_patch(sqlite3 *w, const struct trust_who *who,
			 struct calibration *c, const json_t *p,
			 struct lab_err *e)
{
	int k;

	c->npatches = 0;
	if (json_is_integer(p)) {
		c->patch_ids[0] = json_integer_value(p);
		if (!patches_exists(w, c->patch_ids[0]))
			return lab_fail(e, LAB_REJECTED, "no stored patch with id"
					" %lld", (long long)c->patch_ids[0]);
		c->npatches = 1;
	} else if (json_is_string(p)) {
		k = patches_store_text(w, json_string_value(p),
				       json_string_length(p), who->key_id,
				       c->patch_ids, CAL_MAX_PATCHES, NULL, 0, e);
		if (k < 0)
			return e->st == LAB_INVALID ?
			       lab_prefix(e, "'patch' is not a usable patch") : -1;
		c->npatches = k;
	} else if (p) {
		return lab_fail(e, LAB_INVALID, "'patch' must be patch text or a"
				" patch id");
	} else if (!strcmp(c->kind, "ladder")) {
		c->patch_ids[0] = canary_patch(w);
		if (!c->patch_ids[0])
			return lab_fail(e, LAB_REJECTED, "no perflab_canary patch is"
					" stored: send kernel-patches/0004-block-"
					"perflab_canary-calibration-parameter.patch"
					" as 'patch'");
		c->npatches = 1;
	}
	return 0;
}

static int64_t submit(sqlite3 *w, const struct trust_who *who,
		      struct calibration *c, const json_t *patch,
		      struct lab_err *e)
{
	int64_t exp;

	if ((c->host && find_host(w, c, e)) ||
	    resolve_patch(w, who, c, patch, e))
		return -1;
	calibration_variants(c);
	/* The perflab_canary=N command lines are made here from integers,
	 * not taken from the request: no allowlist check. */
	if (trust_request(w, who, c->backend, c->nsteps * c->runs, e))
		return -1;
	exp = create(w, c, who->key_id, e);
	if (exp >= 0 && db_commit(w))
		return lab_fail_db(e, w);
	return exp;
}

int64_t calibration_submit(sqlite3 *db, const struct trust_who *who,
			   struct calibration *c, const json_t *patch,
			   struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	int64_t exp = -1;

	if (!c->host && !c->label)
		lab_fail(e, LAB_INVALID, "'label' or 'host' is required");
	else if (db_begin(w))
		lab_fail_db(e, w);
	else
		exp = submit(w, who, c, patch, e);
	db_write_unlock(db, w);
	return exp;
}

/* ---- GET /api/v1/calibrations ------------------------------------------ */

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

json_t *calibration_list_json(sqlite3 *db, const char *label,
			      const char *host, int limit)
{
	sqlite3_stmt *st;
	json_t *a, *c;
	size_t i;

	st = db_prepare(db,
		"SELECT e.id, CASE WHEN (SELECT count(DISTINCT cmdline) FROM variants"
		"  WHERE experiment_id = e.id AND cmdline LIKE '%perflab_canary=%') >= 2"
		"  THEN 'ladder' ELSE 'aa' END AS kind, e.title, e.state, e.label,"
		" h.name AS host, COALESCE(e.backend, h.backend) AS backend, e.runs,"
		" e.bench AS bench_json, e.created_at FROM experiments e LEFT JOIN"
		" hosts h ON h.id = e.host_id WHERE e.kind = 'calibration' AND"
		" (?1 IS NULL OR e.label = ?1) AND (?2 IS NULL OR h.name = ?2)"
		" ORDER BY e.id DESC LIMIT ?3");
	if (!st)
		return NULL;
	if (label)
		sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (host)
		sqlite3_bind_text(st, 2, host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, limit);
	a = json_rows(st);
	sqlite3_finalize(st);
	json_array_foreach(a, i, c)
		if (add_results(db, c)) {
			json_decref(a);
			return NULL;
		}
	return a;
}
