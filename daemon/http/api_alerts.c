// SPDX-License-Identifier: MIT
/*
 * Alert and webhook endpoints; see api_alerts.h. The alerts are the
 * lab's (lab/alerts.h, lab/webhooks.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api.h"
#include "daemon/http/api_alerts.h"
#include "daemon/lab/alerts.h"
#include "daemon/lab/webhooks.h"

int api_alerts_list(struct http_req *req, struct http_resp *resp)
{
	const char *state = http_query(req, "state"), *kind = http_query(req, "kind");
	int64_t next, bid;
	int limit;
	json_t *a;

	if (state && !alerts_state_valid(state))
		return http_error(resp, 400, "state must be one of new, acknowledged,"
				  " investigating, invalid, fixed, wontfix");
	if (kind && !alerts_kind_valid(kind))
		return http_error(resp, 400, "kind must be verdict, change_point or bisection");
	if (api_page_args(req, resp, 1000, 1000, &limit, &bid))
		return 0;
	a = alerts_list_json(req->db, state, kind, limit, bid, &next);
	if (!a)
		return -1;
	return http_json(resp, 200, json_pack("{s:o,s:o}", "alerts", a, "next",
					      next ? json_integer(next) : json_null()));
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
	struct lab_err e;
	json_t *body;
	int ret = 0;

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
	if (alerts_set_state(req->db, id, state, req->auth.name, note, time(NULL),
			     &e))
		ret = http_lab_error(resp, &e);
	else
		ret = http_json(resp, 200, alerts_json(req->db, id));
out:
	json_decref(body);
	return ret;
}

int api_webhooks_list(struct http_req *req, struct http_resp *resp)
{
	return api_list(resp, "webhooks", webhooks_json(req->db));
}

int api_webhooks_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "url", "secret", NULL };
	const char *url = NULL, *secret = NULL;
	json_t *body = http_json_body_keys(req, resp, keys);
	struct lab_err e;
	int64_t id;
	int ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "url", 2048, &url, resp) ||
	    api_opt_string(body, "secret", 256, &secret, resp))
		goto out;
	id = webhooks_add(req->db, url, secret, &e);
	ret = id < 0 ? http_lab_error(resp, &e) :
	      http_json(resp, 201, json_pack("{s:I, s:s}", "id", (json_int_t)id,
					     "url", url));
out:
	json_decref(body);
	return ret;
}
