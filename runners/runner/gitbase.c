// SPDX-License-Identifier: MIT
/*
 * gitbase: bare clone per base url, fetched on demand, and the pristine
 * tree of one commit (see gitbase.h).
 */
#include "runners/runner/gitbase.h"
#include "common/git_names.h"
#include "runners/runner/rutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUT_MAX 4096

struct paths {
	char top[3000];
	char home[4200];
	char lock[4200];
	char out[4200];		/* stdout of rev-parse */
	char hash[65];
};

/*
 * One git command: fixed argv after the safety options (and
 * trustctime=false: the farm's hard links change every file's ctime,
 * which would make reset --hard rewrite the whole tree), output appended
 * to the log (or written to @out), the runner's timeout and cancel.
 */
static int git(struct gitbase *g, const struct paths *p, const char *out,
	       int timeout_s, ...)
{
	char home[4300], *argv[32] = { "git", "-c", "core.hooksPath=/dev/null",
		"-c", "protocol.ext.allow=never", "-c", "core.symlinks=true",
		"-c", "core.fsmonitor=false", "-c", "gc.auto=0",
		"-c", "core.trustctime=false" };
	char *env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", home,
			"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
			"LC_ALL=C", NULL };
	int n = 13, st, rc;
	struct rutil_cmd c;
	va_list ap;
	char *a;

	snprintf(home, sizeof(home), "HOME=%s", p->home);
	va_start(ap, timeout_s);
	while ((a = va_arg(ap, char *)) && n < 31)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	rutil_cmd_init(&c, argv);
	c.clear_env = 1;
	c.env = env;
	c.umask = 022;
	c.cwd = p->top;
	c.cancel = g->cancel;
	c.timeout_s = timeout_s;
	c.log = g->log;
	if (out) {
		unlink(out);
		c.log = out;
	}
	rc = rutil_run(&c, &st);
	if (rc == RUTIL_EXITED && st == 0)
		return 0;
	if (rc != RUTIL_EXITED || out) {
		char how[64], line[256];

		rutil_outcome(rc, st, how, sizeof(how));
		snprintf(line, sizeof(line), "perflab: git %.100s %.40s: "
			 "%s\n", argv[13], n > 14 ? argv[14] : "", how);
		rutil_append_file(g->log, line);
	}
	return -1;
}

static int lock_clone(struct gitbase *g, const struct paths *p)
{
	g->lock_fd = open(p->lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			  0600);
	if (g->lock_fd < 0)
		return -1;
	while (flock(g->lock_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || (g->cancel && *g->cancel)) {
			close(g->lock_fd);
			g->lock_fd = -1;
			return -1;
		}
		usleep(200000);
	}
	return 0;
}

static int set_paths(struct gitbase *g, struct paths *p)
{
	if (strlen(g->kcache) > 2900) {
		errno = ENAMETOOLONG;
		return -1;
	}
	rutil_sha256_hex(g->url, strlen(g->url), p->hash);
	snprintf(p->top, sizeof(p->top), "%s/git", g->kcache);
	snprintf(p->home, sizeof(p->home), "%s/home", p->top);
	snprintf(p->lock, sizeof(p->lock), "%s/%s.lock", p->top, p->hash);
	snprintf(p->out, sizeof(p->out), "%s/%s.out", p->top, p->hash);
	snprintf(g->dir, sizeof(g->dir), "%s/%s.git", p->top, p->hash);
	snprintf(g->tree, sizeof(g->tree), "%s/%s.tree", p->top, p->hash);
	snprintf(g->log, sizeof(g->log), "%s/%s.log", p->top, p->hash);
	if (rutil_mkdirs(g->kcache, 0755) || rutil_own_dir(p->top, 0755, 0, 0) ||
	    rutil_own_dir(p->home, 0700, 0, 0))
		return -1;
	return 0;
}

static int have_commit(struct gitbase *g, const struct paths *p)
{
	char gd[4200], obj[64];

	snprintf(gd, sizeof(gd), "--git-dir=%s", g->dir);
	snprintf(obj, sizeof(obj), "%s^{commit}", g->commit);
	return !git(g, p, p->out, 120, gd, "cat-file", "-e", obj, NULL);
}

/* Every branch and tag; then the commit itself (servers may refuse). */
static int fetch(struct gitbase *g, const struct paths *p, int timeout)
{
	char gd[4200], url[GIT_URL_MAX + 1];

	snprintf(gd, sizeof(gd), "--git-dir=%s", g->dir);
	snprintf(url, sizeof(url), "%s", g->url);
	g->fetched = 1;
	if (git(g, p, NULL, timeout, gd, "fetch", "--quiet", "--no-tags",
		"--no-recurse-submodules", "--", url,
		"+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*",
		NULL))
		return -1;
	if (!have_commit(g, p))
		git(g, p, NULL, timeout, gd, "fetch", "--quiet", "--no-tags",
		    "--no-recurse-submodules", "--", url, g->commit, NULL);
	return 0;
}

static int read_head(struct gitbase *g, const struct paths *p)
{
	char gd[4200], *text;

	snprintf(gd, sizeof(gd), "--git-dir=%s", g->dir);
	g->head[0] = 0;
	if (git(g, p, p->out, 120, gd, "rev-parse", "--verify", "-q",
		"HEAD^{commit}", NULL))
		return -1;
	text = rutil_read_file(p->out, NULL);
	if (text && strlen(text) >= 40) {
		memcpy(g->head, text, 40);
		g->head[40] = 0;
	}
	free(text);
	return (git_sha_valid(g->head) ? 0 : -1);
}

/* The tree at the commit: only files that differ are rewritten. */
static int materialise(struct gitbase *g, const struct paths *p)
{
	char gd[4200], wt[4200], lk[4200];
	int t = 1800;

	snprintf(gd, sizeof(gd), "--git-dir=%s", g->dir);
	snprintf(wt, sizeof(wt), "--work-tree=%s", g->tree);
	/* A git killed with the runner leaves its lock; the flock is ours. */
	snprintf(lk, sizeof(lk), "%s/index.lock", g->dir);
	unlink(lk);
	if (rutil_own_dir(g->tree, 0755, 0, 0))
		return -1;
	/* Detached: the fetched branches stay as the remote has them. */
	if (git(g, p, NULL, 120, gd, "update-ref", "--no-deref", "HEAD",
		g->commit, NULL) ||
	    git(g, p, NULL, t, gd, wt, "reset", "--quiet", "--hard",
		g->commit, NULL) ||
	    git(g, p, NULL, t, gd, wt, "clean", "-ffdxq", NULL))
		return -1;
	return 0;
}

int gitbase_checkout(struct gitbase *g, char **msg)
{
	int timeout = g->timeout_s > 0 ? g->timeout_s : 3600;
	struct paths p;
	char gd[4200];
	const char *step = "git";

	*msg = NULL;
	g->lock_fd = -1;
	g->fetched = 0;
	if (git_url_check(g->url, NULL, 0) ||
	    !git_sha_valid(g->commit)) {
		*msg = strdup("git base: bad url or commit");
		return -1;
	}
	if (set_paths(g, &p) || lock_clone(g, &p)) {
		*msg = rutil_strdupf("git base: %s/git: %s", g->kcache,
				     strerror(errno));
		return -1;
	}
	unlink(g->log);
	snprintf(gd, sizeof(gd), "--git-dir=%s", g->dir);
	if (access(g->dir, F_OK) &&
	    git(g, &p, NULL, 120, "init", "--quiet", "--bare", g->dir,
		NULL)) {
		step = "git init";
		goto fail;
	}
	if (!have_commit(g, &p)) {
		step = "git fetch";
		if (fetch(g, &p, timeout))
			goto fail;
		if (!have_commit(g, &p)) {
			*msg = rutil_strdupf("git base: commit %s not found "
					     "at %s", g->commit, g->url);
			goto out;
		}
	}
	step = "git checkout";
	if (materialise(g, &p) || read_head(g, &p))
		goto fail;
	if (strcmp(g->head, g->commit)) {
		*msg = rutil_strdupf("git base: HEAD is %s after checking "
				     "out %s", g->head, g->commit);
		goto out;
	}
	return 0;
fail:
	{
		char *tail = rutil_read_tail(g->log, 8192);

		*msg = rutil_strdupf("%s of %s in %s failed:\n%s", step,
				     g->url, g->dir, tail ? tail : "");
		free(tail);
	}
out:
	gitbase_release(g);
	return -1;
}

void gitbase_release(struct gitbase *g)
{
	if (g->lock_fd >= 0)
		close(g->lock_fd);
	g->lock_fd = -1;
}
