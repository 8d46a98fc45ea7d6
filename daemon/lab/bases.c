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
#include "daemon/store/json.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

static void copy_text(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

/* The row @st steps to into @b: 0, or -1 (no such base: LAB_NOT_FOUND). */
static int load(sqlite3 *db, sqlite3_stmt *st, struct base_ref *b,
		struct lab_err *e)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? lab_fail(e, LAB_NOT_FOUND, "no such"
						    " base") : lab_fail_db(e, db);
	b->id = sqlite3_column_int64(st, 0);
	copy_text(b->name, sizeof(b->name), st, 1);
	b->git = !strcmp((const char *)sqlite3_column_text(st, 2), "git");
	copy_text(b->url, sizeof(b->url), st, 3);
	copy_text(b->ref, sizeof(b->ref), st, 4);
	b->commit[0] = '\0';
	b->mirror[0] = '\0';
	if (b->git && gitmirror_path(b->id, b->mirror, sizeof(b->mirror)))
		return lab_fail(e, LAB_UNAVAILABLE, "git bases need perflabd"
				" --git-dir");
	return 0;
}

#define BASE_COLS "SELECT id, name, kind, coalesce(url, ''), ref FROM bases"

int bases_by_id(sqlite3 *db, int64_t id, struct base_ref *b, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, BASE_COLS " WHERE id = ?");
	int rc;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_int64(st, 1, id);
	rc = load(db, st, b, e);
	sqlite3_finalize(st);
	return rc;
}

/* fetcher_get for @b: 0, or -1 LAB_UPSTREAM (git failed), LAB_PENDING
 * (still fetching after --git-wait; it goes on). */
static int fetch(const struct base_ref *b, enum fetch_need need,
		 struct lab_err *e)
{
	char why[300];
	int rc = fetcher_get(b->id, b->mirror, b->url, need, -1, NULL, NULL,
			     why, sizeof(why), NULL);

	if (rc == FETCH_PENDING)
		return lab_fail(e, LAB_PENDING, "base '%s': %s; retry later, or"
				" name a commit the mirror has (%s@COMMIT)",
				b->name, why, b->name);
	if (rc)
		return lab_fail(e, LAB_UPSTREAM, "base '%s': git fetch failed:"
				" %s", b->name, why);
	return 0;
}

int bases_fetch(const struct base_ref *b, struct lab_err *e)
{
	return fetch(b, FETCH_FRESH, e);
}

/* 4 to 40 hex digits: a commit (or a prefix), looked up in the mirror
 * first; anything else is a ref, whose head may have moved upstream. */
static bool commit_like(const char *name)
{
	size_t n = strspn(name, "0123456789abcdefABCDEF");

	return n >= 4 && n <= 40 && !name[n];
}

int bases_commit(const struct base_ref *b, const char *name, char sha[41],
		 struct lab_err *e)
{
	bool commit = commit_like(name);
	struct lab_err local;

	if (!e)
		e = &local;
	if (gitmirror_check_ref(name))
		return lab_fail(e, LAB_REJECTED, "'%.64s' is not a usable ref or"
				" commit name", name);
	if (commit) {
		if (!gitmirror_resolve(b->mirror, name, sha, e))
			return 0;
		if (e->st != LAB_REJECTED)
			return -1;	/* git failed */
	}
	/* A ref: its head now. A commit the mirror lacks: perhaps pushed
	 * since; the next fetch (rate-limited, fetcher.h) brings it. */
	if (fetch(b, commit ? FETCH_NEWER : FETCH_FRESH, e))
		return -1;
	return gitmirror_resolve(b->mirror, name, sha, e);
}

int bases_find(sqlite3 *db, const char *spec, struct base_ref *b,
	       struct lab_err *e)
{
	const char *at = strchr(spec, '@');
	struct lab_err local;
	char name[65];
	sqlite3_stmt *st;
	int rc;

	if (!e)
		e = &local;
	if ((at ? (size_t)(at - spec) : strlen(spec)) >= sizeof(name))
		return lab_fail(e, LAB_REJECTED, "unknown base '%.64s'", spec);
	snprintf(name, sizeof(name), "%.*s", at ? (int)(at - spec) : 64, spec);
	st = db_prepare(db, BASE_COLS " WHERE name = ?");
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = load(db, st, b, e);
	sqlite3_finalize(st);
	if (rc && e->st == LAB_NOT_FOUND)
		return lab_fail(e, LAB_REJECTED, "unknown base '%s' (see GET"
				" /api/v1/bases)", name);
	if (rc)
		return -1;
	if (!b->git && at)
		return lab_fail(e, LAB_REJECTED, "base '%s' is not a git base:"
				" it has no commits to pin", name);
	return 0;
}

int bases_lookup(sqlite3 *db, const char *spec, struct base_ref *b,
		 struct lab_err *e)
{
	const char *at = strchr(spec, '@');

	if (bases_find(db, spec, b, e))
		return -1;
	if (!b->git)
		return 0;
	/* NAME@COMMIT, or the ref's head at submission. */
	return bases_commit(b, at ? at + 1 : b->ref, b->commit, e);
}

void bases_redact_json(json_t *o)
{
	static const char *const keys[] = { "url", "tree" };
	char out[GIT_URL_MAX + 16];

	for (size_t i = 0; i < 2; i++) {
		const char *u = json_string_value(json_object_get(o, keys[i]));

		if (u && git_url_has_secret(u)) {
			git_url_redact(u, out, sizeof(out));
			json_object_set_new(o, keys[i], json_string(out));
		}
	}
}

json_t *bases_list_json(sqlite3 *db)
{
	json_t *a = json_query(db, "SELECT id, name, kind, tree, url, ref, config,"
			       " mail_authors, hook_secret IS NOT NULL AS"
			       " hook_signed, created_at FROM bases ORDER BY id");
	size_t i;
	json_t *o;

	json_array_foreach(a, i, o) {
		bases_redact_json(o);
		json_object_set_new(o, "mail_authors", json_boolean(
			json_integer_value(json_object_get(o, "mail_authors"))));
		json_object_set_new(o, "hook_signed", json_boolean(
			json_integer_value(json_object_get(o, "hook_signed"))));
	}
	return a;
}

int bases_set_options(sqlite3 *db, const char *name,
		      const struct base_opts *o, struct lab_err *e)
{
	sqlite3 *w;
	sqlite3_stmt *st;
	int rc = -1;

	if (o->hook_secret && o->hook_secret[0] &&
	    (strlen(o->hook_secret) < 16 || strlen(o->hook_secret) > 256))
		return lab_fail(e, LAB_INVALID, "'hook_secret' must be 16-256"
				" bytes (\"\" removes it)");
	w = db_write_lock(db);
	st = db_prepare(w, "UPDATE bases SET mail_authors = CASE WHEN ?2 < 0"
			" THEN mail_authors ELSE ?2 END, hook_secret = CASE"
			" WHEN ?3 THEN NULLIF(?4, '') ELSE hook_secret END"
			" WHERE name = ?1 RETURNING id");
	if (!st) {
		lab_fail_db(e, w);
		goto out;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, o->mail_authors);
	sqlite3_bind_int(st, 3, o->hook_secret != NULL);
	sqlite3_bind_text(st, 4, o->hook_secret ? o->hook_secret : "", -1,
			  SQLITE_STATIC);
	switch (sqlite3_step(st)) {
	case SQLITE_ROW:
		rc = 0;
		break;
	case SQLITE_DONE:
		lab_fail(e, LAB_NOT_FOUND, "no such base");
		break;
	default:
		lab_fail_db(e, w);
	}
	sqlite3_finalize(st);
out:
	db_write_unlock(db, w);
	return rc;
}

int64_t bases_create_tree(sqlite3 *db, const char *name, const char *tree,
			  const char *ref, const char *config, struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st = db_prepare(w, "INSERT INTO bases (name, tree, ref,"
				      " config, created_at) VALUES (?,?,?,?,?)");
	int64_t id = -1;

	if (!st) {
		lab_fail_db(e, w);
		goto out;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, tree, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ref, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, config, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(w);
	else if (sqlite3_extended_errcode(w) == SQLITE_CONSTRAINT_UNIQUE)
		lab_fail(e, LAB_CONFLICT, "a base named '%s' exists", name);
	else
		lab_fail_db(e, w);
	sqlite3_finalize(st);
out:
	db_write_unlock(db, w);
	return id;
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
		       const char *ref, const char *config, int64_t *id,
		       struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO bases (name, tree, ref,"
				      " config, kind, url, created_at)"
				      " VALUES (?,?,?,?,'git',?,?)");
	int rc;

	if (!st)
		return lab_fail_db(e, db);
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
	if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE)
		return lab_fail(e, LAB_CONFLICT, "a base named '%s' exists", name);
	return lab_fail_db(e, db);
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

json_t *bases_create_git(sqlite3 *db, const char *name, const char *url,
			 const char *ref, const char *config, struct lab_err *e)
{
	static unsigned counter;
	char tmp[4200], final[4200], head[41], why[128];
	time_t started = time(NULL);
	int64_t id = 0;
	int rc;

	if (git_url_check(url, why, sizeof(why)))
		return lab_fail(e, LAB_INVALID, "git url: %s", why), NULL;
	/* every reader sees a base's URL (and the runners clone it) */
	if (git_url_has_secret(url))
		return lab_fail(e, LAB_INVALID, "git url: credentials (user@ or"
				" a query) are not allowed in a base URL, which"
				" every reader sees; give the daemon's and the"
				" runners' git a credential helper instead"), NULL;
	if (gitmirror_check_ref(ref))
		return lab_fail(e, LAB_INVALID, "'ref' is not a usable git ref"
				" name"), NULL;
	if (!gitmirror_dir())
		return lab_fail(e, LAB_UNAVAILABLE, "git bases need perflabd"
				" --git-dir"), NULL;
	if (name_taken(db, name))
		return lab_fail(e, LAB_CONFLICT, "a base named '%s' exists",
				name), NULL;
	snprintf(tmp, sizeof(tmp), "%s/new-%d-%u.git", gitmirror_dir(),
		 (int)getpid(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
	/* A new mirror of its own: shares no lock and no fetch slot. */
	rc = gitmirror_fetch(tmp, url, e);
	if (!rc)
		rc = gitmirror_resolve(tmp, ref, head, e);
	/* The upstream cannot be fetched or has no such ref: the request's. */
	if (rc && e)
		e->st = LAB_REJECTED;
	if (!rc) {
		/* The clone is done: only the row under the write lock. */
		sqlite3 *w = db_write_lock(db);

		rc = insert_base(w, name, url, ref, config, &id, e);
		if (!rc && (gitmirror_path(id, final, sizeof(final)) ||
			    (rm_tree(final), rename(tmp, final)))) {
			db_int(w, 0, "DELETE FROM bases WHERE id = ?", 1, id);
			rc = lab_fail(e, LAB_INTERNAL, "cannot move the new mirror"
				      " into place");
		}
		db_write_unlock(db, w);
	}
	if (rc) {
		rm_tree(tmp);
		return NULL;
	}
	fetcher_cloned(id, started);
	return json_pack("{s:I,s:s,s:s,s:s,s:s,s:s,s:s}", "id", (json_int_t)id,
			 "name", name, "kind", "git", "url", url, "ref", ref,
			 "config", config, "head", head);
}
