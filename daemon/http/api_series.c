// SPDX-License-Identifier: MIT
/*
 * Tracked baselines, series, import and change points; see api_series.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/alerts.h"
#include "daemon/http/api.h"
#include "daemon/http/api_series.h"
#include "daemon/analysis/changepoint.h"
#include "daemon/store/db.h"
#include "daemon/lab/planner.h"
#include "daemon/analysis/series_import.h"
#include "daemon/lab/trust.h"


int64_t series_get_or_create(sqlite3 *db, const char *name, const char *metric,
			     int64_t host_id, int64_t baseline_id)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO series (name, metric, host_id, baseline_id, created_at)"
		" VALUES (?, ?, NULLIF(?, 0), NULLIF(?, 0), ?) ON CONFLICT (name, metric)"
		" DO UPDATE SET name = excluded.name RETURNING id");
	int64_t id = -1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, host_id);
	sqlite3_bind_int64(st, 4, baseline_id);
	sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int series_add_point(sqlite3 *db, int64_t sid, int64_t t, double value,
		     const char *label, int64_t run_id, int64_t exp_id)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO series_points (series_id, t, value, label, run_id,"
		" experiment_id, created_at) VALUES (?, ?, ?, ?, NULLIF(?, 0),"
		" NULLIF(?, 0), ?)");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int64(st, 2, t);
	sqlite3_bind_double(st, 3, value);
	if (label && *label)
		sqlite3_bind_text(st, 4, label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, run_id);
	sqlite3_bind_int64(st, 6, exp_id);
	sqlite3_bind_int64(st, 7, (int64_t)time(NULL));
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

static int higher_is_worse(const char *metric)
{
	size_t n = strlen(metric);

	return !strcmp(metric, "ns_per_io") || strstr(metric, "latency") ||
	       (n > 3 && !strcmp(metric + n - 3, "_ns"));
}

static int64_t store_cp(sqlite3 *db, int64_t sid, int64_t pid, int64_t t,
			const struct cp *c, const char *state, time_t now)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO change_points (series_id, point_id, t, mean_before,"
		" mean_after, delta_pct, p_value, detected_at, state)"
		" VALUES (?,?,?,?,?,?,?,?,?)");
	int64_t id = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int64(st, 2, pid);
	sqlite3_bind_int64(st, 3, t);
	sqlite3_bind_double(st, 4, c->mean_before);
	sqlite3_bind_double(st, 5, c->mean_after);
	if (isfinite(c->delta_pct))
		sqlite3_bind_double(st, 6, c->delta_pct);
	sqlite3_bind_double(st, 7, c->p);
	sqlite3_bind_int64(st, 8, (int64_t)now);
	sqlite3_bind_text(st, 9, state, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return id;
}

/* A stored change point's new state and figures from this run. */
static int update_cp(sqlite3 *db, int64_t id, const char *state,
		     const struct cp *c)
{
	sqlite3_stmt *st = db_prepare(db,
		"UPDATE change_points SET state = ?, mean_before = COALESCE(?,"
		" mean_before), mean_after = COALESCE(?, mean_after), delta_pct ="
		" COALESCE(?, delta_pct), p_value = COALESCE(?, p_value) WHERE id = ?");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	if (c) {
		sqlite3_bind_double(st, 2, c->mean_before);
		sqlite3_bind_double(st, 3, c->mean_after);
		if (isfinite(c->delta_pct))
			sqlite3_bind_double(st, 4, c->delta_pct);
		sqlite3_bind_double(st, 5, c->p);
	}
	sqlite3_bind_int64(st, 6, id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

struct spoints {
	int64_t *ids, *ts;
	double *x;
	size_t n;
	char metric[64];
};

static void spoints_free(struct spoints *p)
{
	free(p->ids);
	free(p->ts);
	free(p->x);
}

static int load_points(sqlite3 *db, int64_t sid, struct spoints *p)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT id, t, value FROM series_points WHERE series_id = ?"
		" ORDER BY t, id LIMIT 200000");
	size_t cap = 0;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	snprintf(p->metric, sizeof(p->metric), "iops");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (p->n == cap) {
			int64_t *i, *t;
			double *x;

			cap = cap ? 2 * cap : 256;
			i = realloc(p->ids, cap * sizeof(*i));
			if (i)
				p->ids = i;
			t = realloc(p->ts, cap * sizeof(*t));
			if (t)
				p->ts = t;
			x = realloc(p->x, cap * sizeof(*x));
			if (x)
				p->x = x;
			if (!i || !t || !x)
				goto out;
		}
		p->ids[p->n] = sqlite3_column_int64(st, 0);
		p->ts[p->n] = sqlite3_column_int64(st, 1);
		p->x[p->n++] = sqlite3_column_double(st, 2);
	}
	sqlite3_finalize(st);
	st = db_prepare(db, "SELECT metric FROM series WHERE id = ?");
	if (st) {
		sqlite3_bind_int64(st, 1, sid);
		if (sqlite3_step(st) == SQLITE_ROW)
			snprintf(p->metric, sizeof(p->metric), "%s",
				 sqlite3_column_text(st, 0));
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* Detection and merge on x[0..n): the change points in a new array. */
static int detect(const double *x, size_t n, const struct cp_opts *o,
		  struct cp **out)
{
	size_t max = n / 5 + 1;
	int k;

	*out = calloc(max, sizeof(**out));
	if (!*out)
		return -1;
	if (n < 2 * (size_t)o->min_size)
		return 0;
	k = cp_detect(x, n, o, *out, max);
	return k < 0 ? -1 : cp_merge(x, n, o, *out, (size_t)k);
}

static int is_worse(const char *metric, const struct cp *c)
{
	return higher_is_worse(metric) ? c->delta_pct > 0 : c->delta_pct < 0;
}

/*
 * Stored change points against this run (@cur) and the run before the
 * last point (@prev): gone ones are retracted; one found by both runs is
 * confirmed (and alerts when it makes the metric worse); new ones are
 * stored as candidates (or confirmed when @prev had them too). Inside a
 * transaction; @alert gets the ids to alert on. Returns new rows or -1.
 */
static int reconcile(sqlite3 *db, int64_t sid, const struct spoints *p,
		     const struct cp *cur, int k, const struct cp *prev,
		     int kp, const struct cp_opts *o, int64_t *alert,
		     size_t *nalert, time_t now)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, point_id, state FROM"
				      " change_points WHERE series_id = ?");
	size_t min = (size_t)o->min_size;
	unsigned char *seen = calloc((size_t)k + 1, 1);
	int fresh = 0, ret = -1;

	if (!st || !seen)
		goto out;
	sqlite3_bind_int64(st, 1, sid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		int64_t pid = sqlite3_column_int64(st, 1);
		const char *was = (const char *)sqlite3_column_text(st, 2);
		const char *now_state;
		long c = -1, idx = -1;

		for (size_t i = 0; i < p->n && idx < 0; i++)
			if (p->ids[i] == pid)
				idx = (long)i;
		if (idx >= 0)
			c = cp_find(cur, (size_t)k, (size_t)idx, min);
		if (c < 0) {
			now_state = "retracted";
		} else {
			seen[c] = 1;
			now_state = !strcmp(was, "confirmed") ||
						    cp_find(prev, (size_t)kp, cur[c].index, min) >= 0 ?
					    "confirmed" : "candidate";
		}
		if (update_cp(db, id, now_state, c >= 0 ? &cur[c] : NULL))
			goto out;
		if (c >= 0 && strcmp(was, "confirmed") &&
		    !strcmp(now_state, "confirmed") && is_worse(p->metric, &cur[c]))
			alert[(*nalert)++] = id;
	}
	for (int c = 0; c < k; c++) {
		int confirmed = cp_find(prev, (size_t)kp, cur[c].index, min) >= 0;
		int64_t id;

		if (seen[c])
			continue;
		id = store_cp(db, sid, p->ids[cur[c].index], p->ts[cur[c].index],
			      &cur[c], confirmed ? "confirmed" : "candidate", now);
		if (id < 0)
			goto out;
		fresh++;
		if (confirmed && is_worse(p->metric, &cur[c]))
			alert[(*nalert)++] = id;
	}
	ret = fresh;
out:
	sqlite3_finalize(st);
	free(seen);
	return ret;
}

int series_detect(sqlite3 *db, int64_t sid, time_t now)
{
	struct cp *cur = NULL, *prev = NULL;
	struct spoints p;
	struct cp_opts o;
	int64_t *alert = NULL;
	size_t nalert = 0;
	int k, kp, fresh, ret = -1;

	if (load_points(db, sid, &p))
		goto out;
	cp_opts_default(&o);
	o.seed ^= (uint64_t)sid;
	/* The run before the last point, and the full re-run. */
	kp = detect(p.x, p.n ? p.n - 1 : 0, &o, &prev);
	k = kp < 0 ? -1 : detect(p.x, p.n, &o, &cur);
	if (k < 0)
		goto out;
	/* Every stored row may alert at most once: bound by both counts. */
	alert = calloc((size_t)k + (size_t)db_int(db, 0, "SELECT count(*) FROM"
				" change_points WHERE series_id = ?", 1, sid) + 1,
		       sizeof(*alert));
	if (!alert || db_begin(db))
		goto out;
	fresh = reconcile(db, sid, &p, cur, k, prev, kp, &o, alert, &nalert, now);
	if (fresh < 0 || db_commit(db)) {
		db_rollback(db);
		goto out;
	}
	/* Alerts have their own transactions. */
	for (size_t i = 0; i < nalert; i++)
		if (alerts_raise_change_point(db, alert[i], 1, now) < 0)
			goto out;
	ret = fresh;
out:
	spoints_free(&p);
	free(cur);
	free(prev);
	free(alert);
	return ret;
}

/* ---- baselines ------------------------------------------------------------------ */

static int64_t queue_baseline(sqlite3 *db, sqlite3_stmt *row, char *err,
			      size_t errlen)
{
	struct variant_spec v = { .name = "base", .is_control = true,
				  .cmdline = "", .setup = "" };
	struct experiment_spec e = {
		.title = (const char *)sqlite3_column_text(row, 1),
		.kind = "baseline",
		.label = (const char *)sqlite3_column_text(row, 3),
		.backend = (const char *)sqlite3_column_text(row, 4),
		.config = "",
		.base_id = sqlite3_column_int64(row, 2),
		.bench_json = (const char *)sqlite3_column_text(row, 5),
		.runs = sqlite3_column_int(row, 6),
		.max_runs = sqlite3_column_int(row, 6),
		.baseline_id = sqlite3_column_int64(row, 0),
		.variants = &v,
		.nvariants = 1,
	};

	return planner_create(db, &e, err, errlen);
}

int series_baselines_tick(sqlite3 *db, time_t now)
{
	sqlite3_stmt *st;
	int queued = 0;
	char err[256];

	if (db_begin(db))
		return -1;
	st = db_prepare(db,
		"SELECT b.id, b.name, b.base_id, b.label, b.backend, b.bench, b.runs,"
		" b.schedule_seconds FROM baselines b WHERE b.enabled = 1 AND"
		" COALESCE(b.next_run_at, 0) <= ? AND NOT EXISTS (SELECT 1 FROM"
		" experiments e WHERE e.baseline_id = b.id AND e.state IN"
		" ('queued', 'running'))");
	if (!st)
		goto fail;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (queue_baseline(db, st, err, sizeof(err)) < 0) {
			fprintf(stderr, "perflabd: baseline %s: %s\n",
				sqlite3_column_text(st, 1), err);
			goto fail;
		}
		if (db_int(db, -1, "UPDATE baselines SET next_run_at = ? + ?"
			   " WHERE id = ? RETURNING id", 3, (int64_t)now,
			   sqlite3_column_int64(st, 7),
			   sqlite3_column_int64(st, 0)) < 0)
			goto fail;
		queued++;
	}
	sqlite3_finalize(st);
	return db_commit(db) ? -1 : queued;
fail:
	sqlite3_finalize(st);
	db_rollback(db);
	return -1;
}

int api_baselines_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "name", "base", "label", "backend",
		"bench", "runs", "schedule_seconds", NULL };
	const char *name = NULL, *base = NULL, *label = NULL, *backend = NULL;
	json_t *body = http_json_body_keys(req, resp, keys), *bench = NULL;
	json_int_t runs = 1, sched;
	sqlite3_stmt *st = NULL;
	int64_t base_id, id;
	char err[256], *btxt = NULL;
	int ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "name", 64, &name, resp) ||
	    api_opt_string(body, "base", 64, &base, resp) ||
	    api_opt_string(body, "label", 64, &label, resp) ||
	    api_opt_string(body, "backend", 32, &backend, resp))
		goto out;
	if (!name || !api_valid_name(name)) {
		ret = http_error(resp, 400, "\"name\" is required: 1..64 of [A-Za-z0-9._+-]");
		goto out;
	}
	if ((label && !api_valid_name(label)) || (backend && !api_valid_name(backend))) {
		ret = http_error(resp, 400, "\"label\" and \"backend\" must be names of [A-Za-z0-9._+-]");
		goto out;
	}
	if (backend && trust_backend_check(req->db, backend, err, sizeof(err))) {
		ret = http_error(resp, 422, "%s", err);
		goto out;
	}
	if (json_object_get(body, "runs")) {
		runs = json_integer_value(json_object_get(body, "runs"));
		if (!json_is_integer(json_object_get(body, "runs")) || runs < 1 || runs > 100) {
			ret = http_error(resp, 400, "\"runs\" must be an integer 1..100");
			goto out;
		}
	}
	sched = json_integer_value(json_object_get(body, "schedule_seconds"));
	if (!json_is_integer(json_object_get(body, "schedule_seconds")) ||
	    sched < 60 || sched > 90 * 86400) {
		ret = http_error(resp, 400, "\"schedule_seconds\" must be an integer 60..7776000");
		goto out;
	}
	bench = api_bench_params(json_object_get(body, "bench"), err, sizeof(err));
	if (!bench) {
		ret = http_error(resp, 400, "%s", err);
		goto out;
	}
	st = db_prepare(req->db, "SELECT id FROM bases WHERE name = ?");
	if (!st) {
		ret = -1;
		goto out;
	}
	sqlite3_bind_text(st, 1, base ? base : "linux-6.1", -1, SQLITE_STATIC);
	base_id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_finalize(st);
	st = NULL;
	if (base_id < 0) {
		ret = http_error(resp, 422, "no such base \"%s\"", base ? base : "linux-6.1");
		goto out;
	}
	btxt = json_dumps(bench, JSON_COMPACT | JSON_SORT_KEYS);
	st = db_prepare(req->db,
		"INSERT INTO baselines (name, base_id, label, backend, bench, runs,"
		" schedule_seconds, next_run_at, created_at) VALUES (?,?,?,?,?,?,?,?,?)");
	if (!st || !btxt) {
		ret = -1;
		goto out;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, base_id);
	if (label)
		sqlite3_bind_text(st, 3, label, -1, SQLITE_STATIC);
	if (backend)
		sqlite3_bind_text(st, 4, backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, btxt, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, runs);
	sqlite3_bind_int64(st, 7, sched);
	sqlite3_bind_int64(st, 8, (int64_t)time(NULL));
	sqlite3_bind_int64(st, 9, (int64_t)time(NULL));
	if (sqlite3_step(st) != SQLITE_DONE) {
		ret = http_error(resp, 409, "baseline \"%s\" exists", name);
		goto out;
	}
	id = sqlite3_last_insert_rowid(req->db);
	ret = http_json(resp, 201, json_pack("{s:I, s:s}", "id", (json_int_t)id,
					     "name", name));
out:
	sqlite3_finalize(st);
	free(btxt);
	json_decref(bench);
	json_decref(body);
	return ret;
}

static int reply_rows(struct http_req *req, struct http_resp *resp,
		      const char *sql, const char *key)
{
	sqlite3_stmt *st = db_prepare(req->db, sql);
	json_t *a;

	if (!st)
		return -1;
	a = json_rows(st);
	sqlite3_finalize(st);
	return http_json(resp, 200, json_pack("{s:o}", key, a));
}

int api_baselines_list(struct http_req *req, struct http_resp *resp)
{
	return reply_rows(req, resp,
		"SELECT b.id, b.name, ba.name AS base, b.label, b.backend,"
		" b.bench AS bench_json, b.runs, b.schedule_seconds, b.next_run_at,"
		" b.enabled, b.created_at, (SELECT json_group_array(s.id) FROM series s"
		" WHERE s.baseline_id = b.id) AS series_json FROM baselines b"
		" JOIN bases ba ON ba.id = b.base_id ORDER BY b.id", "baselines");
}

/* ---- series ------------------------------------------------------------------------ */

static json_t *rows_for(sqlite3 *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *a;

	if (!st)
		return json_array();
	sqlite3_bind_int64(st, 1, id);
	a = json_rows(st);
	sqlite3_finalize(st);
	return a;
}

/* [[t, value], ...]: what a chart needs, a fifth of the full rows' size. */
static json_t *point_pairs(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT t, value FROM series_points"
				      " WHERE series_id = ? ORDER BY t, id");
	json_t *a = json_array();

	if (!st)
		return a;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(a, json_pack("[I,f]",
			(json_int_t)sqlite3_column_int64(st, 0),
			sqlite3_column_double(st, 1)));
	sqlite3_finalize(st);
	return a;
}

int api_series_get(struct http_req *req, struct http_resp *resp)
{
	const char *ids = http_query(req, "id"), *name = http_query(req, "name");
	const char *metric = http_query(req, "metric");
	const char *format = http_query(req, "format");
	json_t *s, *arr;
	int64_t id = -1;
	char *end;

	if (format && strcmp(format, "pairs") && strcmp(format, "rows"))
		return http_error(resp, 400, "format must be rows or pairs");

	if (!ids && !name)
		return reply_rows(req, resp,
			"SELECT s.id, s.name, s.metric, s.host_id, s.baseline_id, s.label,"
			" (SELECT count(*) FROM series_points p WHERE p.series_id = s.id)"
			" AS points, (SELECT count(*) FROM change_points c WHERE"
			" c.series_id = s.id AND c.state != 'retracted') AS change_points FROM series s ORDER BY s.id",
			"series");
	if (ids) {
		id = strtoll(ids, &end, 10);
		if (*end || end == ids || id <= 0)
			return http_error(resp, 400, "id must be a positive integer");
	} else {
		sqlite3_stmt *st = db_prepare(req->db,
			"SELECT id FROM series WHERE name = ? AND metric = ?");

		if (!st)
			return -1;
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, metric ? metric : "iops", -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	arr = rows_for(req->db, "SELECT id, name, metric, host_id, baseline_id,"
		       " label, created_at FROM series WHERE id = ?", id);
	s = json_incref(json_array_get(arr, 0));
	json_decref(arr);
	if (!s)
		return http_error(resp, 404, "no such series");
	if (format && !strcmp(format, "pairs"))
		json_object_set_new(s, "points", point_pairs(req->db, id));
	else
		json_object_set_new(s, "points", rows_for(req->db,
			"SELECT id, t, value, label, run_id, experiment_id FROM"
			" series_points WHERE series_id = ? ORDER BY t, id", id));
	json_object_set_new(s, "change_points", rows_for(req->db,
		"SELECT c.id, c.point_id, c.t, p.label, c.mean_before, c.mean_after,"
		" c.delta_pct, c.p_value, c.detected_at, c.state FROM change_points c"
		" LEFT JOIN series_points p ON p.id = c.point_id WHERE c.series_id = ?"
		" AND c.state != 'retracted' ORDER BY c.t",
		id));
	return http_json(resp, 200, s);
}

/* ---- import ------------------------------------------------------------------------- */

static int store_points(sqlite3 *db, const char *name, const char *metric,
			const struct series_point_in *pts, size_t n, int64_t *sid)
{
	if (db_begin(db))
		return -1;
	*sid = series_get_or_create(db, name, metric, 0, 0);
	if (*sid < 0)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (series_add_point(db, *sid, pts[i].t, pts[i].v, pts[i].label, 0, 0))
			goto fail;
	return db_commit(db);
fail:
	db_rollback(db);
	return -1;
}

int api_series_import(struct http_req *req, struct http_resp *resp)
{
	const char *name = http_query(req, "name"), *metric = http_query(req, "metric");
	struct series_point_in *pts = NULL;
	json_t *body = NULL;
	size_t n = 0;
	int64_t sid;
	char err[256] = "bad input";
	int ret, fresh;

	if (req->body[strspn(req->body, " \t\r\n")] == '{') {
		static const char *const keys[] = { "name", "metric", "points", NULL };

		body = http_json_body_keys(req, resp, keys);
		if (!body)
			return 0;
		if (json_is_string(json_object_get(body, "name")))
			name = json_string_value(json_object_get(body, "name"));
		if (json_is_string(json_object_get(body, "metric")))
			metric = json_string_value(json_object_get(body, "metric"));
		ret = series_parse_json_points(json_object_get(body, "points"), &pts, &n,
					err, sizeof(err));
	} else {
		ret = series_parse_csv(req->body, &pts, &n, err, sizeof(err));
	}
	if (ret) {
		ret = http_error(resp, 400, "%s", err);
		goto out;
	}
	if (!name || !*name || strlen(name) > 128 || (metric && strlen(metric) > 64)) {
		ret = http_error(resp, 400, "a series \"name\" (1..128 bytes) is required");
		goto out;
	}
	if (!n) {
		ret = http_error(resp, 400, "no points");
		goto out;
	}
	if (store_points(req->db, name, metric ? metric : "iops", pts, n, &sid)) {
		ret = -1;
		goto out;
	}
	fresh = series_detect(req->db, sid, time(NULL));
	ret = http_json(resp, 201, json_pack("{s:I, s:I, s:i}", "series_id",
		(json_int_t)sid, "imported", (json_int_t)n, "new_change_points",
		fresh < 0 ? 0 : fresh));
out:
	free(pts);
	json_decref(body);
	return ret;
}
