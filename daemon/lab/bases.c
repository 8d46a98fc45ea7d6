// SPDX-License-Identifier: MIT
/*
 * Bases: lookup, git commit resolution, creation; see bases.h.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/git_names.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/store/db.h"
#include "daemon/store/writer.h"

static void copy_text(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static int load(sqlite3 *db, sqlite3_stmt *st, struct base_ref *b)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 404 : 500;
	b->id = sqlite3_column_int64(st, 0);
	copy_text(b->name, sizeof(b->name), st, 1);
	b->git = !strcmp((const char *)sqlite3_column_text(st, 2), "git");
	copy_text(b->url, sizeof(b->url), st, 3);
	copy_text(b->ref, sizeof(b->ref), st, 4);
	b->commit[0] = '\0';
	b->mirror[0] = '\0';
	(void)db;
	if (b->git && gitmirror_path(b->id, b->mirror, sizeof(b->mirror)))
		return 503;
	return 0;
}

#define BASE_COLS "SELECT id, name, kind, coalesce(url, ''), ref FROM bases"

int bases_by_id(sqlite3 *db, int64_t id, struct base_ref *b)
{
	sqlite3_stmt *st = db_prepare(db, BASE_COLS " WHERE id = ?");
	int rc;

	if (!st)
		return 500;
	sqlite3_bind_int64(st, 1, id);
	rc = load(db, st, b);
	sqlite3_finalize(st);
	return rc;
}

/* fetcher_get for @b: 0, 502 (git failed) or 503 (still fetching). */
static int fetch(struct base_ref *b, enum fetch_need need, char *err,
		 size_t len)
{
	char why[300];
	int rc = fetcher_get(b->id, b->mirror, b->url, need, -1, NULL, NULL,
			     why, sizeof(why), NULL);

	if (rc == FETCH_PENDING)
		return snprintf(err, len, "base '%s': %s; retry later, or name"
				" a commit the mirror has (%s@COMMIT)", b->name,
				why, b->name), 503;
	if (rc)
		return snprintf(err, len, "base '%s': git fetch failed: %s",
				b->name, why), 502;
	return 0;
}

int bases_fetch(struct base_ref *b, char *err, size_t len)
{
	return fetch(b, FETCH_FRESH, err, len);
}

/* 4 to 40 hex digits: a commit (or a prefix), looked up in the mirror
 * first; anything else is a ref, whose head may have moved upstream. */
static bool commit_like(const char *name)
{
	size_t n = strspn(name, "0123456789abcdefABCDEF");

	return n >= 4 && n <= 40 && !name[n];
}

int bases_commit(struct base_ref *b, const char *name, char sha[41],
		 char *err, size_t len)
{
	bool commit = commit_like(name);
	int rc;

	if (gitmirror_check_ref(name)) {
		snprintf(err, len, "'%.64s' is not a usable ref or commit name", name);
		return 422;
	}
	if (commit) {
		rc = gitmirror_resolve(b->mirror, name, sha, err, len);
		if (rc != -1)
			return rc == 0 ? 0 : 502;
	}
	/* A ref: its head now. A commit the mirror lacks: perhaps pushed
	 * since; the next fetch (rate-limited, fetcher.h) brings it. */
	rc = fetch(b, commit ? FETCH_NEWER : FETCH_FRESH, err, len);
	if (rc)
		return rc;
	rc = gitmirror_resolve(b->mirror, name, sha, err, len);
	return rc == 0 ? 0 : rc == -1 ? 422 : 502;
}

int bases_find(sqlite3 *db, const char *spec, struct base_ref *b, char *err,
	       size_t len)
{
	const char *at = strchr(spec, '@');
	char name[65];
	sqlite3_stmt *st;
	int rc;

	if ((at ? (size_t)(at - spec) : strlen(spec)) >= sizeof(name))
		return snprintf(err, len, "unknown base '%.64s'", spec), 422;
	snprintf(name, sizeof(name), "%.*s", at ? (int)(at - spec) : 64, spec);
	st = db_prepare(db, BASE_COLS " WHERE name = ?");
	if (!st)
		return 500;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = load(db, st, b);
	sqlite3_finalize(st);
	if (rc == 404)
		return snprintf(err, len, "unknown base '%s' (see GET /api/v1/bases)",
				name), 422;
	if (rc == 503)
		return snprintf(err, len, "git bases need perflabd --git-dir"), 503;
	if (rc)
		return rc;
	if (!b->git && at)
		return snprintf(err, len, "base '%s' is not a git base:"
				" it has no commits to pin", name), 422;
	return 0;
}

int bases_lookup(sqlite3 *db, const char *spec, struct base_ref *b,
		 char *err, size_t len)
{
	const char *at = strchr(spec, '@');
	int rc = bases_find(db, spec, b, err, len);

	if (rc || !b->git)
		return rc;
	/* NAME@COMMIT, or the ref's head at submission. */
	return bases_commit(b, at ? at + 1 : b->ref, b->commit, err, len);
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int insert_base(sqlite3 *db, const char *name, const char *url,
		       const char *ref, const char *config, int64_t *id)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO bases (name, tree, ref,"
				      " config, kind, url, created_at)"
				      " VALUES (?,?,?,?,'git',?,?)");
	int rc;

	if (!st)
		return 500;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ref, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, config, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, url, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (int64_t)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(db);
	if (rc == SQLITE_DONE)
		return 0;
	return sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE ? 409 : 500;
}

static int name_taken(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM bases WHERE name = ?");
	int taken;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	taken = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return taken;
}

int bases_create_git(sqlite3 *db, const char *name, const char *url,
		     const char *ref, const char *config, json_t **out,
		     char *err, size_t len)
{
	static unsigned counter;
	char tmp[4200], final[4200], head[41], why[128];
	time_t started = time(NULL);
	int64_t id = 0;
	int rc;

	*out = NULL;
	if (git_url_check(url, why, sizeof(why)))
		return snprintf(err, len, "git url: %s", why), 400;
	if (gitmirror_check_ref(ref))
		return snprintf(err, len, "'ref' is not a usable git ref name"), 400;
	if (!gitmirror_dir())
		return snprintf(err, len, "git bases need perflabd --git-dir"), 503;
	if (name_taken(db, name))
		return snprintf(err, len, "a base named '%s' exists", name), 409;
	snprintf(tmp, sizeof(tmp), "%s/new-%d-%u.git", gitmirror_dir(),
		 (int)getpid(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
	/* A new mirror of its own: shares no lock and no fetch slot. */
	rc = gitmirror_fetch(tmp, url, err, len) ? 422 : 0;
	if (!rc && gitmirror_resolve(tmp, ref, head, err, len))
		rc = 422;
	if (!rc) {
		/* The clone is done: only the row under the write lock. */
		sqlite3 *w = db_write_lock(db);

		rc = insert_base(w, name, url, ref, config, &id);
		if (!rc && (gitmirror_path(id, final, sizeof(final)) ||
			    (rm_tree(final), rename(tmp, final)))) {
			db_int(w, 0, "DELETE FROM bases WHERE id = ?", 1, id);
			rc = 500;
		}
		db_write_unlock(db, w);
	}
	if (rc == 409)
		snprintf(err, len, "a base named '%s' exists", name);
	if (rc) {
		rm_tree(tmp);
		return rc;
	}
	fetcher_cloned(id, started);
	*out = json_pack("{s:I,s:s,s:s,s:s,s:s,s:s,s:s}", "id", (json_int_t)id,
			 "name", name, "kind", "git", "url", url, "ref", ref,
			 "config", config, "head", head);
	return 201;
}
