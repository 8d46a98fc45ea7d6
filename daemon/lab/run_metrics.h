/* SPDX-License-Identifier: MIT */
/*
 * A run's measured values, one row of run_metrics per metric of the table
 * (common/metric_defs.h): stored from the bench JSON at upload, put back
 * at the same JSON paths when a run is shown.
 */
#ifndef PERFLAB_RUN_METRICS_H
#define PERFLAB_RUN_METRICS_H

#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"

#include "common/metric_defs.h"

/* The value at @m's path in @bench (borrowed), or NULL when absent. */
json_t *run_metrics_get(json_t *bench, const struct metric_def *m);

/* Store every metric @bench reports for run @run. 0 or -1. */
int run_metrics_store(store_conn *db, int64_t run, json_t *bench);

/*
 * Set every metric's path in each run object of @runs (ids ascending, all
 * of experiment @exp) to its stored value, or null when the run has none.
 */
void run_metrics_attach(store_conn *db, json_t *runs, int64_t exp);

#endif
