// SPDX-License-Identifier: MIT
/*
 * Description: when the pristine tree itself changes between jobs (a git
 * base moved to another commit: changed files are new inodes, files and
 * directories come and go, a symlink changes target), ktree_reset puts the
 * new pristine inodes into the farm as hard links (not copies), removes
 * what is gone, leaves unchanged files alone (same inode, same mtime), and
 * every relinked entry is newer than the reset before it (so make
 * rebuilds it); a build user's patched file whose pristine did not change
 * still comes back as a fresh copy, and a later move of that file's
 * pristine relinks it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runners/runner/ktree.h"
#include "runners/runner/rutil.h"
#include "runners/runner/sandbox.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-ktree-moves-XXXXXX";

static int tree_equal(void)
{
	char *cmd = rutil_strdupf("diff -r --no-dereference %s %s >&2",
				  at("pristine"), at("wt"));
	int rc = system(cmd);

	free(cmd);
	return rc == 0;
}

/* Worktree entry is the pristine inode itself. */
static int linked(const char *rel)
{
	char p[4200], w[4200];
	struct stat a, b;

	snprintf(p, sizeof(p), "pristine/%s", rel);
	snprintf(w, sizeof(w), "wt/%s", rel);
	return !lstat(at(p), &a) && !lstat(at(w), &b) && a.st_ino == b.st_ino;
}

static int after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

static void nap(void)
{
	struct timespec ts = { 0, 30 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

int main(void)
{
	struct ktree t = { .uid = (uid_t)-1, .gid = (gid_t)-1 };
	struct ktree_stats st;
	struct stat s, keep, rec;
	char *msg = NULL;

	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root) || chmod(root, 0755))
		return 1;
	CHECK(sandbox_user(&t.uid, &t.gid, &msg) == 0);
	t.pristine = strdup(at("pristine"));
	t.src = strdup(at("wt"));
	t.copies = strdup(at("copies"));
	CHECK(rutil_mkdirs(at("pristine/dir/old"), 0755) == 0);
	put("pristine/a.c", "one\n");
	put("pristine/b.c", "bee\n");
	put("pristine/dir/c.c", "sea\n");
	put("pristine/dir/old/o.c", "old\n");
	put("pristine/gone.c", "gone\n");
	CHECK(symlink("a.c", at("pristine/link")) == 0);
	CHECK(ktree_farm(&t, &msg) == 0, "%s", msg);
	CHECK(linked("a.c") && linked("b.c") && linked("dir/c.c"));
	CHECK(lstat(at("wt/dir/c.c"), &keep) == 0);
	CHECK(ktree_reset(&t, &st, &msg) == 0 && st.restored == 0);

	/* The base moves, as git reset --hard / clean -ffdx would do it. */
	nap();
	CHECK(lstat(at("copies"), &rec) == 0);
	nap();
	put("pristine/b.c", "bee v2\n");	/* new inode via rename */
	put("pristine/dir/d.c", "new\n");
	CHECK(rutil_mkdirs(at("pristine/new/deep"), 0755) == 0);
	put("pristine/new/deep/e.c", "deep\n");
	CHECK(unlink(at("pristine/gone.c")) == 0);
	CHECK(rutil_rm_rf(at("pristine/dir/old")) == 0);
	CHECK(unlink(at("pristine/link")) == 0);
	CHECK(symlink("dir/c.c", at("pristine/link")) == 0);

	CHECK(ktree_reset(&t, &st, &msg) == 0, "%s", msg);
	printf("moved: %ld entries, %ld restored, %ld removed\n", st.entries,
	       st.restored, st.removed);
	CHECK(tree_equal());
	CHECK(linked("b.c"), "changed file not relinked");
	CHECK(linked("dir/d.c") && linked("new/deep/e.c"), "new files");
	CHECK(linked("link"), "changed symlink not relinked");
	CHECK(linked("a.c") && linked("dir/c.c"));
	CHECK(access(at("wt/gone.c"), F_OK) && access(at("wt/dir/old"), F_OK));
	CHECK(lstat(at("wt/dir/c.c"), &s) == 0 && s.st_ino == keep.st_ino &&
	      s.st_mtim.tv_sec == keep.st_mtim.tv_sec &&
	      s.st_mtim.tv_nsec == keep.st_mtim.tv_nsec, "unchanged touched");
	CHECK(lstat(at("wt/b.c"), &s) == 0 && after(&s.st_mtim, &rec.st_mtim),
	      "relinked file not newer than the previous reset");
	CHECK(lstat(at("wt/new/deep"), &s) == 0 && s.st_uid == t.uid);
	CHECK(ktree_reset(&t, &st, &msg) == 0 && st.restored == 0 &&
	      st.removed == 0, "clean tree: %ld restored", st.restored);

	/* A patched file, its pristine unchanged: a fresh copy comes back. */
	CHECK(unlink(at("wt/a.c")) == 0);
	put("wt/a.c", "patched\n");
	CHECK(chown(at("wt/a.c"), t.uid, t.gid) == 0);
	nap();
	CHECK(ktree_reset(&t, &st, &msg) == 0 && st.restored == 1, "%s", msg);
	CHECK(!linked("a.c") && tree_equal());
	CHECK(lstat(at("wt/a.c"), &s) == 0 && s.st_uid == 0 &&
	      lstat(at("pristine/a.c"), &keep) == 0 &&
	      after(&s.st_mtim, &keep.st_mtim), "copy without a fresh mtime");

	/* Then its pristine moves too: the root copy gives way to a link. */
	nap();
	put("pristine/a.c", "one v2\n");
	CHECK(ktree_reset(&t, &st, &msg) == 0, "%s", msg);
	CHECK(linked("a.c") && tree_equal());
	rutil_rm_rf(root);
	DONE();
}
