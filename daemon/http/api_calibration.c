// SPDX-License-Identifier: MIT
/*
 * Calibration experiments: A/A and the perflab_canary dose-response
 * ladder; see api_calibration.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/api.h"
#include "daemon/http/api_calibration.h"
#include "daemon/http/state.h"
#include "daemon/lab/calibration.h"
#include "daemon/lab/validate.h"

static int parse_steps(json_t *a, struct calibration *in, struct http_resp *resp)
{
	json_t *s;
	size_t i;
	int zero = 0;

	if (!a) {
		calibration_default_steps(in);
		return 0;
	}
	if (!json_is_array(a) || json_array_size(a) < 2 ||
	    json_array_size(a) > CAL_MAX_STEPS)
		return http_error(resp, 400, "'steps' must be an array of 2 to %d"
				  " canary counts", CAL_MAX_STEPS), -1;
	json_array_foreach(a, i, s) {
		if (!json_is_integer(s) || json_integer_value(s) < 0 ||
		    json_integer_value(s) > CAL_MAX_N)
			return http_error(resp, 400, "steps must be integers in [0, %d]",
					  CAL_MAX_N), -1;
		in->steps[i] = (int)json_integer_value(s);
		for (size_t j = 0; j < i; j++)
			if (in->steps[j] == in->steps[i])
				return http_error(resp, 400, "duplicate step %d",
						  in->steps[i]), -1;
		zero |= in->steps[i] == 0;
	}
	in->nsteps = (int)i;
	if (!zero)
		return http_error(resp, 400, "'steps' must include 0 (the control)"), -1;
	return 0;
}

static int parse_bench(json_t *user, struct calibration *in, struct http_resp *resp)
{
	json_t *b = json_loads(calibration_default_bench, 0, NULL), *p;
	struct lab_err e;

	if (!b)
		return -1;
	if (user && !json_is_object(user)) {
		json_decref(b);
		return http_error(resp, 400, "field 'bench' must be an object"), -1;
	}
	if (user)
		json_object_update(b, user);
	p = bench_params_json(b, &e);
	json_decref(b);
	if (!p)
		return http_lab_error(resp, &e), -1;
	in->bench = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(p);
	return in->bench ? 0 : -1;
}

static int parse_body(json_t *body, struct calibration *in,
		      struct http_resp *resp)
{
	static const char *const keys[] = { "label", "host", "kind", "runs",
		"max_runs", "steps", "patch", "bench", "backend", NULL };
	const char *badkey;
	json_t *r = json_object_get(body, "runs"), *m = json_object_get(body, "max_runs");

	if (json_check_keys(body, keys, &badkey))
		return http_error(resp, 400, "unknown field '%.64s'", badkey), -1;
	if (api_opt_string(body, "label", 64, &in->label, resp) ||
	    api_opt_string(body, "host", 64, &in->host, resp) ||
	    api_opt_string(body, "backend", 32, &in->backend, resp) ||
	    api_opt_string(body, "kind", 16, &in->kind, resp))
		return -1;
	if ((in->label && !lab_valid_name(in->label)) ||
	    (in->host && !lab_valid_name(in->host)) ||
	    (in->backend && !lab_valid_name(in->backend)))
		return http_error(resp, 400, "label, host and backend must be names"
				  " of [A-Za-z0-9._+-]"), -1;
	if (!in->kind || (strcmp(in->kind, "aa") && strcmp(in->kind, "ladder")))
		return http_error(resp, 400, "'kind' must be \"aa\" or \"ladder\""), -1;
	in->runs = !strcmp(in->kind, "aa") ? 10 : 5;
	if (r && (!json_is_integer(r) || json_integer_value(r) < 2 ||
		  json_integer_value(r) > 100))
		return http_error(resp, 400, "'runs' must be an integer in [2, 100]"), -1;
	in->runs = r ? (int)json_integer_value(r) : in->runs;
	if (m && (!json_is_integer(m) || json_integer_value(m) < in->runs ||
		  json_integer_value(m) > 500))
		return http_error(resp, 400, "'max_runs' must be an integer in"
				  " [runs, 500]"), -1;
	in->max_runs = m ? (int)json_integer_value(m) : in->runs;
	if (json_object_get(body, "steps") && strcmp(in->kind, "ladder"))
		return http_error(resp, 400, "'steps' is for a ladder only"), -1;
	if (parse_steps(json_object_get(body, "steps"), in, resp) ||
	    parse_bench(json_object_get(body, "bench"), in, resp))
		return -1;
	return 0;
}

static int created(struct http_req *req, struct http_resp *resp,
		   const struct calibration *in, int64_t exp)
{
	api_experiment_queued(req, resp, exp);
	return http_json(resp, 201, json_pack("{s:I,s:s,s:s,s:i,s:i}", "id",
		(json_int_t)exp, "url", resp->location, "kind", in->kind, "variants",
		in->nsteps, "jobs", in->nsteps * in->runs));
}

int api_calibrations_post(struct http_req *req, struct http_resp *resp)
{
	struct calibration *in = calloc(1, sizeof(*in));
	json_t *body = http_json_body(req, resp);
	struct trust_who who;
	struct lab_err e;
	int64_t exp;
	int ret = 0;

	if (!body || !in) {
		ret = body ? -1 : 0;
		goto out;
	}
	if (parse_body(body, in, resp))
		goto out;
	api_trust_who(req, &who);
	exp = calibration_submit(req->db, &who, in, json_object_get(body, "patch"),
				 &e);
	ret = exp < 0 ? http_lab_error(resp, &e) : created(req, resp, in, exp);
out:
	if (in)
		free(in->bench);
	free(in);
	json_decref(body);
	return ret;
}

int api_calibrations_list(struct http_req *req, struct http_resp *resp)
{
	const char *label = http_query(req, "label"), *host = http_query(req, "host");
	const char *lim = http_query(req, "limit");
	long limit = lim ? strtol(lim, NULL, 10) : 50;
	json_t *a;

	if (limit < 1 || limit > 500)
		return http_error(resp, 400, "limit must be in [1, 500]");
	a = calibration_list_json(req->db, label, host, (int)limit);
	return api_list(resp, "calibrations", a);
}
