// SPDX-License-Identifier: MIT
/*
 * Description: the runner finds every file a patch touches (git and plain
 * diffs, renames, new files, mbox headers), is not fooled by hunk lines
 * that look like headers, and refuses paths outside the tree.
 */
#include <stdlib.h>
#include <string.h>

#include "common/patch_paths.h"
#include "unit/check.h"

static int has(const struct pp_paths *p, const char *s)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->v[i], s))
			return 1;
	return 0;
}

static const char git_patch[] =
	"From 1234 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@b>\n"
	"Subject: [PATCH] blk-mq: x\n"
	"\n"
	"---\n"
	" block/blk-mq.c | 2 +-\n"
	"\n"
	"diff --git a/block/blk-mq.c b/block/blk-mq.c\n"
	"index 1..2 100644\n"
	"--- a/block/blk-mq.c\n"
	"+++ b/block/blk-mq.c\n"
	"@@ -1,3 +1,3 @@\n"
	" a\n"
	"--- this removed line starts with two dashes\n"
	"+++ this added line starts with two pluses\n"
	" c\n"
	"diff --git a/old.c b/new.c\n"
	"similarity index 90%\n"
	"rename from old.c\n"
	"rename to new.c\n"
	"diff --git a/fresh.c b/fresh.c\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/fresh.c\n"
	"@@ -0,0 +1 @@\n"
	"+x\n"
	"-- \n"
	"2.39.0\n";

static const char plain[] =
	"--- linux.orig/fs/io_uring.c\t2021-01-01 00:00:00\n"
	"+++ linux/fs/io_uring.c\t2021-01-01 00:00:00\n"
	"@@ -10 +10 @@\n"
	"-a\n"
	"+b\n";

int main(void)
{
	struct pp_paths p;
	char err[256];

	CHECK(pp_paths_of(git_patch, strlen(git_patch), &p, err,
			 sizeof(err)) == 0);
	CHECK(has(&p, "block/blk-mq.c"));
	CHECK(has(&p, "old.c") && has(&p, "new.c") && has(&p, "fresh.c"));
	CHECK(!has(&p, "this removed line starts with two dashes"));
	CHECK(!has(&p, "added line starts with two pluses"));
	CHECK(p.n == 4);
	pp_paths_free(&p);

	CHECK(pp_paths_of(plain, strlen(plain), &p, err, sizeof(err)) == 0);
	CHECK(p.n == 1 && has(&p, "fs/io_uring.c"));
	pp_paths_free(&p);

	static const char *const bad[] = {
		"--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n",
		"diff --git a/x b/x\nrename from x\nrename to /etc/shadow\n",
		"--- a/x\n+++ b/block/../../y\n@@ -1 +1 @@\n-a\n+b\n",
	};
	for (size_t i = 0; i < 3; i++) {
		err[0] = 0;
		CHECK(pp_paths_of(bad[i], strlen(bad[i]), &p, err,
				 sizeof(err)) == -1);
		CHECK(strstr(err, "outside the tree") != NULL);
	}
	CHECK(pp_paths_of("hello\n", 6, &p, err, sizeof(err)) == -1);
	CHECK(strstr(err, "no diff") != NULL);
	DONE();
}
