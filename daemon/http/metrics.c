// SPDX-License-Identifier: MIT
/*
 * Request counters and the latency histogram; see metrics.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/metrics.h"

static const double bucket_le[METRICS_BUCKETS] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
	0.05, 0.1, 0.25, 0.5, 1, 5,
};

int metrics_init(struct metrics *m, int nroutes, metrics_namer name)
{
	memset(m, 0, sizeof(*m));
	m->nroutes = nroutes;
	m->name = name;
	m->requests = calloc((size_t)(nroutes + 1) * 5, sizeof(uint64_t));
	return m->requests ? 0 : -1;
}

void metrics_destroy(struct metrics *m)
{
	free(m->requests);
	m->requests = NULL;
}

void metrics_record(struct metrics *m, int route, int status, uint64_t usec)
{
	int cls = status / 100 - 1, i;

	if (route < 0 || route > m->nroutes)
		route = m->nroutes;
	if (cls < 0 || cls > 4)
		cls = 4;
	__atomic_fetch_add(&m->requests[route * 5 + cls], 1, __ATOMIC_RELAXED);
	for (i = 0; i < METRICS_BUCKETS; i++)
		if ((double)usec / 1e6 <= bucket_le[i])
			break;
	__atomic_fetch_add(&m->bucket[i], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&m->count, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&m->sum_us, usec, __ATOMIC_RELAXED);
}

void metrics_write(struct metrics *m, FILE *f)
{
	uint64_t cum = 0;
	int r, c, i;

	fprintf(f, "# HELP perflab_http_requests_total HTTP requests by route and status class.\n"
		"# TYPE perflab_http_requests_total counter\n");
	for (r = 0; r <= m->nroutes; r++) {
		const char *method = "", *pattern = "other";

		if (r < m->nroutes)
			m->name(r, &method, &pattern);
		for (c = 0; c < 5; c++) {
			uint64_t v = __atomic_load_n(&m->requests[r * 5 + c], __ATOMIC_RELAXED);

			if (!v)
				continue;
			if (r < m->nroutes)
				fprintf(f, "perflab_http_requests_total{method=\"%s\",route=\"%s\",code=\"%dxx\"} %llu\n",
					method, pattern, c + 1, (unsigned long long)v);
			else
				fprintf(f, "perflab_http_requests_total{method=\"\",route=\"other\",code=\"%dxx\"} %llu\n",
					c + 1, (unsigned long long)v);
		}
	}
	fprintf(f, "# HELP perflab_http_request_duration_seconds Request latency.\n"
		"# TYPE perflab_http_request_duration_seconds histogram\n");
	for (i = 0; i < METRICS_BUCKETS; i++) {
		cum += __atomic_load_n(&m->bucket[i], __ATOMIC_RELAXED);
		fprintf(f, "perflab_http_request_duration_seconds_bucket{le=\"%g\"} %llu\n",
			bucket_le[i], (unsigned long long)cum);
	}
	cum += __atomic_load_n(&m->bucket[METRICS_BUCKETS], __ATOMIC_RELAXED);
	fprintf(f, "perflab_http_request_duration_seconds_bucket{le=\"+Inf\"} %llu\n"
		"perflab_http_request_duration_seconds_sum %.6f\n"
		"perflab_http_request_duration_seconds_count %llu\n",
		(unsigned long long)cum,
		(double)__atomic_load_n(&m->sum_us, __ATOMIC_RELAXED) / 1e6,
		(unsigned long long)__atomic_load_n(&m->count, __ATOMIC_RELAXED));
}
