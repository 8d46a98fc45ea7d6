/* SPDX-License-Identifier: MIT */
/*
 * Bases: the kernel trees variants build. A tarball base is a pristine
 * tree the runner has (Debian's linux-source); a git base is a repository
 * URL and a ref, mirrored by the daemon (gitmirror.h), and every variant
 * of it builds one exact commit.
 *
 * Requests name a base "NAME" (git: the ref's head, fetched at that
 * moment) or "NAME@COMMIT" (a commit or an unambiguous prefix of one).
 * Fetches go through fetcher.h: a request waits at most --git-wait for
 * one, then gets 503 while the fetch goes on; a base
 * fetched less than --git-fetch-interval ago is not fetched again for a
 * ref's head. A 503's Retry-After: fetcher_retry_after().
 */
#ifndef PERFLAB_BASES_H
#define PERFLAB_BASES_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <sqlite3.h>

struct base_ref {
	int64_t id;
	int git;		/* 1: git base */
	char name[65];
	char url[1025];
	char ref[257];
	char commit[41];	/* git: the resolved commit; "" for tarballs */
	char mirror[4200];	/* git: the daemon's bare mirror */
};

/*
 * Look up "NAME" or "NAME@COMMIT" into @b. Returns 0, or an HTTP status
 * with a message in @err: 422 (unknown base, commit or ref; "@" on a
 * tarball base), 502 (git failed), 503 (the fetch is still running, or
 * no --git-dir), 500.
 */
int bases_lookup(sqlite3 *db, const char *spec, struct base_ref *b,
		 char *err, size_t len);
/* The base of "NAME" or "NAME@..." without resolving anything (no git):
 * 0, 422, 503, 500 as bases_lookup. */
int bases_find(sqlite3 *db, const char *spec, struct base_ref *b, char *err,
	       size_t len);

/* The base with id @id (its ref not resolved). 0, 404, 500. */
int bases_by_id(sqlite3 *db, int64_t id, struct base_ref *b);

/*
 * Resolve @name in git base @b into @sha: a commit or a prefix (4-40 hex)
 * from the mirror, fetched (FETCH_NEWER) only when the mirror lacks it;
 * a ref after making the mirror fresh (FETCH_FRESH). 0, 422, 502 or 503
 * (message in @err).
 */
int bases_commit(struct base_ref *b, const char *name, char sha[41],
		 char *err, size_t len);

/* Make @b's mirror fresh (FETCH_FRESH). 0, 502 or 503 (message in @err). */
int bases_fetch(struct base_ref *b, char *err, size_t len);

/*
 * Create git base @name from @url and @ref: validate, fetch a new mirror,
 * resolve the head. 201 with the base JSON in *@out, else 400 (bad url or
 * ref), 409 (name taken), 422 (fetch failed or no such ref), 503 (no git
 * directory), 500; message in @err.
 */
int bases_create_git(sqlite3 *db, const char *name, const char *url,
		     const char *ref, const char *config, json_t **out,
		     char *err, size_t len);

#endif
