// SPDX-License-Identifier: MIT
/*
 * rutil: child processes with log/timeout/cancel, file helpers, sha256.
 */
#include "runners/runner/rutil.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <ftw.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

static int write_all(int fd, const void *buf, size_t len);

void rutil_cmd_init(struct rutil_cmd *c, char *const *argv)
{
	memset(c, 0, sizeof(*c));
	c->argv = argv;
	c->uid = (uid_t)-1;
	c->gid = (gid_t)-1;
	c->umask = -1;
}

/* out: the write end of the log pipe, or -1 for /dev/null. */
static void child_exec(const struct rutil_cmd *c, int out)
{
	int in;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	in = open(c->stdin_file ? c->stdin_file : "/dev/null", O_RDONLY);
	if (out < 0)
		out = open("/dev/null", O_WRONLY);
	if (in < 0 || out < 0)
		_exit(126);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (c->cwd && chdir(c->cwd)) {
		dprintf(2, "chdir %s: %s\n", c->cwd, strerror(errno));
		_exit(126);
	}
	if (geteuid() == 0 && c->gid != (gid_t)-1 &&
	    (setgroups(0, NULL) || setgid(c->gid))) {
		dprintf(2, "setgid: %s\n", strerror(errno));
		_exit(126);
	}
	if (geteuid() == 0 && c->uid != (uid_t)-1 && setuid(c->uid)) {
		dprintf(2, "setuid: %s\n", strerror(errno));
		_exit(126);
	}
	if (c->umask >= 0)
		umask((mode_t)c->umask);
	if (c->clear_env)
		clearenv();
	for (char *const *e = c->env; e && *e; e++)
		putenv(*e);
	execvp(c->argv[0], c->argv);
	dprintf(2, "exec %s: %s\n", c->argv[0], strerror(errno));
	_exit(127);
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/*
 * The child's output reaches us through a pipe and we append it to the
 * log: the child never gets a path to open, so a log in a directory it
 * can write cannot be swapped for a link to something root would write.
 */
struct logpipe {
	int rd, wr, log;
	size_t written;
};

static int logpipe_open(struct logpipe *lp, const char *path)
{
	int p[2];

	lp->rd = lp->wr = lp->log = -1;
	lp->written = 0;
	if (!path)
		return 0;
	lp->log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
			     O_CLOEXEC, 0644);
	if (lp->log < 0 || pipe2(p, O_CLOEXEC)) {
		if (lp->log >= 0)
			close(lp->log);
		return -1;
	}
	lp->rd = p[0];
	lp->wr = p[1];
	fcntl(lp->rd, F_SETFL, O_NONBLOCK);
	return 0;
}

/* Wait up to ms for output and append what is there, up to the cap. */
static void logpipe_drain(struct logpipe *lp, int ms)
{
	static const char cut[] = "\n[perflab: log capped]\n";
	struct pollfd pfd = { .fd = lp->rd, .events = POLLIN };
	char buf[65536];
	ssize_t r;
	int k = 0;

	if (lp->rd < 0) {
		usleep((useconds_t)ms * 1000);
		return;
	}
	if (poll(&pfd, 1, ms) <= 0)
		return;
	/* Bounded, so a chatty child cannot starve the timeout checks. */
	while (k++ < 64 && (r = read(lp->rd, buf, sizeof(buf))) > 0) {
		if (lp->written < RUTIL_LOG_MAX &&
		    lp->written + (size_t)r >= RUTIL_LOG_MAX)
			write_all(lp->log, cut, sizeof(cut) - 1);
		if (lp->written < RUTIL_LOG_MAX)
			write_all(lp->log, buf, (size_t)r);
		lp->written += (size_t)r;
	}
}

static void logpipe_close(struct logpipe *lp)
{
	if (lp->rd >= 0) {
		logpipe_drain(lp, 0);
		logpipe_drain(lp, 0);
		close(lp->rd);
	}
	if (lp->wr >= 0)
		close(lp->wr);
	if (lp->log >= 0)
		close(lp->log);
}

int rutil_run(const struct rutil_cmd *c, int *status)
{
	double start = rutil_now();
	int ws, rc = RUTIL_EXITED;
	struct logpipe lp;
	pid_t pid, w;

	*status = -1;
	if (logpipe_open(&lp, c->log))
		return RUTIL_ERROR;
	pid = fork();
	if (pid < 0) {
		logpipe_close(&lp);
		return RUTIL_ERROR;
	}
	if (pid == 0)
		child_exec(c, lp.wr);
	close(lp.wr);
	lp.wr = -1;
	setpgid(pid, pid);
	for (;;) {
		struct rusage ru;

		w = wait4(pid, &ws, WNOHANG, &ru);
		if (w == pid) {
			if (c->cpu_s)
				*c->cpu_s += ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
					     (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
			break;
		}
		if (w < 0 && errno != EINTR) {
			logpipe_close(&lp);
			return RUTIL_ERROR;
		}
		if (rc == RUTIL_EXITED) {
			if (c->cancel && *c->cancel)
				rc = RUTIL_CANCELLED;
			else if (c->timeout_s > 0 &&
				 rutil_now() - start > c->timeout_s)
				rc = RUTIL_TIMEOUT;
			else if (c->tick && c->tick(c->tick_arg))
				rc = RUTIL_STOPPED;
			if (rc != RUTIL_EXITED)
				kill_group(pid);
		}
		logpipe_drain(&lp, rc == RUTIL_EXITED ? 50 : 10);
	}
	/* Grandchildren left in the group (make -j) go too. */
	kill(-pid, SIGKILL);
	logpipe_close(&lp);
	if (rc != RUTIL_EXITED)
		return rc;
	if (WIFSIGNALED(ws)) {
		*status = WTERMSIG(ws);
		return RUTIL_SIGNALED;
	}
	*status = WEXITSTATUS(ws);
	return RUTIL_EXITED;
}

void rutil_outcome(int rc, int status, char *buf, size_t len)
{
	switch (rc) {
	case RUTIL_EXITED:
		snprintf(buf, len, "exit %d", status);
		break;
	case RUTIL_SIGNALED:
		snprintf(buf, len, "killed by signal %d", status);
		break;
	case RUTIL_TIMEOUT:
		snprintf(buf, len, "timed out");
		break;
	case RUTIL_CANCELLED:
		snprintf(buf, len, "cancelled");
		break;
	case RUTIL_STOPPED:
		snprintf(buf, len, "stopped");
		break;
	default:
		snprintf(buf, len, "could not start: %s", strerror(errno));
	}
}

int rutil_own_dir(const char *path, mode_t mode, uid_t uid, gid_t gid)
{
	int fd, ret;

	if (mkdir(path, mode) && errno != EEXIST)
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = fchmod(fd, mode);
	if (!ret && geteuid() == 0)
		ret = fchown(fd, uid, gid);
	close(fd);
	return ret;
}

int rutil_mkdirs(const char *path, mode_t mode)
{
	char tmp[4096];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(tmp, path, n + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -1;
	return 0;
}

char *rutil_read_file(const char *path, size_t *lenp)
{
	size_t len = 0, cap = 8192;
	char *buf = NULL, *nb;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto err;
	for (;;) {
		if (cap - len < 4096) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				goto err;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto err;
		if (r == 0)
			break;
		len += r;
	}
	close(fd);
	buf[len] = 0;
	if (lenp)
		*lenp = len;
	return buf;
err:
	free(buf);
	close(fd);
	return NULL;
}

char *rutil_read_tail(const char *path, size_t max)
{
	size_t len;
	char *buf = rutil_read_file(path, &len), *out;

	if (!buf)
		return strdup("");
	if (len <= max)
		return buf;
	out = rutil_strdupf("[... %zu bytes cut ...]\n%s", len - max,
			    buf + len - max);
	free(buf);
	return out;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= w;
	}
	return 0;
}

/*
 * The rename is durable only once its directory is: without this, a power
 * cut seconds after a kexec state update (ext4 commits every 5 s) brings
 * back the previous state file.
 */
static int sync_parent(const char *path)
{
	char dir[4200], *slash;
	int fd, ret;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

int rutil_write_file(const char *path, const void *buf, size_t len)
{
	char tmp[4200];
	int fd, ret = -1;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write_all(fd, buf, len) || fsync(fd))
		goto out;
	if (close(fd)) {
		fd = -1;
		goto out;
	}
	fd = -1;
	if (rename(tmp, path))
		goto out;
	return sync_parent(path);
out:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return ret;
}

int rutil_append_file(const char *path, const char *text)
{
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -1;
	ret = write_all(fd, text, strlen(text));
	close(fd);
	return ret;
}

int rutil_copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	int in, out, ret = -1;
	ssize_t r;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	unlink(dst);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0)
		goto out_in;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, r))
			goto out_out;
	if (r == 0)
		ret = 0;
out_out:
	if (close(out))
		ret = -1;
out_in:
	close(in);
	return ret;
}

/* Open root/rel without following any link on the way (O_NOFOLLOW). */
static int open_beneath(const char *root, const char *rel)
{
	char part[4096];
	const char *s = rel, *sl;
	int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	while (dfd >= 0 && (sl = strchr(s, '/'))) {
		if ((size_t)(sl - s) >= sizeof(part)) {
			close(dfd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(part, s, (size_t)(sl - s));
		part[sl - s] = 0;
		fd = openat(dfd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC);
		close(dfd);
		dfd = fd;
		s = sl + 1;
	}
	if (dfd < 0)
		return -1;
	/* O_NONBLOCK: a FIFO planted by the build must not hang us. */
	fd = openat(dfd, s, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dfd);
	return fd;
}

int rutil_copy_out(const char *root, const char *rel, const char *dst,
		   size_t max)
{
	struct stat st;
	char buf[65536];
	int in = open_beneath(root, rel), out = -1, ret = -1;
	ssize_t r;
	size_t total = 0;

	if (in < 0)
		return -1;
	if (fstat(in, &st))
		goto out;
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		errno = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
		goto out;
	}
	fcntl(in, F_SETFL, 0);
	unlink(dst);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		   0644);
	if (out < 0)
		goto out;
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		total += (size_t)r;
		if (total > max) {
			errno = EFBIG;
			goto out;
		}
		if (write_all(out, buf, (size_t)r))
			goto out;
	}
	ret = r == 0 ? 0 : -1;
out:
	if (out >= 0 && close(out))
		ret = -1;
	close(in);
	if (ret && out >= 0)
		unlink(dst);
	return ret;
}

static int rm_one(const char *p, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(p) : unlink(p);
}

int rutil_rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

static void hex(const unsigned char *md, unsigned int n, char *out)
{
	for (unsigned int i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[2 * n] = 0;
}

void rutil_sha256_hex(const void *buf, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL);
	hex(md, n, out);
}

int rutil_sha256_file(const char *path, char out[65])
{
	size_t len;
	char *buf = rutil_read_file(path, &len);

	if (!buf)
		return -1;
	rutil_sha256_hex(buf, len, out);
	free(buf);
	return 0;
}

double rutil_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

char *rutil_strdupf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}
