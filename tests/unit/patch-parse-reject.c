// SPDX-License-Identifier: MIT
/*
 * Description: patch_parse rejects each kind of bad input with its own
 * reason and leaves the output empty: empty input, text that is no patch,
 * NUL bytes, binary patches (both forms), absolute paths, '..' components
 * (also in renames), truncated and malformed hunks, invalid UTF-8 in
 * headers (raw and RFC 2047-decoded), over-long headers, quoted-printable,
 * base64 and multipart bodies, and the size, file and patch-count limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define FX "tests/fixtures/patches/"

#define DIFF "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
#define MAIL "From: A <a@b>\nSubject: [PATCH] s\n\n"

struct tcase {
	const char *name, *in, *reason;
};

static const struct tcase cases[] = {
	{ "blank", " \n\n\t\n", "empty input" },
	{ "text", "hello world\nthis is not a patch\n", "not a patch" },
	{ "mail without diff", MAIL "just a message\n---\nno diff\n",
	  "not a patch" },
	{ "git binary",
	  MAIL "diff --git a/x.bin b/x.bin\nindex 1..2 100644\n"
	       "GIT binary patch\nliteral 3\nKcmZ?d00001\n\n",
	  "binary" },
	{ "binary differ", "Binary files a/x.bin and b/x.bin differ\n",
	  "binary" },
	{ "absolute", "--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n",
	  "absolute path" },
	{ "dotdot",
	  "diff --git a/../x b/../x\n--- a/../x\n+++ b/../x\n"
	  "@@ -1 +1 @@\n-a\n+b\n",
	  "'..'" },
	{ "dotdot deep",
	  "--- a/ok/../../x\n+++ b/ok/../../x\n@@ -1 +1 @@\n-a\n+b\n", "'..'" },
	{ "dotdot rename",
	  "diff --git a/x b/y\nsimilarity index 100%\n"
	  "rename from x\nrename to ../../etc/y\n",
	  "'..'" },
	{ "truncated", "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n",
	  "truncated" },
	{ "truncated mid",
	  "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n"
	  "diff --git a/y b/y\n",
	  "truncated or malformed" },
	{ "bad hunk header",
	  "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n c\n"
	  "@@ -x +1 @@\n",
	  "malformed hunk header" },
	{ "empty hunk",
	  "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -0,0 +0,0 @@\n",
	  "empty hunk" },
	{ "no hunk", "diff --git a/x b/x\n--- a/x\n+++ b/x\n", "no hunk" },
	{ "hunk without header", "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n",
	  "without" },
	{ "minus without plus", "diff --git a/x b/x\n--- a/x\nfoo\n",
	  "not followed by '+++'" },
	{ "utf8 raw", "From: \xff\xfe <a@b>\nSubject: s\n\n" DIFF, "UTF-8" },
	{ "utf8 overlong", "From: A <a@b>\nSubject: \xc0\xaf\n\n" DIFF,
	  "UTF-8" },
	{ "utf8 decoded", "From: =?utf-8?q?=FF?= <a@b>\nSubject: s\n\n" DIFF,
	  "UTF-8" },
	{ "quoted-printable",
	  "From: A <a@b>\nSubject: s\n"
	  "Content-Transfer-Encoding: quoted-printable\n\n" DIFF,
	  "quoted-printable-encoded" },
	{ "base64",
	  "From: A <a@b>\nSubject: s\nContent-Transfer-Encoding: base64\n\n"
	  "LS0tIGEveAo=\n",
	  "base64-encoded" },
	{ "multipart",
	  "From: A <a@b>\nSubject: s\nContent-Type: multipart/mixed;\n"
	  " boundary=xyz\n\n--xyz\n\n" DIFF,
	  "multipart" },
	{ "dev null both", "--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n",
	  "/dev/null to /dev/null" },
	{ "control char path",
	  "--- \"a/x\\ty\"\n+++ \"b/x\\ty\"\n@@ -1 +1 @@\n-a\n+b\n",
	  "control character" },
	{ "mbox second bad",
	  "From 0123456789012345678901234567890123456789 Mon Sep 17 00:00:00 2001\n" MAIL
		  DIFF
	  "From 0123456789012345678901234567890123456789 Mon Sep 17 00:00:00 2001\n" MAIL
	  "no diff here\n",
	  "patch 2: not a patch" },
};

static int expect(const char *name, const char *in, size_t len,
		  const char *reason)
{
	struct patch_series s = { (struct patch *)&s, 7 };
	char err[256] = "unset";
	int r = patch_parse(in, len, &s, err, sizeof(err));

	if (r != -1 || s.n || s.patches || !strstr(err, reason)) {
		printf("%s: r=%d n=%d err='%s', want '%s'\n", name, r, s.n, err,
		       reason);
		patch_series_free(&s);
		return 1;
	}
	printf("%-20s -> %s\n", name, err);
	return 0;
}

static char *repeat(const char *head, const char *unit, int n, size_t *len)
{
	size_t hl = strlen(head), ul = strlen(unit);
	char *b = malloc(hl + ul * (size_t)n + 1);
	int i;

	if (!b)
		return NULL;
	memcpy(b, head, hl);
	for (i = 0; i < n; i++)
		memcpy(b + hl + ul * (size_t)i, unit, ul);
	*len = hl + ul * (size_t)n;
	return b;
}

int main(void)
{
	static const char nul[] = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\0\n+b\n";
	char hdr[PATCH_MAX_HEADER + 64], *big;
	size_t i, len;
	int bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad += expect(cases[i].name, cases[i].in, strlen(cases[i].in),
			      cases[i].reason);
	bad += expect("empty", "", 0, "empty input");
	bad += expect("null", NULL, 0, "empty input");
	bad += expect("nul byte", nul, sizeof(nul) - 1, "NUL byte");

	memset(hdr, 0, sizeof(hdr));
	strcpy(hdr, "Subject: ");
	memset(hdr + 9, 'x', PATCH_MAX_HEADER + 10);
	strcat(hdr, "\n\n" DIFF);
	bad += expect("long header", hdr, strlen(hdr), "header too long");

	big = repeat("", "+", PATCH_MAX_TOTAL + 1, &len);
	if (big)
		bad += expect("too large", big, len, "too large");
	free(big);
	big = repeat("", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
		     PATCH_MAX_FILES + 1, &len);
	if (big)
		bad += expect("too many files", big, len, "too many files");
	free(big);
	big = repeat(
		"",
		"From 0123456789012345678901234567890123456789 Mon Sep 17 00:00:00 2001\n" MAIL
			DIFF,
		PATCH_MAX_PATCHES + 2, &len);
	if (big)
		bad += expect("too many patches", big, len, "too many patches");
	free(big);
	if (bad)
		printf("%d cases failed\n", bad);
	return bad ? 1 : 0;
}
