// SPDX-License-Identifier: MIT
/*
 * A watch's poll stored; see watch_store.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/mail_series.h"
#include "daemon/lab/watch_store.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int step_done(sqlite3_stmt *st)
{
	int rc = st ? sqlite3_step(st) : SQLITE_ERROR;

	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* The series of @key, made if new; its id or -1. */
static int64_t series_of(sqlite3 *w, int64_t watch, const char *key,
			 const struct mail_thread *t, time_t now)
{
	sqlite3_stmt *st = db_prepare(w, "INSERT INTO watch_series (watch_id,"
		" series_key, version, total, first_seen, updated_at) VALUES"
		" (?1, ?2, ?3, ?4, ?5, ?5) ON CONFLICT (watch_id, series_key) DO"
		" UPDATE SET updated_at = ?5 RETURNING id, total");
	int64_t id = -1;
	int total = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, t->subj.version);
	sqlite3_bind_int(st, 4, t->subj.total);
	sqlite3_bind_int64(st, 5, (int64_t)now);
	if (sqlite3_step(st) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		total = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	if (id > 0 && total != t->subj.total) {
		char why[160];

		snprintf(why, sizeof(why), "its messages disagree on the number of"
			 " patches (%d and %d)", total, t->subj.total);
		st = db_prepare(w, "UPDATE watch_series SET state = 'bad', reason = ?"
				" WHERE id = ? AND state IN ('waiting', 'complete')");
		if (st) {
			sqlite3_bind_text(st, 1, why, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int64(st, 2, id);
		}
		if (step_done(st))
			return -1;
	}
	return id;
}

/* A cover, or patch 1 of a series without a cover yet, names it. */
static int name_series(sqlite3 *w, int64_t sid, const struct mail_thread *t)
{
	sqlite3_stmt *st = db_prepare(w, "UPDATE watch_series SET subject = ?2,"
		" norm_subject = ?3, author = ?4, change_id = coalesce(?5, change_id),"
		" base_commit = coalesce(?6, base_commit), reply_to = ?7 WHERE id = ?1"
		" AND (?8 OR reply_to IS NULL)");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	bind_text(st, 2, t->subject);
	bind_text(st, 3, t->subj.norm);
	bind_text(st, 4, t->from_addr);
	bind_text(st, 5, t->change_id);
	bind_text(st, 6, t->base_commit);
	bind_text(st, 7, t->message_id);
	sqlite3_bind_int(st, 8, t->kind == MAIL_COVER);
	return step_done(st);
}

/* A refused patch of a series: the series is refused whole. */
static int refuse_series(sqlite3 *w, int64_t watch, const struct watch_msg *m,
			 time_t now)
{
	struct mail_thread t = m->t;
	char why[400];
	int64_t sid;
	char *key;

	if (!t.root || !t.subj.patch || t.subj.reply || t.subj.idx < 1 ||
	    t.subj.total < 1)
		return 0;	/* refused before its numbering was read */
	t.kind = MAIL_PATCH;
	key = mail_series_key(&t);
	sid = key ? series_of(w, watch, key, &t, now) : -1;
	free(key);
	if (sid < 0)
		return -1;
	snprintf(why, sizeof(why), "patch %d/%d %s refused: %s", t.subj.idx,
		 t.subj.total, m->id, t.why);
	sqlite3_stmt *st = db_prepare(w, "UPDATE watch_series SET state = 'refused',"
		" reason = ?2 WHERE id = ?1 AND state IN ('waiting', 'complete',"
		" 'timed_out', 'bad')");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_text(st, 2, why, -1, SQLITE_TRANSIENT);
	return step_done(st);
}

static int add_message(sqlite3 *w, int64_t watch, const struct watch_msg *m,
		       time_t now, int *added)
{
	const struct mail_thread *t = &m->t;
	bool series = t->kind == MAIL_PATCH || t->kind == MAIL_COVER;
	sqlite3_stmt *st;
	int64_t sid = 0, mid;
	char *key = NULL;

	*added = 0;
	st = db_prepare(w, "INSERT INTO watch_messages (watch_id, message_id,"
		" kind, subject, author, reason, idx, raw, seen_at) VALUES"
		" (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_text(st, 2, m->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, mail_kind_name(t->kind), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, t->subject ? t->subject : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, t->from ? t->from : "", -1, SQLITE_STATIC);
	bind_text(st, 6, t->kind == MAIL_REFUSED ? t->why : NULL);
	if (series)
		sqlite3_bind_int(st, 7, t->subj.idx);
	if (series)
		sqlite3_bind_blob(st, 8, m->raw, (int)m->len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, (int64_t)now);
	if (step_done(st))
		return -1;
	if (!sqlite3_changes(w))
		return 0;	/* read before */
	*added = 1;
	mid = sqlite3_last_insert_rowid(w);
	if (t->kind == MAIL_REFUSED)
		return refuse_series(w, watch, m, now);
	if (!series)
		return 0;
	key = mail_series_key(t);
	sid = key ? series_of(w, watch, key, t, now) : -1;
	free(key);
	if (sid < 0)
		return -1;
	if ((t->kind == MAIL_COVER || t->subj.idx == 1) && name_series(w, sid, t))
		return -1;
	st = db_prepare(w, "UPDATE watch_messages SET series_id = ? WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int64(st, 2, mid);
	return step_done(st);
}

/* ---- states ------------------------------------------------------------ */

/* The newest earlier version of series @sid, or 0. */
static int64_t previous_version(sqlite3 *w, int64_t watch, int64_t sid)
{
	sqlite3_stmt *st = db_prepare(w, "SELECT s.id, s.change_id, s.norm_subject,"
		" s.author, s.version, t.change_id, t.norm_subject, t.author,"
		" t.version FROM watch_series s, watch_series t WHERE t.id = ?2 AND"
		" s.watch_id = ?1 AND s.id != t.id AND s.version < t.version"
		" ORDER BY s.version DESC, s.id DESC");
	int64_t prev = 0;

	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_int64(st, 2, sid);
	while (!prev && sqlite3_step(st) == SQLITE_ROW) {
		struct series_ident a = {
			(const char *)sqlite3_column_text(st, 1),
			(const char *)sqlite3_column_text(st, 2),
			(const char *)sqlite3_column_text(st, 3),
			sqlite3_column_int(st, 4) };
		struct series_ident b = {
			(const char *)sqlite3_column_text(st, 5),
			(const char *)sqlite3_column_text(st, 6),
			(const char *)sqlite3_column_text(st, 7),
			sqlite3_column_int(st, 8) };

		if (mail_series_same(&a, &b))
			prev = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return prev;
}

static int set_state(sqlite3 *w, int64_t sid, enum series_state s,
		     const char *missing, int64_t prev)
{
	sqlite3_stmt *st = db_prepare(w, "UPDATE watch_series SET state = ?2,"
		" reason = ?3, previous_id = nullif(?4, 0) WHERE id = ?1");
	char why[200] = "";

	if (s == SERIES_WAITING || s == SERIES_TIMED_OUT)
		snprintf(why, sizeof(why), "%s patch%s %s", s == SERIES_WAITING ?
			 "waiting for" : "timed out without", strchr(missing, ',') ?
			 "es" : "", missing);
	else if (s == SERIES_BAD)
		snprintf(why, sizeof(why), "a patch number came twice");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_text(st, 2, mail_series_state_name(s), -1, SQLITE_STATIC);
	bind_text(st, 3, why[0] ? why : NULL);
	sqlite3_bind_int64(st, 4, prev);
	return step_done(st);
}

/* One waiting series: which of 1..total arrived. */
static int restate(sqlite3 *w, const struct watch_row *row, int64_t sid,
		   int total, int64_t first, time_t now, int *complete)
{
	sqlite3_stmt *st = db_prepare(w, "SELECT idx FROM watch_messages WHERE"
				      " series_id = ? AND kind = 'patch'");
	bool have[MAIL_MAX_TOTAL + 1] = { false };
	enum series_state s;
	char missing[160];
	int dups = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int i = sqlite3_column_int(st, 0);

		if (i < 1 || i > total || i > MAIL_MAX_TOTAL)
			continue;
		dups += have[i];
		have[i] = true;
	}
	sqlite3_finalize(st);
	s = mail_series_state(have, total, dups, false, first, (int64_t)now,
			      row->complete_timeout, missing, sizeof(missing));
	*complete += s == SERIES_COMPLETE;
	return set_state(w, sid, s, missing, s == SERIES_COMPLETE ?
			 previous_version(w, row->id, sid) : 0);
}

/* Every waiting series of the watch, 256 at a time (a poll may bring
 * thousands). */
static int restate_all(sqlite3 *w, const struct watch_row *row, time_t now,
		       int *complete)
{
	int64_t ids[256], first[256], after = 0;
	int totals[256], n, rc = 0;

	do {
		sqlite3_stmt *st = db_prepare(w, "SELECT id, total, first_seen FROM"
			" watch_series WHERE watch_id = ? AND state = 'waiting' AND"
			" id > ? ORDER BY id LIMIT 256");

		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, row->id);
		sqlite3_bind_int64(st, 2, after);
		for (n = 0; n < 256 && sqlite3_step(st) == SQLITE_ROW; n++) {
			ids[n] = sqlite3_column_int64(st, 0);
			totals[n] = sqlite3_column_int(st, 1);
			first[n] = sqlite3_column_int64(st, 2);
		}
		sqlite3_finalize(st);
		for (int i = 0; i < n && !rc; i++)
			rc = restate(w, row, ids[i], totals[i], first[i], now, complete);
		if (n)
			after = ids[n - 1];
	} while (n == 256 && !rc);
	return rc;
}

static int mark_polled(sqlite3 *w, int64_t watch, const char *err, time_t now)
{
	sqlite3_stmt *st = db_prepare(w, "UPDATE watches SET polled_at = ?2,"
		" poll_error = ?3 WHERE id = ?1");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_int64(st, 2, (int64_t)now);
	bind_text(st, 3, err);
	return step_done(st);
}

int watch_store_batch(store_conn *w, const struct watch_row *row,
		      const struct watch_batch *b, const char *poll_error,
		      time_t now, struct watch_store_stats *stats)
{
	int rc = 0, added;

	memset(stats, 0, sizeof(*stats));
	if (db_begin(w))
		return -1;
	for (int i = 0; b && i < b->n && !rc; i++) {
		rc = add_message(w, row->id, &b->m[i], now, &added);
		stats->added += added;
		stats->refused += added && b->m[i].t.kind == MAIL_REFUSED;
	}
	stats->read = b ? b->n : 0;
	if (!rc)
		rc = restate_all(w, row, now, &stats->complete);
	if (!rc)
		rc = mark_polled(w, row->id, poll_error, now);
	if (rc || db_commit(w)) {
		db_rollback(w);
		return -1;
	}
	return 0;
}
