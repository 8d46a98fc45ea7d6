// SPDX-License-Identifier: MIT
/*
 * Tracked baselines, series, import and change points; see api_series.h.
 * The series logic itself is daemon/lab/series.c.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/state.h"
#include "daemon/analysis/series_import.h"
#include "daemon/http/api.h"
#include "daemon/http/api_series.h"
#include "daemon/lab/series.h"
#include "daemon/lab/trust.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

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
	if (!name || !lab_valid_name(name)) {
		ret = http_error(resp, 400, "\"name\" is required: 1..64 of [A-Za-z0-9._+-]");
		goto out;
	}
	if ((label && !lab_valid_name(label)) || (backend && !lab_valid_name(backend))) {
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
	bench = bench_params_json(json_object_get(body, "bench"), err, sizeof(err));
	if (!bench) {
		ret = http_error(resp, 400, "%s", err);
		goto out;
	}
	/* Git bases have no tree to re-run: their history is a track's. */
	st = db_prepare(req->db, "SELECT CASE kind WHEN 'git' THEN 0 ELSE id END"
			" FROM bases WHERE name = ?");
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
	if (base_id == 0) {
		ret = http_error(resp, 422, "base \"%s\" is a git base: track it"
				 " (POST /api/v1/tracks)", base);
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
	if (store_points(server_write_take(req), name, metric ? metric : "iops", pts, n, &sid)) {
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
