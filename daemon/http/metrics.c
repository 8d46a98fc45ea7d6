// SPDX-License-Identifier: MIT
/*
 * Prometheus metrics and the health check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/store/db.h"
#include "daemon/http/metrics.h"
#include "daemon/http/routes.h"
#include "daemon/http/server.h"

static const double bucket_le[METRICS_BUCKETS] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
	0.05, 0.1, 0.25, 0.5, 1, 5,
};

int metrics_init(struct metrics *m, int nroutes)
{
	memset(m, 0, sizeof(*m));
	m->nroutes = nroutes;
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

struct buf {
	char *p;
	size_t len, cap;
};

static void bprintf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL,
			      b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->p && b->len + n < b->cap) {
			b->len += n;
			return;
		}
		size_t cap = (b->cap ? b->cap * 2 : 8192) + n;
		char *p = realloc(b->p, cap);

		if (!p)
			return;
		b->p = p;
		b->cap = cap;
	}
}

/* Emit "name{labelname="value"} count" rows for a GROUP BY query. */
static void gauge_rows(struct buf *b, sqlite3 *db, const char *name,
		       const char *label, const char *sql, const char *const *all)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int i, seen[16] = { 0 };

	while (st && sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		for (i = 0; all[i]; i++)
			if (v && !strcmp(all[i], v))
				seen[i] = 1;
		bprintf(b, "%s{%s=\"%s\"} %lld\n", name, label, v ? v : "",
			(long long)sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	for (i = 0; all[i]; i++)
		if (!seen[i])
			bprintf(b, "%s{%s=\"%s\"} 0\n", name, label, all[i]);
}

static void db_gauges(struct buf *b, sqlite3 *db, int offline_after)
{
	static const char *const jstates[] = { "queued", "claimed", "running",
		"done", "failed", "cancelled", NULL };
	static const char *const estates[] = { "queued", "running", "done",
		"failed", "cancelled", NULL };
	static const char *const hstates[] = { "idle", "busy", "offline", NULL };
	char sql[512];

	bprintf(b, "# HELP perflab_queue_depth Jobs waiting for a host.\n"
		"# TYPE perflab_queue_depth gauge\nperflab_queue_depth %lld\n",
		(long long)db_int(db, 0, "SELECT count(*) FROM jobs WHERE state = 'queued'", 0));
	bprintf(b, "# HELP perflab_analysis_pending Experiments whose last job"
		" finished, waiting for the analysis worker.\n"
		"# TYPE perflab_analysis_pending gauge\nperflab_analysis_pending %lld\n",
		(long long)db_int(db, 0, "SELECT count(*) FROM experiments WHERE"
				  " analysis_pending != 0", 0));
	bprintf(b, "# HELP perflab_jobs Jobs by state.\n# TYPE perflab_jobs gauge\n");
	gauge_rows(b, db, "perflab_jobs", "state",
		   "SELECT state, count(*) FROM jobs GROUP BY state", jstates);
	bprintf(b, "# HELP perflab_experiments Experiments by state.\n"
		"# TYPE perflab_experiments gauge\n");
	gauge_rows(b, db, "perflab_experiments", "state",
		   "SELECT state, count(*) FROM experiments GROUP BY state", estates);
	bprintf(b, "# HELP perflab_hosts Hosts by state.\n# TYPE perflab_hosts gauge\n");
	snprintf(sql, sizeof(sql),
		 "SELECT CASE WHEN last_seen < strftime('%%s','now') - %d THEN 'offline'"
		 " WHEN current_job_id IS NOT NULL THEN 'busy' ELSE 'idle' END AS s,"
		 " count(*) FROM hosts GROUP BY s", offline_after);
	gauge_rows(b, db, "perflab_hosts", "state", sql, hstates);
}

static void request_metrics(struct buf *b, struct metrics *m)
{
	uint64_t cum = 0;
	int r, c, i;

	bprintf(b, "# HELP perflab_http_requests_total HTTP requests by route and status class.\n"
		"# TYPE perflab_http_requests_total counter\n");
	for (r = 0; r <= m->nroutes; r++) {
		for (c = 0; c < 5; c++) {
			uint64_t v = __atomic_load_n(&m->requests[r * 5 + c], __ATOMIC_RELAXED);

			if (!v)
				continue;
			if (r < m->nroutes)
				bprintf(b, "perflab_http_requests_total{method=\"%s\",route=\"%s\",code=\"%dxx\"} %llu\n",
					perflab_routes[r].method, perflab_routes[r].pattern,
					c + 1, (unsigned long long)v);
			else
				bprintf(b, "perflab_http_requests_total{method=\"\",route=\"other\",code=\"%dxx\"} %llu\n",
					c + 1, (unsigned long long)v);
		}
	}
	bprintf(b, "# HELP perflab_http_request_duration_seconds Request latency.\n"
		"# TYPE perflab_http_request_duration_seconds histogram\n");
	for (i = 0; i < METRICS_BUCKETS; i++) {
		cum += __atomic_load_n(&m->bucket[i], __ATOMIC_RELAXED);
		bprintf(b, "perflab_http_request_duration_seconds_bucket{le=\"%g\"} %llu\n",
			bucket_le[i], (unsigned long long)cum);
	}
	cum += __atomic_load_n(&m->bucket[METRICS_BUCKETS], __ATOMIC_RELAXED);
	bprintf(b, "perflab_http_request_duration_seconds_bucket{le=\"+Inf\"} %llu\n"
		"perflab_http_request_duration_seconds_sum %.6f\n"
		"perflab_http_request_duration_seconds_count %llu\n",
		(unsigned long long)cum,
		(double)__atomic_load_n(&m->sum_us, __ATOMIC_RELAXED) / 1e6,
		(unsigned long long)__atomic_load_n(&m->count, __ATOMIC_RELAXED));
}

int api_metrics(struct http_req *req, struct http_resp *resp)
{
	struct buf b = { 0 };

	db_gauges(&b, req->db, 3 * req->srv->cfg.lease_seconds);
	request_metrics(&b, &req->srv->metrics);
	if (!b.p)
		return -1;
	return http_take(resp, 200, "text/plain; version=0.0.4", b.p, b.len);
}

int api_healthz(struct http_req *req, struct http_resp *resp)
{
	int v = db_user_version(req->db);

	if (v < 0)
		return http_error(resp, 503, "database unavailable: %s",
				  sqlite3_errmsg(req->db));
	return http_json(resp, 200, json_pack("{s:s,s:i,s:I}", "status", "ok",
					     "schema_version", v, "time",
					     (json_int_t)time(NULL)));
}
