// SPDX-License-Identifier: MIT
/*
 * kpatch: patch series into a worktree, undoing the previous variant.
 */
#include "runners/runner/kpatch.h"
#include "runners/runner/rutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int paths_add(struct kpatch_paths *p, const char *s, size_t n)
{
	char **nv;

	for (int i = 0; i < p->n; i++)
		if (strlen(p->v[i]) == n && !memcmp(p->v[i], s, n))
			return 0;
	nv = realloc(p->v, (p->n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	p->v = nv;
	p->v[p->n] = strndup(s, n);
	if (!p->v[p->n])
		return -1;
	p->n++;
	return 0;
}

void kpatch_paths_free(struct kpatch_paths *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

static int bad_path(const char *s, size_t n)
{
	if (n == 0 || s[0] == '/')
		return 1;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && s[j] != '/')
			j++;
		if (j - i == 2 && s[i] == '.' && s[i + 1] == '.')
			return 1;
		i = j + 1;
	}
	return 0;
}

/* Record a path; strip = 1 removes the first component (-p1). */
static int add_path(struct kpatch_paths *p, const char *s, size_t n,
		    int strip, char *err, size_t errlen)
{
	const char *slash;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n == 9 && !memcmp(s, "/dev/null", 9))
		return 0;
	if (strip) {
		slash = memchr(s, '/', n);
		if (slash) {
			n -= slash + 1 - s;
			s = slash + 1;
		}
	}
	if (bad_path(s, n)) {
		snprintf(err, errlen, "refusing path outside the tree: %.*s",
			 (int)(n > 200 ? 200 : n), s);
		return -1;
	}
	if (paths_add(p, s, n)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* "@@ -a[,b] +c[,d] @@": line counts of the hunk. */
static int hunk_counts(const char *l, long *old, long *new)
{
	long a, c;

	*old = 1;
	*new = 1;
	if (sscanf(l, "@@ -%ld,%ld +%ld,%ld", &a, old, &c, new) == 4)
		return 0;
	if (sscanf(l, "@@ -%ld +%ld,%ld", &a, &c, new) == 3)
		return 0;
	*new = 1;
	if (sscanf(l, "@@ -%ld,%ld +%ld", &a, old, &c) == 3)
		return 0;
	*old = 1;
	if (sscanf(l, "@@ -%ld +%ld", &a, &c) == 2)
		return 0;
	return -1;
}

static int header_line(struct kpatch_paths *out, const char *l, size_t n,
		       char *err, size_t errlen)
{
	const char *sp, *tab;

	if (n > 4 && (!memcmp(l, "--- ", 4) || !memcmp(l, "+++ ", 4))) {
		tab = memchr(l + 4, '\t', n - 4);
		return add_path(out, l + 4, (tab ? tab : l + n) - (l + 4), 1,
				err, errlen);
	}
	if (n > 11 && !memcmp(l, "diff --git ", 11)) {
		/* "a/X b/X": split at " b/" (unquoted names only). */
		sp = memmem(l + 11, n - 11, " b/", 3);
		if (!sp)
			return 0;
		if (add_path(out, l + 11, sp - (l + 11), 1, err, errlen))
			return -1;
		return add_path(out, sp + 1, l + n - (sp + 1), 1, err, errlen);
	}
	for (int i = 0; i < 4; i++) {
		static const char *const pfx[] = { "rename from ", "rename to ",
						   "copy from ", "copy to " };
		size_t k = strlen(pfx[i]);

		if (n > k && !memcmp(l, pfx[i], k))
			return add_path(out, l + k, n - k, 0, err, errlen);
	}
	return 0;
}

int kpatch_paths(const char *raw, size_t len, struct kpatch_paths *out,
		 char *err, size_t errlen)
{
	const char *p = raw, *end = raw + len, *nl;
	long old = 0, new = 0;
	int hunks = 0;

	memset(out, 0, sizeof(*out));
	for (; p < end; p = nl + 1) {
		size_t n;

		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		n = nl - p;
		if (old > 0 || new > 0) {
			/* inside a hunk: count lines, never parse them */
			if (n == 0 || p[0] == ' ') {
				old--;
				new--;
			} else if (p[0] == '-') {
				old--;
			} else if (p[0] == '+') {
				new--;
			} else if (p[0] != '\\') {
				old = new = 0;	/* malformed: resync */
			}
			continue;
		}
		if (n > 3 && !memcmp(p, "@@ ", 3)) {
			if (!hunk_counts(p, &old, &new))
				hunks++;
			continue;
		}
		if (header_line(out, p, n, err, errlen))
			goto fail;
	}
	if (out->n == 0) {
		snprintf(err, errlen, "no diff found in patch");
		goto fail;
	}
	(void)hunks;
	return 0;
fail:
	kpatch_paths_free(out);
	return -1;
}

/* Restore one path from pristine with a fresh mtime, or remove it. */
static int restore_one(const struct kpatch_ctx *c, const char *rel)
{
	char src[4096], dst[4096];
	struct stat st;

	snprintf(src, sizeof(src), "%s/%s", c->pristine, rel);
	snprintf(dst, sizeof(dst), "%s/%s", c->worktree, rel);
	if (stat(src, &st)) {
		if (unlink(dst) && errno != ENOENT)
			return -1;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	return rutil_copy_file(src, dst, st.st_mode & 07777);
}

int kpatch_reset(const struct kpatch_ctx *c, char **msg)
{
	char *list = rutil_read_file(c->dirty, NULL), *save, *line;
	int ret = 0;

	*msg = NULL;
	if (!list)
		return errno == ENOENT ? 0 : -1;
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (restore_one(c, line)) {
			*msg = rutil_strdupf("restoring %s: %s", line,
					     strerror(errno));
			ret = -1;
			break;
		}
	}
	free(list);
	if (!ret && unlink(c->dirty) && errno != ENOENT)
		ret = -1;
	return ret;
}

static int record_dirty(const struct kpatch_ctx *c, const struct kpatch *p,
			int n, char **msg)
{
	char err[512];
	char *text = strdup(""), *t;
	int ret = -1;

	for (int i = 0; i < n && text; i++) {
		struct kpatch_paths paths;

		if (kpatch_paths(p[i].raw, p[i].len, &paths, err, sizeof(err))) {
			*msg = rutil_strdupf("%s: %s", p[i].name, err);
			ret = 1;
			goto out;
		}
		for (int j = 0; j < paths.n && text; j++) {
			t = rutil_strdupf("%s%s\n", text, paths.v[j]);
			free(text);
			text = t;
		}
		kpatch_paths_free(&paths);
	}
	if (!text || rutil_write_file(c->dirty, text, strlen(text))) {
		*msg = rutil_strdupf("writing %s: %s", c->dirty,
				     strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(text);
	return ret;
}

static int apply_one(const struct kpatch_ctx *c, const struct kpatch *p,
		     int idx, char **msg)
{
	char file[4096], log[4096], how[64];
	char *argv[] = { "patch", "-p1", "--forward", "--batch",
			 "--no-backup-if-mismatch", "-r", "-", "-d",
			 (char *)c->worktree, "-i", file, NULL };
	struct rutil_cmd cmd;
	int rc, st;
	char *out;

	snprintf(file, sizeof(file), "%s/%04d.patch", c->scratch, idx + 1);
	snprintf(log, sizeof(log), "%s/%04d.log", c->scratch, idx + 1);
	unlink(log);
	if (rutil_write_file(file, p->raw, p->len)) {
		*msg = rutil_strdupf("writing %s: %s", file, strerror(errno));
		return -1;
	}
	chmod(file, 0644);
	rutil_cmd_init(&cmd, argv);
	cmd.log = log;
	cmd.cancel = c->cancel;
	cmd.timeout_s = 300;
	cmd.uid = c->uid;
	cmd.gid = c->gid;
	rc = rutil_run(&cmd, &st);
	if (rc == RUTIL_EXITED && st == 0)
		return 0;
	rutil_outcome(rc, st, how, sizeof(how));
	out = rutil_read_tail(log, 32768);
	*msg = rutil_strdupf("patch %d/%s does not apply (patch -p1: %s):\n%s",
			     idx + 1, p->name, how, out);
	free(out);
	return rc == RUTIL_EXITED || rc == RUTIL_SIGNALED ? 1 : -1;
}

int kpatch_apply(const struct kpatch_ctx *c, const struct kpatch *p, int n,
		 char **msg)
{
	int ret;

	*msg = NULL;
	if (rutil_mkdirs(c->scratch, 0755)) {
		*msg = rutil_strdupf("mkdir %s: %s", c->scratch,
				     strerror(errno));
		return -1;
	}
	ret = kpatch_reset(c, msg);
	if (ret)
		return ret;
	ret = record_dirty(c, p, n, msg);
	if (ret)
		return ret;
	for (int i = 0; i < n; i++) {
		ret = apply_one(c, &p[i], i, msg);
		if (ret)
			return ret;
	}
	return 0;
}
