/* SPDX-License-Identifier: MIT */
/*
 * GET /api/v1/failure-reasons: the failure reason table
 * (common/failure_reasons.h) for the web UI and the CLI, so neither keeps
 * its own list of reasons, meanings and what a bisection does with them.
 */
#ifndef PERFLAB_API_FAILURE_REASONS_H
#define PERFLAB_API_FAILURE_REASONS_H

#include "daemon/http/http.h"

int api_failure_reasons(struct http_req *req, struct http_resp *resp);

#endif
