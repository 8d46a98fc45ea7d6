/* SPDX-License-Identifier: MIT */
/*
 * One bisection step (a row of bisection_steps and its experiment): what
 * its experiment says, read for the driver (bisect_run.c), and the row's
 * figures written back.
 */
#ifndef PERFLAB_BISECT_STEP_H
#define PERFLAB_BISECT_STEP_H

#include <stdint.h>

#include "daemon/store/conn.h"

struct bisect_outcome {
	int skipped;		/* the step commit does not build */
	char fail[256];		/* non-empty: the bisection fails */
	double delta, lo, hi, mde;	/* "step" vs the control, 95 % CI */
	char verdict[32];
	int runs;
	/* B vs G in the same experiment (midpoints), 95 % CI; NAN else */
	double bad_delta, bad_lo, bad_hi;
};

/*
 * The outcome of step experiment @exp: a failing variant's reason (the
 * failure table decides skip or fail), else the newest comparisons of
 * "step" and "bad" against the control.
 */
void bisect_step_outcome(store_conn *db, int64_t exp, struct bisect_outcome *o);

/*
 * Step row @step done (or skipped) with @o's figures; @bad -1: NULL.
 * @call is its decision as shown: a midpoint's good, bad, unknown or
 * between (it split the range); the first step's reproduced or
 * did_not_reproduce; a confirmation's confirmed or not_confirmed
 * ("skipped" when the commit does not build, whatever @call).
 */
int bisect_step_record(store_conn *db, int64_t step,
		       const struct bisect_outcome *o, int bad, const char *call);

/* An unknown step that goes on: its figures so far, still running. */
int bisect_step_progress(store_conn *db, int64_t step,
			 const struct bisect_outcome *o, int runs);

#endif
