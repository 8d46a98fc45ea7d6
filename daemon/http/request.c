// SPDX-License-Identifier: MIT
/*
 * Request helpers the handlers share; see request.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/request.h"
#include "daemon/http/state.h"
#include "daemon/lab/validate.h"

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

int api_opt_int(json_t *o, const char *k, int def, int min, int max, int *out,
		struct http_resp *resp)
{
	json_t *v = json_object_get(o, k);

	*out = def;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min ||
	    json_integer_value(v) > max) {
		http_error(resp, 400, "field '%s' must be an integer in [%d, %d]",
			   k, min, max);
		return -1;
	}
	*out = (int)json_integer_value(v);
	return 0;
}

int api_bench(json_t *o, char **out, struct http_resp *resp)
{
	struct lab_err e;
	json_t *b = bench_params_json(json_object_get(o, "bench"), &e);

	*out = NULL;
	if (!b)
		return http_lab_error(resp, &e);
	*out = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(b);
	return *out ? 1 : -1;
}

void api_trust_who(const struct http_req *req, struct trust_who *who)
{
	who->role = req->auth.role;
	who->key_id = req->auth.key_id;
	who->key_name = req->auth.name;
	who->max_queued = req->srv ? req->srv->cfg.max_queued_runs : 0;
}

int api_page_args(struct http_req *req, struct http_resp *resp, int def,
		  int max, int *limit, int64_t *before)
{
	const char *lim = http_query(req, "limit"), *bef = http_query(req, "before");
	char *end;
	long long v;

	*limit = def;
	*before = 0;
	if (lim) {
		v = strtoll(lim, &end, 10);
		if (end == lim || *end || v < 1 || v > max)
			return http_error(resp, 400, "limit must be in [1, %d]", max), -1;
		*limit = (int)v;
	}
	if (bef) {
		v = strtoll(bef, &end, 10);
		if (end == bef || *end || v < 1)
			return http_error(resp, 400, "before must be a cursor"
					  " (the next of a page)"), -1;
		*before = v;
	}
	return 0;
}

int api_list(struct http_resp *resp, const char *key, json_t *a)
{
	return a ? http_json(resp, 200, json_pack("{s:o}", key, a)) : -1;
}

int api_queued(struct http_req *req, struct http_resp *resp, const char *kind,
	       int64_t id, json_t *o)
{
	server_queue_kick(req->srv);
	snprintf(resp->location, sizeof(resp->location), "/api/v1/%s/%lld", kind,
		 (long long)id);
	return o ? http_json(resp, 201, o) : -1;
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
