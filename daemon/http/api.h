/* SPDX-License-Identifier: MIT */
/*
 * Core API handlers (issue 2): patches, experiments, bases, hosts and the
 * runner protocol. Routes are in routes.c; documented in docs/api.md.
 */
#ifndef PERFLAB_API_H
#define PERFLAB_API_H

#include <stdint.h>
#include <jansson.h>
#include <sqlite3.h>

#include "daemon/http/http.h"
#include "daemon/lab/jobs.h"

struct patch;

/* api_patches.c */
int api_patches_post(struct http_req *req, struct http_resp *resp);
int api_patch_get(struct http_req *req, struct http_resp *resp);
/*
 * Parse @len bytes of patch text and store every patch (deduplicated by
 * sha256); appends ids to @ids (capacity @cap). Returns the count or -1
 * with the reason in @err (a 400 for the caller).
 */
int api_store_patch_text(sqlite3 *db, const char *text, size_t len,
			 int64_t key_id, int64_t *ids, int cap,
			 char *first_subject, size_t subjlen,
			 char *err, size_t errlen);

/* api_experiments.c */
int api_experiments_post(struct http_req *req, struct http_resp *resp);
int api_experiments_list(struct http_req *req, struct http_resp *resp);
int api_experiment_get(struct http_req *req, struct http_resp *resp);
int api_experiment_cancel(struct http_req *req, struct http_resp *resp);
int api_run_log(struct http_req *req, struct http_resp *resp);
int api_job_log(struct http_req *req, struct http_resp *resp);
int api_bases_list(struct http_req *req, struct http_resp *resp);
int api_bases_post(struct http_req *req, struct http_resp *resp);
/* Defaults of docs/contracts.md merged with validated overrides @in
 * (may be NULL). New reference, or NULL with the reason in @err. */
json_t *api_bench_params(json_t *in, char *err, size_t errlen);
/*
 * Experiment @exp was queued: wakes the runners' claim long-polls,
 * publishes the "queued" event and points the answer's Location (also its
 * "url") at /api/v1/experiments/{exp}.
 */
void api_experiment_queued(struct http_req *req, struct http_resp *resp,
			   int64_t exp);
/* The experiment as answered by GET /api/v1/experiments/{id}, or NULL. */
json_t *api_experiment_json(sqlite3 *db, int64_t id);

/* api_hosts.c */
int api_hosts_list(struct http_req *req, struct http_resp *resp);
int api_hosts_register(struct http_req *req, struct http_resp *resp);

/* api_jobs.c */
int api_jobs_claim(struct http_req *req, struct http_resp *resp);
int api_job_heartbeat(struct http_req *req, struct http_resp *resp);
int api_job_result(struct http_req *req, struct http_resp *resp);
int api_job_fail(struct http_req *req, struct http_resp *resp);
/* The jobs context of the running server. */
void api_jobs_ctx(struct http_req *req, struct jobs_ctx *c);

/* Field checks shared by the API modules. */
/* A string member: NULL if absent; -1 (400 sent) if not a string or longer
 * than @max or not valid text. */
int api_opt_string(json_t *o, const char *k, size_t max, const char **out,
		   struct http_resp *resp);
/* A name: 1..64 characters of [A-Za-z0-9._+-]. */
int api_valid_name(const char *s);

#endif
