// SPDX-License-Identifier: MIT
/*
 * GET /metrics (Prometheus text: database gauges computed at scrape time,
 * then the request counters of metrics.h) and GET /healthz.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api_metrics.h"
#include "daemon/http/state.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/workers.h"
#include "daemon/store/db.h"

/* Emit "name{labelname="value"} count" rows for a GROUP BY query. */
static void gauge_rows(FILE *f, sqlite3 *db, const char *name,
		       const char *label, const char *sql, const char *const *all)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int i, seen[16] = { 0 };

	while (st && sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		for (i = 0; all[i]; i++)
			if (v && !strcmp(all[i], v))
				seen[i] = 1;
		fprintf(f, "%s{%s=\"%s\"} %lld\n", name, label, v ? v : "",
			(long long)sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	for (i = 0; all[i]; i++)
		if (!seen[i])
			fprintf(f, "%s{%s=\"%s\"} 0\n", name, label, all[i]);
}

static void db_gauges(FILE *f, sqlite3 *db, int offline_after)
{
	static const char *const jstates[] = { "queued", "claimed", "running",
		"done", "failed", "cancelled", NULL };
	static const char *const estates[] = { "queued", "running", "done",
		"failed", "cancelled", NULL };
	static const char *const hstates[] = { "idle", "busy", "offline", NULL };
	char sql[512];

	fprintf(f, "# HELP perflab_queue_depth Jobs waiting for a host.\n"
		"# TYPE perflab_queue_depth gauge\nperflab_queue_depth %lld\n",
		(long long)db_int(db, 0, "SELECT count(*) FROM jobs WHERE state = 'queued'", 0));
	fprintf(f, "# HELP perflab_analysis_pending Experiments whose last job"
		" finished, waiting for the analysis worker.\n"
		"# TYPE perflab_analysis_pending gauge\nperflab_analysis_pending %lld\n",
		(long long)db_int(db, 0, "SELECT count(*) FROM experiments WHERE"
				  " analysis_pending != 0", 0));
	fprintf(f, "# HELP perflab_jobs Jobs by state.\n# TYPE perflab_jobs gauge\n");
	gauge_rows(f, db, "perflab_jobs", "state",
		   "SELECT state, count(*) FROM jobs GROUP BY state", jstates);
	fprintf(f, "# HELP perflab_experiments Experiments by state.\n"
		"# TYPE perflab_experiments gauge\n");
	gauge_rows(f, db, "perflab_experiments", "state",
		   "SELECT state, count(*) FROM experiments GROUP BY state", estates);
	fprintf(f, "# HELP perflab_hosts Hosts by state.\n# TYPE perflab_hosts gauge\n");
	snprintf(sql, sizeof(sql),
		 "SELECT CASE WHEN last_seen < strftime('%%s','now') - %d THEN 'offline'"
		 " WHEN current_job_id IS NOT NULL THEN 'busy' ELSE 'idle' END AS s,"
		 " count(*) FROM hosts GROUP BY s", offline_after);
	gauge_rows(f, db, "perflab_hosts", "state", sql, hstates);
}

/* The lab's background workers (lab/workers.h) and the git fetches. */
static void worker_gauges(FILE *f, sqlite3 *db)
{
	struct workers_row r[WORKERS_MAX];
	int n = workers_stats(db, r, WORKERS_MAX);
	uint64_t ok, failed;

	fprintf(f, "# HELP perflab_worker_queue_depth Items each background worker"
		" has waiting or in hand.\n# TYPE perflab_worker_queue_depth gauge\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "perflab_worker_queue_depth{worker=\"%s\"} %zu\n",
			r[i].name, r[i].st.depth);
	fprintf(f, "# HELP perflab_worker_oldest_seconds Age of the oldest item of"
		" each worker's queue.\n# TYPE perflab_worker_oldest_seconds gauge\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "perflab_worker_oldest_seconds{worker=\"%s\"} %.3f\n",
			r[i].name, r[i].st.oldest_s);
	fprintf(f, "# HELP perflab_worker_busy_seconds How long each worker's item"
		" in hand has run (0: idle).\n"
		"# TYPE perflab_worker_busy_seconds gauge\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "perflab_worker_busy_seconds{worker=\"%s\"} %.3f\n",
			r[i].name, r[i].st.busy_s);
	fetcher_counts(&ok, &failed);
	fprintf(f, "# HELP perflab_git_fetches_total Fetches of bases' mirrors.\n"
		"# TYPE perflab_git_fetches_total counter\n"
		"perflab_git_fetches_total{result=\"ok\"} %llu\n"
		"perflab_git_fetches_total{result=\"failed\"} %llu\n",
		(unsigned long long)ok, (unsigned long long)failed);
}

int api_metrics(struct http_req *req, struct http_resp *resp)
{
	char *p = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&p, &len);

	if (!f)
		return -1;
	db_gauges(f, req->db, 3 * req->srv->cfg.lease_seconds);
	worker_gauges(f, req->db);
	metrics_write(&req->srv->metrics, f);
	if (fclose(f) || !p) {
		free(p);
		return -1;
	}
	return http_take(resp, 200, "text/plain; version=0.0.4", p, len);
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
