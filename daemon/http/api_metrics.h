/* SPDX-License-Identifier: MIT */
/*
 * GET /metrics: Prometheus text format; GET /healthz: schema version and
 * time, 503 when the database is unavailable.
 */
#ifndef PERFLAB_API_METRICS_H
#define PERFLAB_API_METRICS_H

#include "daemon/http/http.h"

int api_metrics(struct http_req *req, struct http_resp *resp);
int api_healthz(struct http_req *req, struct http_resp *resp);

#endif
