/* SPDX-License-Identifier: MIT */
/*
 * Request counters and latency histogram for GET /metrics (Prometheus
 * text format), plus database gauges computed at scrape time.
 */
#ifndef PERFLAB_METRICS_H
#define PERFLAB_METRICS_H

#include <stdint.h>
#include "daemon/http/http.h"

#define METRICS_BUCKETS 14

struct metrics {
	int nroutes;		/* route index nroutes = static files / unmatched */
	uint64_t *requests;	/* [(nroutes + 1) * 5]: route x status class 1xx..5xx */
	uint64_t bucket[METRICS_BUCKETS + 1];	/* cumulative at scrape; +Inf last */
	uint64_t count;
	uint64_t sum_us;
};

int metrics_init(struct metrics *m, int nroutes);
void metrics_destroy(struct metrics *m);
/* Record one request (@route < 0: not a route). Lock-free. */
void metrics_record(struct metrics *m, int route, int status, uint64_t usec);

int api_metrics(struct http_req *req, struct http_resp *resp);
int api_healthz(struct http_req *req, struct http_resp *resp);

#endif
