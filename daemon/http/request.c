// SPDX-License-Identifier: MIT
/*
 * Request helpers the handlers share; see request.h.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/http/request.h"
#include "daemon/http/state.h"
#include "daemon/lab/fetcher.h"

int api_opt_string(json_t *o, const char *k, size_t max, const char **out,
		   struct http_resp *resp)
{
	json_t *v = json_object_get(o, k);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v)) {
		http_error(resp, 400, "field '%s' must be a string", k);
		return -1;
	}
	if (json_string_length(v) > max) {
		http_error(resp, 400, "field '%s' is longer than %zu bytes", k, max);
		return -1;
	}
	if (strlen(json_string_value(v)) != json_string_length(v)) {
		http_error(resp, 400, "field '%s' contains a NUL byte", k);
		return -1;
	}
	*out = json_string_value(v);
	return 0;
}

void api_trust_who(const struct http_req *req, struct trust_who *who)
{
	who->role = req->auth.role;
	who->key_id = req->auth.key_id;
	who->key_name = req->auth.name;
	who->max_queued = req->srv ? req->srv->cfg.max_queued_runs : 0;
}

int api_trust_request(struct http_req *req, struct http_resp *resp,
		      const char *backend, int runs)
{
	struct trust_who who;
	char err[512];
	int rc;

	if (backend && trust_backend_check(req->db, backend, err, sizeof(err)))
		return http_error(resp, 422, "%s", err), -1;
	api_trust_who(req, &who);
	rc = trust_quota(req->db, &who, runs, err, sizeof(err));
	if (rc)
		http_error(resp, rc > 0 ? rc : 500, "%s", rc > 0 ? err :
			   "internal error");
	return rc ? -1 : 0;
}

int api_trust_precheck(struct http_req *req, struct http_resp *resp,
			const char *backend, int runs)
{
	bool took = !req->pool_db;
	int rc;

	server_write_take(req);
	rc = api_trust_request(req, resp, backend, runs);
	if (took)
		server_write_release(req);
	return rc;
}

void api_http_status(struct http_resp *resp, int status)
{
	if (status == 503)
		resp->retry_after = fetcher_retry_after();
}

void api_experiment_queued(struct http_req *req, struct http_resp *resp,
			   int64_t exp)
{
	server_queue_kick(req->srv);
	events_publish(&req->srv->events, "experiment",
		       json_pack("{s:I,s:s}", "experiment_id", (json_int_t)exp,
				 "state", "queued"));
	snprintf(resp->location, sizeof(resp->location),
		 "/api/v1/experiments/%lld", (long long)exp);
}
