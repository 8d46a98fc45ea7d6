/* SPDX-License-Identifier: MIT */
/*
 * Calibration experiments as the lab makes them: an A/A (two identical
 * variants of the base kernel, same command line) or the dose-response
 * ladder (one kernel with the perflab_canary patch, variants canary-N
 * with perflab_canary=N on the command line, N = 0 first as the
 * control). The command lines are made here from integers, never taken
 * from a request, so they need no allowlist check. When the experiment
 * is done, analysis.c stores the host's noise and, for a ladder, the fit.
 */
#ifndef PERFLAB_LAB_CALIBRATION_H
#define PERFLAB_LAB_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"

#include "daemon/lab/planner.h"
#include "daemon/lab/status.h"
#include "daemon/lab/trust.h"

#define CAL_MAX_STEPS 16
#define CAL_MAX_N 1000000	/* the kernel parameter's bound */
#define CAL_MAX_PATCHES 64

struct calibration {
	const char *label, *host, *backend;
	const char *kind;	/* "aa" or "ladder" */
	int runs, max_runs, nsteps, npatches;
	int steps[CAL_MAX_STEPS];	/* ladder: canary counts, one is 0 */
	int64_t patch_ids[CAL_MAX_PATCHES];
	int64_t host_id;	/* 0: any host of @label */
	char host_backend[32];
	char *bench;		/* bench parameters as JSON text, heap */
	struct variant_spec v[CAL_MAX_STEPS];
	char names[CAL_MAX_STEPS][32], cmdlines[CAL_MAX_STEPS][32];
};

/* Exact ns/IO: a fixed number of IOs after the warm-up, no profile. */
extern const char calibration_default_bench[];

/* The ladder's default steps into @c. */
void calibration_default_steps(struct calibration *c);

/*
 * Queue calibration @c (fields parsed by the caller) for @who: look up
 * @c->host, resolve @patch (a stored patch id, patch text, or NULL: the
 * ladder's stored perflab_canary patch), make the variants, check backend
 * and quota, plan; on the writer, one transaction. The experiment id, or
 * -1: LAB_INVALID (no label or host, a bad patch), LAB_REJECTED (unknown
 * host or patch), LAB_QUOTA.
 */
int64_t calibration_submit(store_conn *db, const struct trust_who *who,
			   struct calibration *c, const json_t *patch,
			   struct lab_err *e);

/* GET /api/v1/calibrations: newest first, with each one's noise, step
 * comparisons and (ladders) fit. NULL on error. */
json_t *calibration_list_json(store_conn *db, const char *label,
			      const char *host, int limit);

#endif
