// SPDX-License-Identifier: MIT
/*
 * Description: patch_parse splits a real `git format-patch -3` mbox into
 * three patches: subjects unfolded and stripped of "[PATCH n/3]", the
 * RFC 2047 author decoded, dates kept, per-file paths (new, deleted,
 * renamed, mode-only), hunk and line counts, and raw/sha256 equal to the
 * individual format-patch files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define FX "tests/fixtures/patches/"

static void check_file(const struct patch_file *f, const char *o, const char *n,
		       int hunks, int added, int removed)
{
	CHECK(!strcmp(f->old_path, o));
	CHECK(!strcmp(f->new_path, n));
	CHECK(f->hunks == hunks);
	CHECK(f->added == added);
	CHECK(f->removed == removed);
	CHECK(!f->binary);
	if (fails)
		fprintf(stderr, "  file %s -> %s: %d hunks +%d -%d\n",
			f->old_path, f->new_path, f->hunks, f->added,
			f->removed);
}

int main(void)
{
	static const char *const sums[3] = {
		"d65f7f688d39f04d46853ef8bcedbeea0adf6375e06286aa62e93a8b593f6199",
		"cd83a79861e0179efdd668f2f3f0dc7262b0aaaa2e868d859695b266e799d5d2",
		"262302bc60645dff2ee07164148f371840e7ace47a84e00a2aa114504a19b745",
	};
	struct patch_series s;
	char err[256], path[128];
	size_t len, ilen;
	char *buf, *one;
	int i;

	buf = slurp(FX "series.mbox", &len);
	if (!buf) {
		printf("fixture " FX "series.mbox missing\n");
		return 1;
	}
	if (patch_parse(buf, len, &s, err, sizeof(err))) {
		printf("parse failed: %s\n", err);
		return 1;
	}
	CHECK(s.n == 3);
	if (s.n != 3)
		return 1;
	CHECK(!strcmp(
		s.patches[0].subject,
		"blk-mq: change two places in a file so that the subject line is long enough to be folded by git format-patch"));
	CHECK(!strcmp(s.patches[1].subject,
		      "io_uring: add new.c, remove obsolete.txt"));
	CHECK(!strcmp(s.patches[2].subject, "io_uring: rename rw.c"));
	CHECK(!strcmp(s.patches[0].author,
		      "J\xc3\xb6hn D\xc5\x93 <john@example.org>"));
	CHECK(!strcmp(s.patches[0].date, "Sun, 1 Nov 2026 10:00:00 +0000"));
	CHECK(!strcmp(s.patches[0].message_id, ""));

	CHECK(s.patches[0].nfiles == 1);
	check_file(&s.patches[0].files[0], "block/blk-mq.c", "block/blk-mq.c",
		   2, 3, 2);
	CHECK(s.patches[1].nfiles == 3);
	if (s.patches[1].nfiles == 3) {
		check_file(&s.patches[1].files[0], "/dev/null",
			   "io_uring/new.c", 1, 1, 0);
		check_file(&s.patches[1].files[1], "nonl.txt", "nonl.txt", 1, 1,
			   1);
		check_file(&s.patches[1].files[2], "obsolete.txt", "/dev/null",
			   1, 0, 1);
	}
	CHECK(s.patches[2].nfiles == 3);
	if (s.patches[2].nfiles == 3) {
		check_file(&s.patches[2].files[0], "moved.txt",
			   "docs-moved.txt", 0, 0, 0);
		check_file(&s.patches[2].files[1], "io_uring/rw.c",
			   "io_uring/rw2.c", 1, 1, 0);
		check_file(&s.patches[2].files[2], "script.sh", "script.sh", 0,
			   0, 0);
	}
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), FX "series-%04d.patch", i + 1);
		one = slurp(path, &ilen);
		CHECK(one && s.patches[i].raw_len == ilen &&
		      !memcmp(s.patches[i].raw, one, ilen));
		CHECK(!strcmp(s.patches[i].sha256, sums[i]));
		free(one);
	}
	patch_series_free(&s);
	CHECK(s.n == 0 && !s.patches);
	free(buf);
	if (fails)
		printf("%d checks failed\n", fails);
	return fails ? 1 : 0;
}
