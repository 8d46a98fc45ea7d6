/* SPDX-License-Identifier: MIT */
/*
 * The lab's background work, by kind, each kind on threads of its own
 * (worker.h), so that one slow upstream or receiver stalls only its own
 * kind. Owned by lab/, started and stopped by the server:
 *
 *   leases    lease expiry and requeue, tracked baselines that are due;
 *             a 1 s tick that takes nothing but the writer lock, which
 *             no network I/O holds (writer.h)
 *   git       fetches of the bases' mirrors (fetcher.h, --git-fetchers)
 *   tracks    the track timer (--track-poll) and the second half of
 *             every background poll, after its fetch
 *   bisect    first-parent lists of new bisections, bisections of
 *             confirmed change points, steps whose experiment failed
 *   mail      alert mail (SMTP), with connect and answer timeouts
 *   webhooks  alert webhooks, the same
 *   images    garbage collection of the image store (images.h), hourly
 *   retention compaction of old runs' detail (retention.h), one
 *             experiment a tick, a few runs per write transaction
 *   watches   list archives read with lei, their series stored and
 *             submitted (watch_worker.h)
 *
 * The analysis worker (analysis_worker.h) is the server's, beside these;
 * workers_stats() reports it with them. Ticks run every second; kicks
 * (a bisection started, an analysis stored) run one at once.
 */
#ifndef PERFLAB_WORKERS_H
#define PERFLAB_WORKERS_H

#include "daemon/lab/alerts.h"
#include "daemon/lab/analysis_worker.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/images.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/queue.h"
#include "daemon/lab/retention.h"
#include "daemon/lab/worker.h"
#include "daemon/store/conn.h"
#include "daemon/store/db.h"

struct workers_config {
	struct db_pool *pool;		/* read connections of the workers */
	struct jobs_ctx jobs;		/* leases, attempts, events, analysis */
	struct job_queue *queue;	/* kicked when jobs became claimable */
	struct alerts_smtp smtp;	/* mail; url NULL: none */
	int track_poll;			/* seconds; 0: no track timer */
	struct fetcher_config git;
	struct image_store *images;	/* GC; NULL: none */
	int64_t retention_s;		/* retention.h; 0: none */
	int max_queued;			/* --max-queued-runs: watches' keys */
	const char *reply_inbox;	/* --reply-inbox (watch_reply.h) */
};

/* Start every worker; 0 or -1 (message printed). */
int workers_start(const struct workers_config *c);
/* Stop them all: running git is killed, deliveries aborted, joined. */
void workers_stop(void);
/* A bisection was started or an analysis stored: look now. */
void workers_kick_bisect(void);

#define WORKERS_MAX 11

/* The retention worker's figures (/metrics). */
void workers_retention_stats(struct retention_stats *s);

/*
 * One row per worker for /metrics: its name, the items waiting or in
 * hand and the age of the oldest, and how long the item in hand has run.
 * For the kinds whose queue is in the database (leases: expired leases
 * not yet requeued; bisect: bisections whose list is not read yet and
 * steps to sweep; mail and webhooks: deliveries that are due; analysis:
 * experiments marked for it) depth and age are counted there, on @rdb.
 */
struct workers_row {
	const char *name;
	struct worker_stats st;
};
int workers_stats(store_conn *rdb, struct workers_row *rows, int max);

#endif
