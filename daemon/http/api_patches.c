// SPDX-License-Identifier: MIT
/*
 * POST /api/v1/patches (query parameters; the lab parses, stores and
 * plans: lab/experiments.h), GET /api/v1/patches/{id} (lab/patches.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api.h"
#include "daemon/http/state.h"
#include "daemon/lab/experiments.h"
#include "daemon/lab/patches.h"
#include "daemon/lab/validate.h"

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
	struct patch_req r = { .text = req->body, .len = req->body_len };
	int64_t ids[EXP_MAX_SERIES], exp;
	struct trust_who who;
	struct lab_err e;
	char url[64];
	json_t *o, *pl;
	int n;

	if (query_int(req, resp, "runs", 5, 1, 100, &r.runs) ||
	    query_int(req, resp, "max_runs", 0, 0, 500, &r.max_runs) ||
	    query_str(req, resp, "base", 128, &r.base) ||
	    query_str(req, resp, "label", 64, &r.label) ||
	    query_str(req, resp, "backend", 32, &r.backend) ||
	    query_str(req, resp, "config", 64, &r.config) ||
	    query_str(req, resp, "title", 200, &r.title))
		return 0;
	api_trust_who(req, &who);
	exp = experiments_submit_patch(req->db, &who, &r, ids, &n, &e);
	if (exp < 0)
		return http_lab_error(resp, &e);
	api_experiment_queued(req, resp, exp);
	pl = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(pl, json_pack("{s:I}", "id", (json_int_t)ids[i]));
	o = json_pack("{s:I,s:o,s:i}", "id", (json_int_t)exp, "patches", pl,
		      "jobs", 2 * r.runs);
	if (!o)
		return -1;
	json_object_set_new(o, "url", json_string(resp->location));
	snprintf(url, sizeof(url), "/#/experiments/%lld", (long long)exp);
	json_object_set_new(o, "web_url", json_string(url));
	return http_json(resp, 201, o);
}

int api_patch_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	const char *fmt = http_query(req, "format");
	struct lab_err e;
	size_t len;
	char *raw;
	json_t *o;

	if (id < 0)
		return http_error(resp, 404, "no such patch");
	if (fmt && !strcmp(fmt, "raw")) {
		raw = patches_raw(req->db, id, &len, &e);
		return raw ? http_take(resp, 200, "text/plain; charset=utf-8", raw,
				       len) : http_lab_error(resp, &e);
	}
	o = patches_json(req->db, id, &e);
	return o ? http_json(resp, 200, o) : http_lab_error(resp, &e);
}
