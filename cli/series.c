// SPDX-License-Identifier: MIT
/*
 * series - `perflab run SERIES.json`: inline the referenced patch files
 * and POST the experiment.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/render.h"
#include "cli/series.h"
#include "cli/util.h"

static int try_path(const char *dir, const char *rel, char *out, size_t len)
{
	int n = dir ? snprintf(out, len, "%s/%s", dir, rel) :
		      snprintf(out, len, "%s", rel);

	return n > 0 && (size_t)n < len && access(out, R_OK) == 0 ? 0 : -1;
}

int series_resolve(const char *series_path, const char *rel, char *out,
		   size_t outlen)
{
	char dir[PATH_MAX], *slash;

	if (rel[0] == '/' || try_path(NULL, rel, out, outlen) == 0)
		return try_path(NULL, rel, out, outlen);
	if (!realpath(series_path, dir))
		return -1;
	while ((slash = strrchr(dir, '/'))) {
		*slash = '\0';
		if (try_path(*dir ? dir : "", rel, out, outlen) == 0)
			return 0;
	}
	return -1;
}

/* Replace one "patches" entry given as a path by the file's text. */
static json_t *inline_patch(const char *series, json_t *entry, char *err,
			    size_t errlen)
{
	const char *rel = json_string_value(entry);
	char path[PATH_MAX], *text;
	json_t *raw;
	size_t len;

	if (!rel || strchr(rel, '\n'))
		return json_incref(entry);
	if (!*rel || series_resolve(series, rel, path, sizeof(path))) {
		snprintf(err, errlen, "%s: patch file '%s' not found", series,
			 rel);
		return NULL;
	}
	if (cli_read_file(path, &text, &len)) {
		snprintf(err, errlen, "%s: cannot read patch '%s'", series,
			 path);
		return NULL;
	}
	raw = json_stringn(text, len);
	if (!raw)
		snprintf(err, errlen, "%s: not valid UTF-8 text", path);
	free(text);
	return raw;
}

static int inline_variant(const char *series, json_t *v, char *err,
			  size_t errlen)
{
	json_t *patches = json_object_get(v, "patches"), *p, *np;
	size_t i;

	if (!patches)
		return 0;
	if (!json_is_array(patches)) {
		snprintf(err, errlen, "%s: variant \"patches\" must be an array",
			 series);
		return -1;
	}
	json_array_foreach(patches, i, p) {
		np = inline_patch(series, p, err, errlen);
		if (!np)
			return -1;
		json_array_set_new(patches, i, np);
	}
	return 0;
}

/* One experiment body: inline its variants' patch files. */
static int inline_body(const char *path, json_t *doc, char *err,
		       size_t errlen)
{
	json_t *vars = json_object_get(doc, "variants"), *v;
	size_t i;

	if (!json_is_object(doc) || !json_is_array(vars) ||
	    !json_array_size(vars)) {
		snprintf(err, errlen, "%s: expected an object with a non-empty \"variants\" array",
			 path);
		return -1;
	}
	json_array_foreach(vars, i, v) {
		if (!json_is_object(v)) {
			snprintf(err, errlen, "%s: variant %zu is not an object",
				 path, i);
			return -1;
		}
		if (inline_variant(path, v, err, errlen))
			return -1;
	}
	return 0;
}

json_t *series_load(const char *path, char *err, size_t errlen)
{
	json_t *doc, *exps, *e;
	json_error_t jerr;
	size_t i;

	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
		return NULL;
	}
	exps = json_object_get(doc, "experiments");
	if (!exps) {
		if (inline_body(path, doc, err, errlen))
			goto fail;
		return doc;
	}
	if (!json_is_array(exps) || !json_array_size(exps) ||
	    json_object_size(doc) != 1) {
		snprintf(err, errlen, "%s: \"experiments\" must be the only"
			 " field, a non-empty array of experiment bodies", path);
		goto fail;
	}
	json_array_foreach(exps, i, e)
		if (inline_body(path, e, err, errlen))
			goto fail;
	return doc;
fail:
	json_decref(doc);
	return NULL;
}

/* POST one experiment body and print what was queued. */
static int submit(const struct client *c, json_t *body, bool quiet)
{
	char *text = json_dumps(body, JSON_COMPACT);
	json_t *doc = NULL;
	int ret = CLI_ERROR;

	if (!text) {
		fprintf(stderr, "perflab: out of memory\n");
		return CLI_ERROR;
	}
	if (!client_json(c, "POST", "/api/v1/experiments", "application/json",
			 text, strlen(text), &doc, NULL)) {
		render_submitted(stdout, c->server, doc, quiet);
		ret = CLI_OK;
	}
	free(text);
	json_decref(doc);
	return ret;
}

int cmd_run(const struct client *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	json_t *body, *exps, *e;
	bool quiet = false;
	char err[1024];
	int o, ret = CLI_OK;
	size_t i;

	optind = 0;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "q", opts, NULL)) != -1) {
		if (o != 'q')
			return cli_usage_error("run: bad option '%s'",
					       argv[optind - 1]);
		quiet = true;
	}
	if (argc - optind != 1)
		return cli_usage_error("run: expected one SERIES.json");
	body = series_load(argv[optind], err, sizeof(err));
	if (!body) {
		fprintf(stderr, "perflab: %s\n", err);
		return CLI_ERROR;
	}
	/* A file of several experiments (e.g. one question asked with two
	 * designs) submits each in order and stops at the first refusal. */
	exps = json_object_get(body, "experiments");
	if (!exps)
		ret = submit(c, body, quiet);
	json_array_foreach(exps, i, e) {
		ret = submit(c, e, quiet);
		if (ret != CLI_OK)
			break;
	}
	json_decref(body);
	return ret;
}
