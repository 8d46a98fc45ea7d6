// SPDX-License-Identifier: MIT
/*
 * Hosts: runner registration (binds a runner key to its host) and the
 * fleet list; the hosts are the lab's (lab/hosts.h).
 */
#include <stdio.h>
#include <time.h>

#include "daemon/http/api.h"
#include "daemon/http/state.h"
#include "daemon/lab/hosts.h"

int api_hosts_register(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "name", "labels", "backend", "facts", NULL };
	json_t *body = http_json_body_keys(req, resp, keys);
	struct host_caller who = {
		.runner = req->auth.role == ROLE_RUNNER,
		.key_id = req->auth.key_id, .host_id = req->auth.host_id,
	};
	struct host_reg r;
	struct lab_err e;
	bool bound;
	int64_t id;
	int ret = 0;

	if (!body)
		return 0;
	r.labels = json_object_get(body, "labels");
	r.facts = json_object_get(body, "facts");
	if (api_opt_string(body, "name", 64, &r.name, resp) ||
	    api_opt_string(body, "backend", 32, &r.backend, resp))
		goto out;
	id = hosts_register(req->db, &who, &r, &bound, &e);
	if (id < 0) {
		ret = http_lab_error(resp, &e);
		goto out;
	}
	if (bound)	/* the cached entry does not know the host yet */
		auth_cache_forget(&req->srv->auth, req->auth.key_id);
	ret = http_json(resp, 200, json_pack("{s:I,s:s}", "host_id", (json_int_t)id,
					     "name", r.name));
out:
	json_decref(body);
	return ret;
}

int api_hosts_list(struct http_req *req, struct http_resp *resp)
{
	json_t *a = hosts_list_json(req->db, time(NULL) -
				    3 * req->srv->cfg.lease_seconds);

	return api_list(resp, "hosts", a);
}
