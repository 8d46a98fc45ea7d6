/* SPDX-License-Identifier: MIT */
/*
 * Experiment analysis: run by the analysis worker (analysis_worker.h) for
 * an experiment whose last job finished (marked analysis_pending, still
 * 'running'), in two steps: analysis_prepare() reads and computes without
 * writing, analysis_store() writes under the caller's writer lock, clears
 * the mark and sets the state 'done' unless more runs were planned.
 *
 * Reads every run and per-second sample of the experiment, compares each
 * variant with the control (verdict.h), and stores one comparisons row
 * per variant (result JSON with the LKP text). The MDE comes from the
 * newest host_calibration row of the experiment's host, backend, bench
 * parameters and metric, when there is one. Verdicts test at their look's
 * share of alpha (planner_look_alpha(), looks from runs and max_runs);
 * when a verdict is inconclusive and a later point is planned, its
 * interleaved rounds are added (planner_extend) and the experiment goes
 * back to 'running'. Final regressions beyond the MDE raise alerts
 * (alerts.h), except in calibrations and ladders.
 *
 * Calibration experiments (kind 'calibration') also update the host:
 *   - A/A (all variants have the same patches and command line): the
 *     pooled run-to-run sd becomes a host_calibration row (noise and the
 *     MDE at that run count);
 *   - a ladder (variants with perflab_canary=N on the command line; also
 *     an explicit experiment of that shape): a least-squares fit of each
 *     run's delta % against N is stored in ladder_fits (slope per unit,
 *     R^2, the MDE in canary units: analysis/ladder.h), and the pooled
 *     within-step run sd becomes a host_calibration row like an A/A's.
 */
#ifndef PERFLAB_ANALYSIS_H
#define PERFLAB_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/store/conn.h"

#include "daemon/analysis/ladder.h"
#include "daemon/analysis/verdict.h"

struct analysis_plan;

/* Read the experiment and compute its verdicts; no writes. NULL on error. */
struct analysis_plan *analysis_prepare(store_conn *db, int64_t experiment_id);
/*
 * Store @p (comparisons, calibration, baseline series point, more runs,
 * alerts), clear the mark, then let a track or bisection continue
 * (tracks_experiment_settled), all in one transaction: whatever ends it
 * before its COMMIT (an error, kill -9) leaves none of it, the mark stays
 * and the analysis is stored again whole, so no point, comparison or
 * alert is ever doubled. @p NULL (the analysis failed): only clear the
 * mark and settle the state. 0 or -1.
 *
 * The steps, for the test hook PERFLABD_TEST_ANALYSIS_STORE_STOP=NAME
 * (the daemon stops for good after that step, for a test to kill it):
 */
enum analysis_store_step {
	STORE_COMPARISONS,	/* "comparisons": the comparison rows */
	STORE_CALIBRATION,	/* "calibration": host calibration rows */
	STORE_BASELINE,		/* "baseline": the tracked baseline's point */
	STORE_EXTEND,		/* "extend": more runs planned */
	STORE_ALERTS,		/* "alerts": verdict alerts and deliveries */
	STORE_MARK,		/* "mark": the mark cleared, the state set */
	STORE_SETTLED,		/* "settled": track point, bisection step */
	STORE_COMMIT,		/* "commit": after COMMIT */
};
int analysis_store(store_conn *db, int64_t experiment_id, struct analysis_plan *p);
void analysis_plan_free(struct analysis_plan *p);

/* Both steps on one connection (tools and tests). */
int analysis_experiment_done(store_conn *db, int64_t experiment_id);

#endif
