// SPDX-License-Identifier: MIT
/*
 * culprit_mail - who a bisection's report may mail; see culprit_mail.h.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/mail_out.h"
#include "daemon/lab/culprit_mail.h"
#include "daemon/store/sql.h"

/* The bisection's base, and whether its starter may mail third parties:
 * an admin key, a track (only admins make tracks), or the base's opt-in. */
static int origin(sqlite3 *db, int64_t bid, const char *base_name,
		  int64_t *base_id, int *trusted, char *why, size_t len)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT b.base_id, b.track_id IS NOT NULL,"
		" coalesce(k.role, '') = 'admin', ba.mail_authors"
		" FROM bisections b JOIN bases ba ON ba.id = b.base_id"
		" LEFT JOIN api_keys k ON k.id = b.created_by WHERE b.id = ?");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, bid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*base_id = sqlite3_column_int64(st, 0);
		*trusted = sqlite3_column_int(st, 1) || sqlite3_column_int(st, 2) ||
			   sqlite3_column_int(st, 3);
		if (!*trusted)
			snprintf(why, len, "not mailed to the author: the bisection"
				 " was started by a submit key and the base does"
				 " not mail authors");
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return -1;
	/* no row (a report raised by hand): nobody vouches for it */
	*trusted = 0;
	snprintf(why, len, "not mailed to the author: unknown bisection");
	st = db_prepare(db, "SELECT id FROM bases WHERE name = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, base_name ? base_name : "", -1, SQLITE_STATIC);
	*base_id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

/* The alert of an earlier mailed report of (base, culprit, metric), 0
 * for none, -1 on error. */
static int64_t mailed_before(sqlite3 *db, int64_t base_id, const char *culprit,
			     const char *metric)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(alert_id, 1) FROM"
				      " culprit_mails WHERE base_id = ? AND"
				      " culprit = ? AND metric = ?");
	int64_t id = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, base_id);
	sqlite3_bind_text(st, 2, culprit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, metric, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* Reports mailed to @addr since @since (addresses compared ignoring case). */
static int64_t mails_to(sqlite3 *db, const char *addr, time_t since)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM culprit_mails"
				      " WHERE recipient = ? COLLATE NOCASE AND"
				      " at > ?");
	int64_t n = -1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, addr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)since);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int culprit_mail_plan(sqlite3 *db, int64_t bid, const char *base_name,
		      const char *culprit, const char *metric,
		      const char *author_addr, int email, time_t now,
		      struct culprit_mail_plan *p)
{
	int trusted = 0;
	int64_t prev, n;

	memset(p, 0, sizeof(*p));
	if (origin(db, bid, base_name, &p->base_id, &trusted, p->note,
		   sizeof(p->note)))
		return -1;
	p->email = email;
	if (!email)
		return 0;
	prev = mailed_before(db, p->base_id, culprit, metric);
	if (prev < 0)
		return -1;
	if (prev) {
		p->email = 0;
		snprintf(p->note, sizeof(p->note), "not mailed: the report of"
			 " this culprit and metric on this base was mailed"
			 " before (alert %lld)", (long long)prev);
		return 0;
	}
	if (!trusted)
		return 0;
	if (!mail_addr_ok(author_addr)) {
		snprintf(p->note, sizeof(p->note), "not mailed to the author:"
			 " no usable address");
		return 0;
	}
	n = mails_to(db, author_addr, now - 86400);
	if (n < 0)
		return -1;
	if (n >= CULPRIT_MAILS_PER_DAY) {
		snprintf(p->note, sizeof(p->note), "not mailed to the author:"
			 " %d reports to this address in 24 hours already",
			 CULPRIT_MAILS_PER_DAY);
		return 0;
	}
	p->to = author_addr;
	p->note[0] = '\0';
	return 0;
}

int culprit_mail_record(sqlite3 *db, const struct culprit_mail_plan *p,
			const char *culprit, const char *metric,
			int64_t bid, int64_t alert_id, time_t now)
{
	sqlite3_stmt *st;
	int rc;

	if (!p->email || !p->base_id)
		return 0;
	st = db_prepare(db, "INSERT INTO culprit_mails (base_id, culprit, metric,"
			" bisection_id, alert_id, recipient, at) VALUES"
			" (?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, p->base_id);
	sqlite3_bind_text(st, 2, culprit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, metric, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, bid);
	sqlite3_bind_int64(st, 5, alert_id);
	if (p->to)
		sqlite3_bind_text(st, 6, p->to, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, (int64_t)now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}
