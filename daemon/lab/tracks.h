/* SPDX-License-Identifier: MIT */
/*
 * Tracks: a ref of a git base measured commit by commit. Each poll (timer,
 * POST /api/v1/tracks/{id}/poll, or the push hook) fetches the base's
 * mirror and queues the new first-parent commits of the ref: every commit,
 * every Nth, or on a schedule only the newest head. Each becomes an
 * experiment of one variant "commit" at that commit with the track's runs;
 * when it is analysed, the median run value becomes a point of series
 * "track:<label>" labelled with the commit, change points are detected
 * over the series (changepoint.h, with the track's segment size and p),
 * and each confirmed change point whose good and bad commits are more
 * than one first-parent commit apart starts a bisection (bisect_run.h)
 * on the bisect worker. Background polls: the timer's fetch runs on the
 * git worker (fetcher.h), the rest on the tracks worker (workers.h).
 */
#ifndef PERFLAB_TRACKS_H
#define PERFLAB_TRACKS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/store/db.h"
#include "daemon/lab/status.h"
#include "daemon/lab/worker.h"

struct track_spec {
	const char *label;	/* series "track:<label>"; unique */
	const char *base;	/* git base name */
	const char *ref;	/* NULL: the base's ref */
	const char *host_label;	/* NULL: any host */
	const char *backend;	/* NULL: any backend */
	const char *bench_json;	/* canonical bench parameters */
	int runs;
	int every_commits;	/* 1: every commit; N: every Nth; 0: schedule */
	int every_seconds;	/* schedule: the newest head at most this often */
	int min_size;		/* change-point segment size (0: default) */
	double max_p;		/* change-point p (0: default); cp_opts_track() */
	int64_t key_id;
};

/*
 * Create a track and poll it once (its head is the first point). 0 with
 * *@id, or -1: LAB_INVALID (bad ref name), LAB_CONFLICT (the label is
 * taken), LAB_REJECTED (no such git base or ref, or git failed on it).
 */
int tracks_create(store_conn *db, const struct track_spec *s, int64_t *id,
		  struct lab_err *e);

/*
 * "Poll now": fetch (a fetch that starts from now, fetcher.h) and queue
 * the new commits of track @id. 0 with *@queued; 1 when the fetch is
 * still running after --git-wait (the poll follows it in the background;
 * @e says so, LAB_PENDING); -1: LAB_NOT_FOUND, LAB_UPSTREAM (git failed;
 * also the track's poll_error). @e may be NULL.
 */
int tracks_poll(store_conn *db, int64_t id, time_t now, int *queued,
		struct lab_err *e);

/* The push hook: one fetch of base @base (name), then a poll of each of
 * its tracks of @ref (NULL: any). 0 with *@tracks and *@queued, 1 (the
 * fetch goes on, the polls follow it), or -1: LAB_NOT_FOUND (no such
 * track), LAB_UPSTREAM. */
int tracks_poll_base(store_conn *db, const char *base, const char *ref,
		     time_t now, int *tracks, int *queued, struct lab_err *e);

/*
 * The timer (the tracks worker's tick): every track not polled for
 * @interval seconds (and schedule tracks that are due) is fetched on the
 * git worker and, when that ended, polled on the tracks worker. A track
 * with a poll in flight is not polled twice.
 */
void tracks_poll_due(store_conn *db, int interval, time_t now);

/* The worker that runs the second half of background polls (reads on
 * connections of @pool); @fn is called when a poll queued experiments. */
void tracks_use_worker(struct worker *w, struct db_pool *pool);
void tracks_on_queued(void (*fn)(void));

/* Points a page of a track holds unless asked for fewer or more. */
#define TRACK_POINTS_PAGE 1000
#define TRACK_POINTS_MAX 10000
/*
 * GET /api/v1/tracks/{id} (docs/contracts.md), or NULL: the newest
 * @limit points below track point @before (0: the newest), shown in
 * commit order; *@next is the cursor of the older page, 0 on the last.
 * One search of (track_id, id) whatever the page.
 */
json_t *tracks_page_json(store_conn *db, int64_t id, int limit, int64_t before,
			 int64_t *next);
/* Its newest page. */
json_t *tracks_json(store_conn *db, int64_t id);
/* Every track without points, oldest first. */
json_t *tracks_list_json(store_conn *db);

/*
 * Experiment @exp is analysed with its final verdicts (called at the end
 * of its analysis): a track point gets its value and detection runs; a
 * bisection step advances its bisection. The one place the lab continues
 * git work after an analysis; a no-op for other experiments. (Failed
 * experiments have no analysis: bisect_run_sweep() takes their steps.)
 */
void tracks_experiment_settled(store_conn *db, int64_t exp);

/*
 * The bisect worker: start a bisection of every confirmed change point of
 * a track that has none (git on @db's thread, the rows under the write
 * lock). Returns the number started, -1 on error.
 */
int tracks_bisect_change_points(store_conn *db);

/*
 * 1 when @exp is a track point or a bisection step. Their verdicts raise
 * no alert of their own: the track's change point and the bisection's
 * report are what people are told, once, not each step's regression.
 */
int tracks_owns_experiment(store_conn *db, int64_t exp);

#endif
