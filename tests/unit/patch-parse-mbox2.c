// SPDX-License-Identifier: MIT
/*
 * Description: patch_parse on a threaded `git format-patch --cover-letter`
 * mbox with two patches: the "[PATCH 0/2]" cover letter (no diff) is
 * skipped, the two patches come out in order with their Message-Id,
 * subjects and raw bytes that start at their "From <sha>" lines.  A
 * lore.kernel.org-style mbox ("From mboxrd@z ..." separators) of two
 * patches splits the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define FX "tests/fixtures/patches/"

static int lore_mbox(void)
{
	static const char sep[] = "From mboxrd@z Thu Jan  1 00:00:00 1970\n";
	struct patch_series s;
	char err[256], *a, *b, *m, *nl;
	size_t la, lb, lm = 0;

	a = slurp(FX "series-0001.patch", &la);
	b = slurp(FX "series-0002.patch", &lb);
	m = malloc(la + lb + 2 * sizeof(sep));
	if (!a || !b || !m) {
		printf("fixtures series-000[12].patch missing\n");
		return 1;
	}
	/* Replace each "From <sha> ..." line with the lore separator. */
	nl = memchr(a, '\n', la);
	memcpy(m, sep, sizeof(sep) - 1);
	lm = sizeof(sep) - 1;
	memcpy(m + lm, nl + 1, la - (size_t)(nl + 1 - a));
	lm += la - (size_t)(nl + 1 - a);
	nl = memchr(b, '\n', lb);
	memcpy(m + lm, sep, sizeof(sep) - 1);
	lm += sizeof(sep) - 1;
	memcpy(m + lm, nl + 1, lb - (size_t)(nl + 1 - b));
	lm += lb - (size_t)(nl + 1 - b);
	if (patch_parse(m, lm, &s, err, sizeof(err))) {
		printf("lore mbox rejected: %s\n", err);
		return 1;
	}
	CHECK(s.n == 2);
	CHECK(s.n == 2 && !strcmp(s.patches[1].subject,
				  "io_uring: add new.c, remove obsolete.txt"));
	CHECK(s.n == 2 && !strncmp(s.patches[1].raw, sep, sizeof(sep) - 1));
	patch_series_free(&s);
	free(a);
	free(b);
	free(m);
	return 0;
}

int main(void)
{
	struct patch_series s;
	char err[256];
	size_t len;
	char *buf = slurp(FX "cover-series.mbox", &len);

	if (!buf) {
		printf("fixture cover-series.mbox missing\n");
		return 1;
	}
	if (patch_parse(buf, len, &s, err, sizeof(err))) {
		printf("parse failed: %s\n", err);
		return 1;
	}
	CHECK(s.n == 2);
	if (s.n != 2)
		return 1;
	CHECK(!strcmp(s.patches[0].subject,
		      "io_uring: add new.c, remove obsolete.txt"));
	CHECK(!strcmp(s.patches[1].subject, "io_uring: rename rw.c"));
	CHECK(!strcmp(
		s.patches[0].message_id,
		"<88ab335157ead4b0a2dbb8eb6a9fa6eab549c1ce.1795985254.git.john@example.org>"));
	CHECK(!strcmp(
		s.patches[1].message_id,
		"<facd60a0327c02a2861afef0a3283a754d16edb7.1795985254.git.john@example.org>"));
	CHECK(!strncmp(s.patches[0].raw,
		       "From 88ab335157ead4b0a2dbb8eb6a9fa6eab549c1ce ", 46));
	CHECK(!strncmp(s.patches[1].raw,
		       "From facd60a0327c02a2861afef0a3283a754d16edb7 ", 46));
	CHECK(s.patches[0].raw + s.patches[0].raw_len != NULL);
	CHECK(s.patches[0].nfiles == 3 && s.patches[1].nfiles == 3);
	CHECK(strcmp(s.patches[0].sha256, s.patches[1].sha256) != 0);
	/* Both patches plus the cover letter account for every byte. */
	CHECK(s.patches[0].raw_len + s.patches[1].raw_len < len);
	CHECK(!memcmp(buf + len - s.patches[1].raw_len, s.patches[1].raw,
		      s.patches[1].raw_len));
	patch_series_free(&s);
	free(buf);
	if (lore_mbox())
		return 1;
	if (fails)
		printf("%d checks failed\n", fails);
	return fails ? 1 : 0;
}
