/* SPDX-License-Identifier: MIT */
/*
 * lava_worker: the runner of every LAVA lab's host (lava.h), one thread.
 *
 * Each pass (every second, or at once when a callback kicks it) it
 * loads the enabled labs and for each:
 *   - keeps the perflab lease of its open LAVA job alive (a lease that is
 *     gone - the experiment was cancelled, or the lease expired while
 *     perflabd was down - cancels the LAVA job);
 *   - a job being submitted: renders its definition and POSTs it to LAVA
 *     (a job whose kernel image is not built yet waits, with the key in
 *     its message; a refusal fails it "infrastructure");
 *   - a submitted job: polls LAVA every poll_seconds, or at once after its
 *     callback, and when it finished fetches its log and stores the run or
 *     the failure;
 *   - no open job: claims the next one of the host (experiment order,
 *     one at a time, like a runner).
 * Reads use the worker's pool connection; writes take the writer lock for
 * the short transactions only. Every LAVA call (extsched.h) happens with
 * no lock held.
 */
#ifndef PERFLAB_LAVA_WORKER_H
#define PERFLAB_LAVA_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon/lab/jobs.h"
#include "daemon/lab/lava.h"
#include "daemon/store/db.h"
#include "daemon/store/writer.h"

#define LAVA_WORKER_KEPT 64	/* open LAVA jobs whose keepalive is tracked */

struct lava_worker {
	struct db_pool *pool;
	struct db_writer *writer;
	struct jobs_ctx jc;
	struct lava_cfg cfg;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t kicks;
	bool stopping, started;
	pthread_t thread;
	struct { int64_t row; time_t at; } kept[LAVA_WORKER_KEPT];
};

int lava_worker_start(struct lava_worker *w, struct db_pool *pool,
		      struct db_writer *writer, const struct jobs_ctx *jc,
		      const struct lava_cfg *cfg);
/* A callback arrived: look now. */
void lava_worker_kick(struct lava_worker *w);
void lava_worker_stop(struct lava_worker *w);

#endif
