/* SPDX-License-Identifier: MIT */
/*
 * Request counters and latency histogram, served by GET /metrics
 * (api_metrics.c, which adds the database gauges).
 */
#ifndef PERFLAB_METRICS_H
#define PERFLAB_METRICS_H

#include <stdint.h>
#include <stdio.h>

#define METRICS_BUCKETS 14

/* Names route @r for the scrape (the route table knows, not metrics). */
typedef void (*metrics_namer)(int r, const char **method,
			      const char **pattern);

struct metrics {
	int nroutes;		/* route index nroutes = static files / unmatched */
	metrics_namer name;
	uint64_t *requests;	/* [(nroutes + 1) * 5]: route x status class 1xx..5xx */
	uint64_t bucket[METRICS_BUCKETS + 1];	/* cumulative at scrape; +Inf last */
	uint64_t count;
	uint64_t sum_us;
};

int metrics_init(struct metrics *m, int nroutes, metrics_namer name);
void metrics_destroy(struct metrics *m);
/* Record one request (@route < 0: not a route). Lock-free. */
void metrics_record(struct metrics *m, int route, int status, uint64_t usec);
/* The counters and histogram in Prometheus text format. */
void metrics_write(struct metrics *m, FILE *f);

#endif
