// SPDX-License-Identifier: MIT
/*
 * kpatch: patch series into a worktree reset to the pristine base.
 */
#include "runners/runner/kpatch.h"
#include "common/patch_paths.h"
#include "runners/runner/ktree.h"
#include "runners/runner/rutil.h"
#include "runners/runner/sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int kpatch_reset(const struct kpatch_ctx *c, char **msg)
{
	struct ktree t = { .pristine = c->pristine,
			   .src = c->worktree,
			   .copies = c->copies,
			   .uid = c->uid,
			   .gid = c->gid };

	*msg = NULL;
	if (sandbox_user(&t.uid, &t.gid, msg))
		return -1;
	return ktree_reset(&t, NULL, msg);
}

/* The daemon refuses these at submission; a runner checks again. */
static int check_series(const struct kpatch *p, int n, char **msg)
{
	struct pp_paths paths;
	char err[512];

	for (int i = 0; i < n; i++) {
		if (pp_paths_of(p[i].raw, p[i].len, &paths, err, sizeof(err))) {
			*msg = rutil_strdupf("%s: refused: %s", p[i].name, err);
			return 1;
		}
		pp_paths_free(&paths);
	}
	return 0;
}

static int apply_one(const struct kpatch_ctx *c, const struct kpatch *p,
		     int idx, char **msg)
{
	char file[4096], log[4096], how[64];
	char *cmd[] = { "patch",
			"-p1",
			"--forward",
			"--batch",
			"--no-backup-if-mismatch",
			"--read-only=ignore",
			"-r",
			"-",
			NULL };
	struct sandbox sb = { .rw = { c->worktree },
			      .cwd = c->worktree,
			      .uid = c->uid,
			      .gid = c->gid };
	struct rutil_cmd cmd_;
	int rc, st;
	char *out;

	/* Root-owned and fed on stdin: the sandbox sees no state dir. */
	snprintf(file, sizeof(file), "%s/%04d.patch", c->scratch, idx + 1);
	snprintf(log, sizeof(log), "%s/%04d.log", c->scratch, idx + 1);
	unlink(log);
	if (rutil_write_file(file, p->raw, p->len)) {
		*msg = rutil_strdupf("writing %s: %s", file, strerror(errno));
		return -1;
	}
	rutil_cmd_init(&cmd_, cmd);
	cmd_.log = log;
	cmd_.stdin_file = file;
	cmd_.cancel = c->cancel;
	cmd_.timeout_s = 300;
	rc = sandbox_run(&sb, cmd, &cmd_, &st);
	if (rc == RUTIL_EXITED && st == 0)
		return 0;
	rutil_outcome(rc, st, how, sizeof(how));
	out = rutil_read_tail(log, 32768);
	*msg = rutil_strdupf("patch %d/%s does not apply (patch -p1: %s):\n%s",
			     idx + 1, p->name, how, out);
	free(out);
	return rc == RUTIL_EXITED || rc == RUTIL_SIGNALED ? 1 : -1;
}

int kpatch_apply(const struct kpatch_ctx *ctx, const struct kpatch *p, int n,
		 char **msg)
{
	struct kpatch_ctx k = *ctx, *c = &k;
	int ret;

	*msg = NULL;
	if (sandbox_user(&k.uid, &k.gid, msg))
		return -1;
	if (rutil_mkdirs(c->scratch, 0700) || chmod(c->scratch, 0700)) {
		*msg = rutil_strdupf("mkdir %s: %s", c->scratch,
				     strerror(errno));
		return -1;
	}
	ret = check_series(p, n, msg);
	if (ret)
		return ret;
	ret = kpatch_reset(c, msg);
	if (ret)
		return ret;
	for (int i = 0; i < n; i++) {
		ret = apply_one(c, &p[i], i, msg);
		if (ret)
			return ret;
	}
	return 0;
}
