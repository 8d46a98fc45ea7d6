// SPDX-License-Identifier: MIT
/*
 * The watch worker; see watch_worker.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/watch_poll.h"
#include "daemon/lab/watch_reply.h"
#include "daemon/lab/watch_store.h"
#include "daemon/lab/watch_submit.h"
#include "daemon/lab/watch_worker.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

#define WATCHES_PER_TICK 4
#define SERIES_PER_POLL 8

static struct {
	struct watch_worker_config cfg;
	struct worker w;
	bool started;
} WW;

static void poll_one(store_conn *db, const struct watch_row *row, time_t now)
{
	struct watch_store_stats st;
	struct watch_batch b;
	struct lab_err e;
	store_conn *w;
	int rc, q;

	/* lei first, off every lock. */
	rc = watch_poll_read(row, now, &b, &e);
	w = db_write_lock(db);
	if (watch_store_batch(w, row, rc ? NULL : &b, rc ? e.msg : NULL, now, &st))
		fprintf(stderr, "perflabd: watch %lld: cannot store its poll\n",
			(long long)row->id);
	db_write_unlock(db, w);
	watch_batch_free(&b);
	q = rc ? 0 : watch_submit_complete(db, row->id, SERIES_PER_POLL,
					   WW.cfg.max_queued);
	watches_poll_done(db, row);
	if (q > 0 && WW.cfg.on_queued)
		WW.cfg.on_queued();
}

/* Complete series a poll left (it submits SERIES_PER_POLL), or that
 * waited for quota: a few more every tick, not at the next poll. */
static void submit_backlog(store_conn *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT watch_id FROM"
				      " watch_series WHERE state = 'complete' LIMIT 4");
	int64_t ids[4];
	int n = 0, q = 0;

	if (!st)
		return;
	while (n < 4 && sqlite3_step(st) == SQLITE_ROW)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++)
		q += watch_submit_complete(db, ids[i], SERIES_PER_POLL, WW.cfg.max_queued) > 0;
	if (q && WW.cfg.on_queued)
		WW.cfg.on_queued();
}

static void tick(void *arg)
{
	struct watch_row rows[WATCHES_PER_TICK];
	store_conn *db = db_pool_get(WW.cfg.pool);
	time_t now = time(NULL);
	int n;

	(void)arg;
	if (!db)
		return;
	n = watches_due(db, now, rows, WATCHES_PER_TICK);
	for (int i = 0; i < n; i++)
		poll_one(db, &rows[i], now);
	submit_backlog(db);
	watch_reply_plan(db, &WW.cfg.smtp, now);
	watch_reply_send(db, &WW.cfg.smtp, WW.cfg.reply_inbox, now);
	db_pool_put(WW.cfg.pool, db);
}

int watch_worker_start(const struct watch_worker_config *c)
{
	WW.cfg = *c;
	if (worker_start(&WW.w, "watches", 1, 1000, tick, NULL))
		return -1;
	WW.started = true;
	return 0;
}

void watch_worker_stop(void)
{
	if (!WW.started)
		return;
	worker_stop(&WW.w);
	WW.started = false;
	watch_poll_stop();
}

void watch_worker_kick(void)
{
	if (WW.started)
		worker_kick(&WW.w);
}

struct worker *watch_worker(void)
{
	return &WW.w;
}
