/* SPDX-License-Identifier: MIT */
/*
 * rutil: small helpers shared by the runner modules: running child
 * processes with a log, a timeout and cancellation; files; sha256.
 */
#ifndef PERFLAB_RUTIL_H
#define PERFLAB_RUTIL_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#define RUTIL_LOG_MAX (64u << 20)

/* Called about every 100 ms while a child runs; non-zero stops it. */
typedef int (*rutil_tick_fn)(void *arg);

struct rutil_cmd {
	char *const *argv;	/* argv[0] looked up in PATH */
	const char *cwd;	/* NULL: inherit */
	char *const *env;	/* extra "K=V" entries, NULL-terminated, or NULL */
	const char *log;	/* stdout+stderr appended here through a pipe
				 * (opened by us, O_NOFOLLOW, capped at
				 * RUTIL_LOG_MAX); NULL: /dev/null */
	const char *stdin_file;	/* NULL: /dev/null */
	int timeout_s;		/* 0: none */
	const volatile sig_atomic_t *cancel; /* non-zero: kill the child */
	rutil_tick_fn tick;
	void *tick_arg;
	int clear_env;		/* start from an empty environment */
	uid_t uid;		/* run as this user when gid/uid != -1 and root */
	gid_t gid;
	int umask;		/* the child's umask; -1: inherit */
	double *cpu_s;		/* when set: += the child's and its reaped
				 * descendants' user + system seconds */
};

/* Result of rutil_run. */
enum {
	RUTIL_EXITED = 0,	/* *status holds the exit code */
	RUTIL_SIGNALED = 1,	/* child died of a signal (*status = signo) */
	RUTIL_TIMEOUT = 2,
	RUTIL_CANCELLED = 3,
	RUTIL_STOPPED = 4,	/* tick asked to stop */
	RUTIL_ERROR = -1,	/* fork/exec setup failed (errno) */
};

void rutil_cmd_init(struct rutil_cmd *c, char *const *argv);
int rutil_run(const struct rutil_cmd *c, int *status);
/* Human text for a rutil_run outcome, e.g. "exit 2", "timed out". */
void rutil_outcome(int rc, int status, char *buf, size_t len);

int rutil_mkdirs(const char *path, mode_t mode);

/*
 * Make directory @path (its parent must exist) or take the one there:
 * never through a link, mode @mode exactly, and owned by @uid:@gid when
 * running as root. 0 or -1 with errno.
 */
int rutil_own_dir(const char *path, mode_t mode, uid_t uid, gid_t gid);
/* Whole file into a NUL-terminated buffer; NULL on error (errno set). */
char *rutil_read_file(const char *path, size_t *len);
/* Last max bytes of a file (for uploading logs); "" if missing. */
char *rutil_read_tail(const char *path, size_t max);
/* Write via temp file + fsync + rename + fsync of the directory: durable
 * when it returns 0 (the kexec state must survive a power cut). */
int rutil_write_file(const char *path, const void *buf, size_t len);
int rutil_append_file(const char *path, const char *text);
int rutil_copy_file(const char *src, const char *dst, mode_t mode);
int rutil_rm_rf(const char *path);
/*
 * Copy root/rel to dst (created, O_EXCL) when it is a regular file of at
 * most max bytes reached without following links: how root takes files
 * out of a directory the build user writes.  0, or -1 with errno.
 */
int rutil_copy_out(const char *root, const char *rel, const char *dst,
		   size_t max);

/* Lower-case hex sha256 (65 bytes incl. NUL). */
void rutil_sha256_hex(const void *buf, size_t len, char out[65]);
int rutil_sha256_file(const char *path, char out[65]);

double rutil_now(void);	/* monotonic seconds */

/* Printf into a new heap string. */
char *rutil_strdupf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
