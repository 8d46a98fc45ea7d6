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
 * than one first-parent commit apart starts a bisection (bisect_run.h).
 */
#ifndef PERFLAB_TRACKS_H
#define PERFLAB_TRACKS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

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
	int min_size;		/* change-point segment size (default 3) */
	double max_p;		/* change-point p (default 0.05) */
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
 * Fetch and queue the new commits of track @id. 0 with *@queued, or -1:
 * LAB_NOT_FOUND, LAB_UPSTREAM (git failed; also recorded as the track's
 * poll_error). @e may be NULL.
 */
int tracks_poll(store_conn *db, int64_t id, time_t now, int *queued,
		struct lab_err *e);

/* The push hook: poll every track of base @base (name) and @ref (NULL:
 * any). 0 with *@tracks and *@queued, or -1: LAB_NOT_FOUND (no such
 * track), LAB_UPSTREAM. */
int tracks_poll_base(store_conn *db, const char *base, const char *ref,
		     time_t now, int *tracks, int *queued, struct lab_err *e);

/* The timer: poll tracks not polled for @interval seconds (and schedule
 * tracks that are due). Returns the number of experiments queued. */
int tracks_poll_due(store_conn *db, int interval, time_t now);

/* GET /api/v1/tracks/{id} (docs/contracts.md), or NULL. */
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
 * 1 when @exp is a track point or a bisection step. Their verdicts raise
 * no alert of their own: the track's change point and the bisection's
 * report are what people are told, once, not each step's regression.
 */
int tracks_owns_experiment(store_conn *db, int64_t exp);

#endif
