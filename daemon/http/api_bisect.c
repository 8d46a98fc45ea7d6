// SPDX-License-Identifier: MIT
/*
 * Bisections over HTTP; see api_tracks.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/api.h"
#include "daemon/http/api_trust.h"
#include "daemon/http/api_tracks.h"
#include "daemon/http/state.h"
#include "daemon/lab/bisect_json.h"
#include "daemon/lab/bisect_run.h"
#include "daemon/lab/workers.h"

int api_bisections_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "base", "good", "bad", "label",
		"bench", "backend", "host_label", "runs", NULL };
	struct bisect_spec s = { 0 };
	struct trust_who who;
	json_t *body, *bench = NULL, *runs;
	char err[512] = "", *bench_s = NULL;
	int64_t id;
	int ret = 0, rc;

	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	if (api_opt_string(body, "base", 64, &s.base, resp) ||
	    api_opt_string(body, "good", 256, &s.good, resp) ||
	    api_opt_string(body, "bad", 256, &s.bad, resp) ||
	    api_opt_string(body, "label", 200, &s.label, resp) ||
	    api_opt_string(body, "backend", 32, &s.backend, resp) ||
	    api_opt_string(body, "host_label", 64, &s.host_label, resp))
		goto out;
	if (!s.base || !s.good || !s.bad) {
		ret = http_error(resp, 400, "'base', 'good' and 'bad' are required");
		goto out;
	}
	if ((s.backend && !lab_valid_name(s.backend)) ||
	    (s.host_label && !lab_valid_name(s.host_label))) {
		ret = http_error(resp, 400, "backend and host_label are names of [A-Za-z0-9._+-]");
		goto out;
	}
	runs = json_object_get(body, "runs");
	if (runs && (!json_is_integer(runs) || json_integer_value(runs) < 1 ||
		     json_integer_value(runs) > 100)) {
		ret = http_error(resp, 400, "'runs' must be an integer in [1, 100]");
		goto out;
	}
	s.runs = runs ? (int)json_integer_value(runs) : 5;
	bench = bench_params_json(json_object_get(body, "bench"), err, sizeof(err));
	if (!bench) {
		ret = http_error(resp, 400, "%s", err);
		goto out;
	}
	bench_s = json_dumps(bench, JSON_COMPACT | JSON_SORT_KEYS);
	if (!bench_s) {
		ret = -1;
		goto out;
	}
	/* The first step's runs count against the key's queue quota: before
	 * any git work, and again in the transaction that queues them. */
	if (api_trust_precheck(req, resp, s.backend, 2 * s.runs))
		goto out;
	api_trust_who(req, &who);
	s.who = &who;
	s.bench_json = bench_s;
	s.key_id = req->auth.key_id;
	rc = bisect_run_start(req->db, &s, &id, err, sizeof(err));
	if (rc != 201) {
		api_http_status(resp, rc);
		ret = rc == 500 ? -1 : http_error(resp, rc, "%s", err);
		goto out;
	}
	server_queue_kick(req->srv);
	workers_kick_bisect();	/* reads its first-parent list */
	snprintf(resp->location, sizeof(resp->location), "/api/v1/bisections/%lld",
		 (long long)id);
	ret = http_json(resp, 201, bisect_run_json(req->db, id));
out:
	free(bench_s);
	json_decref(bench);
	json_decref(body);
	return ret;
}

int api_bisections_list(struct http_req *req, struct http_resp *resp)
{
	json_t *a = bisect_run_list_json(req->db);

	return a ? http_json(resp, 200, json_pack("{s:o}", "bisections", a)) : -1;
}

int api_bisection_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	json_t *o = id < 0 ? NULL : bisect_run_json(req->db, id);

	return o ? http_json(resp, 200, o) : http_error(resp, 404, "no such bisection");
}
