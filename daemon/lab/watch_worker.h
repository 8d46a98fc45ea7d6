/* SPDX-License-Identifier: MIT */
/*
 * The watch worker (lab/workers.h starts and stops it): every second it
 * takes the watches that are due (their timer, or POST .../poll) and for
 * each runs lei off any lock (watch_poll.h), stores the batch in one
 * short write (watch_store.h), then submits the series that became
 * complete (watch_submit.h); then it plans and sends the replies of
 * series whose experiment ended (watch_reply.h).
 */
#ifndef PERFLAB_WATCH_WORKER_H
#define PERFLAB_WATCH_WORKER_H

#include "daemon/lab/alerts.h"
#include "daemon/lab/worker.h"
#include "daemon/store/db.h"

struct watch_worker_config {
	struct db_pool *pool;
	int max_queued;			/* perflabd --max-queued-runs */
	void (*on_queued)(void);	/* experiments were queued */
	struct alerts_smtp smtp;	/* the replies (watch_reply.h) */
	const char *reply_inbox;	/* --reply-inbox, or NULL */
};

int watch_worker_start(const struct watch_worker_config *c);
/* After gitmirror_cancel_all(): the lei in hand is killed; then lei's
 * own daemon is stopped. */
void watch_worker_stop(void);
/* Look at the due watches now (a watch was made or a poll asked for). */
void watch_worker_kick(void);
/* For /metrics (workers_stats). */
struct worker *watch_worker(void);

#endif
