// SPDX-License-Identifier: MIT
/*
 * lava_worker: the LAVA labs' thread; see lava_worker.h.
 */
#include "daemon/lab/lava_worker.h"
#include "daemon/lab/extsched.h"
#include "daemon/lab/lava_image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PASS_MS 1000

static const struct extsched_ops *ops = &extsched_lava;

/* When the worker last extended an open job's lease (in memory: after a
 * restart the first pass extends them all). */
static time_t kept_at(struct lava_worker *w, int64_t row)
{
	for (int i = 0; i < LAVA_WORKER_KEPT; i++)
		if (w->kept[i].row == row)
			return w->kept[i].at;
	return 0;
}

static void set_kept(struct lava_worker *w, int64_t row, time_t at)
{
	int slot = 0;

	for (int i = 0; i < LAVA_WORKER_KEPT; i++) {
		if (w->kept[i].row == row) {
			slot = i;
			break;
		}
		if (w->kept[i].at < w->kept[slot].at)
			slot = i;
	}
	w->kept[slot].row = row;
	w->kept[slot].at = at;
}

static bool stopping(struct lava_worker *w)
{
	bool s;

	pthread_mutex_lock(&w->lock);
	s = w->stopping;
	pthread_mutex_unlock(&w->lock);
	return s;
}

/* Keep the lease; 0 alive, 1 gone (LAVA job cancelled, row closed). */
static int keep(struct lava_worker *w, const struct lava_lab *lab,
		const struct lava_open *o, const char *phase, const char *msg)
{
	char err[256];
	store_conn *db = db_writer_lock(w->writer);
	int rc = lava_keepalive(db, &w->jc, o, phase, msg, time(NULL));

	if (rc == 1)
		lava_close(db, &w->jc, o, "stale", "the perflab job moved on"
			   " (cancelled, or its lease expired)", 0, time(NULL));
	db_writer_unlock(w->writer);
	if (rc == 1 && o->lava_id && ops->cancel(lab, o->lava_id, err, sizeof(err)))
		fprintf(stderr, "perflabd: %s: %s\n", lab->name, err);
	return rc == 1;
}

static void submit(struct lava_worker *w, store_conn *rdb, const struct lava_lab *lab,
		   const struct lava_open *o)
{
	struct lava_submission s;
	struct lava_image img;
	const char *reason;
	char err[1024], *def = NULL;
	int64_t id = 0;
	int retry = 0, rc = -1;
	store_conn *db;

	if (lava_submission_load(rdb, &w->jc, o, &s) ||
	    lava_new_token(s.token)) {
		lava_submission_free(&s);
		return;
	}
	def = lava_render(&w->cfg, lab, &s, &img, &reason, err, sizeof(err));
	if (def) {
		db = db_writer_lock(w->writer);
		rc = lava_set_token(db, o->row, s.token, img.key, def);
		db_writer_unlock(w->writer);
		if (!rc)
			rc = ops->submit(lab, def, &id, &retry, err, sizeof(err));
	}
	db = db_writer_lock(w->writer);
	if (!rc)
		lava_mark_submitted(db, &w->jc, lab, o->row, id, time(NULL));
	else if (def && retry)
		lava_set_message(db, o->row, err);
	else
		lava_close(db, &w->jc, o, def ? "infrastructure" : reason, err,
			   1, time(NULL));
	db_writer_unlock(w->writer);
	if (rc && def && retry)
		keep(w, lab, o, "boot", err);
	free(def);
	lava_submission_free(&s);
}

static void finish(struct lava_worker *w, const struct lava_lab *lab,
		   const struct lava_open *o, const struct extsched_job *j)
{
	struct lava_outcome out;
	char err[256], *log = NULL;
	size_t len = 0;
	store_conn *db;

	if (strcmp(j->state, "Gone") &&
	    ops->log(lab, o->lava_id, &log, &len, err, sizeof(err))) {
		fprintf(stderr, "perflabd: %s: %s\n", lab->name, err);
		return;		/* the next poll tries again */
	}
	if (lava_outcome_prepare(&w->cfg, o, j, log, len, &out)) {
		free(log);
		return;
	}
	free(log);
	db = db_writer_lock(w->writer);
	if (lava_store_outcome(db, &w->jc, o, &out, time(NULL)))
		fprintf(stderr, "perflabd: %s: cannot store LAVA job %lld\n",
			lab->name, (long long)o->lava_id);
	db_writer_unlock(w->writer);
	lava_outcome_free(&out);
}

static void poll_one(struct lava_worker *w, const struct lava_lab *lab,
		     const struct lava_open *o)
{
	struct extsched_job j;
	char err[512], msg[700];
	time_t now = time(NULL);
	store_conn *db;

	if (strcmp(o->state, "fetching") && now - o->polled_at < lab->poll_seconds) {
		/* Between polls: the lease only, every third of it. */
		if (now - kept_at(w, o->row) >= w->jc.lease_seconds / 3 &&
		    !keep(w, lab, o, NULL, NULL))
			set_kept(w, o->row, now);
		return;
	}
	set_kept(w, o->row, now);
	if (ops->status(lab, o->lava_id, &j, err, sizeof(err))) {
		fprintf(stderr, "perflabd: %s: %s\n", lab->name, err);
		keep(w, lab, o, NULL, err);
		db = db_writer_lock(w->writer);
		lava_mark_polled(db, o->row, now);
		db_writer_unlock(w->writer);
		return;
	}
	db = db_writer_lock(w->writer);
	lava_mark_polled(db, o->row, now);
	db_writer_unlock(w->writer);
	if (j.finished) {
		finish(w, lab, o, &j);
		return;
	}
	snprintf(msg, sizeof(msg), "LAVA job %lld: %s", (long long)o->lava_id,
		 j.state);
	keep(w, lab, o, !strcmp(j.state, "Running") ? "run" : "boot", msg);
}

static void claim(struct lava_worker *w, const struct lava_lab *lab)
{
	struct lava_submission s;
	store_conn *db = db_writer_lock(w->writer);
	int rc = lava_claim(db, &w->jc, lab, time(NULL), &s);

	db_writer_unlock(w->writer);
	if (rc < 0)
		fprintf(stderr, "perflabd: %s: claim failed\n", lab->name);
	lava_submission_free(&s);
}

static void pass(struct lava_worker *w, store_conn *rdb)
{
	struct lava_lab *labs;
	int n = lava_labs_load(rdb, &labs);

	for (int i = 0; i < n && !stopping(w); i++) {
		struct lava_open *open;
		int k = lava_open_jobs(rdb, labs[i].id, &open);

		for (int m = 0; m < k && !stopping(w); m++) {
			if (!strcmp(open[m].state, "submitting"))
				submit(w, rdb, &labs[i], &open[m]);
			else
				poll_one(w, &labs[i], &open[m]);
		}
		if (k == 0)
			claim(w, &labs[i]);
		free(open);
	}
	for (int i = 0; i < n; i++)
		lava_lab_free(&labs[i]);
	free(labs);
}

static void *worker_main(void *arg)
{
	struct lava_worker *w = arg;
	struct timespec dl;
	uint64_t seen = 0;

	for (;;) {
		store_conn *rdb = db_pool_get(w->pool);

		if (rdb) {
			pass(w, rdb);
			db_pool_put(w->pool, rdb);
		}
		pthread_mutex_lock(&w->lock);
		clock_gettime(CLOCK_MONOTONIC, &dl);
		dl.tv_sec += PASS_MS / 1000;
		while (!w->stopping && w->kicks == seen &&
		       pthread_cond_timedwait(&w->cond, &w->lock, &dl) != ETIMEDOUT)
			;
		seen = w->kicks;
		if (w->stopping) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		pthread_mutex_unlock(&w->lock);
	}
	return NULL;
}

int lava_worker_start(struct lava_worker *w, struct db_pool *pool,
		      struct db_writer *writer, const struct jobs_ctx *jc,
		      const struct lava_cfg *cfg)
{
	pthread_condattr_t ca;

	w->pool = pool;
	w->writer = writer;
	w->jc = *jc;
	w->cfg = *cfg;
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

void lava_worker_kick(struct lava_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->kicks++;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void lava_worker_stop(struct lava_worker *w)
{
	if (!w->started)
		return;
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->started = false;
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}
