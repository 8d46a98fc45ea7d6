// SPDX-License-Identifier: MIT
/*
 * Patch storage; see patches.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/analysis/patch_parse.h"
#include "daemon/lab/patches.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"

/* Paths must stay inside the tree. */
static int path_ok(const char *p)
{
	if (!p || !strcmp(p, "/dev/null"))
		return 1;
	if (p[0] == '/' || !strncmp(p, "../", 3) || strstr(p, "/../") ||
	    !strcmp(p, "..") || (strlen(p) >= 3 && !strcmp(p + strlen(p) - 3, "/..")))
		return 0;
	return 1;
}

static int64_t store_patch(sqlite3 *db, const struct patch *p, int64_t key_id)
{
	sqlite3_stmt *st;
	int64_t id;
	int i, rc;

	id = 0;
	st = db_prepare(db, "SELECT id FROM patches WHERE sha256 = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, p->sha256, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id)
		return id;
	st = db_prepare(db, "INSERT INTO patches (sha256, subject, author, message_id,"
			" date, raw, submitter_key_id, created_at) VALUES (?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, p->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, p->subject ? p->subject : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, p->author ? p->author : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, p->message_id ? p->message_id : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, p->date ? p->date : "", -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, p->raw, (int)p->raw_len, SQLITE_STATIC);
	if (key_id > 0)
		sqlite3_bind_int64(st, 7, key_id);
	sqlite3_bind_int64(st, 8, (int64_t)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	id = sqlite3_last_insert_rowid(db);
	st = db_prepare(db, "INSERT INTO patch_files (patch_id, idx, old_path, new_path,"
			" hunks, added, removed, binary) VALUES (?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	for (i = 0; i < p->nfiles; i++) {
		const struct patch_file *f = &p->files[i];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_text(st, 3, f->old_path, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, f->new_path, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 5, f->hunks);
		sqlite3_bind_int(st, 6, f->added);
		sqlite3_bind_int(st, 7, f->removed);
		sqlite3_bind_int(st, 8, f->binary);
		if (sqlite3_step(st) != SQLITE_DONE) {
			id = -1;
			break;
		}
	}
	sqlite3_finalize(st);
	return id;
}

int patches_prepare(const char *text, size_t len, int cap,
		    struct patch_series *s, char *first_subject, size_t subjlen,
		    struct lab_err *e)
{
	char why[512];
	int i, j;

	memset(s, 0, sizeof(*s));
	if (patch_parse(text, len, s, why, sizeof(why)))
		return lab_fail(e, LAB_INVALID, "%s", why);
	if (s->n > cap) {
		lab_fail(e, LAB_INVALID, "too many patches (%d, at most %d)", s->n,
			 cap);
		goto fail;
	}
	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->patches[i].nfiles; j++) {
			const struct patch_file *f = &s->patches[i].files[j];

			if (f->binary) {
				lab_fail(e, LAB_INVALID, "binary patches are not"
					 " accepted (%s)", f->new_path ?
					 f->new_path : "?");
				goto fail;
			}
			if (!path_ok(f->old_path) || !path_ok(f->new_path)) {
				lab_fail(e, LAB_INVALID, "patch touches a path"
					 " outside the tree: %s",
					 path_ok(f->old_path) ? f->new_path :
					 f->old_path);
				goto fail;
			}
		}
	}
	if (first_subject && subjlen)
		snprintf(first_subject, subjlen, "%s", s->n ? s->patches[0].subject : "");
	return 0;
fail:
	patch_series_free(s);
	return -1;
}

int patches_store(sqlite3 *db, const struct patch_series *s, int64_t key_id,
		  int64_t *ids, struct lab_err *e)
{
	for (int i = 0; i < s->n; i++) {
		ids[i] = store_patch(db, &s->patches[i], key_id);
		if (ids[i] < 0) {
			lab_fail_db(e, db);
			return lab_prefix(e, "cannot store patch");
		}
	}
	return s->n;
}

int patches_store_text(sqlite3 *db, const char *text, size_t len,
		       int64_t key_id, int64_t *ids, int cap,
		       char *first_subject, size_t subjlen, struct lab_err *e)
{
	struct patch_series s;
	int n;

	if (patches_prepare(text, len, cap, &s, first_subject, subjlen, e))
		return -1;
	n = patches_store(db, &s, key_id, ids, e);
	patch_series_free(&s);
	return n;
}

int patches_exists(sqlite3 *db, int64_t id)
{
	return db_int(db, 0, "SELECT count(*) FROM patches WHERE id = ?", 1,
		      id) == 1;
}

char *patches_raw(sqlite3 *db, int64_t id, size_t *len, struct lab_err *e)
{
	char *raw;
	int rc = db_text(db, "SELECT raw FROM patches WHERE id = ?", id, &raw, len);

	if (rc < 0)
		lab_fail_db(e, db);
	else if (!rc)
		lab_fail(e, LAB_NOT_FOUND, "no such patch");
	return raw;
}

static json_t *files_json(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT old_path, new_path, hunks, added,"
				      " removed FROM patch_files WHERE patch_id = ?"
				      " ORDER BY idx");
	json_t *files = json_array();

	if (!st)
		return files;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(files, json_pack("{s:o,s:o,s:i,s:i,s:i}",
			"old_path", json_col(st, 0), "new_path", json_col(st, 1),
			"hunks", sqlite3_column_int(st, 2),
			"added", sqlite3_column_int(st, 3),
			"removed", sqlite3_column_int(st, 4)));
	sqlite3_finalize(st);
	return files;
}

json_t *patches_json(sqlite3 *db, int64_t id, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT sha256, subject, author,"
				      " message_id, date, raw, created_at FROM"
				      " patches WHERE id = ?");
	json_t *o = NULL;

	if (!st)
		return lab_fail_db(e, db), NULL;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		o = json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:I}", "id",
			      (json_int_t)id, "sha256", json_col(st, 0),
			      "subject", json_col(st, 1), "author", json_col(st, 2),
			      "message_id", json_col(st, 3), "date", json_col(st, 4),
			      "raw", json_col(st, 5), "created_at",
			      (json_int_t)sqlite3_column_int64(st, 6));
	else
		lab_fail(e, LAB_NOT_FOUND, "no such patch");
	sqlite3_finalize(st);
	if (o)
		json_object_set_new(o, "files", files_json(db, id));
	return o;
}
