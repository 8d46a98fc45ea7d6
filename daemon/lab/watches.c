// SPDX-License-Identifier: MIT
/*
 * The watch registry; see watches.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/analysis/mail_out.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/validate.h"
#include "daemon/lab/watches.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

/* A directory public-inbox made: v2 (inbox.lock, git/N.git) or v1. */
int watches_inbox_dir_ok(const char *dir)
{
	char p[WATCH_INBOX_MAX + 64];
	struct stat st;

	snprintf(p, sizeof(p), "%s/inbox.lock", dir);
	if (!stat(p, &st))
		return 1;
	snprintf(p, sizeof(p), "%s/public-inbox/msgmap.sqlite3", dir);
	return !stat(p, &st);
}

static int check_text(const char *s, size_t max, bool space)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return -1;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f || (!space && *s == ' '))
			return -1;
	return 0;
}

/* The inbox: an absolute directory of public-inbox's, or an https URL
 * lei reads remotely. Never an option to lei. */
static int check_inbox(const char *inbox, struct lab_err *e)
{
	if (!inbox || check_text(inbox, WATCH_INBOX_MAX, false))
		return lab_fail(e, LAB_INVALID, "'inbox' is required: a public-inbox"
				" directory (absolute path) or an https:// URL");
	if (!strncmp(inbox, "https://", 8))
		return strpbrk(inbox, "\"'`\\$;|&<>") ?
			lab_fail(e, LAB_INVALID, "bad characters in the inbox URL") : 0;
	if (inbox[0] != '/')
		return lab_fail(e, LAB_INVALID, "'inbox' must be an absolute path or"
				" an https:// URL");
	if (!watches_inbox_dir_ok(inbox))
		return lab_fail(e, LAB_REJECTED, "%s is not a public-inbox directory"
				" (no inbox.lock nor public-inbox/msgmap.sqlite3)", inbox);
	return 0;
}

/* Balanced parentheses: the poll ANDs its window to "(query)". */
static int check_query(const char *q, struct lab_err *e)
{
	int depth = 0;

	if (!q || check_text(q, WATCH_QUERY_MAX, true) || q[0] == '-')
		return lab_fail(e, LAB_INVALID, "'query' is required: a lei search"
				" (1-%d printable characters, not starting with '-')",
				WATCH_QUERY_MAX);
	for (; *q && depth >= 0; q++)
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
	return depth ? lab_fail(e, LAB_INVALID, "unbalanced parentheses in"
				" 'query'") : 0;
}

static int64_t submit_key_id(store_conn *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM api_keys WHERE name = ?"
				      " AND role = 'submit' AND revoked_at IS NULL");
	int64_t id = 0;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

static int check_spec(store_conn *db, const struct watch_spec *s,
		      struct base_ref *b, int64_t *key, struct lab_err *e)
{
	if (!s->name || !lab_valid_name(s->name))
		return lab_fail(e, LAB_INVALID, "'name' is required: 1-64 characters"
				" of [A-Za-z0-9._+-]");
	if (check_inbox(s->inbox, e) || check_query(s->query, e))
		return -1;
	if ((s->label && !lab_valid_name(s->label)) ||
	    (s->backend && !lab_valid_name(s->backend)))
		return lab_fail(e, LAB_INVALID, "label and backend are names of"
				" [A-Za-z0-9._+-]");
	if (!s->base)
		return lab_fail(e, LAB_INVALID, "'base' (a git base) is required");
	if (s->list && !mail_addr_ok(s->list))
		return lab_fail(e, LAB_INVALID, "'list' must be a plain address"
				" (local@domain)");
	if (s->ref && gitmirror_check_ref(s->ref))
		return lab_fail(e, LAB_INVALID, "bad ref name");
	if (bases_find(db, s->base, b, e))
		return -1;
	if (!b->git || strchr(s->base, '@'))
		return lab_fail(e, LAB_REJECTED, "a watch needs a git base by name"
				" (series apply onto its history)");
	if (!s->submit_key)
		return lab_fail(e, LAB_INVALID, "'submit_key' (the name of the submit"
				" key the series run as) is required");
	*key = submit_key_id(db, s->submit_key);
	if (*key <= 0)
		return lab_fail(e, LAB_REJECTED, "no submit key named '%s' (an admin"
				" key is refused: a posting runs with submit rights)",
				s->submit_key);
	return 0;
}

static int insert(store_conn *w, const struct watch_spec *s, int64_t base_id,
		  int64_t key, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(w, "INSERT INTO watches (name, inbox, query,"
		" base_id, ref, key_id, label, backend, runs, poll_seconds,"
		" window_seconds, complete_timeout, mail_no_change, created_by,"
		" created_at, poll_requested, list_address, mail_apply_note) VALUES"
		" (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, 1, ?, ?)");
	int rc;

	if (!st)
		return lab_fail_db(e, w);
	sqlite3_bind_text(st, 1, s->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, s->inbox, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, s->query, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, base_id);
	if (s->ref)
		sqlite3_bind_text(st, 5, s->ref, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, key);
	if (s->label)
		sqlite3_bind_text(st, 7, s->label, -1, SQLITE_STATIC);
	if (s->backend)
		sqlite3_bind_text(st, 8, s->backend, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 9, s->runs);
	sqlite3_bind_int(st, 10, s->poll_seconds);
	sqlite3_bind_int(st, 11, s->window_seconds);
	sqlite3_bind_int(st, 12, s->complete_timeout);
	sqlite3_bind_int(st, 13, s->mail_no_change);
	if (s->created_by > 0)
		sqlite3_bind_int64(st, 14, s->created_by);
	sqlite3_bind_int64(st, 15, (int64_t)time(NULL));
	if (s->list)
		sqlite3_bind_text(st, 16, s->list, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 17, s->mail_apply_note);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_CONSTRAINT)
		return lab_fail(e, LAB_CONFLICT, "a watch named '%s' exists", s->name);
	return rc == SQLITE_DONE ? 0 : lab_fail_db(e, w);
}

int64_t watches_create(store_conn *db, const struct watch_spec *s,
		       struct lab_err *e)
{
	struct base_ref b;
	int64_t key = 0, id = -1;
	store_conn *w;

	if (check_spec(db, s, &b, &key, e))
		return -1;
	w = db_write_lock(db);
	if (!insert(w, s, b.id, key, e))
		id = sqlite3_last_insert_rowid(w);
	db_write_unlock(db, w);
	return id;
}

int watches_request_poll(store_conn *db, int64_t id, struct lab_err *e)
{
	store_conn *w = db_write_lock(db);
	sqlite3_stmt *st = db_prepare(w, "UPDATE watches SET poll_requested ="
				      " poll_requested + 1 WHERE id = ?");
	int rc = -1;

	if (st) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_changes(w) : -1;
		sqlite3_finalize(st);
	}
	if (rc < 0)
		lab_fail_db(e, w);
	db_write_unlock(db, w);
	if (rc < 0)
		return -1;
	return rc ? 0 : lab_fail(e, LAB_NOT_FOUND, "no such watch");
}

int watches_due(store_conn *db, time_t now, struct watch_row *out, int max)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, inbox, query, window_seconds,"
		" complete_timeout, poll_requested FROM watches WHERE enabled AND (poll_requested OR"
		" polled_at IS NULL OR polled_at + poll_seconds <= ?1)"
		" ORDER BY coalesce(polled_at, 0), id LIMIT ?2");
	int n = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	sqlite3_bind_int(st, 2, max);
	while (n < max && sqlite3_step(st) == SQLITE_ROW) {
		struct watch_row *r = &out[n++];

		r->id = sqlite3_column_int64(st, 0);
		snprintf(r->inbox, sizeof(r->inbox), "%s", sqlite3_column_text(st, 1));
		snprintf(r->query, sizeof(r->query), "%s", sqlite3_column_text(st, 2));
		r->window_seconds = sqlite3_column_int(st, 3);
		r->complete_timeout = sqlite3_column_int(st, 4);
		r->requested = sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	return n;
}

int watches_poll_done(store_conn *db, const struct watch_row *r)
{
	store_conn *w = db_write_lock(db);
	sqlite3_stmt *st = db_prepare(w, "UPDATE watches SET poll_requested = 0"
				      " WHERE id = ? AND poll_requested = ?");
	int rc = -1;

	if (st) {
		sqlite3_bind_int64(st, 1, r->id);
		sqlite3_bind_int64(st, 2, r->requested);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(st);
	}
	db_write_unlock(db, w);
	return rc;
}

/* ---- JSON -------------------------------------------------------------- */

#define WATCH_JSON \
	"json_object('id', w.id, 'name', w.name, 'inbox', w.inbox, 'query'," \
	" w.query, 'base', b.name, 'ref', coalesce(w.ref, b.ref), 'submit_key'," \
	" k.name, 'label', w.label, 'backend', w.backend, 'runs', w.runs," \
	" 'poll_seconds', w.poll_seconds, 'window_seconds', w.window_seconds," \
	" 'complete_timeout', w.complete_timeout, 'mail_no_change'," \
	" json(CASE WHEN w.mail_no_change THEN 'true' ELSE 'false' END)," \
	" 'enabled', json(CASE WHEN w.enabled THEN 'true' ELSE 'false' END)," \
	" 'poll_requested', json(CASE WHEN w.poll_requested THEN 'true' ELSE" \
	" 'false' END), 'polled_at', w.polled_at, 'poll_error', w.poll_error," \
	" 'created_at', w.created_at, 'list', w.list_address, 'mail_apply_note'," \
	" json(CASE WHEN w.mail_apply_note THEN 'true' ELSE 'false' END)"

#define WATCH_FROM \
	" FROM watches w JOIN bases b ON b.id = w.base_id JOIN api_keys k ON" \
	" k.id = w.key_id"

json_t *watches_json(store_conn *db, int64_t id)
{
	json_t *o = json_query_texts(db, "SELECT " WATCH_JSON ")" WATCH_FROM " WHERE w.id = ?",
			 id, 0);

	if (!o)
		return NULL;
	/* Versions side by side: a series names the version before it. */
	json_object_set_new(o, "series", json_query_texts(db, "SELECT json_object('id', s.id,"
		" 'key', s.series_key, 'version', s.version, 'total', s.total,"
		" 'subject', s.subject, 'author', s.author, 'change_id', s.change_id,"
		" 'base_commit', s.base_commit, 'reply_to', s.reply_to, 'state',"
		" s.state, 'reason', s.reason, 'previous_id', s.previous_id,"
		" 'experiment_id', s.experiment_id, 'experiment_state', e.state,"
		" 'reply', json((SELECT json_object('status', r.status, 'note',"
		" r.note, 'message_id', r.message_id, 'rcpts', r.rcpts, 'attempts',"
		" r.attempts, 'at', r.at, 'archived', json(CASE WHEN r.archived THEN"
		" 'true' ELSE 'false' END)) FROM watch_replies r WHERE r.series_id ="
		" s.id)),"
		" 'base_used', s.base_used, 'base_how', s.base_how, 'first_seen',"
		" s.first_seen, 'messages', json((SELECT json_group_array("
		" json_object('message_id', m.message_id, 'kind', m.kind, 'idx',"
		" m.idx)) FROM (SELECT * FROM watch_messages m WHERE m.series_id ="
		" s.id ORDER BY m.idx) m))) FROM watch_series s LEFT JOIN"
		" experiments e ON e.id = s.experiment_id WHERE s.watch_id = ?"
		" ORDER BY s.id", id, 1));
	/* The log: what was read and why anything was refused. */
	json_object_set_new(o, "log", json_query_texts(db, "SELECT json_object('message_id',"
		" message_id, 'kind', kind, 'subject', subject, 'author', author,"
		" 'reason', reason, 'series_id', series_id, 'seen_at', seen_at) FROM"
		" (SELECT * FROM watch_messages WHERE watch_id = ? ORDER BY id DESC"
		" LIMIT 200)", id, 1));
	return o;
}

json_t *watches_list_json(store_conn *db)
{
	return json_query_texts(db, "SELECT " WATCH_JSON ", 'nseries', (SELECT count(*) FROM"
		    " watch_series WHERE watch_id = w.id), 'nmessages', (SELECT"
		    " count(*) FROM watch_messages WHERE watch_id = w.id))" WATCH_FROM
		    " WHERE ?1 = ?1 ORDER BY w.id", 0, 1);
}
