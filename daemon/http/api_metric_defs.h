/* SPDX-License-Identifier: MIT */
/*
 * GET /api/v1/metric-defs: the metric table (common/metric_defs.h) for the
 * web UI and the CLI, so neither keeps its own list of metric names,
 * units and directions. Not to be confused with /metrics (Prometheus).
 */
#ifndef PERFLAB_API_METRIC_DEFS_H
#define PERFLAB_API_METRIC_DEFS_H

#include "daemon/http/http.h"

int api_metric_defs(struct http_req *req, struct http_resp *resp);

#endif
