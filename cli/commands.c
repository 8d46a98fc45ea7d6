// SPDX-License-Identifier: MIT
/*
 * commands - submit, show, perf-diff, compare, alerts, hosts.
 * (track and bisect are in track.c.)
 * (run is in series.c, watch in watch.c, table output in render.c.)
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/render.h"
#include "cli/util.h"

const struct cli_command cli_commands[] = {
	{ "submit", cmd_submit,
	  "FILE... [--base B] [--runs N] [--max-runs N] [--label L]\n"
	  "             [--backend K] [--config C] [--title T] [-q]",
	  "submit patches (FILE - reads stdin) as one variant against the base;\n"
	  "      prints the experiment id (-q: only the id)" },
	{ "run", cmd_run, "SERIES.json [-q]",
	  "submit an experiment definition (kernel-patches/series/*.json)" },
	{ "show", cmd_show, "ID [--json]",
	  "experiment state, variants, runs and verdict table" },
	{ "watch", cmd_watch, "ID [--fail-on-regression] [--interval S]",
	  "progress until the experiment ends, then the verdict table; follows\n"
	  "      /api/v1/events, polls every S seconds (2) without it" },
	{ "perf-diff", cmd_perf_diff, "ID [--variant V] [--kind KIND]",
	  "perf diff of a variant against the control (text); instructions per\n"
	  "      IO per symbol when the runs have exact profiles; KIND: a kind of\n"
	  "      profile the daemon stores (samples, instructions, cycles: estimated\n"
	  "      cycles of the cache model with instructions and misses)" },
	{ "compare", cmd_compare, "[NAME=]LOG [NAME=]LOG... [--json]",
	  "compare t/io_uring, perflab-bench or fio logs; the first is the control,\n"
	  "      logs given the same NAME are runs of one variant" },
	{ "cancel", cmd_cancel, "ID", "cancel an experiment's unfinished runs" },
	{ "alerts", cmd_alerts, "[--state S] [--json]", "list regression alerts" },
	{ "hosts", cmd_hosts, "[--json]", "list test hosts" },
	{ "failure-reasons", cmd_failure_reasons, "[--json]",
	  "why a job can fail: meaning, retried or not, what a bisection does" },
	{ "lava", cmd_lava, "add LAB.json | list [--json] | remove NAME",
	  "bind a label to a LAVA instance (admin; docs/operating.md), list the\n"
	  "      LAVA labs, disable one" },
	{ "track", cmd_track,
	  "add --base B --label L [--ref R] [--backend K] [--runs N]\n"
	  "             [--every N | --every-seconds S] [--bench JSON]\n"
	  "       | list [--json] | show ID [--json]",
	  "measure a git base's ref commit by commit (every Nth commit, or on a\n"
	  "      schedule); list tracks; a track's points, change points, bisections" },
	{ "watches", cmd_watches, "list [--json] | show ID [--json]",
	  "list watches of mailing-list archives (admin); a watch's series,\n"
	  "      versions side by side, their experiments and replies, refusals" },
	{ "bisect", cmd_bisect,
	  "start --base B --good SHA --bad SHA [--label L] [--backend K]\n"
	  "             [--runs N] [--bench JSON] | show ID [--json]",
	  "bisect a step between two commits of a git base; show every step\n"
	  "      (commit, runs, delta, CI, verdict) and the culprit" },
};

const int cli_commands_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

/* Only --json: shared by the listing commands. */
static int parse_json_flag(int argc, char **argv, bool *json, int *first)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	*json = false;
	optind = 0;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (o == 'j')
			*json = true;
		else
			return cli_usage_error("%s: unknown option '%s'",
					       argv[0], argv[optind - 1]);
	}
	*first = optind;
	return 0;
}

static void print_json(json_t *doc)
{
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
}

/* Concatenate the patch files, each ending with a newline. */
static int read_patches(char **files, int n, char **out, size_t *outlen)
{
	size_t len = 0, flen;
	char *all = NULL, *f, *np;
	int i;

	for (i = 0; i < n; i++) {
		if (cli_read_file(files[i], &f, &flen))
			goto fail;
		if (!flen) {
			fprintf(stderr, "perflab: %s: empty file\n", files[i]);
			free(f);
			goto fail;
		}
		np = realloc(all, len + flen + 2);
		if (!np) {
			free(f);
			goto fail;
		}
		all = np;
		memcpy(all + len, f, flen);
		len += flen;
		if (all[len - 1] != '\n')
			all[len++] = '\n';
		all[len] = '\0';
		free(f);
	}
	*out = all;
	*outlen = len;
	return 0;
fail:
	free(all);
	return -1;
}

int cmd_submit(const struct client *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "runs", required_argument, NULL, 'r' },
		{ "label", required_argument, NULL, 'l' },
		{ "title", required_argument, NULL, 't' },
		{ "backend", required_argument, NULL, 'k' },
		{ "max-runs", required_argument, NULL, 'm' },
		{ "config", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	char path[8192] = "/api/v1/patches", q[4096] = "";
	const char *names[] = { ['b'] = "base", ['r'] = "runs",
				['l'] = "label", ['t'] = "title",
				['k'] = "backend", ['m'] = "max_runs",
				['c'] = "config" };
	bool quiet = false;
	json_t *doc = NULL;
	char *body = NULL;
	size_t len;
	int o, ret = CLI_ERROR;

	optind = 0;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "q", opts, NULL)) != -1) {
		if (o == 'q') {
			quiet = true;
			continue;
		}
		if (o == '?' || o == ':')
			return cli_usage_error("submit: bad option '%s'",
					       argv[optind - 1]);
		if ((o == 'r' || o == 'm') && cli_parse_int(optarg, 1, 1000) < 0)
			return cli_usage_error("submit: --%s wants 1..1000, not '%s'",
					       o == 'r' ? "runs" : "max-runs",
					       optarg);
		if (!*optarg)
			return cli_usage_error("submit: --%s is empty", names[o]);
		if (cli_query_add(q, sizeof(q), names[o], optarg))
			return cli_usage_error("submit: options too long");
	}
	if (optind >= argc)
		return cli_usage_error("submit: no patch file given");
	if (read_patches(argv + optind, argc - optind, &body, &len))
		return CLI_ERROR;
	snprintf(path, sizeof(path), "/api/v1/patches%s", q);
	if (client_json(c, "POST", path, "text/x-patch", body, len, &doc, NULL))
		goto out;
	render_submitted(stdout, c->server, doc, quiet);
	ret = CLI_OK;
out:
	json_decref(doc);
	free(body);
	return ret;
}

static int fetch_experiment(const struct client *c, const char *arg,
			    json_t **doc)
{
	char path[128];
	long long id = cli_parse_id(arg);

	if (id < 0)
		return cli_usage_error("'%s' is not an experiment id", arg);
	snprintf(path, sizeof(path), "/api/v1/experiments/%lld", id);
	return client_json(c, "GET", path, NULL, NULL, 0, doc, NULL) ?
		       CLI_ERROR : CLI_OK;
}

static bool any_failed_variant(json_t *exp)
{
	json_t *v;
	size_t i;

	json_array_foreach(render_get(exp, "variants"), i, v)
		if (render_str(v, "failure_reason", NULL))
			return true;
	return false;
}

int cmd_show(const struct client *c, int argc, char **argv)
{
	json_t *doc = NULL;
	bool json;
	int first, ret;

	if (parse_json_flag(argc, argv, &json, &first))
		return CLI_ERROR;
	if (argc - first != 1)
		return cli_usage_error("show: expected one experiment id");
	ret = fetch_experiment(c, argv[first], &doc);
	if (ret)
		return ret;
	if (json) {
		print_json(doc);
	} else {
		json_t *reasons = NULL;

		/* A failed variant is explained from the daemon's table. */
		if (any_failed_variant(doc))
			client_json(c, "GET", "/api/v1/failure-reasons", NULL,
				    NULL, 0, &reasons, NULL);
		render_set_failure_reasons(reasons);
		render_experiment(stdout, doc);
		render_set_failure_reasons(NULL);
		json_decref(reasons);
	}
	json_decref(doc);
	return CLI_OK;
}

int cmd_perf_diff(const struct client *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "kind", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	char path[1024], q[512] = "";
	const char *variant = NULL, *kind = NULL;
	long long id;
	char *text;
	int o;

	optind = 0;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "v:k:", opts, NULL)) != -1) {
		/* the kinds are the daemon's: it names them on a bad one */
		if (o == 'v')
			variant = optarg;
		else if (o == 'k')
			kind = optarg;
		else
			return cli_usage_error("perf-diff: bad option '%s'",
					       argv[optind - 1]);
	}
	if (argc - optind != 1)
		return cli_usage_error("perf-diff: expected one experiment id");
	id = cli_parse_id(argv[optind]);
	if (id < 0)
		return cli_usage_error("'%s' is not an experiment id",
				       argv[optind]);
	if (cli_query_add(q, sizeof(q), "format", "text") ||
	    (variant && cli_query_add(q, sizeof(q), "variant", variant)) ||
	    (kind && cli_query_add(q, sizeof(q), "kind", kind)))
		return cli_usage_error("perf-diff: variant or kind too long");
	snprintf(path, sizeof(path), "/api/v1/experiments/%lld/perf-diff%s",
		 id, q);
	if (client_text(c, "GET", path, &text))
		return CLI_ERROR;
	fputs(text, stdout);
	if (*text && text[strlen(text) - 1] != '\n')
		putchar('\n');
	free(text);
	return CLI_OK;
}

/* {"logs": [{"name": FILE, "text": CONTENT}, ...]} */
static json_t *compare_body(char **files, int n)
{
	json_t *logs = json_array(), *doc;
	size_t len;
	char *text;
	int i;

	doc = json_pack("{s:o}", "logs", logs);
	if (!doc)
		return NULL;
	for (i = 0; i < n; i++) {
		const char *name = files[i], *path = files[i];
		char *eq = strchr(files[i], '=');

		/* NAME=FILE: logs with the same NAME are runs of one variant */
		if (eq && eq != files[i] && access(files[i], F_OK)) {
			*eq = '\0';
			path = eq + 1;
		}
		if (cli_read_file(path, &text, &len))
			goto fail;
		if (json_array_append_new(logs,
			json_pack("{s:s,s:s%}", "name", name, "text",
				  text, len))) {
			fprintf(stderr, "perflab: %s: not valid UTF-8 text\n",
				path);
			free(text);
			goto fail;
		}
		free(text);
	}
	return doc;
fail:
	json_decref(doc);
	return NULL;
}

int cmd_compare(const struct client *c, int argc, char **argv)
{
	json_t *body, *doc = NULL;
	char *text;
	bool json;
	int first, ret = CLI_ERROR;

	if (parse_json_flag(argc, argv, &json, &first))
		return CLI_ERROR;
	if (argc - first < 2)
		return cli_usage_error("compare: needs at least two logs (base first)");
	body = compare_body(argv + first, argc - first);
	if (!body)
		return CLI_ERROR;
	text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		return CLI_ERROR;
	if (client_json(c, "POST", "/api/v1/compare", "application/json",
			text, strlen(text), &doc, NULL))
		goto out;
	if (json)
		print_json(doc);
	else
		render_compare(stdout, doc);
	ret = render_has_regression(doc) ? CLI_REGRESSION : CLI_OK;
out:
	free(text);
	json_decref(doc);
	return ret;
}

int cmd_cancel(const struct client *c, int argc, char **argv)
{
	json_t *doc = NULL;
	char path[128];
	long long id;

	if (argc != 2)
		return cli_usage_error("cancel: expected one experiment id");
	id = cli_parse_id(argv[1]);
	if (id < 0)
		return cli_usage_error("'%s' is not an experiment id", argv[1]);
	snprintf(path, sizeof(path), "/api/v1/experiments/%lld/cancel", id);
	if (client_json(c, "POST", path, "application/json", "{}", 2, &doc,
			NULL))
		return CLI_ERROR;
	printf("experiment %lld %s\n", id,
	       render_str(doc, "state", "cancelled"));
	json_decref(doc);
	return CLI_OK;
}

int cmd_alerts(const struct client *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	char path[512] = "/api/v1/alerts", q[256] = "";
	json_t *doc = NULL;
	bool json = false;
	int o;

	optind = 0;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "s:", opts, NULL)) != -1) {
		if (o == 'j')
			json = true;
		else if (o == 's' && !cli_query_add(q, sizeof(q), "state", optarg))
			continue;
		else
			return cli_usage_error("alerts: bad option '%s'",
					       argv[optind - 1]);
	}
	if (optind != argc)
		return cli_usage_error("alerts: unexpected argument '%s'",
				       argv[optind]);
	strcat(path, q);
	if (client_json(c, "GET", path, NULL, NULL, 0, &doc, NULL))
		return CLI_ERROR;
	if (json)
		print_json(doc);
	else
		render_alerts(stdout, doc);
	json_decref(doc);
	return CLI_OK;
}

/* A command without arguments: GET @path, print it as JSON or @render's table. */
static int get_and_render(const struct client *c, int argc, char **argv,
			  const char *name, const char *path,
			  void (*render)(FILE *, json_t *))
{
	json_t *doc = NULL;
	bool json;
	int first;

	if (parse_json_flag(argc, argv, &json, &first))
		return CLI_ERROR;
	if (first != argc)
		return cli_usage_error("%s: unexpected argument '%s'", name,
				       argv[first]);
	if (client_json(c, "GET", path, NULL, NULL, 0, &doc, NULL))
		return CLI_ERROR;
	if (json)
		print_json(doc);
	else
		render(stdout, doc);
	json_decref(doc);
	return CLI_OK;
}

int cmd_hosts(const struct client *c, int argc, char **argv)
{
	return get_and_render(c, argc, argv, "hosts", "/api/v1/hosts",
			      render_hosts);
}

int cmd_failure_reasons(const struct client *c, int argc, char **argv)
{
	return get_and_render(c, argc, argv, "failure-reasons",
			      "/api/v1/failure-reasons", render_failure_reasons);
}
