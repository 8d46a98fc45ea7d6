/* SPDX-License-Identifier: MIT */
/*
 * LAVA labs (docs/api.md "LAVA labs"): the admin's bindings, one LAVA
 * job's record, and the two endpoints LAVA itself calls with a job's own
 * token (X-Perflab-Token): the notify callback and the job's files.
 */
#ifndef PERFLAB_API_LAVA_H
#define PERFLAB_API_LAVA_H

#include "daemon/http/http.h"

int api_lava_labs_post(struct http_req *req, struct http_resp *resp);
int api_lava_labs_list(struct http_req *req, struct http_resp *resp);
int api_lava_lab_delete(struct http_req *req, struct http_resp *resp);
int api_lava_job_get(struct http_req *req, struct http_resp *resp);
int api_lava_callback(struct http_req *req, struct http_resp *resp);
int api_lava_file(struct http_req *req, struct http_resp *resp);

#endif
