/* SPDX-License-Identifier: MIT */
/*
 * sandbox: run patch(1), make and readelf on submitted code inside
 * bubblewrap.  The command runs as the unprivileged build user (root
 * drops to it before bwrap, so bwrap makes an unprivileged user
 * namespace), with no network, its own pid namespace (killed with the
 * runner), a read-only view of the system, a clean environment and only
 * the directories listed in rw writable.  The runner's state, keys,
 * environment and /proc are not visible.
 */
#ifndef PERFLAB_SANDBOX_H
#define PERFLAB_SANDBOX_H

#include <sys/types.h>

#include "runners/runner/rutil.h"

#define SANDBOX_MAX_BINDS 6
#define SANDBOX_MAX_ENV 8

struct sandbox {
	const char *ro[SANDBOX_MAX_BINDS]; /* extra read-only binds */
	const char *rw[SANDBOX_MAX_BINDS]; /* writable binds */
	const char *env[SANDBOX_MAX_ENV]; /* "K=V" besides PATH etc. */
	const char *cwd; /* NULL: / */
	uid_t uid; /* build user (when the runner is root) */
	gid_t gid;
};

/*
 * The bwrap argv running @cmd in @sb (heap; free with sandbox_argv_free).
 * NULL with *msg set if bwrap cannot be found: builds never run outside
 * the sandbox.  PERFLAB_BWRAP overrides the path (tests).
 */
char **sandbox_argv(const struct sandbox *sb, char *const *cmd, char **msg);
void sandbox_argv_free(char **argv);

/*
 * Run @cmd in @sb with rc's log, stdin, timeout and cancel (argv, cwd,
 * env, uid and gid are the sandbox's).  The log gets the reason if bwrap
 * is missing.  Returns like rutil_run().
 */
int sandbox_run(const struct sandbox *sb, char *const *cmd,
		struct rutil_cmd *rc, int *status);

/*
 * Run `true` in @sb once per process; -1 with *msg (bwrap's own words,
 * via log) when the sandbox cannot be made (no bwrap, no user
 * namespaces): the build then fails as internal, never runs unsandboxed.
 */
int sandbox_check(const struct sandbox *sb, const char *log, char **msg);

/*
 * The build user when the runner is root: @uid if set, else "nobody".
 * 0, or -1 with *msg set.  Not root: the runner's own ids.
 */
int sandbox_user(uid_t *uid, gid_t *gid, char **msg);

#endif
