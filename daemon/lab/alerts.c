// SPDX-License-Identifier: MIT
/*
 * Alerts: creation, triage, webhook (HMAC-signed) and SMTP delivery with
 * retries; see alerts.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "daemon/lab/alerts.h"
#include "daemon/lab/report_mail.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

static const char *const states[] = {
	"new", "acknowledged", "investigating", "invalid", "fixed", "wontfix", NULL,
};

void alerts_signature(const char *secret, const char *body, size_t len,
		      char hex[65])
{
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;

	HMAC(EVP_sha256(), secret, (int)strlen(secret),
	     (const unsigned char *)body, len, mac, &maclen);
	for (unsigned int i = 0; i < maclen && i < 32; i++)
		sprintf(hex + 2 * i, "%02x", mac[i]);
	hex[64] = '\0';
}

/* Alert row + history row + one pending delivery per channel. */
static int64_t insert_alert_rows(sqlite3 *db, const char *kind, const char *title,
			    const char *metric, double delta, int64_t exp,
			    int64_t cmp, int64_t series, int64_t cp,
			    int64_t host, int email, time_t now)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO alerts (kind, state, title, metric, delta_pct,"
		" experiment_id, comparison_id, series_id, change_point_id, host_id,"
		" created_at, updated_at) VALUES (?, 'new', ?, ?, ?, NULLIF(?, 0),"
		" NULLIF(?, 0), NULLIF(?, 0), NULLIF(?, 0), NULLIF(?, 0), ?, ?)");
	int64_t id = -1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, title, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, metric, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, delta);
	sqlite3_bind_int64(st, 5, exp);
	sqlite3_bind_int64(st, 6, cmp);
	sqlite3_bind_int64(st, 7, series);
	sqlite3_bind_int64(st, 8, cp);
	sqlite3_bind_int64(st, 9, host);
	sqlite3_bind_int64(st, 10, now);
	sqlite3_bind_int64(st, 11, now);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	if (id < 0)
		return -1;
	if (db_int(db, -1, "INSERT INTO alert_history (alert_id, state, who, at)"
		   " VALUES (?, 'new', 'perflabd', ?) RETURNING id", 2, id,
		   (int64_t)now) < 0 ||
	    db_int(db, 0, "INSERT INTO deliveries (webhook_id, channel, alert_id,"
		   " attempt, status, next_retry_at, at) SELECT id, 'webhook', ?, 1,"
		   " 'pending', ?, ? FROM webhooks WHERE enabled = 1", 3, id,
		   (int64_t)now, (int64_t)now) < 0)
		return -1;
	if (email &&
	    db_int(db, 0, "INSERT INTO deliveries (channel, alert_id, attempt,"
		   " status, next_retry_at, at) VALUES ('email', ?, 1, 'pending', ?, ?)",
		   3, id, (int64_t)now, (int64_t)now) < 0)
		return -1;
	return id;
}

/* insert_alert_rows() in its own transaction; the alert id or -1. */
static int64_t insert_alert(sqlite3 *db, const char *kind, const char *title,
			    const char *metric, double delta, int64_t exp,
			    int64_t cmp, int64_t series, int64_t cp,
			    int64_t host, int email, time_t now)
{
	int64_t id;

	if (db_begin(db))
		return -1;
	id = insert_alert_rows(db, kind, title, metric, delta, exp, cmp, series,
			       cp, host, email, now);
	if (id < 0 || db_commit(db)) {
		db_rollback(db);
		return -1;
	}
	return id;
}

int64_t alerts_raise_verdict(sqlite3 *db, int64_t cmp, int email, time_t now)
{
	sqlite3_stmt *st;
	int64_t id = -1;
	char title[256];

	/* One alert per experiment variant, however often it is recomputed. */
	if (db_int(db, 0, "SELECT a.id FROM alerts a JOIN comparisons c ON"
		   " c.id = a.comparison_id JOIN comparisons n ON n.id = ? WHERE"
		   " c.experiment_id = n.experiment_id AND c.variant_id = n.variant_id",
		   1, cmp))
		return 0;
	st = db_prepare(db,
		"SELECT c.metric, c.delta_pct, c.experiment_id, COALESCE(e.host_id, 0),"
		" v.name, cv.name, e.title FROM comparisons c"
		" JOIN experiments e ON e.id = c.experiment_id"
		" JOIN variants v ON v.id = c.variant_id"
		" JOIN variants cv ON cv.id = c.control_variant_id WHERE c.id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, cmp);
	if (sqlite3_step(st) != SQLITE_ROW)
		goto out;
	snprintf(title, sizeof(title), "%+.3f%% %s regression: %s vs %s (experiment %lld%s%s)",
		 sqlite3_column_double(st, 1), sqlite3_column_text(st, 0),
		 sqlite3_column_text(st, 4), sqlite3_column_text(st, 5),
		 (long long)sqlite3_column_int64(st, 2),
		 *sqlite3_column_text(st, 6) ? ": " : "", sqlite3_column_text(st, 6));
	id = insert_alert(db, "verdict", title,
			  (const char *)sqlite3_column_text(st, 0),
			  sqlite3_column_double(st, 1), sqlite3_column_int64(st, 2),
			  cmp, 0, 0, sqlite3_column_int64(st, 3), email, now);
out:
	sqlite3_finalize(st);
	return id;
}

int64_t alerts_raise_change_point(sqlite3 *db, int64_t cp, int email,
				  time_t now)
{
	sqlite3_stmt *st;
	int64_t id = -1;
	char title[256];

	if (db_int(db, 0, "SELECT id FROM alerts WHERE change_point_id = ?", 1, cp))
		return 0;
	st = db_prepare(db,
		"SELECT s.metric, cp.delta_pct, s.id, COALESCE(s.host_id, 0), s.name,"
		" COALESCE(p.label, ''), cp.t FROM change_points cp"
		" JOIN series s ON s.id = cp.series_id"
		" LEFT JOIN series_points p ON p.id = cp.point_id WHERE cp.id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, cp);
	if (sqlite3_step(st) != SQLITE_ROW)
		goto out;
	snprintf(title, sizeof(title), "%+.3f%% %s change point in %s at %s%s(t=%lld)",
		 sqlite3_column_double(st, 1), sqlite3_column_text(st, 0),
		 sqlite3_column_text(st, 4), sqlite3_column_text(st, 5),
		 *sqlite3_column_text(st, 5) ? " " : "",
		 (long long)sqlite3_column_int64(st, 6));
	id = insert_alert(db, "change_point", title,
			  (const char *)sqlite3_column_text(st, 0),
			  sqlite3_column_double(st, 1), 0, 0,
			  sqlite3_column_int64(st, 2), cp,
			  sqlite3_column_int64(st, 3), email, now);
out:
	sqlite3_finalize(st);
	return id;
}

int64_t alerts_raise_bisection(sqlite3 *db, int64_t bisection_id,
			       const char *title, const char *metric,
			       double delta, int64_t exp, const char *report,
			       int email, time_t now)
{
	sqlite3_stmt *st;
	int64_t id;
	int ok;

	if (db_begin(db))
		return -1;
	id = insert_alert_rows(db, "bisection", title, metric, delta, exp, 0, 0,
			       0, 0, email, now);
	if (id < 0)
		goto fail;
	st = db_prepare(db, "UPDATE alerts SET bisection_id = ?, report = ?"
			" WHERE id = ?");
	if (!st)
		goto fail;
	sqlite3_bind_int64(st, 1, bisection_id);
	sqlite3_bind_text(st, 2, report, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	if (ok && !db_commit(db))
		return id;
fail:
	db_rollback(db);
	return -1;
}

int alerts_state_valid(const char *state)
{
	for (int i = 0; states[i]; i++)
		if (!strcmp(states[i], state))
			return 1;
	return 0;
}

int alerts_kind_valid(const char *kind)
{
	return !strcmp(kind, "verdict") || !strcmp(kind, "change_point") ||
	       !strcmp(kind, "bisection");
}

int alerts_set_state(sqlite3 *db, int64_t alert_id, const char *state,
		     const char *who, const char *note, time_t now,
		     struct lab_err *e)
{
	sqlite3_stmt *st;
	int ok;

	if (!alerts_state_valid(state))
		return lab_fail(e, LAB_INVALID, "state must be one of new,"
				" acknowledged, investigating, invalid, fixed,"
				" wontfix");
	if (db_begin(db))
		return lab_fail_db(e, db);
	if (db_int(db, 0, "UPDATE alerts SET updated_at = ? WHERE id = ? RETURNING 1",
		   2, (int64_t)now, alert_id) != 1) {
		db_rollback(db);
		return lab_fail(e, LAB_NOT_FOUND, "no such alert");
	}
	st = db_prepare(db, "UPDATE alerts SET state = ? WHERE id = ?");
	if (!st)
		goto fail;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, alert_id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	if (!ok)
		goto fail;
	st = db_prepare(db, "INSERT INTO alert_history (alert_id, state, who, note, at)"
			" VALUES (?, ?, ?, ?, ?)");
	if (!st)
		goto fail;
	sqlite3_bind_int64(st, 1, alert_id);
	sqlite3_bind_text(st, 2, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, who && *who ? who : "anonymous", -1, SQLITE_STATIC);
	if (note)
		sqlite3_bind_text(st, 4, note, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)now);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	if (!ok || db_commit(db))
		goto fail;
	return 0;
fail:
	lab_fail_db(e, db);
	db_rollback(db);
	return -1;
}

json_t *alerts_list_json(sqlite3 *db, const char *state, const char *kind,
			 int limit, int64_t before, int64_t *next)
{
	char sql[1024];
	sqlite3_stmt *st;
	json_t *a;

	/* Only the filters asked for: an index of (state, id), (kind, id)
	 * or the rowid is searched from the cursor down. */
	snprintf(sql, sizeof(sql),
		"SELECT a.id, a.kind, a.state, a.title, a.metric, a.delta_pct,"
		" a.experiment_id, a.comparison_id, a.series_id, a.change_point_id,"
		" a.host_id, a.created_at, a.updated_at, (SELECT who FROM alert_history"
		" h WHERE h.alert_id = a.id ORDER BY h.id DESC LIMIT 1) AS updated_by"
		" FROM alerts a WHERE a.id < ?3%s%s ORDER BY a.id DESC LIMIT ?4",
		state ? " AND a.state = ?1" : "", kind ? " AND a.kind = ?2" : "");
	*next = 0;
	st = db_prepare(db, sql);
	if (!st)
		return NULL;
	if (state)
		sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	if (kind)
		sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, before > 0 ? before : INT64_MAX);
	sqlite3_bind_int(st, 4, limit + 1);
	a = json_rows(st);
	sqlite3_finalize(st);
	*next = json_page_next(a, limit, "id");
	return a;
}

static json_t *query_json(sqlite3 *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *a = json_array();

	if (!st)
		return a;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		json_t *o = json_object();

		for (int i = 0; i < sqlite3_column_count(st); i++) {
			json_t *v;

			switch (sqlite3_column_type(st, i)) {
			case SQLITE_INTEGER:
				v = json_integer(sqlite3_column_int64(st, i));
				break;
			case SQLITE_FLOAT:
				v = json_real(sqlite3_column_double(st, i));
				break;
			case SQLITE_NULL:
				v = json_null();
				break;
			default:
				v = json_string((const char *)sqlite3_column_text(st, i));
				if (!v)
					v = json_null();
			}
			json_object_set_new(o, sqlite3_column_name(st, i), v);
		}
		json_array_append_new(a, o);
	}
	sqlite3_finalize(st);
	return a;
}

char *alerts_report(sqlite3 *db, int64_t alert_id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT report FROM alerts WHERE id = ?");
	char *r = NULL;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, alert_id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		r = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return r;
}

json_t *alerts_json(sqlite3 *db, int64_t alert_id)
{
	json_t *a = query_json(db,
		"SELECT id, kind, state, title, metric, delta_pct, experiment_id,"
		" comparison_id, series_id, change_point_id, host_id, created_at,"
		" updated_at, bisection_id FROM alerts WHERE id = ?", alert_id);
	json_t *o = json_incref(json_array_get(a, 0));
	char *report;

	json_decref(a);
	if (!o)
		return NULL;
	/* a bisection's event carries the bisection and the report text */
	report = alerts_report(db, alert_id);
	if (report) {
		json_t *r = json_loads(report, 0, NULL);

		json_object_set(o, "bisection", json_object_get(r, "bisection"));
		json_object_set(o, "report", json_object_get(r, "text"));
		json_decref(r);
		free(report);
	}
	json_object_set_new(o, "history", query_json(db,
		"SELECT state, who, note, at FROM alert_history WHERE alert_id = ?"
		" ORDER BY id", alert_id));
	json_object_set_new(o, "deliveries", query_json(db,
		"SELECT id, channel, webhook_id, attempt, status, http_status, error,"
		" next_retry_at, at FROM deliveries WHERE alert_id = ? ORDER BY id",
		alert_id));
	return o;
}

/* ---- email text ---------------------------------------------------------------- */

char *alerts_email_text(sqlite3 *db, int64_t alert_id,
			const struct alerts_smtp *smtp)
{
	json_t *a = alerts_json(db, alert_id);
	const char *kind, *metric;
	char *buf = NULL, *table = NULL;
	size_t len = 0;
	int64_t exp, cmp;
	double delta;
	FILE *f;

	if (!a)
		return NULL;
	kind = json_string_value(json_object_get(a, "kind"));
	metric = json_string_value(json_object_get(a, "metric"));
	delta = json_number_value(json_object_get(a, "delta_pct"));
	exp = json_integer_value(json_object_get(a, "experiment_id"));
	cmp = json_integer_value(json_object_get(a, "comparison_id"));
	if (cmp) {
		sqlite3_stmt *st = db_prepare(db,
			"SELECT json_extract(result, '$.text') FROM comparisons WHERE id = ?");

		if (st) {
			sqlite3_bind_int64(st, 1, cmp);
			if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
				table = strdup((const char *)sqlite3_column_text(st, 0));
			sqlite3_finalize(st);
		}
	}
	f = open_memstream(&buf, &len);
	if (!f)
		goto out;
	fprintf(f, "From: perflab <%s>\r\n", smtp && smtp->from ? smtp->from : "perflab@localhost");
	if (smtp && smtp->to)
		fprintf(f, "To: %s\r\n", smtp->to);
	fprintf(f, "Subject: [perflab] %+.1f%% regression of %s%s%s\r\n",
		delta, metric ? metric : "metric", kind && !strcmp(kind, "verdict") ?
		"" : " (change point)", "");
	fprintf(f, "Message-ID: <perflab-alert-%lld@perflab>\r\n", (long long)alert_id);
	fprintf(f, "Content-Type: text/plain; charset=utf-8\r\n\r\n");
	fprintf(f, "Greeting,\r\n\r\nFYI, we noticed a %+.1f%% regression of %s:\r\n\r\n",
		delta, metric ? metric : "metric");
	fprintf(f, "%s\r\n\r\n", json_string_value(json_object_get(a, "title")));
	if (table) {
		for (char *line = strtok(table, "\n"); line; line = strtok(NULL, "\n"))
			fprintf(f, "%s\r\n", line);
		fprintf(f, "\r\n");
	}
	if (exp)
		fprintf(f, "Details: %s/#/experiments/%lld (perf-diff: %s/api/v1/experiments/%lld/perf-diff?format=text)\r\n",
			smtp && smtp->base_url ? smtp->base_url : "", (long long)exp,
			smtp && smtp->base_url ? smtp->base_url : "", (long long)exp);
	else
		fprintf(f, "Series: %s/api/v1/series?id=%lld\r\n",
			smtp && smtp->base_url ? smtp->base_url : "",
			(long long)json_integer_value(json_object_get(a, "series_id")));
	fprintf(f, "\r\nTriage: PATCH /api/v1/alerts/%lld {\"state\": \"acknowledged\"}\r\n",
		(long long)alert_id);
	fprintf(f, "\r\nThanks,\r\nperflab (kernel test robot style report)\r\n");
	fclose(f);
out:
	free(table);
	json_decref(a);
	return buf;
}

/* ---- delivery ------------------------------------------------------------------ */

struct upload {
	const char *p;
	size_t left;
};

static size_t read_cb(char *buf, size_t size, size_t n, void *arg)
{
	struct upload *u = arg;
	size_t k = size * n < u->left ? size * n : u->left;

	memcpy(buf, u->p, k);
	u->p += k;
	u->left -= k;
	return k;
}

static size_t discard_cb(char *p, size_t size, size_t n, void *arg)
{
	(void)p;
	(void)arg;
	return size * n;
}

static int delivery_stopped;

void alerts_stop_delivery(void)
{
	__atomic_store_n(&delivery_stopped, 1, __ATOMIC_RELEASE);
}

/* curl's progress callback: non-zero aborts a transfer (the daemon stops). */
static int progress_cb(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
		       curl_off_t un)
{
	(void)arg;
	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return __atomic_load_n(&delivery_stopped, __ATOMIC_ACQUIRE);
}

/* The receiver could not be reached or did not answer in time. */
static bool unreachable(CURLcode rc)
{
	return rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_COULDNT_CONNECT ||
	       rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_GOT_NOTHING;
}

/*
 * Connect and answer timeouts: a receiver that accepts and never answers
 * (an SMTP server that never greets) costs one attempt of @timeout_s,
 * not a stalled worker.
 */
static void set_timeouts(CURL *c, int timeout_s)
{
	long t = timeout_s > 0 ? timeout_s : ALERTS_DEFAULT_TIMEOUT_S;

	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, t < 10 ? t : 10L);
	curl_easy_setopt(c, CURLOPT_SERVER_RESPONSE_TIMEOUT, t);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 3 * t);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, t);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, progress_cb);
}

static int send_webhook(const char *url, const char *secret, int64_t did,
			const char *body, int timeout_s, long *status, char *err,
			size_t errlen)
{
	struct curl_slist *h = NULL;
	char sig[65], hdr[128], did_hdr[64];
	CURL *c = curl_easy_init();
	CURLcode rc;

	if (!c) {
		snprintf(err, errlen, "curl init failed");
		return -1;
	}
	alerts_signature(secret, body, strlen(body), sig);
	snprintf(hdr, sizeof(hdr), "X-Perflab-Signature: sha256=%s", sig);
	snprintf(did_hdr, sizeof(did_hdr), "X-Perflab-Delivery: %lld", (long long)did);
	h = curl_slist_append(h, "Content-Type: application/json");
	h = curl_slist_append(h, hdr);
	h = curl_slist_append(h, did_hdr);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	set_timeouts(c, timeout_s);
	/* An HTTP answer must come whole within the timeout. */
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)(timeout_s > 0 ? timeout_s :
						    ALERTS_DEFAULT_TIMEOUT_S));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard_cb);
	rc = curl_easy_perform(c);
	*status = 0;
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	else
		snprintf(err, errlen, "%s", curl_easy_strerror(rc));
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	if (rc == CURLE_OK && (*status < 200 || *status > 299))
		snprintf(err, errlen, "HTTP %ld", *status);
	if (rc == CURLE_OK && *status >= 200 && *status <= 299)
		return 0;
	return unreachable(rc) ? -2 : -1;
}

int alerts_send_mail(const struct alerts_smtp *smtp, const char *rcpts,
		     const char *msg, char *err, size_t errlen)
{
	struct upload u = { msg, strlen(msg) };
	struct curl_slist *rcpt = NULL;
	char *to = strdup(rcpts), *save = NULL, from[256];
	CURL *c = curl_easy_init();
	CURLcode rc = CURLE_FAILED_INIT;

	if (!c || !to)
		goto out;
	for (char *t = strtok_r(to, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		char addr[256];

		snprintf(addr, sizeof(addr), "<%s>", t);
		rcpt = curl_slist_append(rcpt, addr);
	}
	snprintf(from, sizeof(from), "<%s>", smtp->from ? smtp->from : "perflab@localhost");
	curl_easy_setopt(c, CURLOPT_URL, smtp->url);
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
	if (smtp->user)
		curl_easy_setopt(c, CURLOPT_USERNAME, smtp->user);
	if (smtp->password)
		curl_easy_setopt(c, CURLOPT_PASSWORD, smtp->password);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(c, CURLOPT_READDATA, &u);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	set_timeouts(c, smtp->timeout_s);
	rc = curl_easy_perform(c);
out:
	if (rc != CURLE_OK)
		snprintf(err, errlen, "%s", curl_easy_strerror(rc));
	curl_slist_free_all(rcpt);
	if (c)
		curl_easy_cleanup(c);
	free(to);
	return rc == CURLE_OK ? 0 : unreachable(rc) ? -2 : -1;
}

/* Record the outcome; a failure below the cap queues the next attempt. */
static void record(sqlite3 *db, int64_t did, int ok, long status,
		   const char *err, time_t now)
{
	sqlite3_stmt *st = db_prepare(db,
		"UPDATE deliveries SET status = ?, http_status = NULLIF(?, 0),"
		" error = ?, at = ? WHERE id = ?");

	if (!st)
		return;
	sqlite3_bind_text(st, 1, ok ? "ok" : "failed", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, status);
	if (!ok)
		sqlite3_bind_text(st, 3, err, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)now);
	sqlite3_bind_int64(st, 5, did);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (ok)
		return;
	db_int(db, 0, "INSERT INTO deliveries (webhook_id, channel, alert_id,"
	       " attempt, status, next_retry_at, at) SELECT webhook_id, channel,"
	       " alert_id, attempt + 1, 'pending', ? + ? * (1 << (attempt - 1)), ?"
	       " FROM deliveries WHERE id = ? AND attempt < ?", 5, (int64_t)now,
	       (int64_t)ALERTS_BACKOFF_S, (int64_t)now, did,
	       (int64_t)ALERTS_MAX_ATTEMPTS);
}

struct due {
	int64_t id, alert;
	char channel[16];
	char *url, *secret;
	int rc;			/* the attempt: 0 sent, -1 failed, -2 unreachable */
	bool tried;
};

/*
 * Up to 100 due deliveries, oldest first. Email rows wait while SMTP is
 * not configured (@email_ok 0); they are skipped here so that they never
 * fill the batch and starve webhook deliveries behind them.
 */
static int load_due(sqlite3 *db, time_t now, int email_ok,
		    const char *channel, struct due **out, size_t *n)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT d.id, d.alert_id, d.channel, w.url, w.secret FROM deliveries d"
		" LEFT JOIN webhooks w ON w.id = d.webhook_id WHERE d.status = 'pending'"
		" AND COALESCE(d.next_retry_at, 0) <= ? AND (d.channel <> 'email' OR ?)"
		" AND (?3 IS NULL OR d.channel = ?3) ORDER BY d.id LIMIT 100");

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	sqlite3_bind_int(st, 2, email_ok);
	if (channel)
		sqlite3_bind_text(st, 3, channel, -1, SQLITE_STATIC);
	*out = calloc(100, sizeof(**out));
	while (*out && sqlite3_step(st) == SQLITE_ROW) {
		struct due *d = &(*out)[(*n)++];
		const char *url = (const char *)sqlite3_column_text(st, 3);
		const char *sec = (const char *)sqlite3_column_text(st, 4);

		d->id = sqlite3_column_int64(st, 0);
		d->alert = sqlite3_column_int64(st, 1);
		snprintf(d->channel, sizeof(d->channel), "%s",
			 (const char *)sqlite3_column_text(st, 2));
		d->url = url ? strdup(url) : NULL;
		d->secret = sec ? strdup(sec) : NULL;
	}
	sqlite3_finalize(st);
	return *out ? 0 : -1;
}

/* One mail: a bisection's stored report, else the LKP-style alert text. */
static int deliver_email(sqlite3 *db, int64_t alert,
			 const struct alerts_smtp *smtp, char *err,
			 size_t errlen)
{
	char *report = alerts_report(db, alert), *body, *rcpt;
	int ok = -1;

	if (report) {
		body = report_mail_build(report, alert, smtp->from, smtp->to);
		rcpt = report_mail_rcpt(report, smtp->to);
	} else {
		body = alerts_email_text(db, alert, smtp);
		rcpt = strdup(smtp->to);
	}
	if (!body)
		snprintf(err, errlen, "cannot build the mail");
	if (body && rcpt)
		ok = alerts_send_mail(smtp, rcpt, body, err, errlen);
	free(report);
	free(body);
	free(rcpt);
	return ok;
}

/*
 * Due row @i goes to a receiver that did not answer earlier in this
 * round: it waits for the next round instead of another timeout.
 */
static bool receiver_down(const struct due *due, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (due[j].tried && due[j].rc == -2 &&
		    !strcmp(due[j].channel, due[i].channel) &&
		    (!strcmp(due[i].channel, "email") ||
		     (due[j].url && due[i].url && !strcmp(due[j].url, due[i].url))))
			return true;
	return false;
}

static int deliver_webhook(sqlite3 *db, struct due *d, int timeout_s,
			   long *status, char *err, size_t errlen)
{
	json_t *a = alerts_json(db, d->alert);
	char *body = a ? json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	int rc = -1;

	json_decref(a);
	if (!d->url)
		snprintf(err, errlen, "webhook deleted");
	else if (body)
		rc = send_webhook(d->url, d->secret ? d->secret : "", d->id, body,
				  timeout_s, status, err, errlen);
	free(body);
	return rc;
}

int alerts_deliver_channel(sqlite3 *db, const struct alerts_smtp *smtp,
			   const char *channel, time_t now)
{
	int email_ok = smtp && smtp->url && smtp->to;
	struct due *due;
	size_t n;
	sqlite3 *w;
	int tried = 0;

	if (load_due(db, now, email_ok, channel, &due, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		char err[256] = "";
		long status = 0;

		if (__atomic_load_n(&delivery_stopped, __ATOMIC_ACQUIRE))
			break;
		if (receiver_down(due, i))
			continue;
		if (!strcmp(due[i].channel, "email"))
			due[i].rc = deliver_email(db, due[i].alert, smtp, err,
						  sizeof(err));
		else
			due[i].rc = deliver_webhook(db, &due[i], smtp ?
						    smtp->timeout_s : 0, &status,
						    err, sizeof(err));
		due[i].tried = true;
		/* Sent outside the lock; the outcome under it. */
		w = db_write_lock(db);
		record(w, due[i].id, due[i].rc == 0, status, err, now);
		db_write_unlock(db, w);
		tried++;
	}
	for (size_t i = 0; i < n; i++) {
		free(due[i].url);
		free(due[i].secret);
	}
	free(due);
	return tried;
}

int alerts_deliver_due(sqlite3 *db, const struct alerts_smtp *smtp, time_t now)
{
	return alerts_deliver_channel(db, smtp, NULL, now);
}
