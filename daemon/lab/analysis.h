/* SPDX-License-Identifier: MIT */
/*
 * Experiment analysis hook: called by the job code when an experiment's
 * last job finished (state just became 'done'), outside any transaction.
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
#include <sqlite3.h>

#include "daemon/analysis/ladder.h"
#include "daemon/analysis/verdict.h"

int analysis_experiment_done(sqlite3 *db, int64_t experiment_id);

/*
 * Compare and store without planning more runs or raising alerts.
 * Returns the number of variants found inconclusive, or -1.
 */
int analysis_compare(sqlite3 *db, int64_t experiment_id);

/* Calibration part alone (no-op for other kinds). 0 or -1. */
int analysis_calibrate(sqlite3 *db, int64_t experiment_id);

#endif
