/* SPDX-License-Identifier: MIT */
/*
 * Core API handlers: patches, experiments, bases, hosts and the runner
 * protocol. Routes are in routes.c; documented in docs/api.md.
 */
#ifndef PERFLAB_API_H
#define PERFLAB_API_H

#include <stdint.h>
#include <jansson.h>

#include "daemon/http/http.h"
#include "daemon/http/request.h"


/* api_patches.c */
int api_patches_post(struct http_req *req, struct http_resp *resp);
int api_patch_get(struct http_req *req, struct http_resp *resp);

/* api_experiments.c */
int api_experiments_post(struct http_req *req, struct http_resp *resp);
int api_experiments_list(struct http_req *req, struct http_resp *resp);
int api_experiment_get(struct http_req *req, struct http_resp *resp);
int api_experiment_cancel(struct http_req *req, struct http_resp *resp);
int api_experiment_patch(struct http_req *req, struct http_resp *resp);
int api_run_log(struct http_req *req, struct http_resp *resp);
int api_job_log(struct http_req *req, struct http_resp *resp);
int api_bases_list(struct http_req *req, struct http_resp *resp);
int api_bases_post(struct http_req *req, struct http_resp *resp);
int api_base_patch(struct http_req *req, struct http_resp *resp);

/* api_hosts.c */
int api_hosts_list(struct http_req *req, struct http_resp *resp);
int api_hosts_register(struct http_req *req, struct http_resp *resp);

/* api_jobs.c */
int api_jobs_claim(struct http_req *req, struct http_resp *resp);
int api_job_heartbeat(struct http_req *req, struct http_resp *resp);
int api_job_result(struct http_req *req, struct http_resp *resp);
int api_job_fail(struct http_req *req, struct http_resp *resp);

#endif
