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
#include "daemon/lab/validate.h"
#include "daemon/lab/bisect_json.h"
#include "daemon/lab/bisect_run.h"
#include "daemon/lab/workers.h"

int api_bisections_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "base", "good", "bad", "label",
		"bench", "backend", "host_label", "runs", NULL };
	struct bisect_spec s = { 0 };
	char *bench = NULL;
	struct trust_who who;
	json_t *body;
	struct lab_err e;
	int64_t id;
	int ret = 0;

	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	if (api_opt_string(body, "base", 64, &s.base, resp) ||
	    api_opt_string(body, "good", 256, &s.good, resp) ||
	    api_opt_string(body, "bad", 256, &s.bad, resp) ||
	    api_opt_string(body, "label", 200, &s.label, resp) ||
	    api_opt_string(body, "backend", 32, &s.backend, resp) ||
	    api_opt_string(body, "host_label", 64, &s.host_label, resp) ||
	    api_opt_int(body, "runs", 5, 1, 100, &s.runs, resp))
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
	ret = api_bench(body, &bench, resp);
	if (ret != 1)
		goto out;
	/* The first step's runs count against the key's queue quota: before
	 * any git work, and again in the transaction that queues them. */
	api_trust_who(req, &who);
	if (trust_precheck(req->db, &who, s.backend, 2 * s.runs, &e)) {
		ret = http_lab_error(resp, &e);
		goto out;
	}
	s.who = &who;
	s.bench_json = bench;
	s.key_id = req->auth.key_id;
	if (bisect_run_start(req->db, &s, &id, &e)) {
		ret = http_lab_error(resp, &e);
		goto out;
	}
	workers_kick_bisect();	/* reads its first-parent list */
	ret = api_queued(req, resp, "bisections", id, bisect_run_json(req->db, id));
out:
	free(bench);
	json_decref(body);
	return ret;
}

int api_bisections_list(struct http_req *req, struct http_resp *resp)
{
	int64_t before, next;
	int limit;
	json_t *a;

	if (api_page_args(req, resp, 1000, 1000, &limit, &before))
		return 0;
	a = bisect_run_list_json(req->db, limit, before, &next);
	if (!a)
		return -1;
	return http_json(resp, 200, json_pack("{s:o,s:o}", "bisections", a, "next",
					      next ? json_integer(next) : json_null()));
}

int api_bisection_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id"), before, next;
	int limit;
	json_t *o;

	if (api_page_args(req, resp, BISECT_STEPS_PAGE, BISECT_STEPS_PAGE, &limit,
			  &before))
		return 0;
	o = id < 0 ? NULL : bisect_run_page_json(req->db, id, limit, before, &next);
	return o ? http_json(resp, 200, o) : http_error(resp, 404, "no such bisection");
}
