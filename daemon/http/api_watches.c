// SPDX-License-Identifier: MIT
/*
 * List watches over HTTP; see api_watches.h.
 */
#include <string.h>

#include "daemon/http/api_watches.h"
#include "daemon/http/request.h"
#include "daemon/lab/watch_worker.h"
#include "daemon/lab/watches.h"

static int opt_bool(json_t *body, const char *k, bool *out,
		    struct http_resp *resp)
{
	json_t *v = json_object_get(body, k);

	*out = v && json_is_true(v);
	if (v && !json_is_boolean(v))
		return http_error(resp, 400, "field '%s' must be true or false", k), -1;
	return 0;
}

int api_watches_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "name", "inbox", "query", "base",
		"ref", "submit_key", "label", "backend", "runs", "poll_seconds",
		"window_days", "complete_timeout", "mail_no_change", "list",
		"mail_apply_note", NULL };
	struct watch_spec s = { 0 };
	json_t *body = http_json_body_keys(req, resp, keys);
	struct lab_err e;
	int days, ret = 0;
	int64_t id;

	if (!body)
		return 0;
	if (api_opt_string(body, "name", 64, &s.name, resp) ||
	    api_opt_string(body, "inbox", WATCH_INBOX_MAX, &s.inbox, resp) ||
	    api_opt_string(body, "query", WATCH_QUERY_MAX, &s.query, resp) ||
	    api_opt_string(body, "base", 64, &s.base, resp) ||
	    api_opt_string(body, "ref", 256, &s.ref, resp) ||
	    api_opt_string(body, "submit_key", 64, &s.submit_key, resp) ||
	    api_opt_string(body, "label", 64, &s.label, resp) ||
	    api_opt_string(body, "backend", 32, &s.backend, resp) ||
	    api_opt_string(body, "list", 254, &s.list, resp) ||
	    api_opt_int(body, "runs", 3, 1, 20, &s.runs, resp) ||
	    api_opt_int(body, "poll_seconds", 300, 10, 86400, &s.poll_seconds, resp) ||
	    api_opt_int(body, "window_days", 7, 1, 60, &days, resp) ||
	    api_opt_int(body, "complete_timeout", 3600, 1, 7 * 86400,
			&s.complete_timeout, resp) ||
	    opt_bool(body, "mail_no_change", &s.mail_no_change, resp) ||
	    opt_bool(body, "mail_apply_note", &s.mail_apply_note, resp))
		goto out;
	s.window_seconds = days * 86400;
	s.created_by = req->auth.key_id;
	id = watches_create(req->db, &s, &e);
	if (id < 0) {
		ret = http_lab_error(resp, &e);
		goto out;
	}
	watch_worker_kick();	/* its first poll */
	ret = api_queued(req, resp, "watches", id, watches_json(req->db, id));
out:
	json_decref(body);
	return ret;
}

int api_watches_list(struct http_req *req, struct http_resp *resp)
{
	return api_list(resp, "watches", watches_list_json(req->db));
}

int api_watch_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	json_t *o = id < 0 ? NULL : watches_json(req->db, id);

	return o ? http_json(resp, 200, o) : http_error(resp, 404, "no such watch");
}

int api_watch_poll(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	struct lab_err e;

	if (id < 0)
		return http_error(resp, 404, "no such watch");
	if (watches_request_poll(req->db, id, &e))
		return http_lab_error(resp, &e);
	watch_worker_kick();
	return http_json(resp, 202, json_pack("{s:I,s:b,s:s}", "id", (json_int_t)id,
		"poll_requested", 1, "message", "the watch worker polls it now;"
		" GET the watch for its series"));
}
