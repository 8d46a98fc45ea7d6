// SPDX-License-Identifier: MIT
/*
 * watch - `perflab watch ID`: follow the experiment, draw progress, print
 * the verdict table when it ends. It refreshes when /api/v1/events says
 * the experiment changed, and polls every --interval seconds where the
 * event stream cannot be had.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/render.h"
#include "cli/util.h"
#include "common/sse_client.h"

#define WATCH_MAX_FAILURES 5	/* consecutive failed polls before giving up */

static bool finished(const char *state)
{
	return !strcmp(state, "done") || !strcmp(state, "failed") ||
	       !strcmp(state, "cancelled");
}

static bool job_done(const char *state)
{
	return !strcmp(state, "done") || !strcmp(state, "failed") ||
	       !strcmp(state, "cancelled");
}

/* Count finished and total jobs; describe what is running now. */
static void count_jobs(json_t *exp, int *done, int *total, char *status,
		       size_t len)
{
	json_t *jobs = render_get(exp, "jobs"), *j;
	double t = render_num(exp, "progress.jobs_total");
	size_t i;

	*done = 0;
	*total = 0;
	snprintf(status, len, "%s", render_str(exp, "state", "?"));
	if (!isnan(t)) {
		*total = (int)t;
		*done = (int)(render_num(exp, "progress.done") +
			      render_num(exp, "progress.failed") +
			      render_num(exp, "progress.cancelled"));
	} else if (json_is_array(jobs)) {
		*total = (int)json_array_size(jobs);
		json_array_foreach(jobs, i, j)
			if (job_done(render_str(j, "state", "")))
				(*done)++;
	}
	json_array_foreach(jobs, i, j) {
		const char *s = render_str(j, "state", "");

		if (strcmp(s, "claimed") && strcmp(s, "running"))
			continue;
		snprintf(status, len, "%s: %s run %.0f on %s: %s%s%s",
			 render_str(exp, "state", "?"),
			 render_str(j, "variant", "?"),
			 render_num(j, "run_index") + 1,
			 render_str(j, "host", "?"),
			 render_str(j, "phase", s),
			 render_str(j, "message", NULL) ? " " : "",
			 render_str(j, "message", ""));
		break;
	}
}

/* Runs stored for the variant named @name. */
static double runs_of(json_t *exp, const char *name)
{
	json_t *runs = render_get(exp, "runs"), *r;
	double n = 0;
	size_t i;

	json_array_foreach(runs, i, r)
		n += !strcmp(render_str(r, "variant", ""), name);
	return n;
}

/*
 * The daemon analyses an experiment right after its last job: for a
 * moment it is "done" with no comparison, or with the one of fewer runs
 * (before runs were added), and an inconclusive verdict may still add
 * runs (up to max_runs), putting it back to "running".  Such a "done" is
 * not final yet.
 */
static bool settled(json_t *exp)
{
	json_t *cmp = render_comparisons(exp), *c;
	size_t nvar = json_array_size(render_get(exp, "variants")), i;
	double total = render_num(exp, "progress.jobs_total");
	double max = render_num(exp, "max_runs");

	if (strcmp(render_str(exp, "state", ""), "done"))
		return true;
	if (nvar > 1 && !json_array_size(cmp))
		return false;
	json_array_foreach(cmp, i, c) {
		double a = runs_of(exp, render_str(c, "variant", "")),
		       b = runs_of(exp, render_str(c, "control", ""));

		if (render_num(c, "runs") < (a < b ? a : b))
			return false;	/* computed before the last runs */
		if (strcmp(render_str(c, "verdict", ""), "inconclusive"))
			continue;
		if (nvar && !isnan(total) && !isnan(max) && total / nvar < max)
			return false;
	}
	return true;
}

#define WATCH_SETTLE_POLLS 5	/* polls to wait for a "done" to settle */
#define WATCH_EVENT_WAIT 30	/* seconds on the event stream between refreshes */

struct watch_opts {
	long long id;
	bool fail_on_regression;
	int interval;
};

static int parse_opts(int argc, char **argv, struct watch_opts *w)
{
	static const struct option opts[] = {
		{ "fail-on-regression", no_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	memset(w, 0, sizeof(*w));
	w->interval = 2;
	optind = 0;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (o == 'f') {
			w->fail_on_regression = true;
		} else if (o == 'i') {
			w->interval = cli_parse_int(optarg, 1, 3600);
			if (w->interval < 0)
				return cli_usage_error("watch: --interval wants 1..3600 seconds");
		} else {
			return cli_usage_error("watch: bad option '%s'",
					       argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("watch: expected one experiment id");
	w->id = cli_parse_id(argv[optind]);
	if (w->id < 0)
		return cli_usage_error("'%s' is not an experiment id",
				       argv[optind]);
	return 0;
}

/* A variant that failed (e.g. its patch does not apply) was not measured. */
static int failed_variants(json_t *exp, long long id)
{
	json_t *vars = render_get(exp, "variants"), *v;
	size_t i;
	int n = 0;

	json_array_foreach(vars, i, v) {
		if (strcmp(render_str(v, "state", "active"), "failed"))
			continue;
		fprintf(stderr, "perflab: experiment %lld: variant %s failed: %s\n",
			id, render_str(v, "name", "?"),
			render_str(v, "failure_reason", "?"));
		n++;
	}
	return n;
}

static int report(json_t *exp, const struct watch_opts *w)
{
	const char *state = render_str(exp, "state", "?");

	putchar('\n');
	render_experiment(stdout, exp);
	fflush(stdout);
	if (strcmp(state, "done")) {
		fprintf(stderr, "perflab: experiment %lld %s%s%s\n", w->id,
			state, render_str(exp, "failure_reason", NULL) ? ": " : "",
			render_str(exp, "failure_reason", ""));
		return CLI_ERROR;
	}
	if (failed_variants(exp, w->id))
		return CLI_ERROR;
	if (w->fail_on_regression && render_has_regression(exp)) {
		fprintf(stderr, "perflab: experiment %lld: regression found\n",
			w->id);
		return CLI_REGRESSION;
	}
	return CLI_OK;
}

/*
 * Waits for the experiment's next event. The first wait replays the
 * events the daemon kept (since=0), so none falls between the first GET
 * and the stream; after an error (e.g. perflabd restarted, its event ids
 * start again) the same. Where the stream fails, sleeps --interval.
 */
static void wait_change(const struct client *c, const struct watch_opts *w,
			unsigned long long *since)
{
	struct sse_event ev;
	char path[128], err[512], *url;
	int r = SSE_ERROR;

	snprintf(path, sizeof(path), "/api/v1/events?experiment=%lld&since=%llu",
		 w->id, *since);
	url = client_url(c, path);
	if (url)
		r = sse_wait(url, c->key, WATCH_EVENT_WAIT, &ev, err, sizeof(err));
	free(url);
	if (r == SSE_EVENT) {
		if (ev.id)
			*since = ev.id;
		return;
	}
	if (r == SSE_TIMEOUT)
		return;
	*since = 0;
	sleep(w->interval);
}

int cmd_watch(const struct client *c, int argc, char **argv)
{
	struct watch_opts w;
	struct progress p;
	char path[128], status[256];
	int failures = 0, unsettled = 0, done, total, ret;
	unsigned long long since = 0;
	json_t *exp = NULL;
	bool seen = false;
	long code;

	if (parse_opts(argc, argv, &w))
		return CLI_ERROR;
	snprintf(path, sizeof(path), "/api/v1/experiments/%lld", w.id);
	progress_init(&p, stdout, isatty(STDOUT_FILENO));
	for (;;) {
		json_decref(exp);
		if (client_json(c, "GET", path, NULL, NULL, 0, &exp, &code)) {
			exp = NULL;
			/*
			 * A 4xx answer is final; a lost connection or a 5xx
			 * after a good poll (daemon restart) is retried.
			 */
			if ((code && code < 500) || !seen ||
			    ++failures >= WATCH_MAX_FAILURES) {
				progress_finish(&p);
				return CLI_ERROR;
			}
			since = 0;
			sleep(w.interval);
			continue;
		}
		failures = 0;
		seen = true;
		count_jobs(exp, &done, &total, status, sizeof(status));
		progress_update(&p, done, total, status);
		if (!finished(render_str(exp, "state", "")))
			unsettled = 0;
		else if (settled(exp) || ++unsettled > WATCH_SETTLE_POLLS)
			break;
		if (unsettled)
			sleep(1);
		else
			wait_change(c, &w, &since);
	}
	progress_finish(&p);
	ret = report(exp, &w);
	json_decref(exp);
	return ret;
}
