// SPDX-License-Identifier: MIT
/*
 * Description: gitbase against a small local repository made here: the
 * first checkout clones (one fetch), later commits are fetched only when
 * missing, moving the pristine tree between commits rewrites only the
 * files that differ (others keep inode and mtime, even after the ktree
 * farm linked them, which changes their ctime), untracked and ignored
 * files go, HEAD is the commit asked for, a missing commit fails with a
 * reason, the clone is locked while in use, its directories are root's
 * 0755; and a hostile repository (symlinks out of the tree, a symlink
 * later replaced by a directory) writes nothing outside the tree, through
 * git or through the ktree farm built on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runners/runner/gitbase.h"
#include "runners/runner/ktree.h"
#include "runners/runner/rutil.h"
#include "runners/runner/sandbox.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-gitbase-XXXXXX";

/* Shell in the source repo; the commit's sha into @sha when asked. */
static int sh(const char *script, char sha[41])
{
	char *cmd = rutil_strdupf(
		"cd %s/src && export GIT_CONFIG_NOSYSTEM=1 HOME=%s "
		"GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
		"GIT_COMMITTER_EMAIL=t@t && { %s; } >/dev/null 2>&1 && "
		"git rev-parse HEAD", root, root, script);
	FILE *f = popen(cmd, "r");
	char line[128] = "";
	int ok;

	ok = f && fgets(line, sizeof(line), f) != NULL;
	ok = (f ? pclose(f) : -1) == 0 && ok;
	free(cmd);
	if (sha)
		snprintf(sha, 41, "%.40s", line);
	return ok ? 0 : -1;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static int checkout(struct gitbase *g, const char *commit)
{
	char *msg = NULL;
	int ret;

	g->commit = commit;
	ret = gitbase_checkout(g, &msg);
	CHECK(ret == 0, "%s: %s", commit, msg ? msg : "");
	free(msg);
	gitbase_release(g);
	return ret;
}

static char *tree(struct gitbase *g, const char *rel)
{
	static char buf[4][4300];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", g->tree, rel);
	return buf[k];
}

static int root_dir(const char *path)
{
	struct stat s;

	return !lstat(path, &s) && S_ISDIR(s.st_mode) && s.st_uid == 0 &&
	       (s.st_mode & 07777) == 0755;
}

static void moves(struct gitbase *g)
{
	char c1[41], c2[41], *msg = NULL;
	struct stat b1, c, b2, c_2;
	struct timespec nap = { 0, 30 * 1000 * 1000 };

	CHECK(sh("git init -q -b master . && mkdir dir && echo one > a && "
		 "echo bee > b && echo sea > dir/c && echo junk > .gitignore && "
		 "git add -A && git commit -qm c1", c1) == 0);
	g->url = strdup(at("src"));
	CHECK(checkout(g, c1) == 0 && g->fetched == 1);
	CHECK(!strcmp(g->head, c1));
	CHECK(root_dir(at("kcache/git")) && root_dir(g->dir) &&
	      root_dir(g->tree), "clone dirs not root's 0755");
	CHECK(lstat(tree(g, "b"), &b1) == 0 && lstat(tree(g, "dir/c"), &c) == 0);
	CHECK(!(b1.st_mode & 022), "umask: %o", b1.st_mode);
	/* The ktree farm links every file: new ctimes (git compares
	 * seconds), same content. */
	sleep(1);
	nanosleep(&nap, NULL);
	CHECK(link(tree(g, "dir/c"), at("farm-c")) == 0);
	CHECK(link(tree(g, "b"), at("farm-b")) == 0);
	/* Committed after the clone: needs a fetch. */
	CHECK(sh("echo bee2 > b && echo new > d && git rm -q a && git add -A "
		 "&& git commit -qm c2", c2) == 0);
	rutil_write_file(tree(g, "untracked"), "u\n", 2);
	rutil_write_file(tree(g, "junk"), "ignored\n", 8);
	nanosleep(&nap, NULL);
	CHECK(checkout(g, c2) == 0 && g->fetched == 1 && !strcmp(g->head, c2));
	CHECK(lstat(tree(g, "b"), &b2) == 0 && !same_file(&b1, &b2));
	CHECK(lstat(tree(g, "dir/c"), &c_2) == 0 && same_file(&c, &c_2),
	      "unchanged file rewritten");
	CHECK(access(tree(g, "a"), F_OK) && !access(tree(g, "d"), F_OK));
	CHECK(access(tree(g, "untracked"), F_OK) && access(tree(g, "junk"),
							   F_OK));
	/* Both known now: no fetch either way. */
	CHECK(checkout(g, c1) == 0 && g->fetched == 0 && !strcmp(g->head, c1));
	CHECK(!access(tree(g, "a"), F_OK) && access(tree(g, "d"), F_OK));
	CHECK(checkout(g, c2) == 0 && g->fetched == 0);

	/* Unknown commit: a fetch, then a reason. */
	g->commit = "0123456789abcdef0123456789abcdef01234567";
	CHECK(gitbase_checkout(g, &msg) == -1 && msg &&
	      strstr(msg, "not found"), "%s", msg ? msg : "");
	CHECK(g->fetched == 1 && g->lock_fd < 0);
	free(msg);
}

static void locked(struct gitbase *g, const char *commit)
{
	volatile sig_atomic_t cancel = 1;
	struct gitbase h = *g;
	char *msg = NULL;

	g->commit = h.commit = commit;
	CHECK(gitbase_checkout(g, &msg) == 0, "%s", msg ? msg : "");
	free(msg);
	msg = NULL;
	h.cancel = &cancel;	/* would wait for the lock; gives up */
	CHECK(gitbase_checkout(&h, &msg) == -1, "second user got the lock");
	free(msg);
	gitbase_release(g);
}

static void hostile(struct gitbase *g)
{
	struct ktree t = { .uid = (uid_t)-1, .gid = (gid_t)-1 };
	char c3[41], c4[41], *msg = NULL;
	struct stat s;

	CHECK(rutil_mkdirs(at("outside"), 0755) == 0);
	CHECK(sh("ln -s ../../../outside esc && ln -s /etc/passwd abs && "
		 "ln -s ../../../outside dirlink && git add -A && "
		 "git commit -qm c3", c3) == 0);
	CHECK(sh("git rm -q dirlink && mkdir dirlink && echo x > dirlink/x && "
		 "git add -A && git commit -qm c4", c4) == 0);
	CHECK(checkout(g, c3) == 0);
	CHECK(lstat(tree(g, "esc"), &s) == 0 && S_ISLNK(s.st_mode));
	CHECK(checkout(g, c4) == 0);
	CHECK(access(at("outside/x"), F_OK), "git wrote through a symlink");
	CHECK(lstat(tree(g, "dirlink"), &s) == 0 && S_ISDIR(s.st_mode));
	CHECK(checkout(g, c3) == 0);

	/* The farm keeps links as links and writes nothing through them. */
	CHECK(sandbox_user(&t.uid, &t.gid, &msg) == 0);
	t.pristine = g->tree;
	t.src = strdup(at("wt"));
	t.copies = strdup(at("copies"));
	CHECK(ktree_farm(&t, &msg) == 0, "%s", msg);
	CHECK(lstat(at("wt/esc"), &s) == 0 && S_ISLNK(s.st_mode));
	CHECK(lstat(at("wt/abs"), &s) == 0 && S_ISLNK(s.st_mode));
	CHECK(checkout(g, c4) == 0);
	CHECK(ktree_reset(&t, NULL, &msg) == 0, "%s", msg);
	CHECK(lstat(at("wt/dirlink"), &s) == 0 && S_ISDIR(s.st_mode));
	CHECK(lstat(at("wt/dirlink/x"), &s) == 0 && S_ISREG(s.st_mode));
	CHECK(access(at("outside/x"), F_OK), "ktree wrote through a symlink");
	CHECK(lstat(at("outside"), &s) == 0 && s.st_nlink == 2);
	free((char *)t.src);
	free((char *)t.copies);
}

int main(void)
{
	struct gitbase g = { 0 };
	char head[41];

	if (access("/usr/bin/git", X_OK)) {
		printf("skip: no git\n");
		return 77;
	}
	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root) || chmod(root, 0755) || rutil_mkdirs(at("src"),
								0755))
		return 1;
	g.kcache = strdup(at("kcache"));
	moves(&g);
	CHECK(sh("true", head) == 0);
	locked(&g, head);
	hostile(&g);
	rutil_rm_rf(root);
	DONE();
}
