// SPDX-License-Identifier: MIT
/*
 * analysis_ctx: the experiment analysis's working state, shared by the
 * two halves of the analysis module only (analysis.c computes and stores
 * verdicts, analysis_calib.c turns A/A and ladder experiments into the
 * host's calibration). Nothing outside daemon/lab/analysis*.c includes it.
 */
#ifndef PERFLAB_ANALYSIS_CTX_H
#define PERFLAB_ANALYSIS_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/store/conn.h"

#include "daemon/analysis/verdict.h"

struct avar {
	int64_t id;
	char name[64];
	int is_control;
	char key[512];		/* command line + patch ids: A/A detection */
	long canary;		/* perflab_canary=N, or -1 */
	struct verdict_run *runs;
	char **boot;		/* per run: boot id (toggle), NULL unknown */
	int *pos;		/* per run: position in its boot */
	int *round;		/* per run: its run_index (the round) */
	size_t n;
};

struct actx {
	int64_t exp, host_id;
	char kind[16], backend[64];
	char *bench;
	int runs, max_runs;
	int runs_per_boot;	/* > 0: a toggle experiment (paired.h) */
	int rounds;		/* rounds planned so far */
	int looks;		/* planned looks (planner_points) */
	int next;		/* the next analysis point's rounds, 0: none */
	struct avar *v;
	size_t nv, ctrl;
};

/* 1 when the experiment is a calibration ladder (canary steps). */
int analysis_is_ladder(const struct actx *a);

/*
 * Host calibration from an analysed experiment: an A/A experiment's
 * pooled noise, a ladder's cost per canary unit. 0 when nothing applies.
 */
int analysis_calibrate(store_conn *db, const struct actx *a);

#endif
