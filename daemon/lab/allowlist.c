// SPDX-License-Identifier: MIT
/*
 * The admins' allowlists and setup scripts; see allowlist.h. Changes
 * take the write lock (the writer itself when handed it).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/allowlist.h"
#include "daemon/lab/toggle.h"
#include "daemon/lab/trust.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"
#include "rtsetting.h"

/* cmdline_allowlist (schema 0003) and setting_allowlist (schema 0006). */
static const struct list {
	const char *list_sql, *insert_sql, *delete_sql;
	size_t max;
	int (*check)(const char *pattern, struct lab_err *e);
} lists[] = {
	[ALLOWLIST_CMDLINE] = {
		"SELECT a.id, a.pattern, a.note, k.name AS created_by, a.created_at"
		" FROM cmdline_allowlist a LEFT JOIN api_keys k ON k.id = a.created_by"
		" ORDER BY a.id",
		"INSERT INTO cmdline_allowlist (pattern, note, created_by, created_at)"
		" VALUES (?,?,?,?)",
		"DELETE FROM cmdline_allowlist WHERE id = ? RETURNING 0",
		128, trust_pattern_check,
	},
	[ALLOWLIST_SETTINGS] = {
		"SELECT a.id, a.pattern, a.note, k.name AS created_by, a.created_at"
		" FROM setting_allowlist a LEFT JOIN api_keys k ON k.id = a.created_by"
		" ORDER BY a.id",
		"INSERT INTO setting_allowlist (pattern, note, created_by, created_at)"
		" VALUES (?,?,?,?)",
		"DELETE FROM setting_allowlist WHERE id = ? RETURNING 0",
		RTSETTING_PATH_MAX, toggle_pattern_check,
	},
};

static json_t *rows(sqlite3 *db, const char *sql, const char *arg)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *a;

	if (!st)
		return NULL;
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
	a = json_rows(st);
	sqlite3_finalize(st);
	return a;
}

size_t allowlist_max_pattern(enum allowlist_kind kind)
{
	return lists[kind].max;
}

json_t *allowlist_json(sqlite3 *db, enum allowlist_kind kind)
{
	return rows(db, lists[kind].list_sql, NULL);
}

static int64_t add(sqlite3 *db, enum allowlist_kind kind, const char *pattern,
		   const char *note, int64_t key_id, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, lists[kind].insert_sql);
	int64_t id = -1;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, pattern, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, note ? note : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, key_id);
	sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	else if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE)
		lab_fail(e, LAB_CONFLICT, "pattern '%s' is already allowed", pattern);
	else
		lab_fail_db(e, db);
	sqlite3_finalize(st);
	return id;
}

int64_t allowlist_add(sqlite3 *db, enum allowlist_kind kind,
		      const char *pattern, const char *note, int64_t key_id,
		      struct lab_err *e)
{
	sqlite3 *w;
	int64_t id;

	if (lists[kind].check(pattern, e))
		return -1;
	w = db_write_lock(db);
	id = add(w, kind, pattern, note, key_id, e);
	db_write_unlock(db, w);
	return id;
}

int allowlist_delete(sqlite3 *db, enum allowlist_kind kind, int64_t id,
		     struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	int64_t rc = db_int(w, -1, lists[kind].delete_sql, 1, id);

	db_write_unlock(db, w);
	if (rc != 0)
		return lab_fail(e, LAB_NOT_FOUND, "no allowlist pattern with that id");
	return 0;
}

/* ---- setup scripts --------------------------------------------------- */

json_t *allowlist_scripts_json(sqlite3 *db)
{
	return rows(db, "SELECT s.name, s.description, length(s.script) AS bytes,"
		    " k.name AS updated_by, s.updated_at FROM setup_scripts s"
		    " LEFT JOIN api_keys k ON k.id = s.created_by ORDER BY s.name",
		    NULL);
}

json_t *allowlist_script_json(sqlite3 *db, const char *name, struct lab_err *e)
{
	json_t *a = rows(db, "SELECT s.name, s.description, s.script,"
			 " k.name AS updated_by, s.updated_at FROM setup_scripts s"
			 " LEFT JOIN api_keys k ON k.id = s.created_by WHERE"
			 " s.name = ?", name);
	json_t *o = json_incref(json_array_get(a, 0));

	if (!a)
		lab_fail_db(e, db);
	else if (!o)
		lab_fail(e, LAB_NOT_FOUND, "no setup script named '%.64s'", name);
	json_decref(a);
	return o;
}

static int script_put(sqlite3 *db, const char *name, const char *script,
		      const char *desc, int64_t key_id, bool *created,
		      struct lab_err *e)
{
	sqlite3_stmt *st;
	int ret = -1;

	st = db_prepare(db, "SELECT 1 FROM setup_scripts WHERE name = ?");
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	*created = sqlite3_step(st) != SQLITE_ROW;
	sqlite3_finalize(st);
	st = db_prepare(db, "INSERT INTO setup_scripts (name, script, description,"
			" created_by, updated_at) VALUES (?1,?2,?3,?4,?5)"
			" ON CONFLICT(name) DO UPDATE SET script = ?2,"
			" description = ?3, created_by = ?4, updated_at = ?5");
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, script, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, desc ? desc : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, key_id);
	sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		ret = 0;
	else
		lab_fail_db(e, db);
	sqlite3_finalize(st);
	return ret;
}

int allowlist_script_put(sqlite3 *db, const char *name, const char *script,
			 const char *desc, int64_t key_id, bool *created,
			 struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	int rc = script_put(w, name, script, desc, key_id, created, e);

	db_write_unlock(db, w);
	return rc;
}

static int script_delete(sqlite3 *db, const char *name, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "DELETE FROM setup_scripts WHERE"
				      " name = ?");
	int rc;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return lab_fail_db(e, db);
	if (sqlite3_changes(db) != 1)
		return lab_fail(e, LAB_NOT_FOUND, "no setup script named '%.64s'",
				name);
	return 0;
}

int allowlist_script_delete(sqlite3 *db, const char *name, struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	int rc = script_delete(w, name, e);

	db_write_unlock(db, w);
	return rc;
}
