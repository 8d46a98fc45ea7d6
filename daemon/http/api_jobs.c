// SPDX-License-Identifier: MIT
/*
 * The runner protocol (docs/contracts.md section 2): claim (long-poll),
 * heartbeat, result, fail.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/ingest.h"
#include "daemon/http/state.h"

#define MAX_WAIT 30

static void api_jobs_ctx(struct http_req *req, struct jobs_ctx *c)
{
	server_jobs_ctx(req->srv, c);
}

/* Host the caller acts for: runner keys only for their bound host. */
static int64_t caller_host(struct http_req *req, struct http_resp *resp,
			   const char *name)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (req->auth.role == ROLE_RUNNER && req->auth.host_id == 0) {
		http_error(resp, 403, "register the host first (POST /api/v1/hosts/register)");
		return -1;
	}
	if (!name)
		return req->auth.role == ROLE_RUNNER ? req->auth.host_id : 0;
	st = db_prepare(req->db, "SELECT id FROM hosts WHERE name = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!id) {
		http_error(resp, 404, "unknown host '%s': register it first", name);
		return -1;
	}
	if (req->auth.role == ROLE_RUNNER && id != req->auth.host_id) {
		http_error(resp, 403, "this runner key may only act for its own host");
		return -1;
	}
	return id;
}

int api_jobs_claim(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "host", "wait", NULL };
	json_t *body = http_json_body_keys(req, resp, keys), *w, *spec;
	const char *host_name;
	struct timespec t0, t;
	struct jobs_ctx c;
	sqlite3 *wdb;
	struct claim cl;
	char err[256];
	int64_t host;
	int wait = 0, rc, ret = 0;
	uint64_t gen;

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
	host = caller_host(req, resp, host_name);
	if (host < 0) {
		ret = resp->status ? 0 : -1;
		goto out;
	}
	api_jobs_ctx(req, &c);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		long left;

		gen = server_queue_gen(req->srv);
		wdb = server_writer_lock(req->srv);
		rc = jobs_claim(wdb, &c, host, time(NULL), &cl);
		if (rc < 0)
			snprintf(err, sizeof(err), "%s", sqlite3_errmsg(wdb));
		server_writer_unlock(req->srv);
		if (rc < 0) {
			ret = http_error(resp, 503, "cannot claim: %s", err);
			goto out;
		}
		if (rc == 1)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = wait * 1000L - ((t.tv_sec - t0.tv_sec) * 1000L +
				       (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || req->srv->stopping) {
			resp->status = 204;
			goto out;
		}
		server_queue_wait(req->srv, gen, left > 2000 ? 2000 : (int)left);
	}
	spec = jobs_spec_json(req->db, &cl, c.lease_seconds);
	if (!spec) {
		ret = -1;
		goto out;
	}
	ret = http_json(resp, 200, spec);
out:
	json_decref(body);
	return ret;
}

/* Parse {"lease": ..., ...} with the allowed @keys; host and job id. */
static json_t *lease_body(struct http_req *req, struct http_resp *resp,
			  const char *const *keys, int64_t *job, int64_t *host)
{
	json_t *body;

	*job = http_param_id(req, "id");
	if (*job < 0) {
		http_error(resp, 404, "no such job");
		return NULL;
	}
	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return NULL;
	if (!json_is_string(json_object_get(body, "lease")) ||
	    json_string_length(json_object_get(body, "lease")) > 64) {
		http_error(resp, 400, "'lease' (the token from the claim) is required");
		goto fail;
	}
	*host = caller_host(req, resp, NULL);
	if (*host < 0)
		goto fail;
	return body;
fail:
	json_decref(body);
	return NULL;
}

static int lease_error(struct http_resp *resp, int rc)
{
	if (rc == JOB_NOT_FOUND)
		return http_error(resp, 404, "no such job");
	if (rc == JOB_STALE)
		return http_error(resp, 409, "the lease is not current (expired, superseded"
				  " or the job finished)");
	return -1;
}

int api_job_heartbeat(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "lease", "phase", "message", NULL };
	static const char *const phases[] = { "build", "boot", "run", "upload", NULL };
	const char *phase, *message;
	struct jobs_ctx c;
	sqlite3 *w;
	int64_t job, host;
	time_t expires;
	json_t *body;
	int rc, i, ret;

	body = lease_body(req, resp, keys, &job, &host);
	if (!body)
		return resp->status ? 0 : -1;
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
	api_jobs_ctx(req, &c);
	w = server_writer_lock(req->srv);
	rc = jobs_heartbeat(w, &c, job, host,
			    json_string_value(json_object_get(body, "lease")), phase,
			    message, time(NULL), &expires);
	server_writer_unlock(req->srv);
	json_decref(body);
	if (rc != JOB_OK)
		return lease_error(resp, rc);
	ret = http_json(resp, 200, json_pack("{s:I}", "lease_expires", (json_int_t)expires));
	return ret;
}

int api_job_result(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "lease", "bench", "build", "boot_log",
		"timings", "boot", NULL };
	char err[512];
	struct jobs_ctx c;
	sqlite3 *w;
	int64_t job, host, run = 0;
	json_t *body;
	int code;

	body = lease_body(req, resp, keys, &job, &host);
	if (!body)
		return resp->status ? 0 : -1;
	if (ingest_validate(body, err, sizeof(err))) {
		json_decref(body);
		return http_error(resp, 400, "%s", err);
	}
	/* Stores the run and, for an experiment's last one, marks it for the
	 * analysis worker: the runner's answer does not wait for verdicts. */
	api_jobs_ctx(req, &c);
	w = server_writer_lock(req->srv);
	code = ingest_result(w, &c, job, host, body, time(NULL), &run, err,
			     sizeof(err));
	server_writer_unlock(req->srv);
	json_decref(body);
	if (code == 201) {
		server_queue_kick(req->srv);	/* the host is free again */
		return http_json(resp, 201, json_pack("{s:I}", "run_id", (json_int_t)run));
	}
	if (code == 200)
		return http_json(resp, 200, json_pack("{s:I,s:b}", "run_id", (json_int_t)run,
						     "duplicate", 1));
	return http_error(resp, code, "%s", err);
}

int api_job_fail(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "lease", "reason", "log", NULL };
	static const char *const reasons[] = { "patch_apply", "build", "boot", "bench",
		"internal", "setting", NULL };
	const char *reason, *log;
	struct jobs_ctx c;
	sqlite3 *w;
	int64_t job, host;
	json_t *body;
	int rc, i;

	body = lease_body(req, resp, keys, &job, &host);
	if (!body)
		return resp->status ? 0 : -1;
	if (api_opt_string(body, "reason", 32, &reason, resp) ||
	    api_opt_string(body, "log", 4u << 20, &log, resp)) {
		json_decref(body);
		return 0;
	}
	for (i = 0; reason && reasons[i]; i++)
		if (!strcmp(reasons[i], reason))
			break;
	if (!reason || !reasons[i]) {
		json_decref(body);
		return http_error(resp, 400, "'reason' must be patch_apply, build, boot,"
				  " bench, internal or setting");
	}
	api_jobs_ctx(req, &c);
	w = server_writer_lock(req->srv);
	rc = jobs_fail(w, &c, job, host,
		       json_string_value(json_object_get(body, "lease")), reason, log,
		       time(NULL));
	server_writer_unlock(req->srv);
	if (rc != JOB_OK) {
		json_decref(body);
		return lease_error(resp, rc);
	}
	server_queue_kick(req->srv);
	rc = http_json(resp, 200, json_pack("{s:I,s:s}", "job_id", (json_int_t)job,
					    "reason", reason));
	json_decref(body);
	return rc;
}
