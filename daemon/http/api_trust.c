// SPDX-License-Identifier: MIT
/*
 * The admins' allowlists: /api/v1/allowlist/cmdline and
 * /api/v1/setup-scripts; see api_trust.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api.h"
#include "daemon/http/api_trust.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/toggle.h"

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

/* ---- allowlists: cmdline patterns, runtime settings ------------------- */

/*
 * The two pattern lists share one shape: cmdline_allowlist (schema 0003,
 * trust.h) and setting_allowlist (schema 0006, toggle.h), each with its
 * own pattern rules.
 */
struct allowlist {
	const char *list_sql, *insert_sql, *delete_sql;
	size_t max;
	int (*check)(const char *pattern, char *err, size_t errlen);
};

static const struct allowlist cmdline_list = {
	"SELECT a.id, a.pattern, a.note, k.name AS created_by, a.created_at"
	" FROM cmdline_allowlist a LEFT JOIN api_keys k ON k.id = a.created_by"
	" ORDER BY a.id",
	"INSERT INTO cmdline_allowlist (pattern, note, created_by, created_at)"
	" VALUES (?,?,?,?)",
	"DELETE FROM cmdline_allowlist WHERE id = ? RETURNING 0",
	128, trust_pattern_check,
};

static const struct allowlist setting_list = {
	"SELECT a.id, a.pattern, a.note, k.name AS created_by, a.created_at"
	" FROM setting_allowlist a LEFT JOIN api_keys k ON k.id = a.created_by"
	" ORDER BY a.id",
	"INSERT INTO setting_allowlist (pattern, note, created_by, created_at)"
	" VALUES (?,?,?,?)",
	"DELETE FROM setting_allowlist WHERE id = ? RETURNING 0",
	RTSETTING_PATH_MAX, toggle_pattern_check,
};

static int list_of(struct http_req *req, struct http_resp *resp,
		   const struct allowlist *al)
{
	json_t *a = rows(req->db, al->list_sql, NULL);

	return a ? http_json(resp, 200, json_pack("{s:o}", "patterns", a)) : -1;
}

static int post_to(struct http_req *req, struct http_resp *resp,
		   const struct allowlist *al)
{
	static const char *const keys[] = { "pattern", "note", NULL };
	json_t *body = http_json_body_keys(req, resp, keys);
	const char *pattern, *note;
	sqlite3_stmt *st;
	char err[256];
	int ret = 0, rc;

	if (!body)
		return 0;
	if (api_opt_string(body, "pattern", al->max, &pattern, resp) ||
	    api_opt_string(body, "note", 256, &note, resp))
		goto out;
	if (!pattern) {
		ret = http_error(resp, 400, "missing field 'pattern'");
		goto out;
	}
	if (al->check(pattern, err, sizeof(err))) {
		ret = http_error(resp, 422, "%s", err);
		goto out;
	}
	st = db_prepare(req->db, al->insert_sql);
	if (!st) {
		ret = -1;
		goto out;
	}
	sqlite3_bind_text(st, 1, pattern, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, note ? note : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, req->auth.key_id);
	sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		ret = sqlite3_extended_errcode(req->db) == SQLITE_CONSTRAINT_UNIQUE ?
			http_error(resp, 409, "pattern '%s' is already allowed",
				   pattern) : -1;
	else
		ret = http_json(resp, 201, json_pack("{s:I,s:s}", "id",
			(json_int_t)sqlite3_last_insert_rowid(req->db),
			"pattern", pattern));
out:
	json_decref(body);
	return ret;
}

static int delete_from(struct http_req *req, struct http_resp *resp,
		       const struct allowlist *al)
{
	int64_t id = http_param_id(req, "id");

	if (id < 0 || db_int(req->db, -1, al->delete_sql, 1, id) != 0)
		return http_error(resp, 404, "no allowlist pattern with that id");
	return http_json(resp, 200, json_pack("{s:I,s:b}", "id", (json_int_t)id,
					     "deleted", 1));
}

int api_allowlist_list(struct http_req *req, struct http_resp *resp)
{
	return list_of(req, resp, &cmdline_list);
}

int api_allowlist_post(struct http_req *req, struct http_resp *resp)
{
	return post_to(req, resp, &cmdline_list);
}

int api_allowlist_delete(struct http_req *req, struct http_resp *resp)
{
	return delete_from(req, resp, &cmdline_list);
}

int api_settings_allowlist_list(struct http_req *req, struct http_resp *resp)
{
	return list_of(req, resp, &setting_list);
}

int api_settings_allowlist_post(struct http_req *req, struct http_resp *resp)
{
	return post_to(req, resp, &setting_list);
}

int api_settings_allowlist_delete(struct http_req *req,
				  struct http_resp *resp)
{
	return delete_from(req, resp, &setting_list);
}

/* ---- setup scripts --------------------------------------------------- */

int api_scripts_list(struct http_req *req, struct http_resp *resp)
{
	json_t *a = rows(req->db, "SELECT s.name, s.description, length(s.script)"
			 " AS bytes, k.name AS updated_by, s.updated_at FROM"
			 " setup_scripts s LEFT JOIN api_keys k ON k.id ="
			 " s.created_by ORDER BY s.name", NULL);

	return a ? http_json(resp, 200, json_pack("{s:o}", "scripts", a)) : -1;
}

int api_script_get(struct http_req *req, struct http_resp *resp)
{
	json_t *a = rows(req->db, "SELECT s.name, s.description, s.script,"
			 " k.name AS updated_by, s.updated_at FROM setup_scripts s"
			 " LEFT JOIN api_keys k ON k.id = s.created_by WHERE"
			 " s.name = ?", http_param(req, "name"));
	json_t *o = json_incref(json_array_get(a, 0));

	json_decref(a);
	if (!o)
		return a ? http_error(resp, 404, "no setup script named '%.64s'",
				      http_param(req, "name")) : -1;
	return http_json(resp, 200, o);
}

/* Insert or replace; 201 if new, 200 if replaced, -1 on error. */
static int store_script(sqlite3 *db, const char *name, const char *script,
			const char *desc, int64_t key_id)
{
	json_t *old = rows(db, "SELECT 1 FROM setup_scripts WHERE name = ?", name);
	int existed = json_array_size(old) > 0, ret = -1;
	sqlite3_stmt *st;

	json_decref(old);
	st = db_prepare(db, "INSERT INTO setup_scripts (name, script, description,"
			" created_by, updated_at) VALUES (?1,?2,?3,?4,?5)"
			" ON CONFLICT(name) DO UPDATE SET script = ?2,"
			" description = ?3, created_by = ?4, updated_at = ?5");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, script, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, desc ? desc : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, key_id);
	sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		ret = existed ? 200 : 201;
	sqlite3_finalize(st);
	return ret;
}

int api_script_put(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "script", "description", NULL };
	json_t *body = http_json_body_keys(req, resp, keys);
	const char *name = http_param(req, "name"), *script, *desc;
	int ret = 0, rc;

	if (!body)
		return 0;
	if (api_opt_string(body, "script", 65536, &script, resp) ||
	    api_opt_string(body, "description", 256, &desc, resp))
		goto out;
	if (!lab_valid_name(name)) {
		ret = http_error(resp, 400, "a script name is 1-64 characters of"
				 " [A-Za-z0-9._+-]");
		goto out;
	}
	if (!script || !*script) {
		ret = http_error(resp, 400, "'script' (shell text, run with sh -ec"
				 " as root) is required");
		goto out;
	}
	rc = store_script(req->db, name, script, desc, req->auth.key_id);
	ret = rc < 0 ? -1 : http_json(resp, rc, json_pack("{s:s}", "name", name));
out:
	json_decref(body);
	return ret;
}

int api_script_delete(struct http_req *req, struct http_resp *resp)
{
	sqlite3_stmt *st = db_prepare(req->db, "DELETE FROM setup_scripts WHERE"
				      " name = ?");
	const char *name = http_param(req, "name");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (sqlite3_changes(req->db) != 1)
		return http_error(resp, 404, "no setup script named '%.64s'", name);
	return http_json(resp, 200, json_pack("{s:s,s:b}", "name", name,
					     "deleted", 1));
}
