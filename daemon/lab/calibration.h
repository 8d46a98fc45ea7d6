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

#include "daemon/store/conn.h"

#include "daemon/lab/planner.h"

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

/* The newest stored perflab_canary patch: its id, 0 if none. */
int64_t calibration_canary_patch(store_conn *db);

/*
 * Look up @c->host: sets host_id and host_backend (and backend when
 * unset). 0 when found, 1 when there is no such host, -1 on error.
 */
int calibration_host(store_conn *db, struct calibration *c);

/* The variants of @c from its kind and steps (an A/A has two). */
void calibration_variants(struct calibration *c);

/*
 * Queue the experiment of @c (after calibration_variants()), pinned to @c->host_id
 * when set, inside the caller's transaction. Returns its id, or -1 with
 * the reason in @err and *@status 422 (unknown base) or 500.
 */
int64_t calibration_create(store_conn *db, struct calibration *c, int64_t key_id,
			   int *status, char *err, size_t errlen);

#endif
