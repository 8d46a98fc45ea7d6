// SPDX-License-Identifier: MIT
/*
 * The lab's background workers; see workers.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/alerts.h"
#include "daemon/lab/bisect_run.h"
#include "daemon/lab/builds.h"
#include "daemon/lab/images.h"
#include "daemon/lab/series.h"
#include "daemon/lab/tracks.h"
#include "daemon/lab/watch_worker.h"
#include "daemon/lab/workers.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

#define TICK_MS 1000

static struct {
	struct workers_config cfg;
	struct worker leases, tracks, bisect, mail, webhooks, images, retention;
	struct retention ret;
	bool git;
} W;

static void kick_claims(void)
{
	job_queue_kick(W.cfg.queue);
}

/* Expired leases back to the queue; tracked baselines due queued. */
static void leases_tick(void *arg)
{
	sqlite3 *db = db_pool_get(W.cfg.pool), *w;
	time_t now = time(NULL);
	int n;

	(void)arg;
	if (!db)
		return;
	w = db_write_lock(db);
	n = jobs_expire(w, &W.cfg.jobs, now);
	/* Build tasks whose builder went away. */
	n += builds_expire(w, &W.cfg.jobs, now);
	if (series_baselines_tick(w, now) > 0)
		n++;
	db_write_unlock(db, w);
	db_pool_put(W.cfg.pool, db);
	if (n > 0)
		kick_claims();
}

static void tracks_tick(void *arg)
{
	sqlite3 *db;

	(void)arg;
	if (W.cfg.track_poll <= 0 || !(db = db_pool_get(W.cfg.pool)))
		return;
	tracks_poll_due(db, W.cfg.track_poll, time(NULL));
	db_pool_put(W.cfg.pool, db);
}

static void bisect_tick(void *arg)
{
	sqlite3 *db = db_pool_get(W.cfg.pool);
	int n = 0;

	(void)arg;
	if (!db)
		return;
	if (tracks_bisect_change_points(db) > 0)
		n++;
	bisect_run_prepare(db, &W.cfg.jobs);
	if (bisect_run_sweep(db) > 0)
		n++;
	db_pool_put(W.cfg.pool, db);
	if (n > 0)
		kick_claims();
}

static void deliver(const char *channel)
{
	sqlite3 *db = db_pool_get(W.cfg.pool);

	if (!db)
		return;
	alerts_deliver_channel(db, &W.cfg.smtp, channel, time(NULL));
	db_pool_put(W.cfg.pool, db);
}

/* Old images no experiment needs (images.h; it runs hourly). */
static void images_tick(void *arg)
{
	sqlite3 *db;

	(void)arg;
	if (!W.cfg.images || !(db = db_pool_get(W.cfg.pool)))
		return;
	images_gc_tick(W.cfg.images, db, time(NULL));
	db_pool_put(W.cfg.pool, db);
}

/* Old runs' detail (retention.h): one experiment a tick while due. */
static void retention_tick(void *arg)
{
	sqlite3 *db;

	(void)arg;
	if (W.ret.age_s <= 0 || !(db = db_pool_get(W.cfg.pool)))
		return;
	if (retention_step(&W.ret, db, time(NULL)) > 0)
		worker_kick(&W.retention);	/* more at once */
	db_pool_put(W.cfg.pool, db);
}

void workers_retention_stats(struct retention_stats *s)
{
	retention_stats(&W.ret, s);
}

static void mail_tick(void *arg)
{
	(void)arg;
	if (W.cfg.smtp.url && W.cfg.smtp.to)
		deliver("email");
}

static void webhooks_tick(void *arg)
{
	(void)arg;
	deliver("webhook");
}

int workers_start(const struct workers_config *c)
{
	W.cfg = *c;
	memset(&W.ret, 0, sizeof(W.ret));
	W.ret.age_s = c->retention_s;
	if (fetcher_start(&c->git))
		return -1;
	W.git = true;
	if (worker_start(&W.leases, "leases", 1, TICK_MS, leases_tick, NULL) ||
	    worker_start(&W.tracks, "tracks", 1, TICK_MS, tracks_tick, NULL) ||
	    worker_start(&W.bisect, "bisect", 1, TICK_MS, bisect_tick, NULL) ||
	    worker_start(&W.mail, "mail", 1, TICK_MS, mail_tick, NULL) ||
	    worker_start(&W.webhooks, "webhooks", 1, TICK_MS, webhooks_tick,
			 NULL) ||
	    worker_start(&W.images, "images", 1, TICK_MS, images_tick, NULL) ||
	    worker_start(&W.retention, "retention", 1, TICK_MS, retention_tick,
			 NULL) ||
	    watch_worker_start(&(struct watch_worker_config){ .pool = c->pool,
			       .max_queued = c->max_queued,
			       .on_queued = kick_claims, .smtp = c->smtp,
			       .reply_inbox = c->reply_inbox })) {
		workers_stop();
		return -1;
	}
	tracks_use_worker(&W.tracks, W.cfg.pool);
	tracks_on_queued(kick_claims);
	return 0;
}

void workers_stop(void)
{
	/* Cut blocking calls short first: git, SMTP, webhooks. */
	alerts_stop_delivery();
	if (W.git)
		fetcher_stop();
	W.git = false;
	worker_stop(&W.tracks);
	tracks_use_worker(NULL, NULL);
	worker_stop(&W.bisect);
	worker_stop(&W.mail);
	worker_stop(&W.webhooks);
	worker_stop(&W.images);
	worker_stop(&W.retention);
	watch_worker_stop();	/* its lei was killed with git */
	worker_stop(&W.leases);
}

void workers_kick_bisect(void)
{
	worker_kick(&W.bisect);
}

/* ---- /metrics ---------------------------------------------------------- */

/* "SELECT count, oldest timestamp" of a backlog in the database. */
static void backlog(sqlite3 *db, struct worker_stats *st, const char *sql,
		    time_t now)
{
	sqlite3_stmt *s = db_prepare(db, sql);

	if (!s)
		return;
	sqlite3_bind_int64(s, 1, (int64_t)now);
	if (sqlite3_step(s) == SQLITE_ROW) {
		st->depth = (size_t)sqlite3_column_int64(s, 0);
		st->oldest_s = sqlite3_column_type(s, 1) == SQLITE_NULL ? 0 :
			       (double)(now - sqlite3_column_int64(s, 1));
		if (st->oldest_s < 0)
			st->oldest_s = 0;
	}
	sqlite3_finalize(s);
}

static const char *const backlog_sql[] = {
	/* leases: expired, not yet requeued */
	"SELECT count(*), min(lease_expires) FROM jobs WHERE state IN"
	" ('claimed', 'running') AND lease_expires < ?1",
	/* bisect: lists to read, and steps whose experiment ended */
	"SELECT (SELECT count(*) FROM bisections WHERE state = 'running' AND"
	" commits = '[]') + (SELECT count(*) FROM bisection_steps s JOIN"
	" experiments e ON e.id = s.experiment_id JOIN bisections b ON b.id ="
	" s.bisection_id WHERE s.state IN ('queued', 'running') AND b.state ="
	" 'running' AND e.state IN ('failed', 'cancelled', 'done') AND"
	" e.analysis_pending = 0), (SELECT min(created_at) FROM bisections"
	" WHERE state = 'running' AND commits = '[]' AND ?1 = ?1)",
	/* mail, webhooks: deliveries that are due */
	"SELECT count(*), min(coalesce(next_retry_at, at)) FROM deliveries"
	" WHERE status = 'pending' AND channel = 'email' AND"
	" coalesce(next_retry_at, 0) <= ?1",
	"SELECT count(*), min(coalesce(next_retry_at, at)) FROM deliveries"
	" WHERE status = 'pending' AND channel = 'webhook' AND"
	" coalesce(next_retry_at, 0) <= ?1",
	/* analysis: marked experiments, since their last job ended */
	"SELECT count(*), min(t) FROM (SELECT (SELECT max(finished_at) FROM"
	" jobs WHERE experiment_id = e.id) AS t FROM experiments e WHERE"
	" e.analysis_pending != 0 AND ?1 = ?1)",
};

int workers_stats(sqlite3 *rdb, struct workers_row *rows, int max)
{
	struct {
		const char *name;
		struct worker *w;
		int sql;	/* backlog_sql index, -1: the in-memory queue */
	} k[] = {
		{ "leases", &W.leases, 0 },
		{ "git", fetcher_worker(), -1 },
		{ "tracks", &W.tracks, -1 },
		{ "bisect", &W.bisect, 1 },
		{ "mail", &W.mail, 2 },
		{ "webhooks", &W.webhooks, 3 },
		{ "images", &W.images, -1 },
		{ "retention", &W.retention, -1 },
		{ "analysis", NULL, 4 },
		{ "watches", watch_worker(), -1 },
	};
	time_t now = time(NULL);
	int n = 0;

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]) && n < max; i++) {
		struct workers_row *r = &rows[n++];

		memset(r, 0, sizeof(*r));
		r->name = k[i].name;
		if (k[i].w)
			worker_stats(k[i].w, &r->st);
		if (k[i].sql == 2 && !(W.cfg.smtp.url && W.cfg.smtp.to))
			continue;	/* no SMTP: mail is not its backlog */
		if (k[i].sql >= 0 && rdb)
			backlog(rdb, &r->st, backlog_sql[k[i].sql], now);
		if (k[i].w == &W.retention && W.ret.age_s > 0) {
			struct retention_stats rs;

			/* Its queue: the due experiments of the pass (and
			 * how long the oldest of them has been due). */
			retention_stats(&W.ret, &rs);
			r->st.depth = (size_t)rs.pending;
			r->st.oldest_s = rs.pending && rs.oldest ?
				(double)(now - rs.oldest - W.ret.age_s) : 0;
			if (r->st.oldest_s < 0)
				r->st.oldest_s = 0;
		}
	}
	return n;
}
