// SPDX-License-Identifier: MIT
/*
 * The analysis worker thread; see analysis_worker.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/analysis.h"
#include "daemon/lab/analysis_worker.h"

/* After a failed pass, look again this much later (ms). */
#define RETRY_MS 2000
/* Experiments stored per hold of the writer lock. */
#define BATCH 8

static void deadline(struct timespec *t, int ms)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

/*
 * Wait until kicked after @seen, stopped, or @ms passed (< 0: no limit).
 * Called with w->lock held.
 */
static void wait_kick(struct analysis_worker *w, uint64_t seen, int ms)
{
	struct timespec dl;

	if (ms >= 0)
		deadline(&dl, ms);
	while (!w->stopping && w->kicks == seen) {
		if (ms < 0)
			pthread_cond_wait(&w->cond, &w->lock);
		else if (pthread_cond_timedwait(&w->cond, &w->lock, &dl) == ETIMEDOUT)
			break;
	}
}

/* The test knob: a pause only a stop cuts short. */
static void test_delay(struct analysis_worker *w)
{
	struct timespec dl;

	if (w->delay_ms <= 0)
		return;
	deadline(&dl, w->delay_ms);
	pthread_mutex_lock(&w->lock);
	while (!w->stopping &&
	       pthread_cond_timedwait(&w->cond, &w->lock, &dl) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&w->lock);
}

static bool stopping(struct analysis_worker *w)
{
	bool s;

	pthread_mutex_lock(&w->lock);
	s = w->stopping;
	pthread_mutex_unlock(&w->lock);
	return s;
}

static void publish(struct analysis_worker *w, sqlite3 *db, int64_t exp)
{
	sqlite3_stmt *st;

	if (!w->notify)
		return;
	st = db_prepare(db, "SELECT state FROM experiments WHERE id = ?");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, exp);
	if (sqlite3_step(st) == SQLITE_ROW)
		w->notify(w->notify_arg, exp, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/*
 * Still to analyse? Cancelled meanwhile: the mark is gone. Runs still
 * to come (never the case for a mark set by settling): not yet, the
 * next settle marks it again.
 */
static int64_t still_pending(sqlite3 *w, int64_t exp)
{
	return db_int(w, -1, "SELECT analysis_pending != 0 AND NOT EXISTS"
		      " (SELECT 1 FROM jobs WHERE experiment_id = ?1 AND state IN"
		      " ('queued', 'claimed', 'running')) FROM experiments WHERE"
		      " id = ?1", 1, exp);
}

/* Store @p for @exp on the writer; *@pending says whether it was due. */
static int store_one(sqlite3 *wdb, int64_t exp, struct analysis_plan *p,
		     int64_t *pending)
{
	char err[256];
	int rc;

	*pending = still_pending(wdb, exp);
	if (*pending == 1)
		return analysis_store(wdb, exp, p);	/* says why it failed */
	if (*pending == 0)
		rc = db_int(wdb, -1, "UPDATE experiments SET analysis_pending = 0"
			    " WHERE id = ? RETURNING 0", 1, exp) ? -1 : 0;
	else
		rc = -1;
	if (rc) {
		snprintf(err, sizeof(err), "%s", sqlite3_errmsg(wdb));
		fprintf(stderr, "perflabd: cannot store the analysis of experiment"
			" %lld: %s\n", (long long)exp, err);
	}
	return rc;
}

/*
 * Analyse the experiments @ids[0..n): compute each on @rdb, then store
 * them all in one hold of the writer lock (under a storm of runner
 * requests every hold waits its turn behind them). 0 or -1.
 */
static int analyse(struct analysis_worker *w, sqlite3 *rdb, const int64_t *ids,
		   int n)
{
	struct analysis_plan *p[BATCH];
	int64_t pending[BATCH];
	sqlite3 *wdb;
	int i, rc = 0;

	/* One read snapshot (WAL: the writer goes on meanwhile). */
	db_exec(rdb, "BEGIN");
	for (i = 0; i < n; i++) {
		p[i] = analysis_prepare(rdb, ids[i]);
		if (!p[i])
			fprintf(stderr, "perflabd: analysis of experiment %lld failed\n",
				(long long)ids[i]);
	}
	db_rollback(rdb);	/* ends the read transaction */
	wdb = db_writer_lock(w->writer);
	for (i = 0; i < n; i++)
		if (store_one(wdb, ids[i], p[i], &pending[i]))
			rc = -1;
	db_writer_unlock(w->writer);
	for (i = 0; i < n; i++) {
		analysis_plan_free(p[i]);
		if (pending[i] == 1)
			publish(w, rdb, ids[i]);
	}
	return rc;
}

/* Up to BATCH marked experiments, oldest first: their count, or -1. */
static int next_batch(sqlite3 *rdb, int64_t *ids)
{
	sqlite3_stmt *st = db_prepare(rdb, "SELECT id FROM experiments WHERE"
				      " analysis_pending != 0 ORDER BY id LIMIT ?");
	int n = 0, rc;

	if (!st)
		return -1;
	sqlite3_bind_int(st, 1, BATCH);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < BATCH)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || n == BATCH ? n : -1;
}

/* Analyse every marked experiment, oldest first. 0, or -1 on an error. */
static int drain(struct analysis_worker *w, sqlite3 *rdb)
{
	int64_t ids[BATCH];
	int n;

	while (!stopping(w)) {
		n = next_batch(rdb, ids);
		if (n <= 0)
			return n;
		test_delay(w);
		if (stopping(w) || analyse(w, rdb, ids, n))
			return -1;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct analysis_worker *w = arg;
	uint64_t seen;
	int failed = 0;

	pthread_mutex_lock(&w->lock);
	seen = w->kicks - 1;	/* start with a pass: marks left behind */
	pthread_mutex_unlock(&w->lock);

	for (;;) {
		sqlite3 *rdb;

		pthread_mutex_lock(&w->lock);
		wait_kick(w, seen, failed ? RETRY_MS : -1);
		seen = w->kicks;
		if (w->stopping) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		pthread_mutex_unlock(&w->lock);
		rdb = db_pool_get(w->pool);
		failed = !rdb || drain(w, rdb);
		if (rdb)
			db_pool_put(w->pool, rdb);
	}
	return NULL;
}

int analysis_worker_start(struct analysis_worker *w, struct db_pool *pool,
			  struct db_writer *writer, analysis_notify_fn *notify,
			  void *notify_arg)
{
	pthread_condattr_t ca;
	const char *d = getenv("PERFLABD_TEST_ANALYSIS_DELAY_MS");

	w->pool = pool;
	w->writer = writer;
	w->notify = notify;
	w->notify_arg = notify_arg;
	w->delay_ms = d ? atoi(d) : 0;
	w->kicks = 0;
	w->stopping = false;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	w->started = pthread_create(&w->thread, NULL, worker_main, w) == 0;
	return w->started ? 0 : -1;
}

void analysis_worker_kick(struct analysis_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->kicks++;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void analysis_worker_stop(struct analysis_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	if (w->started)
		pthread_join(w->thread, NULL);
	w->started = false;
}

void analysis_worker_destroy(struct analysis_worker *w)
{
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}
