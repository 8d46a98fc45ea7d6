// SPDX-License-Identifier: MIT
/*
 * Patch storage; see patches.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/analysis/patch_parse.h"
#include "daemon/lab/patches.h"
#include "daemon/store/db.h"
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
		    char *err, size_t errlen)
{
	int i, j;

	memset(s, 0, sizeof(*s));
	if (patch_parse(text, len, s, err, errlen))
		return -1;
	if (s->n > cap) {
		snprintf(err, errlen, "too many patches (%d, at most %d)", s->n, cap);
		goto fail;
	}
	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->patches[i].nfiles; j++) {
			const struct patch_file *f = &s->patches[i].files[j];

			if (f->binary) {
				snprintf(err, errlen, "binary patches are not accepted (%s)",
					 f->new_path ? f->new_path : "?");
				goto fail;
			}
			if (!path_ok(f->old_path) || !path_ok(f->new_path)) {
				snprintf(err, errlen, "patch touches a path outside the tree: %s",
					 path_ok(f->old_path) ? f->new_path : f->old_path);
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
		  int64_t *ids, char *err, size_t errlen)
{
	for (int i = 0; i < s->n; i++) {
		ids[i] = store_patch(db, &s->patches[i], key_id);
		if (ids[i] < 0) {
			snprintf(err, errlen, "cannot store patch: %s", sqlite3_errmsg(db));
			return -1;
		}
	}
	return s->n;
}

int patches_store_text(sqlite3 *db, const char *text, size_t len,
		       int64_t key_id, int64_t *ids, int cap,
		       char *first_subject, size_t subjlen,
		       char *err, size_t errlen)
{
	struct patch_series s;
	int n;

	if (patches_prepare(text, len, cap, &s, first_subject, subjlen, err,
			    errlen))
		return -1;
	n = patches_store(db, &s, key_id, ids, err, errlen);
	patch_series_free(&s);
	return n;
}
