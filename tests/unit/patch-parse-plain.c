// SPDX-License-Identifier: MIT
/*
 * Description: patch_parse accepts plain unified diffs without mail
 * headers: `diff -u` output (paths kept, timestamps cut) and `git diff`
 * output (a/ b/ stripped), with hunk and line counts; subject and author
 * are empty strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define FX "tests/fixtures/patches/"

static int one(const char *name, const char *o, const char *n)
{
	struct patch_series s;
	struct patch_file *f;
	char err[256];
	size_t len;
	char *buf = slurp(name, &len);

	if (!buf) {
		printf("fixture %s missing\n", name);
		return 1;
	}
	if (patch_parse(buf, len, &s, err, sizeof(err))) {
		printf("%s: parse failed: %s\n", name, err);
		free(buf);
		return 1;
	}
	CHECK(s.n == 1);
	CHECK(s.patches[0].nfiles == 1);
	f = &s.patches[0].files[0];
	CHECK(!strcmp(f->old_path, o));
	CHECK(!strcmp(f->new_path, n));
	CHECK(f->hunks == 2 && f->added == 3 && f->removed == 2);
	CHECK(!strcmp(s.patches[0].subject, "") &&
	      !strcmp(s.patches[0].author, ""));
	CHECK(s.patches[0].raw_len == len &&
	      !memcmp(s.patches[0].raw, buf, len));
	CHECK(strlen(s.patches[0].sha256) == 64);
	patch_series_free(&s);
	free(buf);
	return 0;
}

int main(void)
{
	if (one(FX "plain.diff", "old.c", "new.c") ||
	    one(FX "git.diff", "block/blk-mq.c", "block/blk-mq.c"))
		return 1;
	if (fails)
		printf("%d checks failed\n", fails);
	return fails ? 1 : 0;
}
