// SPDX-License-Identifier: MIT
/*
 * job: claimed job parsing.
 */
#include "common/default_base.h"
#include "common/git_names.h"
#include "common/kimage.h"
#include "runners/runner/job.h"
#include "runners/runner/gitbase.h"
#include "rtsetting.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_or(const json_t *o, const char *k, const char *def)
{
	const json_t *v = json_object_get(o, k);

	return json_is_string(v) ? json_string_value(v) : def;
}

static int parse_patches(struct job *j, const json_t *arr, char *err,
			 size_t errlen)
{
	size_t i;
	const json_t *p;

	if (!arr || json_is_null(arr))
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, errlen, "variant.patches: not an array");
		return -1;
	}
	j->patches = calloc(json_array_size(arr) + 1, sizeof(*j->patches));
	if (!j->patches) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	json_array_foreach(arr, i, p) {
		const json_t *raw = json_object_get(p, "raw");

		if (!json_is_string(raw)) {
			snprintf(err, errlen, "variant.patches[%zu].raw: "
				 "missing", i);
			return -1;
		}
		j->patches[i].raw = json_string_value(raw);
		j->patches[i].len = json_string_length(raw);
		j->patches[i].name = str_or(p, "subject", "patch");
		j->npatches++;
	}
	return 0;
}

static int parse_toggle(struct job *j, const json_t *t, char *err,
			size_t errlen)
{
	const json_t *arr = json_object_get(t, "runs"), *r;
	char why[256];
	size_t i;

	if (!t)
		return 0;
	if (!json_is_array(arr) || json_array_size(arr) == 0 ||
	    json_array_size(arr) > 1000) {
		snprintf(err, errlen, "toggle.runs: not an array of runs");
		return -1;
	}
	j->runs = calloc(json_array_size(arr), sizeof(*j->runs));
	if (!j->runs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	json_array_foreach(arr, i, r) {
		struct toggle_run *t = &j->runs[i];
		const json_t *v = json_object_get(r, "variant"), *val;
		const char *path;

		t->job_id = json_integer_value(json_object_get(r, "job_id"));
		t->lease = str_or(r, "lease", NULL);
		t->run_index = json_integer_value(json_object_get(r, "run_index"));
		t->variant = str_or(v, "name", "?");
		t->settings = json_object_get(v, "settings");
		if (t->job_id <= 0 || !t->lease || !json_is_object(t->settings) ||
		    json_object_size(t->settings) > RTSETTING_MAX) {
			snprintf(err, errlen, "toggle.runs[%zu]: job_id, lease"
				 " and settings required", i);
			return -1;
		}
		/* The runner writes these as root: check them again here. */
		json_object_foreach((json_t *)t->settings, path, val) {
			if (!json_is_string(val) ||
			    rtsetting_path_check(path, why, sizeof(why)) ||
			    rtsetting_value_check(json_string_value(val), why,
						  sizeof(why))) {
				snprintf(err, errlen, "toggle.runs[%zu]: %s", i,
					 json_is_string(val) ? why :
					 "a setting value is not a string");
				return -1;
			}
		}
		j->nruns++;
	}
	return 0;
}

/* base.kind/url/commit: a git base is checked before git ever sees it. */
static int parse_base(struct job *j, const json_t *base, char *err,
		      size_t errlen)
{
	const char *kind = str_or(base, "kind", "tarball");
	char why[128];

	j->base_name = str_or(base, "name", PERFLAB_DEFAULT_BASE);
	if (!strcmp(kind, "tarball"))
		return 0;
	if (strcmp(kind, "git")) {
		snprintf(err, errlen, "base.kind: not tarball or git");
		return -1;
	}
	j->base_git = 1;
	j->base_url = str_or(base, "url", NULL);
	j->base_commit = str_or(base, "commit", NULL);
	/* A NUL inside would cut what git sees from what was checked. */
	if (j->base_url && strlen(j->base_url) !=
	    json_string_length(json_object_get(base, "url"))) {
		snprintf(err, errlen, "base url: NUL character");
		return -1;
	}
	if (git_url_check(j->base_url, why, sizeof(why))) {
		snprintf(err, errlen, "base url: %s", why);
		return -1;
	}
	if (!git_sha_valid(j->base_commit)) {
		snprintf(err, errlen, "base.commit: not 40 lower-case hex "
			 "digits");
		return -1;
	}
	return 0;
}

/* trust_domain and image: checked before they name paths and URLs. */
static int parse_image(struct job *j, const json_t *o, char *err, size_t errlen)
{
	const json_t *img = json_object_get(o, "image");

	j->trust_domain = str_or(o, "trust_domain", NULL);
	if (j->trust_domain && !kimage_domain_valid(j->trust_domain)) {
		snprintf(err, errlen, "trust_domain: not 1-64 of [a-z0-9]");
		return -1;
	}
	if (!img || json_is_null(img))
		return 0;
	j->image = img;
	j->image_key = str_or(img, "key", NULL);
	j->image_state = str_or(img, "state", "");
	if (!kimage_is_hex64(j->image_key) || (strcmp(j->image_state, "ready") &&
					       strcmp(j->image_state, "build"))) {
		snprintf(err, errlen, "image: key (64 hex) and state (ready or"
			 " build) required");
		return -1;
	}
	return 0;
}

int job_from_json(json_t *o, struct job *j, char *err, size_t errlen)
{
	const json_t *id, *v, *base;

	memset(j, 0, sizeof(*j));
	j->raw = json_incref(o);
	/* A build task: build, upload, no bench (docs/api.md). */
	if (!strcmp(str_or(o, "kind", ""), "build")) {
		j->build_id = json_integer_value(json_object_get(o, "build_id"));
		if (j->build_id <= 0) {
			snprintf(err, errlen, "build task: build_id required");
			goto fail;
		}
	}
	id = json_object_get(o, j->build_id ? "build_id" : "job_id");
	j->lease = str_or(o, "lease", NULL);
	if (!json_is_integer(id) || !j->lease) {
		snprintf(err, errlen, "job: job_id and lease required");
		goto fail;
	}
	j->id = json_integer_value(id);
	j->lease_seconds = json_integer_value(json_object_get(o,
							      "lease_seconds"));
	if (j->lease_seconds <= 0)
		j->lease_seconds = 60;
	j->attempt = json_integer_value(json_object_get(o, "attempt"));
	j->experiment_id = json_integer_value(json_object_get(o,
							      "experiment_id"));
	j->run_index = json_integer_value(json_object_get(o, "run_index"));
	j->backend = str_or(o, "backend", "");
	base = json_object_get(o, "base");
	if (parse_base(j, base, err, errlen))
		goto fail;
	j->config = str_or(o, "config", "qemu");
	v = json_object_get(o, "variant");
	if (!json_is_object(v)) {
		snprintf(err, errlen, "job: variant missing");
		goto fail;
	}
	j->variant = str_or(v, "name", "?");
	j->cmdline = str_or(v, "cmdline", "");
	j->setup = str_or(v, "setup", "");
	if (parse_patches(j, json_object_get(v, "patches"), err, errlen))
		goto fail;
	if (parse_image(j, o, err, errlen))
		goto fail;
	j->bench = json_object_get(o, "bench");
	if (j->build_id && !j->bench)
		j->bench = json_object_get(o, "image");	/* unused: no run */
	if (!json_is_object(j->bench)) {
		snprintf(err, errlen, "job: bench parameters missing");
		goto fail;
	}
	j->target = str_or(j->bench, "target", "");
	if (parse_toggle(j, json_object_get(o, "toggle"), err, errlen))
		goto fail;
	for (const char *c = j->config; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_-", *c)) {
			snprintf(err, errlen, "job: bad config name");
			goto fail;
		}
	return 0;
fail:
	job_free(j);
	return -1;
}

int job_parse(const char *text, struct job *j, char *err, size_t errlen)
{
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	int ret;

	if (!o) {
		memset(j, 0, sizeof(*j));
		snprintf(err, errlen, "job: invalid JSON: %s", je.text);
		return -1;
	}
	ret = job_from_json(o, j, err, errlen);
	json_decref(o);
	return ret;
}

void job_free(struct job *j)
{
	free(j->patches);
	free(j->runs);
	json_decref(j->raw);
	memset(j, 0, sizeof(*j));
}
