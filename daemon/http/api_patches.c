// SPDX-License-Identifier: MIT
/*
 * POST /api/v1/patches, GET /api/v1/patches/{id}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/state.h"
#include "daemon/http/api.h"
#include "daemon/http/api_trust.h"
#include "daemon/store/db.h"
#include "daemon/analysis/patch_parse.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/patches.h"
#include "daemon/lab/planner.h"

#define MAX_SERIES 100

static int query_int(struct http_req *req, struct http_resp *resp, const char *k,
		     int def, int min, int max, int *out)
{
	const char *v = http_query(req, k);
	char *end;
	long n;

	*out = def;
	if (!v)
		return 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || n < min || n > max) {
		http_error(resp, 400, "query '%s' must be an integer in [%d, %d]", k, min, max);
		return -1;
	}
	*out = (int)n;
	return 0;
}

static int query_str(struct http_req *req, struct http_resp *resp, const char *k,
		     size_t max, const char **out)
{
	const char *v = http_query(req, k);

	*out = NULL;
	if (!v || !*v)
		return 0;
	/* base may be NAME@COMMIT: bases_lookup() checks the commit part. */
	if (!strcmp(k, "base") && strchr(v, '@') && strlen(v) <= max) {
		char name[65];

		snprintf(name, sizeof(name), "%.*s", (int)(strchr(v, '@') - v), v);
		if (lab_valid_name(name)) {
			*out = v;
			return 0;
		}
	}
	if (strlen(v) > max || (!strcmp(k, "title") ? 0 : !lab_valid_name(v))) {
		http_error(resp, 400, "query '%s' is invalid (at most %zu characters%s)",
			   k, max, strcmp(k, "title") ? " of [A-Za-z0-9._+-]" : "");
		return -1;
	}
	*out = v;
	return 0;
}

int api_patches_post(struct http_req *req, struct http_resp *resp)
{
	const char *base, *label, *backend, *title, *config;
	char err[512], subject[512], titlebuf[640];
	struct variant_spec v[2] = { 0 };
	struct experiment_spec spec = { 0 };
	int64_t ids[MAX_SERIES], exp;
	json_t *bench, *o, *pl;
	int runs, max_runs, n, i, rc;
	struct patch_series series;
	struct base_ref bref;
	char *bench_s = NULL;

	if (query_int(req, resp, "runs", 5, 1, 100, &runs) ||
	    query_int(req, resp, "max_runs", 0, 0, 500, &max_runs) ||
	    query_str(req, resp, "base", 128, &base) ||
	    query_str(req, resp, "label", 64, &label) ||
	    query_str(req, resp, "backend", 32, &backend) ||
	    query_str(req, resp, "config", 64, &config) ||
	    query_str(req, resp, "title", 200, &title))
		return 0;
	if (req->body_len == 0)
		return http_error(resp, 400, "empty body: send the patch (mbox or diff) as the body");
	/* Trust and quota before any git work (checked again below). */
	if (api_trust_precheck(req, resp, backend, 2 * runs))
		return 0;
	/* A git base: its ref's head now, or the pinned NAME@COMMIT. */
	rc = bases_lookup(req->db, base ? base : "linux-6.1", &bref, err, sizeof(err));
	if (rc) {
		api_http_status(resp, rc);
		return rc == 500 ? -1 : http_error(resp, rc, "%s", err);
	}
	bench = bench_params_json(NULL, err, sizeof(err));
	if (!bench)
		return -1;
	bench_s = json_dumps(bench, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(bench);
	if (!bench_s)
		return -1;
	/* Parsing is the slow part: before the write lock. */
	if (patches_prepare(req->body, req->body_len, MAX_SERIES, &series,
			    subject, sizeof(subject), err, sizeof(err))) {
		free(bench_s);
		return http_error(resp, 400, "not a usable patch: %s", err);
	}
	if (server_write_begin(req)) {
		patch_series_free(&series);
		free(bench_s);
		return http_error(resp, 503, "database busy");
	}
	if (api_trust_request(req, resp, backend, 2 * runs)) {
		db_rollback(req->db);
		patch_series_free(&series);
		free(bench_s);
		return 0;
	}
	n = patches_store(req->db, &series, req->auth.key_id, ids, err, sizeof(err));
	patch_series_free(&series);
	if (n < 0) {
		/* A storage failure: the release rolls back and answers it. */
		free(bench_s);
		return -1;
	}
	if (!title) {
		if (n > 1)
			snprintf(titlebuf, sizeof(titlebuf), "%.200s (+%d more)", subject, n - 1);
		else
			snprintf(titlebuf, sizeof(titlebuf), "%.200s", subject);
		title = titlebuf;
	}
	v[0] = (struct variant_spec){ .name = "base", .is_control = true };
	v[1] = (struct variant_spec){ .name = "patched", .patch_ids = ids, .npatches = n };
	spec = (struct experiment_spec){
		.title = title, .kind = "patch", .label = label, .backend = backend,
		.config = config, .base_id = bref.id, .bench_json = bench_s,
		.base_commit = bref.git ? bref.commit : NULL,
		.runs = runs, .max_runs = max_runs ? max_runs : runs * 2,
		.submitter_key_id = req->auth.key_id, .variants = v, .nvariants = 2,
	};
	exp = planner_create(req->db, &spec, err, sizeof(err));
	free(bench_s);
	if (exp < 0 || db_commit(req->db)) {
		db_rollback(req->db);
		return -1;
	}
	api_experiment_queued(req, resp, exp);
	pl = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(pl, json_pack("{s:I}", "id", (json_int_t)ids[i]));
	o = json_pack("{s:I,s:o,s:i}", "id", (json_int_t)exp, "patches", pl,
		      "jobs", 2 * runs);
	if (!o)
		return -1;
	json_object_set_new(o, "url", json_string(resp->location));
	snprintf(err, sizeof(err), "/#/experiments/%lld", (long long)exp);
	json_object_set_new(o, "web_url", json_string(err));
	return http_json(resp, 201, o);
}

int api_patch_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	const char *fmt = http_query(req, "format");
	sqlite3_stmt *st;
	json_t *o, *files;
	int rc;

	if (id < 0)
		return http_error(resp, 404, "no such patch");
	st = db_prepare(req->db, "SELECT sha256, subject, author, message_id, date,"
			" raw, created_at FROM patches WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return http_error(resp, 404, "no such patch");
	}
	if (fmt && !strcmp(fmt, "raw")) {
		rc = http_text(resp, 200, "text/plain; charset=utf-8",
			       sqlite3_column_blob(st, 5), sqlite3_column_bytes(st, 5));
		sqlite3_finalize(st);
		return rc;
	}
	o = json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:I}", "id", (json_int_t)id,
		      "sha256", json_col(st, 0), "subject", json_col(st, 1),
		      "author", json_col(st, 2), "message_id", json_col(st, 3),
		      "date", json_col(st, 4), "raw", json_col(st, 5),
		      "created_at", (json_int_t)sqlite3_column_int64(st, 6));
	sqlite3_finalize(st);
	if (!o)
		return -1;
	files = json_array();
	st = db_prepare(req->db, "SELECT old_path, new_path, hunks, added, removed"
			" FROM patch_files WHERE patch_id = ? ORDER BY idx");
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		while (sqlite3_step(st) == SQLITE_ROW)
			json_array_append_new(files, json_pack("{s:o,s:o,s:i,s:i,s:i}",
				"old_path", json_col(st, 0), "new_path", json_col(st, 1),
				"hunks", sqlite3_column_int(st, 2),
				"added", sqlite3_column_int(st, 3),
				"removed", sqlite3_column_int(st, 4)));
		sqlite3_finalize(st);
	}
	json_object_set_new(o, "files", files);
	return http_json(resp, 200, o);
}
