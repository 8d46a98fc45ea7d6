// SPDX-License-Identifier: MIT
/*
 * Bare mirrors of git bases; see gitmirror.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/git_names.h"
#include "daemon/lab/gitmirror.h"

#define GIT_TIMEOUT_S 60
#define SMALL_CAP (1 << 20)
/* How often a running git looks at the cancel flag (ms). */
#define CANCEL_POLL_MS 200

static char *mirror_dir;
static int fetch_timeout_s = GITMIRROR_FETCH_TIMEOUT_S;
static int cancelled;

void gitmirror_set_fetch_timeout(int seconds)
{
	fetch_timeout_s = seconds > 0 ? seconds : GITMIRROR_FETCH_TIMEOUT_S;
}

void gitmirror_cancel_all(void)
{
	__atomic_store_n(&cancelled, 1, __ATOMIC_RELEASE);
}

bool gitmirror_cancelled(void)
{
	return __atomic_load_n(&cancelled, __ATOMIC_ACQUIRE);
}

void gitmirror_set_dir(const char *dir)
{
	free(mirror_dir);
	mirror_dir = dir ? strdup(dir) : NULL;
	if (mirror_dir)
		mkdir(mirror_dir, 0700);
}

const char *gitmirror_dir(void)
{
	return mirror_dir;
}

int gitmirror_check_ref(const char *ref)
{
	size_t n = strlen(ref), i;

	if (n == 0 || n > 200 || ref[0] == '-' || ref[0] == '/' ||
	    ref[n - 1] == '/' || ref[n - 1] == '.' || strstr(ref, "..") ||
	    strstr(ref, "//") || strstr(ref, "@{") ||
	    (n >= 5 && !strcmp(ref + n - 5, ".lock")))
		return -1;
	for (i = 0; i < n; i++) {
		char c = ref[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-' || c == '/'))
			return -1;
	}
	return 0;
}

int gitmirror_path(int64_t base_id, char *out, size_t len)
{
	if (!mirror_dir)
		return -1;
	return (size_t)snprintf(out, len, "%s/%lld.git", mirror_dir,
				(long long)base_id) < len ? 0 : -1;
}

/* ---- running git ----------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Append what @fd has to *@buf (cap @cap, then mark overflow). 0 at EOF. */
static int drain(int fd, char **buf, size_t *n, size_t cap, int *over)
{
	char tmp[65536];
	ssize_t r = read(fd, tmp, sizeof(tmp));

	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (r == 0)
		return 0;
	if (*n + (size_t)r > cap) {
		*over = 1;
		return 1;
	}
	char *nb = realloc(*buf, *n + (size_t)r + 1);

	if (!nb) {
		*over = 1;
		return 1;
	}
	memcpy(nb + *n, tmp, (size_t)r);
	*n += (size_t)r;
	nb[*n] = '\0';
	*buf = nb;
	return 1;
}

struct child_io {
	int in, out, err;	/* our ends; -1 when closed */
};

/* @env NULL: git with its fixed environment; else argv[0] with PATH and
 * @env (NULL-terminated) only. */
static pid_t spawn_git(const char *const *argv, const char *const *env,
		       int want_in, struct child_io *io)
{
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	char path_env[1024];
	char home_env[4200];
	char *envp[] = { path_env, home_env, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_ALLOW_PROTOCOL=file:https:git", "LC_ALL=C", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t mask, def;
	const char *p = getenv("PATH");
	char *tool_env[16] = { path_env };
	pid_t pid = -1;

	snprintf(path_env, sizeof(path_env), "PATH=%s",
		 p && *p ? p : "/usr/local/bin:/usr/bin:/bin");
	snprintf(home_env, sizeof(home_env), "HOME=%s",
		 mirror_dir ? mirror_dir : "/nonexistent");
	if ((want_in && pipe2(pin, O_CLOEXEC)) || pipe2(pout, O_CLOEXEC) ||
	    pipe2(perr, O_CLOEXEC))
		goto out;
	posix_spawn_file_actions_init(&fa);
	if (want_in)
		posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	/* Nothing of the daemon's (sockets, database) reaches git. */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
	/* The daemon blocks SIGTERM in its threads and ignores SIGPIPE:
	 * git gets the defaults back. */
	posix_spawnattr_init(&attr);
	sigemptyset(&mask);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigmask(&attr, &mask);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	for (int i = 0; env && env[i] && i < 14; i++)
		tool_env[i + 1] = (char *)env[i];
	if (posix_spawnp(&pid, env ? argv[0] : "git", &fa, &attr,
			 (char *const *)argv, env ? tool_env : envp))
		pid = -1;
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
out:
	if (pin[0] >= 0)
		close(pin[0]);
	if (pout[1] >= 0)
		close(pout[1]);
	if (perr[1] >= 0)
		close(perr[1]);
	io->in = pin[1];
	io->out = pout[0];
	io->err = perr[0];
	if (pid < 0) {
		for (int *f = &io->in; f <= &io->err; f++)
			if (*f >= 0)
				close(*f);
		io->in = io->out = io->err = -1;
	}
	return pid;
}

static int run_tool(const char *const *argv, const char *const *env,
		    const char *in, size_t inlen, char **out, size_t *outlen,
		    size_t cap, int timeout_s, char *err, size_t errlen)
{
	const char *tool = env ? argv[0] : "git";
	char *obuf = NULL, *ebuf = NULL;
	size_t on = 0, en = 0, off = 0;
	int over = 0, eover = 0, timed_out = 0, status = 0, ret = -1;
	double deadline = now_s() + timeout_s;
	struct child_io io;
	pid_t pid;

	if (out)
		*out = NULL;
	if (errlen)
		err[0] = '\0';
	pid = spawn_git(argv, env, in != NULL, &io);
	if (pid < 0) {
		snprintf(err, errlen, "cannot run %s: %s", tool, strerror(errno));
		return -1;
	}
	if (io.in >= 0)
		fcntl(io.in, F_SETFL, O_NONBLOCK);
	if (io.in >= 0 && inlen == 0) {
		close(io.in);
		io.in = -1;
	}
	while (io.out >= 0 || io.err >= 0) {
		struct pollfd pf[3] = { { io.out, POLLIN, 0 }, { io.err, POLLIN, 0 },
					{ io.in, POLLOUT, 0 } };
		double left = deadline - now_s();

		if (left <= 0 || __atomic_load_n(&cancelled, __ATOMIC_ACQUIRE)) {
			if (left <= 0)
				snprintf(err, errlen, "%s timed out after %d s",
					 tool, timeout_s);
			else
				snprintf(err, errlen, "%s stopped: perflabd is"
					 " stopping", tool);
			kill(pid, SIGKILL);
			timed_out = 1;
			goto reap;
		}
		if (left * 1000 > CANCEL_POLL_MS)
			left = CANCEL_POLL_MS / 1000.0;
		if (poll(pf, 3, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
		if (io.out >= 0 && (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    !drain(io.out, &obuf, &on, cap, &over)) {
			close(io.out);
			io.out = -1;
		}
		if (io.err >= 0 && (pf[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    !drain(io.err, &ebuf, &en, 8192, &eover)) {
			close(io.err);
			io.err = -1;
		}
		if (io.in >= 0 && (pf[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(io.in, in + off, inlen - off);

			if (w > 0)
				off += (size_t)w;
			if ((w < 0 && errno != EAGAIN && errno != EINTR) || off == inlen) {
				close(io.in);
				io.in = -1;
			}
		}
	}
reap:
	for (int *f = &io.in; f <= &io.err; f++)
		if (*f >= 0)
			close(*f);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!err[0] && ebuf)
		snprintf(err, errlen, "%s", ebuf);
	if (errlen && err[0])
		err[strcspn(err, "\n")] = '\0';
	if (over) {
		snprintf(err, errlen, "%s output beyond %zu bytes", tool, cap);
	} else if (!timed_out && WIFEXITED(status)) {
		ret = WEXITSTATUS(status);
		if (out) {
			*out = obuf ? obuf : strdup("");
			obuf = NULL;
			if (outlen)
				*outlen = on;
		}
	}
	free(obuf);
	free(ebuf);
	return ret;
}

int gitmirror_run(const char *const *argv, const char *in, size_t inlen,
		  char **out, size_t cap, int timeout_s, char *err,
		  size_t errlen)
{
	return run_tool(argv, NULL, in, inlen, out, NULL, cap, timeout_s, err,
			errlen);
}

int gitmirror_run_env(const char *const *argv, const char *const *env,
		      const char *in, size_t inlen, char **out, size_t *outlen,
		      size_t cap, int timeout_s, char *err, size_t errlen)
{
	return run_tool(argv, env, in, inlen, out, outlen, cap, timeout_s, err,
			errlen);
}

/* git -c core.hooksPath=/dev/null -C @path ARGS... */
#define GIT(path, ...) ((const char *const[]){ "git", "-c", \
	"core.hooksPath=/dev/null", "-C", (path), __VA_ARGS__, NULL })

/* ---- queries --------------------------------------------------------- */

int gitmirror_fetch(const char *path, const char *url, struct lab_err *e)
{
	char why[256] = "";
	struct stat sb;
	int rc;

	if (git_url_check(url, why, sizeof(why)))
		return lab_fail(e, LAB_INVALID, "git url: %s", why);
	if (stat(path, &sb)) {
		rc = gitmirror_run(((const char *const[]){ "git", "-c",
			"core.hooksPath=/dev/null", "init", "--quiet", "--bare",
			"--", path, NULL }), NULL, 0, NULL, 0, GIT_TIMEOUT_S, why,
			sizeof(why));
		if (rc)
			return lab_fail(e, LAB_UPSTREAM, "%s", rc > 0 && !why[0] ?
					"git init failed" : why);
	}
	rc = gitmirror_run(GIT(path, "fetch", "--quiet", "--prune", "--no-tags",
			       "--no-recurse-submodules", "--", url,
			       "+refs/heads/*:refs/heads/*",
			       "+refs/tags/*:refs/tags/*"),
			   NULL, 0, NULL, 0, fetch_timeout_s, why, sizeof(why));
	if (rc && !why[0])
		return lab_fail(e, LAB_UPSTREAM, "git fetch failed (exit %d)", rc);
	return rc ? lab_fail(e, LAB_UPSTREAM, "%s", why) : 0;
}

/* rev-parse --verify of @spec (built here or checked) into @sha: 0, -1
 * no such commit, or LAB_UPSTREAM when git failed. */
static int resolve_raw(const char *path, const char *spec, char sha[41],
		       struct lab_err *e)
{
	char *out = NULL, gerr[256];
	int rc;

	sha[0] = '\0';
	rc = gitmirror_run(GIT(path, "rev-parse", "--verify", "--quiet",
			       "--end-of-options", spec),
			   NULL, 0, &out, SMALL_CAP, GIT_TIMEOUT_S, gerr, sizeof(gerr));
	if (rc < 0) {
		free(out);
		return lab_fail(e, LAB_UPSTREAM, "%s", gerr);
	}
	if (rc == 0 && out && strlen(out) >= 40) {
		memcpy(sha, out, 40);
		sha[40] = '\0';
	}
	free(out);
	if (!git_sha_valid(sha)) {
		sha[0] = '\0';
		return lab_fail(e, LAB_REJECTED, "no such commit");
	}
	return 0;
}

int gitmirror_resolve(const char *path, const char *name, char sha[41],
		      struct lab_err *e)
{
	char spec[260];

	sha[0] = '\0';
	if (gitmirror_check_ref(name))
		return lab_fail(e, LAB_REJECTED, "'%.64s' is not a usable ref or"
				" commit name", name);
	snprintf(spec, sizeof(spec), "%s^{commit}", name);
	if (!resolve_raw(path, spec, sha, e))
		return 0;
	if (e && e->st == LAB_REJECTED)
		lab_fail(e, LAB_REJECTED, "'%.64s' names no commit of the base"
			 " (unknown or ambiguous)", name);
	return -1;
}

int gitmirror_parent(const char *path, const char *sha, char parent[41])
{
	struct lab_err e;
	char spec[48];

	if (!git_sha_valid(sha))
		return -1;
	snprintf(spec, sizeof(spec), "%s^1", sha);
	return resolve_raw(path, spec, parent, &e) ? -1 : 0;
}

int gitmirror_first_parent(const char *path, const char *good,
			   const char *bad, char (**list)[41], size_t *n,
			   struct lab_err *e)
{
	char range[100], parent[41], *out = NULL, *p, (*a)[41] = NULL;
	char why[256] = "";
	size_t cap = 0;
	int rc;

	*list = NULL;
	*n = 0;
	if (!git_sha_valid(good) || !git_sha_valid(bad))
		return lab_fail(e, LAB_REJECTED, "good and bad must be full"
				" commit ids");
	snprintf(range, sizeof(range), "%s..%s", good, bad);
	rc = gitmirror_run(GIT(path, "rev-list", "--first-parent", "--reverse",
			       range), NULL, 0, &out, 64 << 20, GIT_TIMEOUT_S,
			   why, sizeof(why));
	if (rc != 0) {
		free(out);
		return lab_fail(e, LAB_UPSTREAM, "%s", rc < 0 ? why :
				"git rev-list failed");
	}
	for (p = out; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (*n == cap) {
			char (*na)[41] = realloc(a, (cap = cap ? 2 * cap : 64) * sizeof(*a));

			if (!na)
				goto fail;
			a = na;
		}
		memcpy(a[*n], p, 40);
		a[*n][40] = '\0';
		if (!git_sha_valid(a[*n]))
			goto fail;
		(*n)++;
	}
	free(out);
	out = NULL;
	if (!*n) {
		free(a);
		return lab_fail(e, LAB_REJECTED, "the bad commit is not after the"
				" good one");
	}
	/* good must be on bad's first-parent line: the oldest commit's
	 * first parent. */
	if (gitmirror_parent(path, a[0], parent) || strcmp(parent, good)) {
		free(a);
		*n = 0;
		return lab_fail(e, LAB_REJECTED, "the good commit is not on the"
				" bad commit's first-parent history");
	}
	*list = a;
	return 0;
fail:
	free(out);
	free(a);
	*n = 0;
	return lab_fail(e, LAB_UPSTREAM, "cannot read git rev-list output");
}

int gitmirror_is_ancestor(const char *path, const char *a, const char *b)
{
	char err[256];
	int rc;

	if (!git_sha_valid(a) || !git_sha_valid(b))
		return -1;
	rc = gitmirror_run(GIT(path, "merge-base", "--is-ancestor", a, b), NULL,
			   0, NULL, 0, GIT_TIMEOUT_S, err, sizeof(err));
	return rc == 0 ? 1 : rc == 1 ? 0 : -1;
}

static void field(char *dst, size_t len, char **p)
{
	size_t k = strcspn(*p, "\x1f");

	snprintf(dst, len, "%.*s", (int)k, *p);
	*p += k + ((*p)[k] != '\0');
}

int gitmirror_commit_info(const char *path, const char *sha,
			  struct gitmirror_commit *c)
{
	char *out = NULL, *p, t[32], err[256];
	int rc;

	memset(c, 0, sizeof(*c));
	if (!git_sha_valid(sha))
		return -1;
	rc = gitmirror_run(GIT(path, "show", "-s", "--no-show-signature",
			       "--format=%s%x1f%an%x1f%ae%x1f%ct", sha),
			   NULL, 0, &out, SMALL_CAP, GIT_TIMEOUT_S, err, sizeof(err));
	if (rc != 0) {
		free(out);
		return -1;
	}
	p = out;
	p[strcspn(p, "\n")] = '\0';
	field(c->subject, sizeof(c->subject), &p);
	field(c->author, sizeof(c->author), &p);
	field(c->email, sizeof(c->email), &p);
	field(t, sizeof(t), &p);
	c->time = strtoll(t, NULL, 10);
	free(out);
	return 0;
}

int gitmirror_patch_id(const char *path, const char *sha, char id[41])
{
	char *diff = NULL, *out = NULL, err[256];
	int rc;

	id[0] = '\0';
	if (!git_sha_valid(sha))
		return -1;
	rc = gitmirror_run(GIT(path, "diff-tree", "-p", "--root", "--no-color",
			       "--no-ext-diff", sha),
			   NULL, 0, &diff, 256 << 20, GIT_TIMEOUT_S, err, sizeof(err));
	if (rc == 0)
		rc = gitmirror_run(GIT(path, "patch-id", "--stable"), diff,
				   strlen(diff), &out, SMALL_CAP, GIT_TIMEOUT_S,
				   err, sizeof(err));
	if (rc == 0 && out && strlen(out) >= 40) {
		memcpy(id, out, 40);
		id[40] = '\0';
		if (!git_sha_valid(id))
			id[0] = '\0';
	}
	free(diff);
	free(out);
	return rc == 0 ? 0 : -1;
}
