// SPDX-License-Identifier: MIT
/*
 * Replies in the threads of posted series; see watch_reply.h.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/mail_out.h"
#include "daemon/analysis/watch_reply.h"
#include "daemon/lab/experiment_json.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/watch_poll.h"
#include "daemon/lab/watch_reply.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

struct settled {
	int64_t id, exp, prev;
	int version, total, no_change;
	char reply_to[256], subject[512], author[256], from[512],
		base_used[128], how[16], thread[256], list[256], ref[257],
		state[16], reason[512];
};

#define SETTLED_COLS \
	"SELECT s.id, coalesce(e.id, 0), coalesce(s.previous_id, 0), s.version," \
	" s.total, w.mail_no_change, s.reply_to, s.subject, s.author," \
	" coalesce((SELECT m.author FROM watch_messages m WHERE m.watch_id =" \
	" s.watch_id AND m.message_id = s.reply_to), ''), s.base_used," \
	" s.base_how, s.series_key, w.list_address, coalesce(w.ref, b.ref)," \
	" coalesce(e.state, s.state), s.reason FROM watch_series s JOIN" \
	" watches w ON w.id = s.watch_id JOIN bases b ON b.id = w.base_id" \
	" LEFT JOIN experiments e ON e.id = s.experiment_id WHERE NOT EXISTS" \
	" (SELECT 1 FROM watch_replies r WHERE r.series_id = s.id) AND "

/* Series whose experiment ended, or (@unapplied) that did not apply on
 * a watch that sends a note for those. */
static int load_settled(sqlite3 *db, struct settled *r, int max, bool unapplied)
{
	sqlite3_stmt *st = db_prepare(db, unapplied ? SETTLED_COLS
		"s.state = 'refused' AND w.mail_apply_note AND s.reason LIKE"
		" 'does not apply%' ORDER BY s.id LIMIT ?" : SETTLED_COLS
		"s.state = 'queued' AND e.state IN ('done', 'failed', 'cancelled')"
		" AND e.analysis_pending = 0 ORDER BY s.id LIMIT ?");
	int n = 0;

	if (!st)
		return -1;
	sqlite3_bind_int(st, 1, max);
	while (n < max && sqlite3_step(st) == SQLITE_ROW) {
		struct settled *s = &r[n++];

		s->id = sqlite3_column_int64(st, 0);
		s->exp = sqlite3_column_int64(st, 1);
		s->prev = sqlite3_column_int64(st, 2);
		s->version = sqlite3_column_int(st, 3);
		s->total = sqlite3_column_int(st, 4);
		s->no_change = sqlite3_column_int(st, 5);
		db_col_copy(st, 6, s->reply_to, sizeof(s->reply_to));
		db_col_copy(st, 7, s->subject, sizeof(s->subject));
		db_col_copy(st, 8, s->author, sizeof(s->author));
		db_col_copy(st, 9, s->from, sizeof(s->from));
		db_col_copy(st, 10, s->base_used, sizeof(s->base_used));
		db_col_copy(st, 11, s->how, sizeof(s->how));
		db_col_copy(st, 12, s->thread, sizeof(s->thread));
		s->thread[strcspn(s->thread, "#")] = '\0';
		db_col_copy(st, 13, s->list, sizeof(s->list));
		db_col_copy(st, 14, s->ref, sizeof(s->ref));
		db_col_copy(st, 15, s->state, sizeof(s->state));
		db_col_copy(st, 16, s->reason, sizeof(s->reason));
	}
	sqlite3_finalize(st);
	return n;
}

/* The whole series' comparison (its last variant's) of iops in
 * experiment JSON @o; comparisons come in variant order. */
static json_t *verdict_of(json_t *o)
{
	json_t *c, *last = NULL;
	size_t i;

	json_array_foreach(json_object_get(o, "comparison"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "metric")) ?: "", "iops"))
			last = c;
	return last;
}

/* "regression" when any prefix regressed, else the whole series'. */
static const char *worst_verdict(json_t *o, json_t *whole)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(o, "comparison"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "verdict")) ?: "",
			    "regression"))
			return "regression";
	return json_string_value(json_object_get(whole, "verdict"));
}

static double num(json_t *c, const char *k)
{
	json_t *v = json_object_get(c, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* One row per variant's iops comparison: "p1-k" has k patches,
 * "patched" all @total. Strings point into @o. */
static int reply_rows(json_t *o, int total, struct watch_reply_row *rows)
{
	json_t *c;
	size_t i;
	int n = 0, k;

	json_array_foreach(json_object_get(o, "comparison"), i, c) {
		const char *var = json_string_value(json_object_get(c, "variant")) ?: "";

		if (strcmp(json_string_value(json_object_get(c, "metric")) ?: "", "iops") ||
		    n == WATCH_REPLY_MAX_ROWS)
			continue;
		k = !strcmp(var, "p1") ? 1 : sscanf(var, "p1-%d", &k) == 1 ? k : total;
		rows[n++] = (struct watch_reply_row){ .npatches = k,
			.verdict = json_string_value(json_object_get(c, "verdict")),
			.delta_pct = num(c, "delta_pct"), .ci_lo = num(c, "ci_low"),
			.ci_hi = num(c, "ci_high"), .mde_pct = num(c, "mde_pct"),
			.runs = (int)json_integer_value(json_object_get(c, "runs")) };
	}
	return n;
}

static int64_t count_since(sqlite3 *db, const char *col_, const char *v,
			   time_t since)
{
	char sql[200];
	sqlite3_stmt *st;
	int64_t n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM watch_replies WHERE %s = ?"
		 " COLLATE NOCASE AND status IN ('pending', 'sent') AND at > ?", col_);
	st = db_prepare(db, sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, v, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)since);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* Why @s, whose mail is due, cannot be sent, or "". */
static void why_undeliverable(sqlite3 *db, const struct settled *s,
			      const struct alerts_smtp *smtp, time_t now,
			      char *why, size_t len)
{
	why[0] = '\0';
	if (!smtp->url)
		snprintf(why, len, "no SMTP configured (--smtp-url)");
	else if (!mail_addr_ok(s->author) && !mail_addr_ok(s->list))
		snprintf(why, len, "neither the author nor the list has a usable address");
	else if (count_since(db, "author", s->author, now - 86400) >= WATCH_REPLIES_PER_AUTHOR)
		snprintf(why, len, "rate limit: %d replies to %s in 24 hours already",
			 WATCH_REPLIES_PER_AUTHOR, s->author);
	else if (count_since(db, "thread", s->thread, now - 86400) >= WATCH_REPLIES_PER_THREAD)
		snprintf(why, len, "rate limit: %d replies in this thread in 24 hours"
			 " already", WATCH_REPLIES_PER_THREAD);
}

/* Why @s gets no mail, or "" when it does. */
static void why_withheld(sqlite3 *db, const struct settled *s, const char *v,
			 const struct alerts_smtp *smtp, time_t now, char *why,
			 size_t len)
{
	why[0] = '\0';
	if (strcmp(s->state, "done"))
		snprintf(why, len, "the experiment ended %s: nothing mailed", s->state);
	else if (!v)
		snprintf(why, len, "no verdict: nothing mailed");
	else if (strcmp(v, "regression") && !s->no_change)
		snprintf(why, len, "verdict %s: the watch mails regressions only", v);
	else
		why_undeliverable(db, s, smtp, now, why, len);
}

/* The display name of "Name <addr>", or "". */
static void display_name(const char *from, char *out, size_t len)
{
	const char *lt = strchr(from, '<');
	size_t n = lt ? (size_t)(lt - from) : 0;

	while (n && from[n - 1] == ' ')
		n--;
	snprintf(out, len, "%.*s", (int)n, from);
	if (out[0] == '"' && n > 1 && out[n - 1] == '"') {
		memmove(out, out + 1, n - 2);
		out[n - 2] = '\0';
	}
}

/* The previous version's delta and verdict, when it was measured. */
static void previous(sqlite3 *db, const struct settled *s, struct watch_reply *r,
		     json_t **keep)
{
	int64_t exp = s->prev ? db_int(db, 0, "SELECT coalesce(experiment_id, 0)"
				       " FROM watch_series WHERE id = ?", 1, s->prev) : 0;
	json_t *o = exp > 0 ? experiment_json(db, exp) : NULL, *c = verdict_of(o);

	*keep = o;
	if (!c || !json_string_value(json_object_get(c, "verdict")))
		return;
	r->prev_version = (int)db_int(db, 0, "SELECT version FROM watch_series WHERE"
				      " id = ?", 1, s->prev);
	r->prev_verdict = json_string_value(json_object_get(c, "verdict"));
	r->prev_delta_pct = num(c, "delta_pct");
}

/* The verdict reply's body (malloc'd) or NULL. */
static char *verdict_body(sqlite3 *db, const struct settled *s, json_t *o,
			  json_t *c, const struct alerts_smtp *smtp)
{
	char name[256], subj[600], *body;
	const char *at = strchr(s->base_used, '@');
	struct watch_reply_row rows[WATCH_REPLY_MAX_ROWS];
	struct watch_reply r = { 0 };
	json_t *prev = NULL;

	display_name(s->from, name, sizeof(name));
	r.author_name = name;
	r.subject = s->subject;
	r.version = s->version;
	r.npatches = s->total;
	snprintf(subj, sizeof(subj), "%.*s", at ? (int)(at - s->base_used) : 0,
		 s->base_used);
	r.base = subj;
	r.commit = at ? at + 1 : "";
	r.base_how = s->how;
	r.ref = s->ref;
	r.metric = json_string_value(json_object_get(c, "metric")) ?: "iops";
	r.nrows = reply_rows(o, s->total, rows);
	r.rows = rows;
	r.lkp = json_string_value(json_object_get(o, "lkp"));
	r.lab_url = smtp->base_url ? smtp->base_url : "";
	r.experiment_id = s->exp;
	r.from = smtp->from;
	previous(db, s, &r, &prev);
	body = watch_reply_text(&r);
	json_decref(prev);
	return body;
}

/* @body as the reply in @s's thread (malloc'd), its Message-ID and
 * recipients in @msgid and @rcpts; NULL without memory or recipients. */
static char *wrap_mail(const struct settled *s, char *body,
		       const struct alerts_smtp *smtp, time_t now, char *msgid,
		       size_t idlen, char *rcpts, size_t rlen)
{
	char subj[600], date[64], *mail;
	const char *to[2];
	size_t nto = 0;

	if (!body)
		return NULL;
	snprintf(subj, sizeof(subj), "%s%s", strncasecmp(s->subject, "re:", 3) ?
		 "Re: " : "", s->subject);
	snprintf(msgid, idlen, "<perflab-series-%lld-%lld@%s>", (long long)s->id,
		 (long long)now, smtp->from && strchr(smtp->from, '@') ?
		 strchr(smtp->from, '@') + 1 : "perflab");
	rcpts[0] = '\0';
	if (mail_addr_ok(s->author))
		to[nto++] = s->author;
	if (mail_addr_ok(s->list) && (!nto || strcasecmp(s->list, s->author)))
		to[nto++] = s->list;
	for (size_t i = 0; i < nto; i++)
		snprintf(rcpts + strlen(rcpts), rlen - strlen(rcpts), "%s%s",
			 i ? "," : "", to[i]);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", gmtime(&now));
	mail = mail_build(&(struct mail_out){ .from = smtp->from, .from_name = "perflab",
		.to = to, .nr_to = nto, .subject = subj, .message_id = msgid,
		.in_reply_to = s->reply_to, .date = date, .lab_reply = "1" }, body);
	free(body);
	return mail;
}

static int store_plan(sqlite3 *db, const struct settled *s, const char *msgid,
		      const char *rcpts, const char *mail, const char *why,
		      time_t now)
{
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st = db_prepare(w, "INSERT INTO watch_replies (series_id,"
		" thread, author, message_id, rcpts, mail, status, note, at) VALUES"
		" (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING");
	int rc = -1;

	if (st) {
		sqlite3_bind_int64(st, 1, s->id);
		sqlite3_bind_text(st, 2, s->thread, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, s->author, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, msgid, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, rcpts, -1, SQLITE_STATIC);
		if (mail)
			sqlite3_bind_text(st, 6, mail, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, why ? "withheld" : "pending", -1, SQLITE_STATIC);
		if (why)
			sqlite3_bind_text(st, 8, why, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 9, (int64_t)now);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(st);
	}
	db_write_unlock(db, w);
	return rc;
}

/* The note for a series that did not apply (the watch asked for it). */
static char *note_body(const struct settled *s)
{
	char name[256];

	display_name(s->from, name, sizeof(name));
	return watch_reply_note_text(name, s->subject, s->base_used, s->reason);
}

int watch_reply_plan(store_conn *db, const struct alerts_smtp *smtp, time_t now)
{
	struct settled rows[8];
	int done = 0, n = 0;

	for (int pass = 0; pass < 2; pass++) {
		int m = load_settled(db, rows, 8, pass == 1);

		for (int i = 0; i < m; i++) {
			json_t *o = pass ? NULL : experiment_json(db, rows[i].exp);
			json_t *c = verdict_of(o);
			char why[400], msgid[300] = "", rcpts[600] = "", *mail = NULL;

			if (pass)
				why_undeliverable(db, &rows[i], smtp, now, why, sizeof(why));
			else
				why_withheld(db, &rows[i], worst_verdict(o, c), smtp, now,
					     why, sizeof(why));
			if (!why[0]) {
				mail = wrap_mail(&rows[i], pass ? note_body(&rows[i]) :
						 verdict_body(db, &rows[i], o, c, smtp),
						 smtp, now, msgid, sizeof(msgid), rcpts,
						 sizeof(rcpts));
				if (!mail)
					snprintf(why, sizeof(why), "the reply could not be built");
			}
			if (!store_plan(db, &rows[i], msgid, rcpts, mail,
					why[0] ? why : NULL, now))
				done++;
			free(mail);
			json_decref(o);
		}
		n = m < 0 ? m : n;
	}
	return n < 0 ? -1 : done;
}

/* public-inbox-mda's config for @inbox, beside lei's state. */
#define ARCHIVE_ADDR "perflab-replies@localhost"

static int archive(const char *inbox, const char *mail, char *err, size_t len)
{
	char cfg[PATH_MAX], pi[PATH_MAX + 16], home[PATH_MAX + 16], *lf;
	const char *env[] = { pi, home, "ORIGINAL_RECIPIENT=" ARCHIVE_ADDR,
			      "LC_ALL=C", NULL };
	size_t n = 0;
	FILE *f;
	int rc;

	snprintf(cfg, sizeof(cfg), "%s/reply-inbox.config", watch_poll_dir());
	f = fopen(cfg, "w");
	if (f) {
		rc = fprintf(f, "[publicinbox \"perflab-replies\"]\n\tinboxdir = %s\n"
			     "\taddress = " ARCHIVE_ADDR "\n\tspamcheck = none\n"
			     "[publicinboxmda]\n\tspamcheck = none\n", inbox) < 0;
		rc |= fclose(f) != 0;
	}
	if (!f || rc) {
		snprintf(err, len, "cannot write the reply inbox's config");
		return -1;
	}
	snprintf(pi, sizeof(pi), "PI_CONFIG=%s", cfg);
	snprintf(home, sizeof(home), "HOME=%s", watch_poll_dir());
	/* The archive keeps LF line ends, like the lists' archives. */
	lf = malloc(strlen(mail) + 1);
	if (!lf)
		return -1;
	for (const char *p = mail; *p; p++)
		if (!(*p == '\r' && p[1] == '\n'))
			lf[n++] = *p;
	rc = gitmirror_run_env((const char *const[]){ "public-inbox-mda",
		"--no-precheck", NULL }, env, lf, n, NULL, NULL, 0, 60, err, len);
	free(lf);
	if (rc && !err[0])
		snprintf(err, len, "public-inbox-mda exit %d", rc);
	return rc ? -1 : 0;
}

int watch_reply_send(store_conn *db, const struct alerts_smtp *smtp,
		     const char *inbox, time_t now)
{
	/* A failed attempt waits 30 s more per attempt before the next. */
	sqlite3_stmt *st = db_prepare(db, "SELECT id, rcpts, mail FROM watch_replies"
				      " WHERE status = 'pending' AND at + 30 * attempts"
				      " <= ? ORDER BY id LIMIT 8");
	struct { int64_t id; char *rcpts, *mail; } q[8];
	int n = 0, sent = 0;

	if (!st || !smtp->url) {
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_bind_int64(st, 1, (int64_t)now);
	while (n < 8 && sqlite3_step(st) == SQLITE_ROW) {
		q[n].id = sqlite3_column_int64(st, 0);
		q[n].rcpts = strdup((const char *)sqlite3_column_text(st, 1));
		q[n].mail = strdup((const char *)sqlite3_column_text(st, 2));
		n++;
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++) {
		char err[256] = "";
		int rc = q[i].rcpts && q[i].mail ?
			 alerts_send_mail(smtp, q[i].rcpts, q[i].mail, err, sizeof(err)) : -1;
		int archived = 0;
		sqlite3 *w;

		if (!rc && inbox && *inbox) {
			archived = !archive(inbox, q[i].mail, err, sizeof(err));
			if (!archived)
				fprintf(stderr, "perflabd: reply %lld not archived: %s\n",
					(long long)q[i].id, err);
		}
		w = db_write_lock(db);
		st = db_prepare(w, "UPDATE watch_replies SET attempts = attempts + 1,"
			" status = CASE WHEN ?2 THEN 'sent' WHEN attempts + 1 >= ?4 THEN"
			" 'failed' ELSE 'pending' END, note = nullif(?3, ''), at = ?5,"
			" archived = ?6 WHERE id = ?1");
		if (st) {
			sqlite3_bind_int64(st, 1, q[i].id);
			sqlite3_bind_int(st, 2, rc == 0);
			sqlite3_bind_text(st, 3, err, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 4, WATCH_REPLY_ATTEMPTS);
			sqlite3_bind_int64(st, 5, (int64_t)now);
			sqlite3_bind_int(st, 6, archived);
			sqlite3_step(st);
			sqlite3_finalize(st);
		}
		db_write_unlock(db, w);
		sent += rc == 0;
		free(q[i].rcpts);
		free(q[i].mail);
	}
	return sent;
}
