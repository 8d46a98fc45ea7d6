// SPDX-License-Identifier: MIT
/*
 * sandbox: bubblewrap command lines for building submitted code.
 */
#include "runners/runner/sandbox.h"
#include "runners/runner/rutil.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The system a compiler needs, read-only; not all of /etc (keys). */
static const char *const sys_ro[] = {
	"/usr",
	"/etc/alternatives",
	"/etc/ld.so.cache",
	"/etc/ld.so.conf",
	"/etc/ld.so.conf.d",
	"/etc/localtime",
	"/etc/passwd",
	"/etc/group",
	"/etc/nsswitch.conf",
};
/* Top-level links of a merged /usr (/bin -> usr/bin), or real dirs. */
static const char *const sys_top[] = { "/bin",	 "/sbin",  "/lib",
				       "/lib32", "/lib64", "/libx32" };

struct args {
	char **v;
	int n, cap;
	int oom;
};

static void add(struct args *a, const char *s)
{
	char **nv;

	if (a->oom)
		return;
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		nv = realloc(a->v, (size_t)a->cap * sizeof(*nv));
		if (!nv) {
			a->oom = 1;
			return;
		}
		a->v = nv;
	}
	a->v[a->n] = strdup(s);
	if (!a->v[a->n]) {
		a->oom = 1;
		return;
	}
	a->v[++a->n] = NULL;
}

static void add3(struct args *a, const char *x, const char *y, const char *z)
{
	add(a, x);
	add(a, y);
	if (z)
		add(a, z);
}

static void system_view(struct args *a)
{
	char target[256];
	struct stat st;
	ssize_t n;

	for (size_t i = 0; i < sizeof(sys_ro) / sizeof(sys_ro[0]); i++)
		if (!lstat(sys_ro[i], &st))
			add3(a, "--ro-bind", sys_ro[i], sys_ro[i]);
	for (size_t i = 0; i < sizeof(sys_top) / sizeof(sys_top[0]); i++) {
		if (lstat(sys_top[i], &st))
			continue;
		n = readlink(sys_top[i], target, sizeof(target) - 1);
		if (S_ISLNK(st.st_mode) && n > 0) {
			target[n] = 0;
			add3(a, "--symlink", target, sys_top[i]);
		} else if (S_ISDIR(st.st_mode)) {
			add3(a, "--ro-bind", sys_top[i], sys_top[i]);
		}
	}
}

static const char *bwrap_path(void)
{
	static const char *const dirs[] = { "/usr/bin/bwrap",
					    "/usr/local/bin/bwrap",
					    "/bin/bwrap" };
	const char *env = getenv("PERFLAB_BWRAP");

	if (env)
		return access(env, X_OK) ? NULL : env;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!access(dirs[i], X_OK))
			return dirs[i];
	return NULL;
}

static void env_args(struct args *a, const struct sandbox *sb)
{
	const char *eq;
	char k[128];

	add(a, "--clearenv");
	add3(a, "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin");
	add3(a, "--setenv", "HOME", "/tmp");
	add3(a, "--setenv", "TMPDIR", "/tmp");
	add3(a, "--setenv", "LC_ALL", "C");
	for (int i = 0; i < SANDBOX_MAX_ENV && sb->env[i]; i++) {
		eq = strchr(sb->env[i], '=');
		if (!eq || (size_t)(eq - sb->env[i]) >= sizeof(k))
			continue;
		memcpy(k, sb->env[i], (size_t)(eq - sb->env[i]));
		k[eq - sb->env[i]] = 0;
		add3(a, "--setenv", k, eq + 1);
	}
}

char **sandbox_argv(const struct sandbox *sb, char *const *cmd, char **msg)
{
	const char *bwrap = bwrap_path();
	struct args a = { 0 };

	if (!bwrap) {
		*msg = rutil_strdupf(
			"bubblewrap (bwrap) not found%s: builds "
			"run only inside its sandbox",
			getenv("PERFLAB_BWRAP") ? " at $PERFLAB_BWRAP" : "");
		return NULL;
	}
	add(&a, bwrap);
	/* user, pid, net, ipc, uts, cgroup namespaces; killed with us. */
	add3(&a, "--unshare-all", "--die-with-parent", "--new-session");
	system_view(&a);
	add3(&a, "--proc", "/proc", NULL);
	add3(&a, "--dev", "/dev", NULL);
	add3(&a, "--tmpfs", "/tmp", NULL);
	for (int i = 0; i < SANDBOX_MAX_BINDS && sb->ro[i]; i++)
		add3(&a, "--ro-bind", sb->ro[i], sb->ro[i]);
	for (int i = 0; i < SANDBOX_MAX_BINDS && sb->rw[i]; i++)
		add3(&a, "--bind", sb->rw[i], sb->rw[i]);
	/* Nothing but /tmp is writable beyond the rw binds. */
	add3(&a, "--remount-ro", "/", NULL);
	env_args(&a, sb);
	add3(&a, "--chdir", sb->cwd ? sb->cwd : "/", NULL);
	add(&a, "--");
	for (; *cmd; cmd++)
		add(&a, *cmd);
	if (!a.oom)
		return a.v;
	sandbox_argv_free(a.v);
	*msg = strdup("out of memory");
	return NULL;
}

void sandbox_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

int sandbox_user(uid_t *uid, gid_t *gid, char **msg)
{
	struct passwd *pw;

	if (geteuid() != 0) {
		*uid = geteuid();
		*gid = getegid();
		return 0;
	}
	if (*uid != (uid_t)-1 && *uid != 0)
		return 0;
	pw = getpwnam("nobody");
	if (!pw || !pw->pw_uid) {
		*msg = strdup("running as root without --build-user and no "
			      "user 'nobody': builds never run as root");
		return -1;
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

int sandbox_run(const struct sandbox *sb, char *const *cmd,
		struct rutil_cmd *rc, int *status)
{
	char **argv = NULL, *msg = NULL;
	uid_t uid = sb->uid;
	gid_t gid = sb->gid;
	int ret;

	/* Never root inside: resolve the build user here too. */
	if (!sandbox_user(&uid, &gid, &msg))
		argv = sandbox_argv(sb, cmd, &msg);
	if (!argv) {
		if (rc->log)
			rutil_append_file(rc->log, msg);
		free(msg);
		errno = ENOENT;
		return RUTIL_ERROR;
	}
	rc->argv = argv;
	rc->cwd = NULL; /* bwrap --chdir */
	/*
	 * Empty for bwrap itself too: its pid 1 in the sandbox keeps the
	 * environment it was started with, readable in /proc/1/environ.
	 */
	rc->env = NULL;
	rc->clear_env = 1;
	rc->uid = uid;
	rc->gid = gid;
	ret = rutil_run(rc, status);
	rc->argv = NULL;
	sandbox_argv_free(argv);
	return ret;
}

int sandbox_check(const struct sandbox *sb, const char *log, char **msg)
{
	static int ok;
	char *const cmd[] = { "true", NULL };
	struct rutil_cmd rc;
	char *tail;
	int st, r;

	if (ok)
		return 0;
	rutil_cmd_init(&rc, cmd);
	rc.log = log;
	rc.timeout_s = 60;
	r = sandbox_run(sb, cmd, &rc, &st);
	if (r == RUTIL_EXITED && st == 0) {
		ok = 1;
		return 0;
	}
	tail = log ? rutil_read_tail(log, 4096) : NULL;
	*msg = rutil_strdupf("the build sandbox (bubblewrap) does not work "
			     "here; builds never run outside it:\n%s",
			     tail ? tail : "");
	free(tail);
	return -1;
}
