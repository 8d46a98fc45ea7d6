/* SPDX-License-Identifier: MIT */
/*
 * ktree: a variant's worktree, equal to the pristine base at the start of
 * every variant whatever the previous patch or build did to it.
 *
 * The worktree is a hard-link farm of the pristine tree made by root:
 * files are the pristine inodes (root-owned, not writable by the build
 * user; patch(1) writes a new file and renames it, which breaks the
 * link), directories belong to the build user so patch can do that.
 * The reset does not trust any list: it walks both trees with *at()
 * calls that never follow links and restores every entry that is not the
 * pristine inode or a copy root made earlier (recorded in @copies, a
 * root-owned state file, and compared by content).  Restored files get a
 * fresh mtime, so the O= object dir rebuilds exactly what changed.
 */
#ifndef PERFLAB_KTREE_H
#define PERFLAB_KTREE_H

#include <sys/types.h>

struct ktree {
	const char *pristine; /* base tree, never written */
	const char *src; /* the worktree */
	const char *copies; /* root-owned state: "INO PATH" lines */
	uid_t uid; /* owner of the worktree's directories */
	gid_t gid;
};

struct ktree_stats {
	long entries; /* entries compared */
	long restored; /* files, links, dirs put back */
	long removed; /* entries the pristine tree does not have */
};

/* Create src (must not exist) as a farm of pristine; 0 or -1, *msg. */
int ktree_farm(const struct ktree *t, char **msg);
/* Make src equal pristine again; 0 or -1 with *msg. st may be NULL. */
int ktree_reset(const struct ktree *t, struct ktree_stats *st, char **msg);

#endif
