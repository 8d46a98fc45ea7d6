// SPDX-License-Identifier: MIT
/*
 * perflab calibrate: start or list calibration experiments.
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calibrate.h"
#include "cli/client.h"
#include "cli/util.h"

#define LADDER_PATCH "kernel-patches/0004-block-perflab_canary-calibration-parameter.patch"

const struct cli_command cli_calibrate = {
	"calibrate", cmd_calibrate,
	"HOST|--label L [--aa|--ladder] [--runs N] [--steps 0,1,..]\n"
	"             [--patch FILE] [--bench JSON] [--json] [-q]",
	"start an A/A or perflab_canary ladder calibration on a host or label;\n"
	"      without --aa/--ladder: list its calibrations (noise, fit, MDE)"
};

struct cal_opts {
	const char *host, *label, *kind, *patch, *bench, *steps;
	int runs;
	bool json, quiet;
};

static int parse(int argc, char **argv, struct cal_opts *o)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "aa", no_argument, NULL, 'a' },
		{ "ladder", no_argument, NULL, 'L' },
		{ "runs", required_argument, NULL, 'r' },
		{ "steps", required_argument, NULL, 's' },
		{ "patch", required_argument, NULL, 'p' },
		{ "bench", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "q", opts, NULL)) != -1) {
		switch (c) {
		case 'l': o->label = optarg; break;
		case 'a': o->kind = "aa"; break;
		case 'L': o->kind = "ladder"; break;
		case 'r':
			o->runs = cli_parse_int(optarg, 2, 100);
			if (o->runs < 0)
				return cli_usage_error("calibrate: --runs must be 2..100");
			break;
		case 's': o->steps = optarg; break;
		case 'p': o->patch = optarg; break;
		case 'b': o->bench = optarg; break;
		case 'j': o->json = true; break;
		case 'q': o->quiet = true; break;
		default:
			return cli_usage_error("calibrate: bad option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->host = argv[optind++];
	if (optind < argc)
		return cli_usage_error("calibrate: unexpected argument '%s'", argv[optind]);
	if (!o->host == !o->label)
		return cli_usage_error("calibrate: give a HOST or --label L");
	if (!o->kind && (o->runs || o->steps || o->patch || o->bench))
		return cli_usage_error("calibrate: --runs, --steps, --patch and --bench"
				       " need --aa or --ladder");
	return 0;
}

static int add_steps(json_t *body, const char *s)
{
	json_t *a = json_array();
	char *end;

	while (a && *s) {
		long n = strtol(s, &end, 10);

		if (end == s || n < 0 || (*end && *end != ','))
			goto bad;
		json_array_append_new(a, json_integer(n));
		s = *end ? end + 1 : end;
	}
	return json_object_set_new(body, "steps", a);
bad:
	json_decref(a);
	return -1;
}

static json_t *request_body(const struct cal_opts *o)
{
	json_t *b = json_pack("{s:s}", "kind", o->kind), *bench;
	const char *patch = o->patch;
	char *text;
	size_t len;

	if (!b)
		return NULL;
	json_object_set_new(b, o->host ? "host" : "label",
			    json_string(o->host ? o->host : o->label));
	if (o->runs)
		json_object_set_new(b, "runs", json_integer(o->runs));
	if (o->steps && add_steps(b, o->steps))
		goto bad;
	if (o->bench) {
		bench = json_loads(o->bench, 0, NULL);
		if (!json_is_object(bench)) {
			json_decref(bench);
			fprintf(stderr, "perflab: --bench must be a JSON object\n");
			goto err;
		}
		json_object_set_new(b, "bench", bench);
	}
	if (!patch && !strcmp(o->kind, "ladder") && !access(LADDER_PATCH, R_OK))
		patch = LADDER_PATCH;
	if (patch) {
		if (cli_read_file(patch, &text, &len))
			goto err;
		json_object_set_new(b, "patch", json_stringn(text, len));
		free(text);
	}
	return b;
bad:
	cli_usage_error("calibrate: --steps must be comma-separated counts");
err:
	json_decref(b);
	return NULL;
}

static int start(const struct client *c, const struct cal_opts *o)
{
	json_t *body = request_body(o), *doc = NULL;
	char *s;
	int ret = CLI_ERROR;

	if (!body)
		return CLI_ERROR;
	s = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (s && !client_json(c, "POST", "/api/v1/calibrations", "application/json",
			      s, strlen(s), &doc, NULL)) {
		long long id = json_integer_value(json_object_get(doc, "id"));

		if (o->quiet)
			printf("%lld\n", id);
		else
			printf("calibration %s: experiment %lld, %lld jobs\n"
			       "  perflab watch %lld; perflab calibrate %s%s\n", o->kind,
			       id, (long long)json_integer_value(json_object_get(doc, "jobs")),
			       id, o->host ? "" : "--label ", o->host ? o->host : o->label);
		ret = CLI_OK;
	}
	free(s);
	json_decref(doc);
	return ret;
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void render_one(json_t *cal)
{
	json_t *fit = json_object_get(cal, "fit"), *noise = json_object_get(cal, "noise");
	json_t *cmps = json_object_get(cal, "comparisons"), *s;
	size_t i;

	printf("#%lld %s on %s%s%s: %s, %lld runs per variant\n",
	       (long long)json_integer_value(json_object_get(cal, "id")),
	       json_string_value(json_object_get(cal, "kind")),
	       json_string_value(json_object_get(cal, "label")) ?: "any",
	       json_is_string(json_object_get(cal, "host")) ? " host " : "",
	       json_string_value(json_object_get(cal, "host")) ?: "",
	       json_string_value(json_object_get(cal, "state")),
	       (long long)json_integer_value(json_object_get(cal, "runs")));
	if (json_is_object(noise))
		printf("  noise %.5f %% (%s), MDE %.5f %% at %lld runs\n",
		       num(noise, "noise_pct"),
		       json_string_value(json_object_get(noise, "metric")),
		       num(noise, "mde_pct"),
		       (long long)json_integer_value(json_object_get(noise, "runs")));
	if (json_is_object(fit))
		printf("  fit: %.4f %s per canary unit (%.5f %%/unit), R^2 %.6f,"
		       " MDE %.5f %% = %.3f units\n", num(fit, "cost_per_unit"),
		       json_string_value(json_object_get(fit, "cost_unit")) ?: "",
		       num(fit, "slope_pct"), num(fit, "r2"), num(fit, "mde_pct"),
		       num(fit, "mde_units"));
	json_array_foreach(cmps, i, s)
		printf("  %-12s %+.5f %% [%+.5f, %+.5f] %s (%s)\n",
		       json_string_value(json_object_get(s, "variant")),
		       num(s, "delta_pct"), num(s, "ci_low"), num(s, "ci_high"),
		       json_string_value(json_object_get(s, "verdict")),
		       json_string_value(json_object_get(s, "metric")));
}

static int list(const struct client *c, const struct cal_opts *o)
{
	char q[256] = "", path[320];
	json_t *doc = NULL, *cal;
	size_t i;

	if (cli_query_add(q, sizeof(q), o->host ? "host" : "label",
			  o->host ? o->host : o->label))
		return cli_usage_error("calibrate: name too long");
	snprintf(path, sizeof(path), "/api/v1/calibrations%s", q);
	if (client_json(c, "GET", path, NULL, NULL, 0, &doc, NULL))
		return CLI_ERROR;
	if (o->json) {
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
	} else {
		json_array_foreach(json_object_get(doc, "calibrations"), i, cal)
			render_one(cal);
		if (!json_array_size(json_object_get(doc, "calibrations")))
			printf("no calibrations\n");
	}
	json_decref(doc);
	return CLI_OK;
}

int cmd_calibrate(const struct client *c, int argc, char **argv)
{
	struct cal_opts o;

	if (parse(argc, argv, &o))
		return CLI_ERROR;
	return o.kind ? start(c, &o) : list(c, &o);
}
