/* SPDX-License-Identifier: MIT */
/*
 * The daemon's bare mirror of each git base: <git dir>/<base id>.git.
 * It answers what the lab needs to know about a base's history without a
 * runner: the head of a ref, a commit named by a prefix, the first-parent
 * commits between two commits, a commit's subject and author, and its
 * `git patch-id --stable`.
 *
 * Git runs with a fixed argv through posix_spawn, an environment of PATH
 * and HOME only plus GIT_CONFIG_NOSYSTEM=1 (no system or global config,
 * no terminal prompts, only the file/https/git transports), hooks off, a
 * timeout, and a cap on the output kept. Nothing from a request reaches
 * git unless it passed git_url_check() (common/git_names.h) /
 * gitmirror_check_ref().
 */
#ifndef PERFLAB_GITMIRROR_H
#define PERFLAB_GITMIRROR_H

#include "common/git_names.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/lab/status.h"

/* A fetch is killed after this long (perflabd --git-fetch-timeout). */
#define GITMIRROR_FETCH_TIMEOUT_S 600
void gitmirror_set_fetch_timeout(int seconds);
/*
 * Kill every git running now or later (checked every 200 ms): the daemon
 * is stopping and a fetch from an upstream that never answers must not
 * keep it.
 */
void gitmirror_cancel_all(void);
/* gitmirror_cancel_all() was called: a git that failed was killed. */
bool gitmirror_cancelled(void);

/* Where mirrors live; set once at start (perflabd --git-dir, or beside
 * the database). NULL: git bases are unavailable. */
void gitmirror_set_dir(const char *dir);
const char *gitmirror_dir(void);

/*
 * 0 if @ref may be handed to git as a ref or commit name: 1-200 of
 * [A-Za-z0-9._/-], no leading '-' or '/', no "..", "//", "@{" or ".lock"
 * ending. Else -1.
 */
int gitmirror_check_ref(const char *ref);


/* The mirror directory of base @base_id into @out. 0 or -1 (no dir). */
int gitmirror_path(int64_t base_id, char *out, size_t len);

/*
 * Create (git init --bare) the mirror @path if missing and fetch every
 * branch and tag of @url into it, killed after the fetch timeout. 0, or
 * -1: LAB_INVALID (a URL refused by git_url_check), LAB_UPSTREAM with
 * git's message. Callers never fetch one mirror twice at once (fetcher.h
 * serialises them per base).
 */
int gitmirror_fetch(const char *path, const char *url, struct lab_err *e);

/*
 * Resolve @name (a ref such as "master" or "refs/tags/v6.1", or a commit
 * or unambiguous prefix of at least 4 hex digits) to a commit's 40 hex
 * in @sha. 0, or -1: LAB_REJECTED (unknown or ambiguous), LAB_UPSTREAM
 * (git failed).
 */
int gitmirror_resolve(const char *path, const char *name, char sha[41],
		      struct lab_err *e);

/* The first parent of commit @sha into @parent. 0 or -1 (a root). */
int gitmirror_parent(const char *path, const char *sha, char parent[41]);

/*
 * The first-parent history from @good (exclusive) to @bad (inclusive),
 * oldest first, as a malloc'd array of 41-byte strings in *@out with
 * *@n entries. @good must be a first-parent ancestor of @bad. 0, or -1:
 * LAB_REJECTED when it is not, LAB_UPSTREAM (git failed).
 */
int gitmirror_first_parent(const char *path, const char *good,
			   const char *bad, char (**out)[41], size_t *n,
			   struct lab_err *e);

/* 1 when commit @a is an ancestor of (or equal to) @b, 0 when not, -1
 * (git failed). */
int gitmirror_is_ancestor(const char *path, const char *a, const char *b);

struct gitmirror_commit {
	char subject[256];
	char author[128];
	char email[128];
	int64_t time;		/* committer time */
};

/* Subject, author and e-mail of @sha. 0 or -1. */
int gitmirror_commit_info(const char *path, const char *sha,
			  struct gitmirror_commit *c);

/* `git patch-id --stable` of the commit's diff against its first parent
 * into @id (40 hex; "" for a commit without a diff). 0 or -1. */
int gitmirror_patch_id(const char *path, const char *sha, char id[41]);

/*
 * Run git with @argv (argv[0] is "git"; no shell), @in fed to stdin (may
 * be NULL), stdout into a malloc'd NUL-terminated *@out (at most @cap
 * bytes kept; @out may be NULL), the start of stderr into @err. Kills git
 * after @timeout_s. Returns git's exit status, or -1 (spawn failure,
 * timeout, output beyond @cap).
 */
int gitmirror_run(const char *const *argv, const char *in, size_t inlen,
		  char **out, size_t cap, int timeout_s, char *err,
		  size_t errlen);

/*
 * The same for another tool of the lab's (lei, b4): argv[0] found on
 * PATH, an environment of PATH and @env (at most 14 "NAME=value"
 * entries, NULL-terminated) only, @in on stdin (NULL: /dev/null),
 * cancelled with git; the length of *@out in *@outlen (may be NULL).
 */
int gitmirror_run_env(const char *const *argv, const char *const *env,
		      const char *in, size_t inlen, char **out, size_t *outlen,
		      size_t cap, int timeout_s, char *err, size_t errlen);
#endif
