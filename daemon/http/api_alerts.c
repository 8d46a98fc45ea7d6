// SPDX-License-Identifier: MIT
/*
 * Alert and webhook endpoints; see api_alerts.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/alerts.h"
#include "daemon/http/api.h"
#include "daemon/http/api_alerts.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

#define BAD_STATE \
	"state must be one of new, acknowledged, investigating, invalid, fixed, wontfix"

int api_alerts_list(struct http_req *req, struct http_resp *resp)
{
	const char *state = http_query(req, "state"), *kind = http_query(req, "kind");
	sqlite3_stmt *st;
	json_t *a;

	if (state && !alerts_state_valid(state))
		return http_error(resp, 400, BAD_STATE);
	if (kind && !alerts_kind_valid(kind))
		return http_error(resp, 400, "kind must be verdict or change_point");
	st = db_prepare(req->db,
		"SELECT a.id, a.kind, a.state, a.title, a.metric, a.delta_pct,"
		" a.experiment_id, a.comparison_id, a.series_id, a.change_point_id,"
		" a.host_id, a.created_at, a.updated_at, (SELECT who FROM alert_history"
		" h WHERE h.alert_id = a.id ORDER BY h.id DESC LIMIT 1) AS updated_by"
		" FROM alerts a WHERE (?1 IS NULL OR a.state = ?1) AND"
		" (?2 IS NULL OR a.kind = ?2) ORDER BY a.id DESC LIMIT 1000");
	if (!st)
		return -1;
	if (state)
		sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	if (kind)
		sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	a = json_rows(st);
	sqlite3_finalize(st);
	return http_json(resp, 200, json_pack("{s:o}", "alerts", a));
}

int api_alert_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	json_t *o = id > 0 ? alerts_json(req->db, id) : NULL;

	if (!o)
		return http_error(resp, 404, "no such alert");
	return http_json(resp, 200, o);
}

int api_alert_patch(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "state", "note", NULL };
	int64_t id = http_param_id(req, "id");
	const char *state = NULL, *note = NULL;
	json_t *body;
	int ret = 0, rc;

	if (id < 0)
		return http_error(resp, 404, "no such alert");
	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	if (api_opt_string(body, "state", 32, &state, resp) ||
	    api_opt_string(body, "note", 4096, &note, resp))
		goto out;
	if (!state) {
		ret = http_error(resp, 400, "\"state\" is required");
		goto out;
	}
	rc = alerts_set_state(req->db, id, state, req->auth.name, note, time(NULL));
	if (rc == -1)
		ret = http_error(resp, 400, BAD_STATE);
	else if (rc == -2)
		ret = http_error(resp, 404, "no such alert");
	else if (rc < 0)
		ret = -1;
	else
		ret = http_json(resp, 200, alerts_json(req->db, id));
out:
	json_decref(body);
	return ret;
}

int api_webhooks_list(struct http_req *req, struct http_resp *resp)
{
	sqlite3_stmt *st = db_prepare(req->db,
		"SELECT id, url, enabled, created_at FROM webhooks ORDER BY id");
	json_t *a;

	if (!st)
		return -1;
	a = json_rows(st);
	sqlite3_finalize(st);
	return http_json(resp, 200, json_pack("{s:o}", "webhooks", a));
}

int api_webhooks_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "url", "secret", NULL };
	const char *url = NULL, *secret = NULL;
	json_t *body = http_json_body_keys(req, resp, keys);
	sqlite3_stmt *st;
	int ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "url", 2048, &url, resp) ||
	    api_opt_string(body, "secret", 256, &secret, resp))
		goto out;
	if (!url || (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) ||
	    !secret || strlen(secret) < 8) {
		ret = http_error(resp, 400, "needs \"url\" (http:// or https://) and \"secret\" (at least 8 characters)");
		goto out;
	}
	st = db_prepare(req->db, "INSERT INTO webhooks (url, secret, created_at)"
			" VALUES (?, ?, ?)");
	if (!st) {
		ret = -1;
		goto out;
	}
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, secret, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		ret = http_json(resp, 201, json_pack("{s:I, s:s}", "id",
			(json_int_t)sqlite3_last_insert_rowid(req->db), "url", url));
	else
		ret = -1;
	sqlite3_finalize(st);
out:
	json_decref(body);
	return ret;
}
