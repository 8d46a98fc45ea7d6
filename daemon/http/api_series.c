// SPDX-License-Identifier: MIT
/*
 * Tracked baselines, series, import and change points; see api_series.h.
 * The series themselves are the lab's (lab/series.h, lab/series_json.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/analysis/series_import.h"
#include "daemon/http/api.h"
#include "daemon/http/api_series.h"
#include "daemon/lab/series.h"
#include "daemon/lab/series_json.h"
#include "daemon/lab/validate.h"

int api_baselines_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "name", "base", "label", "backend",
		"bench", "runs", "schedule_seconds", NULL };
	struct baseline_spec b = { .runs = 1 };
	json_t *body = http_json_body_keys(req, resp, keys), *v;
	char *btxt = NULL;
	struct lab_err e;
	int64_t id;
	int ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "name", 64, &b.name, resp) ||
	    api_opt_string(body, "base", 64, &b.base, resp) ||
	    api_opt_string(body, "label", 64, &b.label, resp) ||
	    api_opt_string(body, "backend", 32, &b.backend, resp))
		goto out;
	if (!b.name || !lab_valid_name(b.name)) {
		ret = http_error(resp, 400, "\"name\" is required: 1..64 of [A-Za-z0-9._+-]");
		goto out;
	}
	if ((b.label && !lab_valid_name(b.label)) || (b.backend && !lab_valid_name(b.backend))) {
		ret = http_error(resp, 400, "\"label\" and \"backend\" must be names of [A-Za-z0-9._+-]");
		goto out;
	}
	v = json_object_get(body, "runs");
	if (v && (!json_is_integer(v) || json_integer_value(v) < 1 ||
		  json_integer_value(v) > 100)) {
		ret = http_error(resp, 400, "\"runs\" must be an integer 1..100");
		goto out;
	}
	b.runs = v ? (int)json_integer_value(v) : 1;
	v = json_object_get(body, "schedule_seconds");
	if (!json_is_integer(v) || json_integer_value(v) < 60 ||
	    json_integer_value(v) > 90 * 86400) {
		ret = http_error(resp, 400, "\"schedule_seconds\" must be an integer 60..7776000");
		goto out;
	}
	b.schedule_seconds = json_integer_value(v);
	ret = api_bench(body, &btxt, resp);
	if (ret != 1)
		goto out;
	b.bench_json = btxt;
	id = series_baseline_create(req->db, &b, &e);
	ret = id < 0 ? http_lab_error(resp, &e) :
	      http_json(resp, 201, json_pack("{s:I, s:s}", "id", (json_int_t)id,
					     "name", b.name));
out:
	free(btxt);
	json_decref(body);
	return ret;
}

int api_baselines_list(struct http_req *req, struct http_resp *resp)
{
	return api_list(resp, "baselines", series_baselines_json(req->db));
}

/* ---- series ------------------------------------------------------------------------ */

int api_series_get(struct http_req *req, struct http_resp *resp)
{
	const char *ids = http_query(req, "id"), *name = http_query(req, "name");
	const char *metric = http_query(req, "metric");
	const char *format = http_query(req, "format");
	int64_t id = -1, before, next;
	struct lab_err e;
	int limit;
	json_t *s;
	char *end;

	if (format && strcmp(format, "pairs") && strcmp(format, "rows"))
		return http_error(resp, 400, "format must be rows or pairs");
	if (!ids && !name)
		return api_list(resp, "series", series_list_json(req->db));
	if (api_page_args(req, resp, SERIES_POINTS_PAGE, SERIES_POINTS_PAGE, &limit,
			  &before))
		return 0;
	if (ids) {
		id = strtoll(ids, &end, 10);
		if (*end || end == ids || id <= 0)
			return http_error(resp, 400, "id must be a positive integer");
	} else {
		id = series_find(req->db, name, metric ? metric : "iops");
	}
	if (id <= 0)
		return http_error(resp, 404, "no such series");
	s = series_page_json(req->db, id, format && !strcmp(format, "pairs"), limit,
			     before, &next, &e);
	return s ? http_json(resp, 200, s) : http_lab_error(resp, &e);
}

/* ---- import ------------------------------------------------------------------------- */

int api_series_import(struct http_req *req, struct http_resp *resp)
{
	const char *name = http_query(req, "name"), *metric = http_query(req, "metric");
	struct series_point_in *pts = NULL;
	json_t *body = NULL;
	struct lab_err e;
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
	sid = series_import(req->db, name, metric ? metric : "iops", pts, n, &fresh, &e);
	ret = sid < 0 ? http_lab_error(resp, &e) :
	      http_json(resp, 201, json_pack("{s:I, s:I, s:i}", "series_id",
			(json_int_t)sid, "imported", (json_int_t)n,
			"new_change_points", fresh));
out:
	free(pts);
	json_decref(body);
	return ret;
}
