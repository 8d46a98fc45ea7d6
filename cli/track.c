// SPDX-License-Identifier: MIT
/*
 * track, bisect - commit-by-commit tracks of a git base and the
 * bisections of their steps:
 *
 *   perflab track add --base B --label L [--ref R] [--backend K] [--runs N]
 *                     [--every N | --every-seconds S] [--bench JSON]
 *   perflab track list [--json]
 *   perflab track show ID [--json]
 *   perflab bisect start --base B --good SHA --bad SHA [--label L]
 *                        [--backend K] [--runs N] [--bench JSON]
 *   perflab bisect show ID [--json]
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/render.h"
#include "cli/subcmd.h"
#include "cli/util.h"
#include "common/metric_defs.h"

/* An MDE as the experiment page prints it: a tiny one keeps two
 * significant digits (0.0004%, not 0.00%), zero is exact. */
static const char *mdef(char *buf, size_t n, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	double x = json_number_value(v);

	if (!json_is_number(v))
		snprintf(buf, n, "-");
	else if (x == 0)
		snprintf(buf, n, "0 (exact)");
	else
		snprintf(buf, n, fabs(x) >= 0.1 ? "%.2f%%" : "%.2g%%", x);
	return buf;
}

/* ---- shared option parsing ------------------------------------------ */

struct spec {
	const char *base, *ref, *label, *backend, *good, *bad, *bench;
	int runs, every, every_s;
};

enum { O_BASE = 1, O_REF, O_LABEL, O_BACKEND, O_GOOD, O_BAD, O_BENCH,
       O_RUNS, O_EVERY, O_EVERY_S };

static int parse_spec(int argc, char **argv, bool track, struct spec *s)
{
	static const struct option opts[] = {
		{ "base", required_argument, NULL, O_BASE },
		{ "ref", required_argument, NULL, O_REF },
		{ "label", required_argument, NULL, O_LABEL },
		{ "backend", required_argument, NULL, O_BACKEND },
		{ "good", required_argument, NULL, O_GOOD },
		{ "bad", required_argument, NULL, O_BAD },
		{ "bench", required_argument, NULL, O_BENCH },
		{ "runs", required_argument, NULL, O_RUNS },
		{ "every", required_argument, NULL, O_EVERY },
		{ "every-seconds", required_argument, NULL, O_EVERY_S },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = track ? "track add" : "bisect start";
	int o;

	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		const char **dst[] = { [O_BASE] = &s->base, [O_REF] = &s->ref,
				       [O_LABEL] = &s->label,
				       [O_BACKEND] = &s->backend,
				       [O_GOOD] = &s->good, [O_BAD] = &s->bad,
				       [O_BENCH] = &s->bench };
		int *num[] = { [O_RUNS] = &s->runs, [O_EVERY] = &s->every,
			       [O_EVERY_S] = &s->every_s };

		if (o >= O_BASE && o <= O_BENCH) {
			if (!*optarg)
				return cli_usage_error("%s: --%s is empty", cmd,
						       opts[o - 1].name);
			*dst[o] = optarg;
		} else if (o >= O_RUNS && o <= O_EVERY_S) {
			*num[o] = cli_parse_int(optarg, 1,
						o == O_EVERY_S ? 86400 * 365 : 1000);
			if (*num[o] < 0)
				return cli_usage_error("%s: --%s wants a number in range, not '%s'",
						       cmd, opts[o - 1].name, optarg);
		} else {
			return cli_usage_error("%s: bad option '%s'", cmd,
					       argv[optind - 1]);
		}
	}
	if (optind != argc)
		return cli_usage_error("%s: unexpected argument '%s'", cmd,
				       argv[optind]);
	if (!s->base)
		return cli_usage_error("%s: --base is required", cmd);
	if (track && !s->label)
		return cli_usage_error("%s: --label is required", cmd);
	if (track && (s->good || s->bad))
		return cli_usage_error("%s: --good/--bad are for bisect start", cmd);
	if (!track && (!s->good || !s->bad))
		return cli_usage_error("%s: --good and --bad are required", cmd);
	if (!track && (s->ref || s->every || s->every_s))
		return cli_usage_error("%s: --ref/--every are for track add", cmd);
	if (s->every && s->every_s)
		return cli_usage_error("%s: --every or --every-seconds, not both", cmd);
	return 0;
}

/* The request body; NULL after a usage message (bad --bench). */
static json_t *spec_body(const struct spec *s, bool track)
{
	json_t *b = json_object(), *bench = NULL;
	json_error_t je;

	if (s->bench) {
		bench = json_loads(s->bench, 0, &je);
		if (!json_is_object(bench)) {
			cli_usage_error("--bench wants a JSON object: %s",
					bench ? "not an object" : je.text);
			json_decref(bench);
			json_decref(b);
			return NULL;
		}
		json_object_set_new(b, "bench", bench);
	}
	json_object_set_new(b, "base", json_string(s->base));
	if (s->label)
		json_object_set_new(b, "label", json_string(s->label));
	if (s->backend)
		json_object_set_new(b, "backend", json_string(s->backend));
	if (s->runs)
		json_object_set_new(b, "runs", json_integer(s->runs));
	if (!track) {
		json_object_set_new(b, "good", json_string(s->good));
		json_object_set_new(b, "bad", json_string(s->bad));
		return b;
	}
	if (s->ref)
		json_object_set_new(b, "ref", json_string(s->ref));
	if (s->every_s)
		json_object_set_new(b, "every", json_pack("{s:i}", "seconds", s->every_s));
	else
		json_object_set_new(b, "every", json_pack("{s:i}", "commits",
							  s->every ? s->every : 1));
	return b;
}

static int post(const struct client *c, const char *path, json_t *body,
		const char *what)
{
	char *text = json_dumps(body, JSON_COMPACT);
	json_t *doc = NULL;
	int ret = CLI_ERROR;

	json_decref(body);
	if (!text)
		return CLI_ERROR;
	if (!client_json(c, "POST", path, "application/json", text,
			 strlen(text), &doc, NULL)) {
		printf("%s %lld\n", what,
		       (long long)json_integer_value(json_object_get(doc, "id")));
		ret = CLI_OK;
	}
	json_decref(doc);
	free(text);
	return ret;
}

/* ---- track ----------------------------------------------------------- */

static void render_track_row(json_t *t)
{
	char runs[16];

	char n[3][24];
	static const char *const keys[] = { "points", "change_points", "bisections" };
	static const char *const counts[] = { "npoints", "nchange_points", "" };

	/* the list leaves the arrays out and counts some: "-", not 0, else */
	for (int i = 0; i < 3; i++) {
		json_t *a = json_object_get(t, keys[i]);

		if (json_is_array(a))
			snprintf(n[i], sizeof(n[i]), "%zu", json_array_size(a));
		else
			subcmd_num(n[i], sizeof(n[i]), t, counts[i], "%.0f");
	}
	printf("%5lld  %-16s  %-12s  %-10s  %-12s  %4s  %6s  %3s  %3s\n",
	       (long long)json_integer_value(json_object_get(t, "id")),
	       subcmd_str(t, "label"), subcmd_str(t, "base"), subcmd_str(t, "ref"),
	       subcmd_str(t, "backend"), subcmd_num(runs, sizeof(runs), t, "runs", "%.0f"),
	       n[0], n[1], n[2]);
}

static void render_track(json_t *t)
{
	json_t *p, *list;
	const char *metric = json_string_value(json_object_get(t, "metric"));
	const struct metric_def *m = metric ? metric_def_find(metric) : NULL;
	char v[32], d[32];
	size_t i;

	printf("track %lld %s: %s %s on %s, %s runs, head %.12s\n",
	       (long long)json_integer_value(json_object_get(t, "id")),
	       subcmd_str(t, "label"), subcmd_str(t, "base"), subcmd_str(t, "ref"),
	       subcmd_str(t, "backend"), subcmd_num(v, sizeof(v), t, "runs", "%.0f"),
	       subcmd_str(t, "head"));
	if (json_is_string(json_object_get(t, "poll_error")))
		printf("last poll failed: %s\n", subcmd_str(t, "poll_error"));
	/* which way a change point of the series is worse */
	if (metric)
		printf("metric: %s (%s is better)\n", m ? m->label : subcmd_str(t, "metric"),
		       metric_higher_is_worse(metric) ? "lower" : "higher");
	list = json_object_get(t, "points");
	printf("\n%-12s  %14s  %-9s  %10s  %s\n", "commit", m ? m->label : "value", "state",
	       "experiment", "subject (author)");
	json_array_foreach(list, i, p)
		printf("%-12.12s  %14s  %-9s  %10lld  %s (%s)\n",
		       subcmd_str(p, "commit"), subcmd_num(v, sizeof(v), p, "value", "%.1f"),
		       subcmd_str(p, "state"),
		       (long long)json_integer_value(json_object_get(p, "experiment_id")),
		       subcmd_str(p, "subject"), subcmd_str(p, "author"));
	list = json_object_get(t, "change_points");
	if (json_array_size(list))
		printf("\nchange points:\n");
	json_array_foreach(list, i, p)
		printf("  #%lld at point %lld: %.12s (good) -> %.12s (bad) %s%s\n",
		       (long long)json_integer_value(json_object_get(p, "id")),
		       (long long)json_integer_value(json_object_get(p, "index")),
		       subcmd_str(p, "good"), subcmd_str(p, "bad"),
		       subcmd_num(d, sizeof(d), p, "delta_pct", "%+.2f%%"),
		       json_is_true(json_object_get(p, "confirmed")) ? ", confirmed" : "");
	list = json_object_get(t, "bisections");
	if (json_array_size(list))
		printf("\nbisections:\n");
	json_array_foreach(list, i, p)
		printf("  #%lld %s, culprit %.12s\n",
		       (long long)json_integer_value(json_object_get(p, "id")),
		       subcmd_str(p, "state"), subcmd_str(p, "culprit"));
}

int cmd_track(const struct client *c, int argc, char **argv)
{
	json_t *doc = NULL, *t;
	struct spec s = { 0 };
	bool json = false;
	size_t i;
	int idx;

	if (argc < 2)
		return cli_usage_error("track: add, list or show");
	if (!strcmp(argv[1], "add")) {
		json_t *body;

		if (parse_spec(argc - 1, argv + 1, true, &s))
			return CLI_ERROR;
		body = spec_body(&s, true);
		return body ? post(c, "/api/v1/tracks", body, "track") : CLI_ERROR;
	}
	if (!strcmp(argv[1], "list")) {
		for (i = 2; i < (size_t)argc; i++) {
			if (strcmp(argv[i], "--json"))
				return cli_usage_error("track list: unexpected '%s'", argv[i]);
			json = true;
		}
		if (client_json(c, "GET", "/api/v1/tracks", NULL, NULL, 0, &doc, NULL))
			return CLI_ERROR;
		if (json) {
			subcmd_print_json(doc);
		} else {
			printf("%5s  %-16s  %-12s  %-10s  %-12s  %4s  %6s  %3s  %3s\n",
			       "id", "label", "base", "ref", "backend", "runs",
			       "points", "cps", "bis");
			json_array_foreach(subcmd_list(doc, "tracks"), i, t)
				render_track_row(t);
		}
		json_decref(doc);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "show")) {
		idx = subcmd_id_arg(argc - 1, argv + 1, "track show", &json);
		if (idx < 0)
			return CLI_ERROR;
		if (subcmd_get_one(c, "/api/v1/tracks/%lld", argv[idx + 1], "track", &doc))
			return CLI_ERROR;
		if (json)
			subcmd_print_json(doc);
		else
			render_track(doc);
		json_decref(doc);
		return CLI_OK;
	}
	return cli_usage_error("track: unknown sub-command '%s' (add, list, show)",
			       argv[1]);
}

/* ---- bisect ---------------------------------------------------------- */

static void render_step(size_t i, json_t *s)
{
	char d[32], lo[32], hi[32], m[32], ci[80];
	json_t *bad = json_object_get(s, "bad");

	if (json_is_number(json_object_get(s, "ci_lo")))
		snprintf(ci, sizeof(ci), "[%s, %s]",
			 subcmd_num(lo, sizeof(lo), s, "ci_lo", "%+.2f%%"),
			 subcmd_num(hi, sizeof(hi), s, "ci_hi", "%+.2f%%"));
	else
		snprintf(ci, sizeof(ci), "-");
	printf("%3zu  %-12.12s  %-8s  %4lld  %8s  %19s  %6s  %-12s  %-4s  %s\n",
	       i + 1, subcmd_str(s, "commit"), subcmd_str(s, "state"),
	       (long long)json_integer_value(json_object_get(s, "runs")),
	       subcmd_num(d, sizeof(d), s, "delta_pct", "%+.2f%%"), ci,
	       mdef(m, sizeof(m), s, "mde_pct"), subcmd_str(s, "verdict"),
	       json_is_true(bad) ? "bad" : json_is_false(bad) ? "good" : "-",
	       subcmd_str(s, "subject"));
}

static void render_bisection(json_t *b)
{
	json_t *s, *cul = json_object_get(b, "culprit");
	char d[32], lo[32], hi[32], m[32];
	size_t i;

	printf("bisection %lld %s: %s %s, good %.12s bad %.12s, step %s\n",
	       (long long)json_integer_value(json_object_get(b, "id")),
	       subcmd_str(b, "state"), subcmd_str(b, "base"), subcmd_str(b, "label"),
	       subcmd_str(b, "good"), subcmd_str(b, "bad"),
	       subcmd_num(d, sizeof(d), b, "step_pct", "%+.2f%%"));
	printf("\n%3s  %-12s  %-8s  %4s  %8s  %19s  %6s  %-12s  %-4s  %s\n", "#",
	       "commit", "state", "runs", "delta", "95% CI", "MDE", "verdict",
	       "mark", "subject");
	json_array_foreach(json_object_get(b, "steps"), i, s)
		render_step(i, s);
	if (json_is_string(json_object_get(b, "failure_reason")))
		printf("\nfailed: %s\n", subcmd_str(b, "failure_reason"));
	if (!json_is_object(cul)) {
		printf("\nculprit: %s\n", json_is_array(json_object_get(b, "skipped")) ?
		       "none: every commit in between was skipped" : "none yet");
		return;
	}
	printf("\nculprit: %s (\"%s\")\n  author %s <%s>\n"
	       "  delta %s, 95%% CI [%s, %s], MDE %s, %s\n",
	       subcmd_str(cul, "commit"), subcmd_str(cul, "subject"), subcmd_str(cul, "author"),
	       subcmd_str(cul, "email"), subcmd_num(d, sizeof(d), cul, "delta_pct", "%+.2f%%"),
	       subcmd_num(lo, sizeof(lo), cul, "ci_lo", "%+.2f%%"),
	       subcmd_num(hi, sizeof(hi), cul, "ci_hi", "%+.2f%%"),
	       mdef(m, sizeof(m), cul, "mde_pct"), subcmd_str(cul, "verdict"));
	if (json_integer_value(json_object_get(cul, "experiment_id")))
		printf("  perf diff: perflab perf-diff %lld --kind instructions\n",
		       (long long)json_integer_value(json_object_get(cul, "experiment_id")));
	if (json_is_string(json_object_get(cul, "message_id")))
		printf("  patch: %s\n", subcmd_str(cul, "message_id"));
}

int cmd_bisect(const struct client *c, int argc, char **argv)
{
	json_t *doc = NULL, *body;
	struct spec s = { 0 };
	bool json;
	int idx;

	if (argc < 2)
		return cli_usage_error("bisect: start or show");
	if (!strcmp(argv[1], "start")) {
		if (parse_spec(argc - 1, argv + 1, false, &s))
			return CLI_ERROR;
		body = spec_body(&s, false);
		return body ? post(c, "/api/v1/bisections", body, "bisection") :
			      CLI_ERROR;
	}
	if (!strcmp(argv[1], "show")) {
		idx = subcmd_id_arg(argc - 1, argv + 1, "bisect show", &json);
		if (idx < 0)
			return CLI_ERROR;
		if (subcmd_get_one(c, "/api/v1/bisections/%lld", argv[idx + 1],
			    "bisection", &doc))
			return CLI_ERROR;
		if (json)
			subcmd_print_json(doc);
		else
			render_bisection(doc);
		json_decref(doc);
		return CLI_OK;
	}
	return cli_usage_error("bisect: unknown sub-command '%s' (start, show)",
			       argv[1]);
}
