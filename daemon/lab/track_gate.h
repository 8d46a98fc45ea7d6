/* SPDX-License-Identifier: MIT */
/*
 * The MDE gate before a track's confirmed change point is bisected
 * (analysis/bisect.h bisect_gate): the host's run noise for this track,
 * and the decision with its note, stored on the change point
 * (change_points.bisect_note, bisect_mde_pct; schema 0017).
 *
 * The noise is the pooled within-experiment sd of the track's runs (each
 * point is an experiment of `runs` boots of one commit), in % of each
 * experiment's mean, over its newest TRACK_GATE_POINTS points, with
 * sum(n_i - 1) degrees of freedom. A track of one run a point has none:
 * then the points' successive differences (von Neumann: sd^2 = sum d^2 /
 * 2(m - 1), the difference across the change point left out; about
 * 2(m - 1)^2 / (3m - 4) dof), each point being one run.
 */
#ifndef PERFLAB_TRACK_GATE_H
#define PERFLAB_TRACK_GATE_H

#include <stdint.h>

#include "daemon/analysis/bisect.h"
#include "daemon/store/conn.h"

#define TRACK_GATE_POINTS 200

/*
 * Run noise of track @track (series @sid, metric @metric: "iops" or
 * "ns_per_io"), excluding the difference at point @cp_point: sd in %,
 * its dof (0: none) and where it came from. 0 or -1.
 */
int track_noise(store_conn *db, int64_t track, int64_t sid,
		const char *metric, int64_t cp_point, double *sd_pct,
		double *dof, const char **source);

/*
 * The gate of change point @cp (delta @delta_pct, at @cp_point) of
 * @track for a bisection of @runs runs a side; the note and MDE stored
 * on @cp (under the write lock). 0 or -1.
 */
int track_gate(store_conn *db, int64_t track, int64_t sid, int64_t cp,
	       int64_t cp_point, double delta_pct, int runs,
	       struct bisect_gate *g);

#endif
