/* SPDX-License-Identifier: MIT */
/*
 * kpatch: apply a variant's patch series into a kernel worktree that
 * ktree first brings back to the pristine base, so one worktree + object
 * dir serves all variants of a (base, config) and only touched files
 * rebuild.  patch(1) runs in the build sandbox as the build user; the
 * names it may touch are checked first with common/patch_paths.
 */
#ifndef PERFLAB_KPATCH_H
#define PERFLAB_KPATCH_H

#include <stddef.h>
#include <sys/types.h>
#include <signal.h>

struct kpatch {
	const char *name; /* for messages, e.g. "0001-blk-mq-tag.patch" */
	const char *raw; /* diff or git format-patch mbox */
	size_t len;
};

struct kpatch_ctx {
	const char *pristine;
	const char *worktree;
	const char *copies; /* root-owned ktree state file */
	const char *scratch; /* root-owned dir for patch files and logs */
	const volatile sig_atomic_t *cancel;
	uid_t uid; /* build user */
	gid_t gid;
};

/* Make the worktree equal to pristine again (ktree_reset). */
int kpatch_reset(const struct kpatch_ctx *c, char **msg);
/*
 * Reset, refuse a series whose names or modes are unsafe, then apply the
 * patches in order with patch -p1 in the sandbox.  Returns 1 with *msg
 * "NAME: <reason or patch output>" when a patch is refused or does not
 * apply; -1 on internal errors (*msg set); 0 applied.
 */
int kpatch_apply(const struct kpatch_ctx *c, const struct kpatch *p, int n,
		 char **msg);

#endif
