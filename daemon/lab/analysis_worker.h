/* SPDX-License-Identifier: MIT */
/*
 * The analysis worker: one thread that analyses experiments whose last
 * job finished, off the request path (in the spirit of Redis's bio.c).
 *
 * The queue is durable: jobs_settle_experiment() sets the experiment's
 * analysis_pending mark in the transaction that stores the last result,
 * and the experiment stays 'running'. The upload then kicks the worker
 * (a counter and a condition variable) and answers. The worker takes the
 * oldest marked experiment, reads and computes on its own pool connection
 * (analysis_prepare) and takes the writer lock only to store the results,
 * clear the mark and set the state (analysis_store, writer.h). Then it
 * tells the server the experiment's state ('done', or 'running' when more
 * runs were planned), which publishes it on the event stream.
 *
 * Stop finishes the experiment in hand and leaves the other marks in the
 * database; start always looks for marks, so a restarted daemon completes
 * what the last one left.
 *
 * For tests, PERFLABD_TEST_ANALYSIS_DELAY_MS=N makes the worker wait N ms
 * before each analysis (a stop cuts the wait short).
 */
#ifndef PERFLAB_ANALYSIS_WORKER_H
#define PERFLAB_ANALYSIS_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon/store/db.h"
#include "daemon/store/writer.h"

/* An experiment's analysis was stored; @state is its state now. */
typedef void analysis_notify_fn(void *arg, int64_t experiment_id,
				const char *state);

struct analysis_worker {
	struct db_pool *pool;		/* the worker's read connection */
	struct db_writer *writer;	/* for storing results */
	analysis_notify_fn *notify;	/* may be NULL */
	void *notify_arg;
	int delay_ms;			/* test knob, see above */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t kicks;			/* bumped by analysis_worker_kick */
	bool stopping, started;
	pthread_t thread;
};

/* Start the thread; it first looks for marks left behind. 0 or -1. */
int analysis_worker_start(struct analysis_worker *w, struct db_pool *pool,
			  struct db_writer *writer, analysis_notify_fn *notify,
			  void *notify_arg);
/* An experiment was marked: look for work. Harmless after stop. */
void analysis_worker_kick(struct analysis_worker *w);
/* Finish the analysis in hand and join the thread; marks stay durable. */
void analysis_worker_stop(struct analysis_worker *w);
/* After stop, once nothing can kick any more. */
void analysis_worker_destroy(struct analysis_worker *w);

#endif
