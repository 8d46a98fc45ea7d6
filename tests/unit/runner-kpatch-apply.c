// SPDX-License-Identifier: MIT
/*
 * Description: variants share one worktree (a ktree farm): applying a
 * variant's patches first restores the files the previous variant touched
 * (fresh mtime, so make rebuilds them; files it created are removed), and
 * a patch that does not apply fails with patch(1)'s own output.  patch
 * runs in the build sandbox.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include "runners/runner/kpatch.h"
#include "runners/runner/ktree.h"
#include "runners/runner/rutil.h"
#include "runners/runner/sandbox.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-kpatch-XXXXXX";

static char *get(const char *rel)
{
	char *p = rutil_strdupf("%s/wt/%s", root, rel), *t;

	t = rutil_read_file(p, NULL);
	free(p);
	return t;
}

static int same(const char *rel, const char *want)
{
	char *t = get(rel);
	int ok = t && !strcmp(t, want);

	free(t);
	return ok;
}

static void age(const char *rel)
{
	char *p = rutil_strdupf("%s/wt/%s", root, rel);
	struct utimbuf u = { 1000, 1000 };

	utime(p, &u);
	free(p);
}

static time_t mtime(const char *rel)
{
	char *p = rutil_strdupf("%s/wt/%s", root, rel);
	struct stat st = { 0 };

	stat(p, &st);
	free(p);
	return st.st_mtime;
}

static const char p1[] =
	"--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
	"--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+fresh\n";
static const char p2[] =
	"diff --git a/dir/b.c b/dir/b.c\n--- a/dir/b.c\n+++ b/dir/b.c\n"
	"@@ -1 +1 @@\n-bee\n+BEE\n";
static const char bad[] =
	"--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,2 @@\n one\n-three\n+THREE\n";

int main(void)
{
	char *pristine, *wt, *copies, *scratch, *msg = NULL, *cmd;
	struct kpatch v1[] = { { "p1", p1, sizeof(p1) - 1 } };
	struct kpatch v2[] = { { "p2", p2, sizeof(p2) - 1 } };
	struct kpatch vb[] = { { "p2", p2, sizeof(p2) - 1 },
			       { "0002-bad.patch", bad, sizeof(bad) - 1 } };

	if (access("/usr/bin/bwrap", X_OK)) {
		printf("bwrap not installed (make deps)\n");
		return 77;
	}
	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root) || chmod(root, 0755))
		return 1;
	pristine = rutil_strdupf("%s/pristine", root);
	wt = rutil_strdupf("%s/wt", root);
	copies = rutil_strdupf("%s/copies", root);
	scratch = rutil_strdupf("%s/patches", root);
	rutil_mkdirs(pristine, 0755);
	cmd = rutil_strdupf("%s/pristine/dir", root);
	rutil_mkdirs(cmd, 0755);
	free(cmd);
	put("pristine/a.c", "one\ntwo\n");
	put("pristine/dir/b.c", "bee\n");
	struct kpatch_ctx c = { .pristine = pristine, .worktree = wt,
				.copies = copies, .scratch = scratch,
				.uid = (uid_t)-1, .gid = (gid_t)-1 };
	struct ktree t = { .pristine = pristine, .src = wt, .copies = copies,
			   .uid = (uid_t)-1, .gid = (gid_t)-1 };

	CHECK(sandbox_user(&t.uid, &t.gid, &msg) == 0);
	CHECK(ktree_farm(&t, &msg) == 0);

	CHECK(kpatch_apply(&c, v1, 1, &msg) == 0);
	CHECK(same("a.c", "one\nTWO\n"));
	CHECK(same("new.c", "fresh\n"));
	age("a.c");
	age("dir/b.c");

	/* Variant 2: a.c back to pristine with a new mtime, new.c gone. */
	CHECK(kpatch_apply(&c, v2, 1, &msg) == 0);
	CHECK(same("a.c", "one\ntwo\n"));
	CHECK(mtime("a.c") > 1000);
	CHECK(access(rutil_strdupf("%s/new.c", wt), F_OK) != 0);
	CHECK(same("dir/b.c", "BEE\n"));

	/* A series whose second patch does not apply. */
	CHECK(kpatch_apply(&c, vb, 2, &msg) == 1);
	CHECK(msg && strstr(msg, "0002-bad.patch"));
	CHECK(msg && strstr(msg, "does not apply"));
	CHECK(msg && strstr(msg, "FAILED"));	/* patch's "Hunk #1 FAILED" */
	if (msg)
		fprintf(stderr, "message: %s\n", msg);
	free(msg);

	/* Control variant (no patches) restores everything. */
	CHECK(kpatch_apply(&c, NULL, 0, &msg) == 0);
	CHECK(same("a.c", "one\ntwo\n"));
	CHECK(same("dir/b.c", "bee\n"));
	rutil_rm_rf(root);
	DONE();
}
