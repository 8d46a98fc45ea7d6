// SPDX-License-Identifier: MIT
/*
 * A watch's poll through lei; see watch_poll.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "common/kimage.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/watch_poll.h"

static char lei_dir[PATH_MAX];

void watch_poll_set_dir(const char *dir)
{
	snprintf(lei_dir, sizeof(lei_dir), "%s", dir ? dir : "");
}

const char *watch_poll_dir(void)
{
	return lei_dir;
}

#define LEI_ENV_N 5

/* HOME and XDG_* of lei's under lei_dir (0700: its socket lives there). */
static int lei_env(char env[LEI_ENV_N][PATH_MAX + 32],
		   const char *ptrs[LEI_ENV_N + 1])
{
	static const char *const names[] = { "HOME", "XDG_RUNTIME_DIR",
		"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME" };
	static const char *const sub[] = { "", "/run", "/config", "/data", "/cache" };

	if (!lei_dir[0])
		return -1;
	for (int i = 0; i < LEI_ENV_N; i++) {
		char d[PATH_MAX + 16];

		snprintf(d, sizeof(d), "%s%s", lei_dir, sub[i]);
		if (mkdir(d, 0700) && errno != EEXIST)
			return -1;
		snprintf(env[i], PATH_MAX + 32, "%s=%s", names[i], d);
		ptrs[i] = env[i];
	}
	ptrs[LEI_ENV_N] = NULL;
	return 0;
}

/* ---- mboxrd ------------------------------------------------------------ */

/* Unescape one mboxrd line in place (">From " loses one '>'): the new
 * length. */
static size_t unescape(char *l, size_t n)
{
	size_t q = 0;

	while (q < n && l[q] == '>')
		q++;
	if (q && n - q >= 5 && !memcmp(l + q, "From ", 5)) {
		memmove(l, l + 1, n - 1);
		return n - 1;
	}
	return n;
}

static int add_msg(struct watch_batch *b, int *cap, const char *raw, size_t len)
{
	struct watch_msg *m;

	if (b->n >= WATCH_POLL_MAX_MESSAGES)
		return 0;
	if (b->n == *cap) {
		int nc = *cap ? 2 * *cap : 64;
		struct watch_msg *nm = realloc(b->m, (size_t)nc * sizeof(*nm));

		if (!nm)
			return -1;
		b->m = nm;
		*cap = nc;
	}
	/* mboxrd ends each message with a blank line of its own. */
	if (len && raw[len - 1] == '\n')
		len--;
	m = &b->m[b->n];
	memset(m, 0, sizeof(*m));
	m->raw = raw;
	m->len = len;
	if (mail_thread_read(raw, len, &m->t))
		return -1;
	b->n++;
	if (m->t.message_id && strlen(m->t.message_id) < sizeof(m->id)) {
		snprintf(m->id, sizeof(m->id), "%s", m->t.message_id);
	} else {
		char hex[65];

		kimage_sha256_hex(raw, len, hex);
		snprintf(m->id, sizeof(m->id), "sha256:%s", hex);
		if (m->t.kind != MAIL_REFUSED) {
			m->t.kind = MAIL_REFUSED;
			snprintf(m->t.why, sizeof(m->t.why), "Message-ID longer"
				 " than %zu bytes", sizeof(m->id) - 1);
		}
	}
	return 0;
}

int watch_batch_split(char *buf, size_t len, struct watch_batch *b)
{
	size_t r = 0, w = 0, start = 0;
	bool in_msg = false;
	int cap = 0;

	b->m = NULL;
	b->n = 0;
	while (r < len) {
		char *nl = memchr(buf + r, '\n', len - r);
		size_t n = nl ? (size_t)(nl - (buf + r)) + 1 : len - r;

		if (n >= 5 && !memcmp(buf + r, "From ", 5)) {
			if (in_msg && add_msg(b, &cap, buf + start, w - start))
				return -1;
			in_msg = true;
			r += n;
			start = w;	/* the separator line is not kept */
			continue;
		}
		memmove(buf + w, buf + r, n);
		w += unescape(buf + w, n);
		r += n;
	}
	if (in_msg && add_msg(b, &cap, buf + start, w - start))
		return -1;
	return 0;
}

void watch_batch_free(struct watch_batch *b)
{
	for (int i = 0; i < b->n; i++)
		mail_thread_free(&b->m[i].t);
	free(b->m);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

/* ---- lei --------------------------------------------------------------- */

int watch_poll_read(const struct watch_row *w, time_t now,
		    struct watch_batch *b, struct lab_err *e)
{
	char env[LEI_ENV_N][PATH_MAX + 32], q[WATCH_QUERY_MAX + 64], n[16];
	const char *envp[LEI_ENV_N + 1];
	char err[512], *out = NULL;
	size_t len = 0;
	int rc;

	memset(b, 0, sizeof(*b));
	if (lei_env(env, envp))
		return lab_fail(e, LAB_UNAVAILABLE, "no lei directory");
	snprintf(q, sizeof(q), "(%s) AND rt:@%lld..", w->query,
		 (long long)(now - w->window_seconds));
	snprintf(n, sizeof(n), "%d", WATCH_POLL_MAX_MESSAGES);
	rc = gitmirror_run_env((const char *const[]){ "lei", "q", "--no-save",
		"--only", w->inbox, "-f", "mboxrd", "-t", "-n", n, "--", q, NULL },
		envp, NULL, 0, &out, &len, WATCH_POLL_MAX_BYTES, WATCH_POLL_TIMEOUT_S, err,
		sizeof(err));
	if (rc) {
		free(out);
		return lab_fail(e, LAB_UPSTREAM, "lei q failed: %s", err[0] ? err :
				rc < 0 ? "no output" : "non-zero exit");
	}
	b->buf = out;
	if (watch_batch_split(out, len, b)) {
		watch_batch_free(b);
		return lab_fail(e, LAB_INTERNAL, "no memory for the messages");
	}
	return 0;
}

void watch_poll_stop(void)
{
	char env[LEI_ENV_N][PATH_MAX + 32], sock[PATH_MAX + 32];
	const char *envp[LEI_ENV_N + 2];
	const char *argv[] = { "lei", "daemon-kill", NULL };
	char path_env[1024];
	const char *p = getenv("PATH");
	struct stat st;
	pid_t pid;
	int status;

	snprintf(sock, sizeof(sock), "%s/run/lei", lei_dir);
	if (!lei_dir[0] || stat(sock, &st) || lei_env(env, envp))
		return;	/* no lei daemon of ours was started */
	/* Not through gitmirror_run_env: git is cancelled by now. */
	snprintf(path_env, sizeof(path_env), "PATH=%s", p && *p ? p : "/usr/bin:/bin");
	envp[LEI_ENV_N] = path_env;
	envp[LEI_ENV_N + 1] = NULL;
	if (posix_spawnp(&pid, "lei", NULL, NULL, (char *const *)argv,
			 (char *const *)envp))
		return;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}
