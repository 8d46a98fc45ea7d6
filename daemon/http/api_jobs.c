// SPDX-License-Identifier: MIT
/*
 * The runner protocol (docs/contracts.md section 2): claim (long-poll),
 * heartbeat, result, fail. Leases and results are the lab's
 * (lab/jobs.h, lab/ingest.h); the handlers parse, wait and answer.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/failure_reasons.h"
#include "daemon/http/api.h"
#include "daemon/http/state.h"
#include "daemon/lab/builds.h"
#include "daemon/lab/hosts.h"
#include "daemon/lab/ingest.h"

#define MAX_WAIT 30

/*
 * The host the caller acts for into *@host (runner keys only for their
 * bound host): 1, or what the handler returns (0 refused and answered,
 * -1 a database error).
 */
static int caller_host(struct http_req *req, struct http_resp *resp,
		       const char *name, int64_t *host)
{
	if (req->auth.role == ROLE_RUNNER && req->auth.host_id == 0)
		return http_error(resp, 403, "register the host first (POST"
				  " /api/v1/hosts/register)");
	*host = req->auth.role == ROLE_RUNNER ? req->auth.host_id : 0;
	if (!name)
		return 1;
	*host = hosts_find(req->db, name);
	if (*host < 0)
		return -1;
	if (!*host)
		return http_error(resp, 404, "unknown host '%s': register it first",
				  name);
	if (req->auth.role == ROLE_RUNNER && *host != req->auth.host_id)
		return http_error(resp, 403, "this runner key may only act for"
				  " its own host");
	return 1;
}

/* Claim for @host, waiting up to @wait seconds: 1 claimed, 2 a build
 * task (*task), 0 none, -1. */
static int claim_wait(struct http_req *req, const struct jobs_ctx *c,
		      int64_t host, int wait, struct claim *cl, json_t **task,
		      char *err, size_t len)
{
	struct timespec t0, t;
	store_conn *w;
	uint64_t gen;
	long left;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		gen = server_queue_gen(req->srv);
		w = server_writer_lock(req->srv);
		rc = builds_claim(w, c, host, time(NULL), cl, task);
		if (rc < 0)
			snprintf(err, len, "%s", db_errmsg(w));
		server_writer_unlock(req->srv);
		if (rc != 0)
			return rc;
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = wait * 1000L - ((t.tv_sec - t0.tv_sec) * 1000L +
				       (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || req->srv->stopping)
			return 0;
		server_queue_wait(req->srv, gen, left > 2000 ? 2000 : (int)left);
	}
}

int api_jobs_claim(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "host", "wait", NULL };
	json_t *body = http_json_body_keys(req, resp, keys), *w, *spec, *task = NULL;
	const char *host_name;
	struct jobs_ctx c;
	struct claim cl;
	char err[256];
	int64_t host = 0;
	int wait = 0, rc, ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "host", 64, &host_name, resp))
		goto out;
	if (!host_name) {
		ret = http_error(resp, 400, "missing field 'host'");
		goto out;
	}
	w = json_object_get(body, "wait");
	if (w && (!json_is_integer(w) || json_integer_value(w) < 0)) {
		ret = http_error(resp, 400, "'wait' must be a non-negative integer (seconds)");
		goto out;
	}
	wait = w ? (int)(json_integer_value(w) > MAX_WAIT ? MAX_WAIT : json_integer_value(w)) : 0;
	ret = caller_host(req, resp, host_name, &host);
	if (ret != 1)
		goto out;
	ret = 0;
	server_jobs_ctx(req->srv, &c);
	rc = claim_wait(req, &c, host, wait, &cl, &task, err, sizeof(err));
	if (rc < 0) {
		ret = http_error(resp, 503, "cannot claim: %s", err);
		goto out;
	}
	if (rc == 0) {
		resp->status = 204;
		goto out;
	}
	if (rc == 2) {
		ret = http_json(resp, 200, task);
		goto out;
	}
	spec = jobs_spec_json(req->db, &cl, c.lease_seconds);
	if (spec && builds_claim_json(req->db, host, &cl, spec)) {
		json_decref(spec);
		spec = NULL;
	}
	ret = spec ? http_json(resp, 200, spec) : -1;
out:
	json_decref(body);
	return ret;
}

/*
 * Parse {"lease": ..., ...} with the allowed @keys; host and job id. NULL
 * with what the handler returns in *@ret when refused.
 */
static json_t *lease_body(struct http_req *req, struct http_resp *resp,
			  const char *const *keys, int64_t *job, int64_t *host,
			  int *ret)
{
	json_t *body;

	*job = http_param_id(req, "id");
	if (*job < 0) {
		*ret = http_error(resp, 404, "no such job");
		return NULL;
	}
	body = http_json_body_keys(req, resp, keys);
	*ret = 0;
	if (!body)
		return NULL;
	if (!json_is_string(json_object_get(body, "lease")) ||
	    json_string_length(json_object_get(body, "lease")) > 64) {
		*ret = http_error(resp, 400, "'lease' (the token from the claim)"
				  " is required");
		goto fail;
	}
	*ret = caller_host(req, resp, NULL, host);
	if (*ret != 1)
		goto fail;
	return body;
fail:
	json_decref(body);
	return NULL;
}

static const char *lease_of(json_t *body)
{
	return json_string_value(json_object_get(body, "lease"));
}

int api_job_heartbeat(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "lease", "phase", "message", NULL };
	static const char *const phases[] = { "build", "boot", "run", "upload", NULL };
	const char *phase, *message;
	struct jobs_ctx c;
	struct lab_err e;
	int64_t job, host = 0;
	time_t expires;
	json_t *body;
	int rc, i;

	body = lease_body(req, resp, keys, &job, &host, &rc);
	if (!body)
		return rc;
	if (api_opt_string(body, "phase", 16, &phase, resp) ||
	    api_opt_string(body, "message", 1024, &message, resp)) {
		json_decref(body);
		return 0;
	}
	for (i = 0; phase && phases[i]; i++)
		if (!strcmp(phases[i], phase))
			break;
	if (phase && !phases[i]) {
		json_decref(body);
		return http_error(resp, 400, "'phase' must be build, boot, run or upload");
	}
	server_jobs_ctx(req->srv, &c);
	rc = jobs_heartbeat(server_writer_lock(req->srv), &c, job, host,
			    lease_of(body), phase, message, time(NULL), &expires,
			    &e);
	server_writer_unlock(req->srv);
	json_decref(body);
	if (rc)
		return http_lab_error(resp, &e);
	return http_json(resp, 200, json_pack("{s:I}", "lease_expires",
					      (json_int_t)expires));
}

int api_job_result(struct http_req *req, struct http_resp *resp)
{
	int64_t job, host = 0, run = 0;
	struct jobs_ctx c;
	struct lab_err e;
	bool duplicate;
	json_t *body;
	int rc;

	body = lease_body(req, resp, ingest_result_keys, &job, &host, &rc);
	if (!body)
		return rc;
	if (ingest_validate(body, &e)) {
		json_decref(body);
		return http_lab_error(resp, &e);
	}
	/* Stores the run and, for an experiment's last one, marks it for the
	 * analysis worker: the runner's answer does not wait for verdicts. */
	server_jobs_ctx(req->srv, &c);
	rc = ingest_result(server_writer_lock(req->srv), &c, job, host, body,
			   time(NULL), &run, &duplicate, &e);
	server_writer_unlock(req->srv);
	json_decref(body);
	if (rc)
		return http_lab_error(resp, &e);
	if (duplicate)
		return http_json(resp, 200, json_pack("{s:I,s:b}", "run_id",
						     (json_int_t)run, "duplicate", 1));
	server_queue_kick(req->srv);	/* the host is free again */
	return http_json(resp, 201, json_pack("{s:I}", "run_id", (json_int_t)run));
}

int api_job_fail(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "lease", "reason", "log", NULL };
	const char *reason, *log;
	struct jobs_ctx c;
	struct lab_err e;
	int64_t job, host = 0;
	json_t *body;
	char names[160];
	int rc;

	body = lease_body(req, resp, keys, &job, &host, &rc);
	if (!body)
		return rc;
	if (api_opt_string(body, "reason", 32, &reason, resp) ||
	    api_opt_string(body, "log", 4u << 20, &log, resp)) {
		json_decref(body);
		return 0;
	}
	if (!failure_reason_for(reason, FAILURE_BY_RUNNER)) {
		json_decref(body);
		return http_error(resp, 400, "'reason' must be %s (GET /api/v1/"
				  "failure-reasons)", failure_reason_names(
				  FAILURE_BY_RUNNER, names, sizeof(names)));
	}
	server_jobs_ctx(req->srv, &c);
	rc = jobs_fail(server_writer_lock(req->srv), &c, job, host, lease_of(body),
		       reason, log, time(NULL), &e);
	server_writer_unlock(req->srv);
	if (rc) {
		json_decref(body);
		return http_lab_error(resp, &e);
	}
	server_queue_kick(req->srv);
	rc = http_json(resp, 200, json_pack("{s:I,s:s}", "job_id", (json_int_t)job,
					    "reason", reason));
	json_decref(body);
	return rc;
}
