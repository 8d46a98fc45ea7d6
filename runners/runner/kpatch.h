/* SPDX-License-Identifier: MIT */
/*
 * kpatch: apply a variant's patch series into a kernel worktree and undo
 * the previous variant's changes, so one worktree + object dir serves all
 * variants of a (base, config) and only touched files rebuild.
 */
#ifndef PERFLAB_KPATCH_H
#define PERFLAB_KPATCH_H

#include <stddef.h>
#include <sys/types.h>
#include <signal.h>

struct kpatch {
	const char *name;	/* for messages, e.g. "0001-blk-mq-tag.patch" */
	const char *raw;	/* diff or git format-patch mbox */
	size_t len;
};

struct kpatch_paths {
	char **v;
	int n;
};

/*
 * Files a patch touches, relative to the tree root (-p1 stripped),
 * deduplicated. Refuses absolute paths and ".." components (err filled).
 * Returns 0, or -1 with err set when the text holds no diff or a bad path.
 */
int kpatch_paths(const char *raw, size_t len, struct kpatch_paths *out,
		 char *err, size_t errlen);
void kpatch_paths_free(struct kpatch_paths *p);

/*
 * Bring worktree back to pristine for every path listed in the state file
 * dirty (one path a line; copies get a fresh mtime so make rebuilds them;
 * files absent from pristine are removed), then apply patches in order with
 * patch -p1, recording the union of touched files in dirty first.
 * On a patch failure returns 1 and *msg holds "NAME: <patch output>";
 * -1 on internal errors (*msg set); 0 applied.
 */
struct kpatch_ctx {
	const char *pristine;
	const char *worktree;
	const char *dirty;	/* state file path */
	const char *scratch;	/* dir for patch files and logs */
	const volatile sig_atomic_t *cancel;
	uid_t uid;
	gid_t gid;
};

int kpatch_reset(const struct kpatch_ctx *c, char **msg);
int kpatch_apply(const struct kpatch_ctx *c, const struct kpatch *p, int n,
		 char **msg);

#endif
