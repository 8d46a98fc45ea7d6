/* SPDX-License-Identifier: MIT */
/*
 * Performance series, their change points and tracked baselines.
 *
 * Every change to a series re-runs change-point detection over it
 * (changepoint.h; a few milliseconds for thousands of points), stores
 * change points not seen before, and raises an alert for each new one
 * that makes the metric worse (lower, or higher for ns_per_io / *_ns /
 * latency metrics).
 */
#ifndef PERFLAB_LAB_SERIES_H
#define PERFLAB_LAB_SERIES_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

/*
 * The order of a series' points (SQL over series_points AS sp): a track's
 * points in first-parent order, the order the track queued its commits
 * (track_points.id: each poll queues the ref's new first-parent commits
 * oldest first), not by committer time, which rebased or back-dated
 * commits misorder; other series by t. FROM ... SERIES_POINTS_JOIN
 * ... ORDER BY SERIES_POINTS_ORDER.
 */
#define SERIES_POINTS_JOIN \
	" LEFT JOIN track_points tp_o ON tp_o.experiment_id = sp.experiment_id" \
	" AND tp_o.point_id = sp.id"
#define SERIES_POINTS_ORDER " tp_o.id, sp.t, sp.id"

/* Series id for (name, metric), created if missing; -1 on error. */
int64_t series_get_or_create(store_conn *db, const char *name, const char *metric,
			     int64_t host_id, int64_t baseline_id);

/* Append one point (own statement; caller handles transactions). */
int series_add_point(store_conn *db, int64_t sid, int64_t t, double value,
		     const char *label, int64_t run_id, int64_t exp_id);

/*
 * Detect change points over the whole series; store new ones and alert
 * on new worsening ones. Returns the number of new change points or -1.
 */
int series_detect(store_conn *db, int64_t sid, time_t now);

/*
 * The same with other detection options (a track of a few dozen commits
 * needs smaller segments than cp_opts_default()'s).
 */
struct cp_opts;
int series_detect_opts(store_conn *db, int64_t sid, const struct cp_opts *o,
		       time_t now);

/*
 * Queue an experiment for every enabled baseline that is due at @now and
 * has none queued or running. Returns the number queued or -1.
 */
int series_baselines_tick(store_conn *db, time_t now);

/* Import @n points into series (@name, @metric), created if missing, and
 * detect. The series id with *@fresh new change points, or -1. */
struct series_point_in;
int64_t series_import(store_conn *db, const char *name, const char *metric,
		      const struct series_point_in *pts, size_t n, int *fresh,
		      struct lab_err *e);

/* A tracked baseline: a tarball base re-run on a schedule. */
struct baseline_spec {
	const char *name, *base;	/* NULL: PERFLAB_DEFAULT_BASE */
	const char *label, *backend;	/* NULL: any */
	const char *bench_json;		/* canonical bench parameters */
	int runs;
	int64_t schedule_seconds;
};

/* Its id, or -1: LAB_REJECTED (unknown backend or base, a git base),
 * LAB_CONFLICT (the name is taken). Takes the write lock itself. */
int64_t series_baseline_create(store_conn *db, const struct baseline_spec *b,
			       struct lab_err *e);

#endif
