// SPDX-License-Identifier: MIT
/*
 * GET /metrics (Prometheus text: the lab's gauges computed at scrape
 * time, lab/gauges.h, then the request counters of metrics.h) and
 * GET /healthz.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api_metrics.h"
#include "daemon/http/state.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/gauges.h"
#include "daemon/lab/workers.h"

/* "name{label="value"} count" for every member of @o. */
static void gauge_rows(FILE *f, const char *name, const char *help,
		       const char *label, json_t *o)
{
	const char *k;
	json_t *v;

	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	json_object_foreach(o, k, v)
		fprintf(f, "%s{%s=\"%s\"} %lld\n", name, label, k,
			(long long)json_integer_value(v));
}

static void lab_gauges(FILE *f, json_t *g)
{
	fprintf(f, "# HELP perflab_queue_depth Jobs waiting for a host.\n"
		"# TYPE perflab_queue_depth gauge\nperflab_queue_depth %lld\n",
		(long long)json_integer_value(json_object_get(g, "queue_depth")));
	fprintf(f, "# HELP perflab_analysis_pending Experiments whose last job"
		" finished, waiting for the analysis worker.\n"
		"# TYPE perflab_analysis_pending gauge\nperflab_analysis_pending %lld\n",
		(long long)json_integer_value(json_object_get(g, "analysis_pending")));
	gauge_rows(f, "perflab_jobs", "Jobs by state.", "state",
		   json_object_get(g, "jobs"));
	gauge_rows(f, "perflab_experiments", "Experiments by state.", "state",
		   json_object_get(g, "experiments"));
	gauge_rows(f, "perflab_hosts", "Hosts by state.", "state",
		   json_object_get(g, "hosts"));
}

/* The image store: its size, uploads and downloads since start. */
static void image_gauges(FILE *f, store_conn *db, struct image_store *s)
{
	int64_t n = 0, bytes = 0;

	images_stats(db, &n, &bytes);
	fprintf(f, "# HELP perflab_image_store_bytes Bytes of the stored kernel"
		" images.\n# TYPE perflab_image_store_bytes gauge\n"
		"perflab_image_store_bytes %lld\n"
		"# HELP perflab_image_store_images Stored kernel images.\n"
		"# TYPE perflab_image_store_images gauge\n"
		"perflab_image_store_images %lld\n"
		"# HELP perflab_image_uploads_total Images stored since start.\n"
		"# TYPE perflab_image_uploads_total counter\n"
		"perflab_image_uploads_total %llu\n"
		"# HELP perflab_image_downloads_total Image file downloads since"
		" start.\n# TYPE perflab_image_downloads_total counter\n",
		(long long)bytes, (long long)n,
		(unsigned long long)atomic_load(&s->uploads));
	for (int i = 0; i < KIMAGE_NFILES; i++)
		fprintf(f, "perflab_image_downloads_total{file=\"%s\"} %llu\n",
			kimage_files[i].name,
			(unsigned long long)atomic_load(&s->downloads[i]));
	fprintf(f, "# HELP perflab_image_download_bytes_total Image bytes sent.\n"
		"# TYPE perflab_image_download_bytes_total counter\n"
		"perflab_image_download_bytes_total %llu\n",
		(unsigned long long)atomic_load(&s->download_bytes));
}

/* Retention (lab/retention.h): the work left and the work done. */
static void retention_gauges(FILE *f, const struct server_config *cfg)
{
	struct retention_stats rs;

	workers_retention_stats(&rs);
	fprintf(f, "# HELP perflab_retention_age_seconds Age after which runs'"
		" detail is compacted (0: kept forever).\n"
		"# TYPE perflab_retention_age_seconds gauge\n"
		"perflab_retention_age_seconds %lld\n"
		"# HELP perflab_retention_experiments_pending Experiments past the"
		" age whose runs' detail is still to compact.\n"
		"# TYPE perflab_retention_experiments_pending gauge\n"
		"perflab_retention_experiments_pending %lld\n"
		"# HELP perflab_retention_experiments_compacted_total Experiments"
		" compacted since start.\n"
		"# TYPE perflab_retention_experiments_compacted_total counter\n"
		"perflab_retention_experiments_compacted_total %llu\n"
		"# HELP perflab_retention_runs_compacted_total Runs compacted since"
		" start.\n# TYPE perflab_retention_runs_compacted_total counter\n"
		"perflab_retention_runs_compacted_total %llu\n",
		(long long)cfg->retention_s, (long long)rs.pending,
		(unsigned long long)rs.experiments, (unsigned long long)rs.runs);
}

/* The lab's background workers (lab/workers.h) and the git fetches. */
static void worker_gauges(FILE *f, store_conn *db)
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
	json_t *g = gauges_json(req->db, time(NULL) - 3 * req->srv->cfg.lease_seconds);
	char *p = NULL;
	size_t len = 0;
	FILE *f;

	if (!g)
		return -1;
	f = open_memstream(&p, &len);
	if (!f) {
		json_decref(g);
		return -1;
	}
	lab_gauges(f, g);
	json_decref(g);
	image_gauges(f, req->db, &req->srv->images);
	worker_gauges(f, req->db);
	retention_gauges(f, &req->srv->cfg);
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
				  db_errmsg(req->db));
	return http_json(resp, 200, json_pack("{s:s,s:i,s:I}", "status", "ok",
					     "schema_version", v, "time",
					     (json_int_t)time(NULL)));
}
