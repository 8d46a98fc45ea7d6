// SPDX-License-Identifier: MIT
/*
 * Description: `perflab run` turns a series definition into an experiment
 * body: patch paths are inlined as raw text (found relative to the series
 * file's parent directories), ids and inline text pass through, and a
 * missing patch file or a malformed definition is a clear error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/series.h"
#include "unit/check.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static const char patch[] =
	"From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n"
	"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n";

int main(void)
{
	char dir[] = "/tmp/perflab-cli-series-XXXXXX", p[512], s[512];
	char err[1024], cwd[4096];
	json_t *doc, *pa;

	if (!mkdtemp(dir) || !getcwd(cwd, sizeof(cwd)))
		return 1;
	snprintf(p, sizeof(p), "%s/kernel-patches", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/kernel-patches/series", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/kernel-patches/0001-x.patch", dir);
	write_file(p, patch);
	snprintf(s, sizeof(s), "%s/kernel-patches/series/t.json", dir);
	write_file(s, "{\"title\":\"t\",\"runs\":2,\"variants\":["
		      "{\"name\":\"base\",\"patches\":[]},"
		      "{\"name\":\"x\",\"patches\":[\"kernel-patches/0001-x.patch\",7,"
		      "\"diff --git a/g b/g\\n\"]},"
		      "{\"name\":\"y\"}]}");

	/* run from elsewhere: found through the series file's parents */
	if (chdir("/"))
		return 1;
	doc = series_load(s, err, sizeof(err));
	CHECK(doc != NULL);
	pa = json_object_get(json_array_get(json_object_get(doc, "variants"), 1),
			     "patches");
	CHECK(json_array_size(pa) == 3);
	CHECK(!strcmp(json_string_value(json_array_get(pa, 0)), patch));
	CHECK(json_integer_value(json_array_get(pa, 1)) == 7);
	CHECK(!strcmp(json_string_value(json_array_get(pa, 2)),
		      "diff --git a/g b/g\n"));
	CHECK(json_integer_value(json_object_get(doc, "runs")) == 2);
	json_decref(doc);

	/* a missing patch file names the file */
	write_file(s, "{\"variants\":[{\"name\":\"x\",\"patches\":[\"nope.patch\"]}]}");
	doc = series_load(s, err, sizeof(err));
	CHECK(doc == NULL && strstr(err, "nope.patch"));

	/* not JSON, no variants, patches not an array */
	write_file(s, "{\"variants\": [");
	CHECK(series_load(s, err, sizeof(err)) == NULL);
	write_file(s, "{\"title\":\"x\"}");
	CHECK(series_load(s, err, sizeof(err)) == NULL &&
	      strstr(err, "variants"));
	write_file(s, "{\"variants\":[{\"patches\":\"a\"}]}");
	CHECK(series_load(s, err, sizeof(err)) == NULL);
	snprintf(p, sizeof(p), "%s/missing.json", dir);
	CHECK(series_load(p, err, sizeof(err)) == NULL);

	if (chdir(cwd))
		return 1;
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	if (system(p))
		return 1;
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
