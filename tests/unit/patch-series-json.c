// SPDX-License-Identifier: MIT
/*
 * Description: the experiment definitions in kernel-patches/series/ are
 * valid POST /api/v1/experiments bodies: title, label, backend, runs,
 * bench parameters, at least two uniquely named variants whose patches
 * exist and parse; the seed experiment has base/tag/iov_iter-control/tag+iov_iter-control
 * with 10 runs, and the ladder differs only by perflab_canary=N.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

static int patch_ok(const char *path)
{
	struct patch_series s;
	char err[256];
	size_t len;
	char *buf = slurp(path, &len);
	int r;

	if (!buf)
		return 0;
	r = patch_parse(buf, len, &s, err, sizeof(err)) == 0;
	patch_series_free(&s);
	free(buf);
	return r;
}

static json_t *load(const char *name)
{
	char path[256];
	json_error_t e;
	json_t *j;

	snprintf(path, sizeof(path), "kernel-patches/series/%s", name);
	j = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
	if (!j)
		printf("%s: %s (line %d)\n", path, e.text, e.line);
	return j;
}

/* Checks common to every series; returns the variants array. */
static json_t *check_common(const char *name, json_t *j, int runs)
{
	static const char *const bench_keys[] = {
		"depth",   "submit_batch", "complete_batch", "bs",
		"polled",  "fixedbufs",	   "regfiles",	     "random",
		"threads", "runtime",	   "warmup",	     "profile",
		"ios",	   "target"
	};
	json_t *bench = json_object_get(j, "bench");
	json_t *vars = json_object_get(j, "variants"), *v, *p;
	size_t i, k, m;

	printf("checking %s\n", name);	/* failures below name this file */

	CHECK(json_is_string(json_object_get(j, "title")));
	CHECK(json_is_string(json_object_get(j, "label")));
	CHECK(!strcmp(json_string_value(json_object_get(j, "backend")) ?: "",
		      "qemu-icount"));
	CHECK(json_integer_value(json_object_get(j, "runs")) == runs);
	CHECK(json_integer_value(json_object_get(j, "max_runs")) >= runs);
	CHECK(json_is_object(bench));
	for (i = 0; i < sizeof(bench_keys) / sizeof(bench_keys[0]); i++)
		CHECK(json_object_get(bench, bench_keys[i]) != NULL);
	CHECK(json_integer_value(json_object_get(bench, "depth")) == 128);
	CHECK(json_integer_value(json_object_get(bench, "bs")) == 512);
	CHECK(json_is_true(json_object_get(bench, "polled")));
	CHECK(json_is_array(vars) && json_array_size(vars) >= 2);
	json_array_foreach(vars, i, v)
	{
		const char *vn = json_string_value(json_object_get(v, "name"));

		CHECK(vn && *vn);
		CHECK(json_is_string(json_object_get(v, "cmdline")));
		CHECK(json_is_string(json_object_get(v, "setup")));
		CHECK(json_is_array(json_object_get(v, "patches")));
		for (k = 0; vn && k < i; k++)
			CHECK(strcmp(
				vn,
				json_string_value(json_object_get(json_array_get(vars, k), "name")) ?:
					""));
		json_array_foreach(json_object_get(v, "patches"), m, p)
		{
			CHECK(json_is_string(p) &&
			      !strncmp(json_string_value(p), "kernel-patches/",
				       15));
			CHECK(json_is_string(p) &&
			      patch_ok(json_string_value(p)));
		}
	}
	return vars;
}

static void check_seed(void)
{
	static const char *const names[] = { "base", "tag", "iov_iter-control",
					     "tag+iov_iter-control" };
	static const size_t npatches[] = { 0, 1, 1, 2 };
	const char *name = "seed-experiment.json";
	json_t *j = load(name), *vars, *v;
	size_t i;

	if (!j) {
		fails++;
		return;
	}
	vars = check_common(name, j, 10);
	CHECK(json_array_size(vars) == 4);
	json_array_foreach(vars, i, v)
	{
		if (i >= 4)
			break;
		CHECK(!strcmp(json_string_value(json_object_get(v, "name")) ?:
									      "",
			      names[i]));
		CHECK(json_array_size(json_object_get(v, "patches")) ==
		      npatches[i]);
	}
	json_decref(j);
}

static void check_ladder(void)
{
	static const int steps[] = { 0, 1, 2, 4, 8, 16, 64, 256 };
	const char *name = "ladder.json";
	json_t *j = load(name), *vars, *v, *p0 = NULL;
	char want[64];
	size_t i;

	if (!j) {
		fails++;
		return;
	}
	vars = check_common(name, j, 5);
	CHECK(json_array_size(vars) == 8);
	json_array_foreach(vars, i, v)
	{
		json_t *p = json_object_get(v, "patches");

		if (i >= 8)
			break;
		snprintf(want, sizeof(want), "perflab_canary=%d", steps[i]);
		CHECK(!strcmp(
			json_string_value(json_object_get(v, "cmdline")) ?: "",
			want));
		CHECK(json_array_size(p) == 1);
		if (!p0)
			p0 = p;
		CHECK(json_equal(p, p0)); /* one kernel for the whole ladder */
	}
	json_decref(j);
}

static void check_simple(const char *name, int runs)
{
	json_t *j = load(name);

	if (!j) {
		fails++;
		return;
	}
	check_common(name, j, runs);
	json_decref(j);
}

int main(void)
{
	check_seed();
	check_ladder();
	check_simple("canary.json", 5);
	check_simple("aa.json", 10);
	if (fails)
		printf("%d checks failed\n", fails);
	return fails ? 1 : 0;
}
