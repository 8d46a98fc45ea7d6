// SPDX-License-Identifier: MIT
/*
 * Description: patch_parse validates hunk bodies against their @@ line
 * counts: a hunk with more added, removed or context lines than its header
 * says is rejected, as is one with fewer; omitted counts mean 1, empty
 * context lines and "\ No newline at end of file" are accepted, and the
 * "-- " signature after the last hunk is not part of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define FX "tests/fixtures/patches/"

static int parse(const char *in, char *err, size_t errlen,
		 struct patch_series *s)
{
	return patch_parse(in, strlen(in), s, err, errlen);
}

static void want_fail(const char *in, const char *reason)
{
	struct patch_series s;
	char err[256] = "";

	if (!parse(in, err, sizeof(err), &s) || !strstr(err, reason)) {
		printf("expected '%s', got '%s' for:\n%s\n", reason, err, in);
		patch_series_free(&s);
		fails++;
	}
}

int main(void)
{
	struct patch_series s;
	char err[256];

	want_fail("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n",
		  "more lines than its @@ header says");
	want_fail("--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-a\n-b\n-c\n",
		  "more lines than its @@ header says");
	want_fail("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n b\n c\n",
		  "more lines than its @@ header says");
	want_fail("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n d\n",
		  "more lines than its @@ header says");
	want_fail("--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n a\n-b\n+c\n d\n"
		  "diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n",
		  "truncated or malformed");
	want_fail(
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n",
		"truncated");

	if (parse("From: A <a@b>\nSubject: s\n\n---\n"
		  "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n"
		  "\\ No newline at end of file\n-- \n2.39.5\n\n",
		  err, sizeof(err), &s)) {
		printf("valid patch rejected: %s\n", err);
		return 1;
	}
	CHECK(s.n == 1 && s.patches[0].nfiles == 1);
	CHECK(s.patches[0].files[0].hunks == 1);
	CHECK(s.patches[0].files[0].added == 1 &&
	      s.patches[0].files[0].removed == 1);
	patch_series_free(&s);

	/* CRLF line ends (a patch saved from a mail client). */
	if (parse("--- a/x\r\n+++ b/x\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n",
		  err, sizeof(err), &s)) {
		printf("CRLF patch rejected: %s\n", err);
		return 1;
	}
	CHECK(!strcmp(s.patches[0].files[0].new_path, "x"));
	patch_series_free(&s);
	if (fails)
		printf("%d checks failed\n", fails);
	return fails ? 1 : 0;
}
