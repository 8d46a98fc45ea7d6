/* SPDX-License-Identifier: MIT */
/*
 * Bisection driver: the first-parent history good..bad of a git base is
 * bisected by experiments. Each step is one interleaved experiment of two
 * variants, "good" (the good commit, the control) and "step" (the commit
 * under test), through the usual planner and MDE-aware verdict. The first
 * step measures the bad commit itself: its delta is the step that the
 * others are held against (a commit is bad when its delta is at least
 * half the step in the step's direction, analysis/bisect.h). A step whose
 * "step" variant fails with reason `build` is skipped, like `git bisect
 * skip`. The next commit and the stop rule are bisect_next()'s.
 *
 * On a culprit, bisect_notify_culprit() (bisect_report.h) raises the report.
 */
#ifndef PERFLAB_BISECT_RUN_H
#define PERFLAB_BISECT_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

struct bisect_spec {
	const char *base;	/* base name (a git base) */
	int64_t base_id;	/* or its id: no fetch unless a commit is new */
	const char *good, *bad;	/* commits, prefixes or refs */
	const char *label;	/* free text shown with it */
	const char *host_label;	/* NULL: any host */
	const char *backend;	/* NULL: any backend */
	const char *bench_json;	/* canonical bench parameters */
	int runs;		/* runs per variant of each step */
	int64_t track_id;	/* 0: started by hand */
	int64_t change_point_id;	/* 0: none */
	int64_t key_id;		/* submitter, 0: the daemon */
};

/*
 * Start a bisection: resolve good and bad, take the first-parent list
 * between them, store it and queue the first step (bad vs good). Own
 * transaction. 0 with *@id, or -1: LAB_REJECTED (unknown base or commit,
 * good not a first-parent ancestor of bad), LAB_CONFLICT (the change
 * point has one), LAB_UPSTREAM (git failed).
 */
int bisect_run_start(store_conn *db, const struct bisect_spec *s, int64_t *id,
		     struct lab_err *e);

/*
 * Experiment @exp finished (analysed, or failed): when it is a step of a
 * running bisection, record its outcome and queue the next step or finish.
 * Returns 1 when it was a step, 0 when not, -1 on error.
 */
int bisect_run_experiment_done(store_conn *db, int64_t exp);

/*
 * Steps whose experiment failed or was cancelled have no analysis to
 * continue from: the timer hands them to bisect_run_experiment_done().
 * Returns the number of steps taken, -1 on error.
 */
int bisect_run_sweep(store_conn *db);

#endif
