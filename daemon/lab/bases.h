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
 * one, then gets LAB_PENDING (HTTP 503 with Retry-After) while the fetch
 * goes on; a base fetched less than --git-fetch-interval ago is not
 * fetched again for a ref's head.
 */
#ifndef PERFLAB_BASES_H
#define PERFLAB_BASES_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

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
 * Look up "NAME" or "NAME@COMMIT" into @b. 0, or -1: LAB_REJECTED
 * (unknown base, commit or ref; "@" on a tarball base), LAB_UPSTREAM
 * (git failed), LAB_PENDING (the fetch still runs), LAB_UNAVAILABLE (no
 * git directory).
 */
int bases_lookup(store_conn *db, const char *spec, struct base_ref *b,
		 struct lab_err *e);
/* The base of "NAME" or "NAME@..." without resolving anything (no git):
 * 0, or -1 as bases_lookup. */
int bases_find(store_conn *db, const char *spec, struct base_ref *b,
	       struct lab_err *e);

/* The base with id @id (its ref not resolved). 0, or -1 (LAB_NOT_FOUND;
 * @e may be NULL). */
int bases_by_id(store_conn *db, int64_t id, struct base_ref *b,
		struct lab_err *e);

/*
 * Resolve @name in git base @b into @sha: a commit or a prefix (4-40 hex)
 * from the mirror, fetched (FETCH_NEWER) only when the mirror lacks it;
 * a ref after making the mirror fresh (FETCH_FRESH). 0, or -1:
 * LAB_REJECTED (no such commit), LAB_UPSTREAM, LAB_PENDING.
 */
int bases_commit(const struct base_ref *b, const char *name, char sha[41],
		 struct lab_err *e);

/* Make @b's mirror fresh (FETCH_FRESH). 0, or -1 LAB_UPSTREAM, LAB_PENDING. */
int bases_fetch(const struct base_ref *b, struct lab_err *e);

/* GET /api/v1/bases: every base, oldest first (URLs redacted,
 * mail_authors, hook_signed; never the secret), or NULL. */
json_t *bases_list_json(store_conn *db);

/* A base's "url" and "tree" in @o with credentials redacted (bases made
 * before URLs with credentials were refused). */
void bases_redact_json(json_t *o);

/* What an admin sets on a base (POST /api/v1/bases, PATCH .../{name}). */
struct base_opts {
	int mail_authors;	/* 1/0; -1 unchanged (culprit_mail.h) */
	const char *hook_secret; /* NULL unchanged, "" removed (githook.h) */
};

/* 0, or -1 LAB_INVALID, LAB_NOT_FOUND. Takes the write lock itself. */
int bases_set_options(store_conn *db, const char *name,
		      const struct base_opts *o, struct lab_err *e);

/* A tarball base (a tree the runners have). Its id, or -1: LAB_CONFLICT
 * (the name is taken). Takes the write lock itself. */
int64_t bases_create_tree(store_conn *db, const char *name, const char *tree,
			  const char *ref, const char *config,
			  struct lab_err *e);

/*
 * Create git base @name from @url and @ref: validate, fetch a new mirror,
 * resolve the head. The base JSON, or NULL: LAB_INVALID (bad url or ref),
 * LAB_CONFLICT (name taken), LAB_REJECTED (fetch failed or no such ref),
 * LAB_UNAVAILABLE (no git directory).
 */
json_t *bases_create_git(store_conn *db, const char *name, const char *url,
			 const char *ref, const char *config, struct lab_err *e);

#endif
