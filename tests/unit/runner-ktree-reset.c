// SPDX-License-Identifier: MIT
/*
 * Description: a worktree (ktree farm) that a patch or build changed in
 * every way its owner can -- files replaced by links to outside, a
 * directory swapped for a link, extra files and directories, hard links to
 * outside files, a root copy moved over a file with the same content, a
 * 0000 directory -- is brought back to the pristine tree by ktree_reset:
 * `diff -r --no-dereference` (the independent reference) finds no
 * difference, nothing outside the tree changes, the pristine tree keeps
 * its checksums, and a reset of a clean tree copies nothing.
 */
#include <errno.h>
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

static char root[] = "/tmp/perflab-ktree-XXXXXX";

static int tree_equal(void)
{
	char *cmd = rutil_strdupf("diff -r --no-dereference %s %s >&2",
				  at("pristine"), at("wt"));
	int rc = system(cmd);

	free(cmd);
	return rc == 0;
}

/* What a build user can do to its own directories. */
static void vandalize(void)
{
	char tmp[4200];

	CHECK(unlink(at("wt/dir/b.c")) == 0);
	CHECK(symlink(at("outside/secret"), at("wt/dir/b.c")) == 0);
	CHECK(rutil_rm_rf(at("wt/dir/sub")) == 0);
	CHECK(symlink(at("outside"), at("wt/dir/sub")) == 0);
	put("wt/extra.c", "extra\n");
	CHECK(rutil_mkdirs(at("wt/newdir/deep"), 0755) == 0);
	put("wt/newdir/deep/x", "x\n");
	snprintf(tmp, sizeof(tmp), "%s.new", at("wt/a.c"));
	CHECK(rutil_write_file(tmp, "patched\n", 8) == 0);
	CHECK(rename(tmp, at("wt/a.c")) == 0);
	CHECK(unlink(at("wt/link")) == 0);
	CHECK(rmdir(at("wt/empty")) == 0);
	put("wt/empty", "now a file\n");
	CHECK(link(at("outside/secret"), at("wt/hard")) == 0);
	CHECK(chmod(at("wt/dir"), 0) == 0);
}

int main(void)
{
	struct ktree t = { .uid = (uid_t)-1, .gid = (gid_t)-1 };
	struct ktree_stats st;
	struct stat s;
	char *msg = NULL, *before, *outside, *after;
	time_t start = time(NULL);

	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root) || chmod(root, 0755))
		return 1;
	CHECK(sandbox_user(&t.uid, &t.gid, &msg) == 0);
	t.pristine = strdup(at("pristine"));
	t.src = strdup(at("wt"));
	t.copies = strdup(at("copies"));
	CHECK(rutil_mkdirs(at("pristine/dir/sub"), 0755) == 0);
	CHECK(rutil_mkdirs(at("pristine/empty"), 0755) == 0);
	CHECK(rutil_mkdirs(at("outside"), 0755) == 0);
	put("pristine/a.c", "one\n");
	put("pristine/dir/b.c", "bee\n");
	put("pristine/dir/sub/c.c", "sea\n");
	put("pristine/same1", "dup\n");
	put("pristine/same2", "dup\n");
	CHECK(symlink("a.c", at("pristine/link")) == 0);
	put("outside/secret", "key\n");
	before = sums("pristine");
	outside = sums("outside");

	CHECK(ktree_farm(&t, &msg) == 0, "%s", msg);
	CHECK(tree_equal());
	CHECK(stat(at("wt/dir"), &s) == 0 && s.st_uid == t.uid);

	/* Round 1: everything at once. */
	vandalize();
	CHECK(ktree_reset(&t, &st, &msg) == 0, "%s", msg);
	CHECK(tree_equal());
	printf("round 1: %ld entries, %ld restored, %ld removed\n", st.entries,
	       st.restored, st.removed);
	CHECK(lstat(at("wt/a.c"), &s) == 0 && S_ISREG(s.st_mode) &&
	      s.st_uid == 0 && !(s.st_mode & 022) && s.st_mtime >= start);

	/* Round 2: a root copy moved over a file with the same content. */
	CHECK(ktree_reset(&t, &st, &msg) == 0 && st.restored == 0);
	CHECK(unlink(at("wt/same1")) == 0);
	CHECK(ktree_reset(&t, &st, &msg) == 0 && st.restored == 1);
	CHECK(rename(at("wt/same1"), at("wt/same2")) == 0);
	CHECK(ktree_reset(&t, &st, &msg) == 0, "%s", msg);
	CHECK(st.restored == 2, "restored %ld", st.restored);
	CHECK(tree_equal());

	/* A clean tree costs no copies (incremental builds stay so). */
	CHECK(ktree_reset(&t, &st, &msg) == 0);
	CHECK(st.restored == 0 && st.removed == 0, "%ld %ld", st.restored,
	      st.removed);
	after = sums("pristine");
	CHECK(!strcmp(before, after), "pristine tree changed");
	free(after);
	after = sums("outside");
	CHECK(!strcmp(outside, after), "outside changed:\n%s", after);
	free(after);
	free(before);
	free(outside);
	rutil_rm_rf(root);
	DONE();
}
