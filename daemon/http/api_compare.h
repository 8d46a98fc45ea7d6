/* SPDX-License-Identifier: MIT */
/*
 * Comparison of imported logs: POST /api/v1/compare
 * (analysis/compare.h computes it).
 */
#ifndef PERFLAB_API_COMPARE_H
#define PERFLAB_API_COMPARE_H

#include <stddef.h>
#include <jansson.h>

#include "daemon/analysis/compare.h"
#include "daemon/http/http.h"

/* POST /api/v1/compare: {"logs":[{"name","text"}...], "warmup"} or a raw
 * log body (blocks named by their label lines); ?warmup=N. */
int api_compare_post(struct http_req *req, struct http_resp *resp);

#endif
