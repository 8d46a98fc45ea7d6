// SPDX-License-Identifier: MIT
/*
 * The perflabd route table.
 *
 * HOW TO ADD AN ENDPOINT
 *   1. Write the handler in your own module (e.g. daemon/http/api_compare.c):
 *        int api_compare_post(struct http_req *req, struct http_resp *resp);
 *      declared in your header (daemon/http/api_compare.h). The handler
 *      API is in daemon/http/http.h: path params (http_param /
 *      http_param_id), query (http_query), body (req->body, req->body_len,
 *      http_json_body), caller (req->auth), the store handle to pass to
 *      lab/ (req->db), replies (http_json, http_text, http_error, and
 *      http_lab_error for a lab refusal). The SQL and the resource's JSON
 *      go in lab/, never here.
 *   2. #include your header below and add ONE line to perflab_routes[]:
 *        { "POST", "/api/v1/compare", AUTH_SUBMIT, api_compare_post, 16 << 20, 0 },
 *      pattern segments "{name}" match one path segment (no '/'); the
 *      value is available with http_param(req, "name").
 *      auth: AUTH_PUBLIC (no key), AUTH_READ (submit/admin, or anyone with
 *      --public-read), AUTH_SUBMIT, AUTH_ADMIN, AUTH_RUNNER.
 *      max_body: 0 means 1 MiB; larger bodies get 413.
 *   3. The first matching line wins; put literal routes before
 *      parameterised ones with the same prefix. A path that matches with
 *      another method only gets 405 with an Allow header.
 * Anything not under /api/, /metrics or /healthz is served from --web.
 */
#include <string.h>

#include "daemon/http/routes.h"
#include "daemon/http/api.h"
#include "daemon/http/api_alerts.h"
#include "daemon/http/api_calibration.h"
#include "daemon/http/api_compare.h"
#include "daemon/http/api_failure_reasons.h"
#include "daemon/http/api_metric_defs.h"
#include "daemon/http/api_series.h"
#include "daemon/http/api_tracks.h"
#include "daemon/http/api_trust.h"
#include "daemon/http/api_perfdiff.h"
#include "daemon/http/api_events.h"
#include "daemon/http/api_metrics.h"
#include "daemon/http/api_images.h"
#include "daemon/http/api_lava.h"
#include "daemon/http/api_watches.h"

const struct route perflab_routes[] = {
	/* health and monitoring */
	{ "GET", "/healthz", AUTH_PUBLIC, api_healthz, 0, 0 },
	{ "GET", "/metrics", AUTH_PUBLIC, api_metrics, 0, 0 },
	{ "GET", "/api/v1/events", AUTH_READ, api_events, 0, ROUTE_QUERY_KEY },

	/* patches and experiments */
	{ "POST", "/api/v1/patches", AUTH_SUBMIT, api_patches_post, 8 << 20, 0 },
	{ "GET", "/api/v1/patches/{id}", AUTH_READ, api_patch_get, 0, 0 },
	{ "POST", "/api/v1/experiments", AUTH_SUBMIT, api_experiments_post, 16 << 20, 0 },
	{ "GET", "/api/v1/experiments", AUTH_READ, api_experiments_list, 0, 0 },
	{ "GET", "/api/v1/experiments/{id}", AUTH_READ, api_experiment_get, 0, 0 },
	{ "POST", "/api/v1/experiments/{id}/cancel", AUTH_SUBMIT, api_experiment_cancel, 0, 0 },
	{ "PATCH", "/api/v1/experiments/{id}", AUTH_ADMIN, api_experiment_patch, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/runs/{id}/logs/{kind}", AUTH_READ, api_run_log, 0, 0 },
	{ "GET", "/api/v1/jobs/{id}/log", AUTH_READ, api_job_log, 0, 0 },
	{ "GET", "/api/v1/bases", AUTH_READ, api_bases_list, 0, 0 },
	{ "GET", "/api/v1/metric-defs", AUTH_READ, api_metric_defs, 0, 0 },
	{ "GET", "/api/v1/failure-reasons", AUTH_READ, api_failure_reasons, 0, 0 },
	{ "POST", "/api/v1/bases", AUTH_ADMIN, api_bases_post, 0, 0 },
	{ "PATCH", "/api/v1/bases/{name}", AUTH_ADMIN, api_base_patch, 0, ROUTE_WRITES },

	/* the admins' allowlists (docs/security.md) */
	{ "GET", "/api/v1/allowlist/cmdline", AUTH_READ, api_allowlist_list, 0, 0 },
	{ "POST", "/api/v1/allowlist/cmdline", AUTH_ADMIN, api_allowlist_post, 0, ROUTE_WRITES },
	{ "DELETE", "/api/v1/allowlist/cmdline/{id}", AUTH_ADMIN, api_allowlist_delete, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/allowlist/settings", AUTH_READ, api_settings_allowlist_list, 0, 0 },
	{ "POST", "/api/v1/allowlist/settings", AUTH_ADMIN, api_settings_allowlist_post, 0, ROUTE_WRITES },
	{ "DELETE", "/api/v1/allowlist/settings/{id}", AUTH_ADMIN, api_settings_allowlist_delete, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/setup-scripts", AUTH_READ, api_scripts_list, 0, 0 },
	{ "GET", "/api/v1/setup-scripts/{name}", AUTH_READ, api_script_get, 0, 0 },
	{ "PUT", "/api/v1/setup-scripts/{name}", AUTH_ADMIN, api_script_put, 0, ROUTE_WRITES },
	{ "DELETE", "/api/v1/setup-scripts/{name}", AUTH_ADMIN, api_script_delete, 0, ROUTE_WRITES },

	/* hosts and the runner protocol (docs/contracts.md section 2) */
	{ "GET", "/api/v1/hosts", AUTH_READ, api_hosts_list, 0, 0 },
	{ "POST", "/api/v1/hosts/register", AUTH_RUNNER, api_hosts_register, 0, 0 },
	{ "POST", "/api/v1/jobs/claim", AUTH_RUNNER, api_jobs_claim, 0, 0 },
	{ "POST", "/api/v1/jobs/{id}/heartbeat", AUTH_RUNNER, api_job_heartbeat, 0, 0 },
	{ "POST", "/api/v1/jobs/{id}/result", AUTH_RUNNER, api_job_result, 64 << 20, 0 },
	{ "POST", "/api/v1/jobs/{id}/fail", AUTH_RUNNER, api_job_fail, 16 << 20, 0 },

	/* kernel images: build once, test on many hosts */
	{ "GET", "/api/v1/images", AUTH_READ, api_images_list, 0, 0 },
	{ "POST", "/api/v1/images/gc", AUTH_ADMIN, api_images_gc, 0, 0 },
	{ "PUT", "/api/v1/images/{key}", AUTH_RUNNER, api_image_put, 1ull << 40, ROUTE_STREAM },
	{ "GET", "/api/v1/images/{key}", AUTH_RUNNER | AUTH_READ, api_image_get, 0, 0 },
	{ "DELETE", "/api/v1/images/{key}", AUTH_ADMIN, api_image_delete, 0, 0 },
	{ "GET", "/api/v1/images/{key}/{file}", AUTH_RUNNER | AUTH_READ, api_image_file, 0, 0 },
	{ "HEAD", "/api/v1/images/{key}/{file}", AUTH_RUNNER | AUTH_READ, api_image_file, 0, 0 },
	{ "POST", "/api/v1/builds/{id}/heartbeat", AUTH_RUNNER, api_build_heartbeat, 0, 0 },
	{ "POST", "/api/v1/builds/{id}/fail", AUTH_RUNNER, api_build_fail, 16 << 20, 0 },

	/* other modules: add one line per endpoint here */
	{ "POST", "/api/v1/compare", AUTH_SUBMIT, api_compare_post, 16 << 20, 0 },
	{ "POST", "/api/v1/calibrations", AUTH_SUBMIT, api_calibrations_post, 8 << 20, 0 },
	{ "GET", "/api/v1/calibrations", AUTH_READ, api_calibrations_list, 0, 0 },
	{ "GET", "/api/v1/baselines", AUTH_READ, api_baselines_list, 0, 0 },
	{ "POST", "/api/v1/baselines", AUTH_ADMIN, api_baselines_post, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/series", AUTH_READ, api_series_get, 0, 0 },
	{ "POST", "/api/v1/series/import", AUTH_SUBMIT, api_series_import, 32 << 20, 0 },
	{ "GET", "/api/v1/alerts", AUTH_READ, api_alerts_list, 0, 0 },
	{ "GET", "/api/v1/alerts/{id}", AUTH_READ, api_alert_get, 0, 0 },
	{ "PATCH", "/api/v1/alerts/{id}", AUTH_SUBMIT, api_alert_patch, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/webhooks", AUTH_ADMIN, api_webhooks_list, 0, 0 },
	{ "POST", "/api/v1/webhooks", AUTH_ADMIN, api_webhooks_post, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/experiments/{id}/perf-diff", AUTH_READ, api_perfdiff_get, 0, 0 },
	{ "GET", "/api/v1/experiments/{id}/flamegraph.svg", AUTH_READ, api_flamegraph_get, 0, 0 },

	/* git tracks and bisections */
	{ "POST", "/api/v1/tracks", AUTH_ADMIN, api_tracks_post, 0, 0 },
	{ "GET", "/api/v1/tracks", AUTH_READ, api_tracks_list, 0, 0 },
	{ "GET", "/api/v1/tracks/{id}", AUTH_READ, api_track_get, 0, 0 },
	{ "POST", "/api/v1/tracks/{id}/poll", AUTH_ADMIN, api_track_poll, 0, 0 },
	/* an admin key, or a body signed with the base's hook secret */
	{ "POST", "/api/v1/hooks/git", AUTH_ADMIN, api_hooks_git, 0, ROUTE_SIGNED },
	{ "POST", "/api/v1/bisections", AUTH_SUBMIT, api_bisections_post, 0, 0 },
	{ "GET", "/api/v1/bisections", AUTH_READ, api_bisections_list, 0, 0 },
	{ "GET", "/api/v1/bisections/{id}", AUTH_READ, api_bisection_get, 0, 0 },
	/* list watches (lab/watches.h) */
	{ "POST", "/api/v1/watches", AUTH_ADMIN, api_watches_post, 0, 0 },
	{ "GET", "/api/v1/watches", AUTH_ADMIN, api_watches_list, 0, 0 },
	{ "GET", "/api/v1/watches/{id}", AUTH_READ, api_watch_get, 0, 0 },
	{ "POST", "/api/v1/watches/{id}/poll", AUTH_ADMIN, api_watch_poll, 0, 0 },
	/* LAVA labs (lab/lava.h); LAVA calls the last two with a job's token */
	{ "POST", "/api/v1/lava/labs", AUTH_ADMIN, api_lava_labs_post, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/lava/labs", AUTH_ADMIN, api_lava_labs_list, 0, 0 },
	{ "DELETE", "/api/v1/lava/labs/{name}", AUTH_ADMIN, api_lava_lab_delete, 0, ROUTE_WRITES },
	{ "GET", "/api/v1/lava/jobs/{id}", AUTH_READ, api_lava_job_get, 0, 0 },
	{ "POST", "/api/v1/lava/callback/{id}", AUTH_PUBLIC, api_lava_callback, 1 << 20, ROUTE_WRITES },
	{ "GET", "/api/v1/lava/files/{id}/{name}", AUTH_PUBLIC, api_lava_file, 0, 0 },
	/* LAVA's downloader asks HEAD first (the size), then GET */
	{ "HEAD", "/api/v1/lava/files/{id}/{name}", AUTH_PUBLIC, api_lava_file, 0, 0 },
};

/* Routes whose body is streamed to their module (ROUTE_STREAM). */
static const struct {
	http_handler fn;
	const struct route_stream *stream;
} stream_routes[] = {
	{ api_image_put, &api_image_upload_stream },
};

const struct route_stream *route_stream_of(const struct route *r)
{
	if (!(r->flags & ROUTE_STREAM))
		return NULL;
	for (size_t i = 0; i < sizeof(stream_routes) / sizeof(stream_routes[0]); i++)
		if (stream_routes[i].fn == r->fn)
			return stream_routes[i].stream;
	return NULL;
}

const size_t perflab_routes_count = sizeof(perflab_routes) / sizeof(perflab_routes[0]);

void route_label(int r, const char **method, const char **pattern)
{
	*method = perflab_routes[r].method;
	*pattern = perflab_routes[r].pattern;
}

/* Match one pattern; params point into @scratch (a copy of @path). */
static int match(const char *pat, const char *path, char *scratch,
		 struct http_req *req)
{
	size_t off = 0;
	int n = 0;

	strcpy(scratch, path);
	while (*pat) {
		if (*pat == '{') {
			const char *end = strchr(pat, '}');
			char *seg = scratch + off;
			size_t len = strcspn(path + off, "/");

			if (!end || len == 0 || n == HTTP_MAX_PARAMS)
				return 0;
			/* pattern name lives in the static table: keep a pointer */
			req->params[n].value = seg;
			req->params[n].name = pat + 1;
			n++;
			off += len;
			if (path[off] == '/')
				seg[len] = '\0';
			else if (path[off] != '\0')
				return 0;
			pat = end + 1;
			if (*pat == '/' && path[off] == '/') {
				pat++;
				off++;
			} else if (*pat != path[off]) {
				return 0;
			}
			continue;
		}
		if (*pat != path[off])
			return 0;
		pat++;
		off++;
	}
	if (path[off] != '\0')
		return 0;
	req->nparams = n;
	return 1;
}

enum route_match_result route_find(const char *method, const char *path,
				   char *scratch, struct http_req *req,
				   const struct route **out,
				   char *allow, size_t allowlen)
{
	bool other = false;
	size_t i;

	if (allowlen)
		allow[0] = '\0';
	for (i = 0; i < perflab_routes_count; i++) {
		const struct route *r = &perflab_routes[i];

		if (!match(r->pattern, path, scratch, req))
			continue;
		if (strcmp(r->method, method) == 0) {
			*out = r;
			return ROUTE_FOUND;
		}
		if (!strstr(allow, r->method) &&
		    strlen(allow) + strlen(r->method) + 3 < allowlen) {
			if (other)
				strcat(allow, ", ");
			strcat(allow, r->method);
		}
		other = true;
	}
	req->nparams = 0;
	return other ? ROUTE_BAD_METHOD : ROUTE_NOT_FOUND;
}
