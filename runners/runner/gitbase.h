/* SPDX-License-Identifier: MIT */
/*
 * gitbase: a git base's commit as a pristine tree for the ktree farm.
 *
 * Layout under the cache root (all root's, directories 0755):
 *   git/<h>.git     bare clone of the base url, h = sha256(url)
 *   git/<h>.tree    pristine work tree of that clone (one commit at a time)
 *   git/<h>.lock    flock: one runner uses the clone and its tree at a time
 *   git/<h>.log     output of the last git commands (capped)
 *   git/home        HOME of the git processes (0700, empty)
 *
 * The clone is fetched only when the commit is missing; the tree moves to
 * the commit with `reset --hard` + `clean -ffdx`, which rewrites only the
 * files that differ, so the build after it recompiles only what changed.
 * Git runs with a fixed argv and an environment of PATH, HOME,
 * GIT_CONFIG_NOSYSTEM=1 and GIT_TERMINAL_PROMPT=0, no hooks, no ext::
 * transport, umask 022 (the farm links only files the build user cannot
 * write).
 */
#ifndef PERFLAB_GITBASE_H
#define PERFLAB_GITBASE_H

#include <signal.h>
#include <stddef.h>

struct gitbase {
	const char *kcache;	/* cache root */
	const char *url;	/* checked with git_url_check */
	const char *commit;	/* 40 lower-case hex */
	int timeout_s;		/* per git command; 0: 3600 */
	const volatile sig_atomic_t *cancel;
	/* filled by gitbase_checkout */
	char dir[4096];		/* the bare clone */
	char tree[4096];	/* the pristine tree at @commit */
	char log[4096];
	char head[41];		/* rev-parse HEAD of the tree */
	int fetched;		/* a fetch ran */
	int lock_fd;		/* held until gitbase_release */
};

/*
 * Lock the clone of g->url, fetch if g->commit is missing, put the tree
 * at g->commit.  0 with the lock held (gitbase_release after the build
 * that reads g->tree); -1 with *msg (lock released).
 */
int gitbase_checkout(struct gitbase *g, char **msg);
void gitbase_release(struct gitbase *g);

#endif
