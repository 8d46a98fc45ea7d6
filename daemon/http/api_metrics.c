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
#include "daemon/lab/gauges.h"

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
