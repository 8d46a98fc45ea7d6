/* SPDX-License-Identifier: MIT */
/*
 * The calibration ladder's fit: pure arithmetic on the runs' values, no
 * storage. lab/analysis.c loads the runs and stores the fit.
 */
#ifndef PERFLAB_LADDER_H
#define PERFLAB_LADDER_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/analysis/verdict.h"

/*
 * Dose-response ladder fit. @n[i] is run i's canary count, @v[i] its
 * metric value (ns/IO or IOPS). Each run's delta % against the median of
 * the N = 0 runs is fitted by least squares against N. The noise is the
 * pooled within-step run sd (each step's runs are replicates of one
 * kernel and command line); the MDE is verdict_mde() of that noise at the
 * smallest step's run count, also expressed in canary units.
 */
struct ladder_fit {
	double ctrl_median;	/* metric value at N = 0 */
	double slope_pct;	/* delta % per canary unit */
	double intercept_pct, r2, slope_se;
	double cost_per_unit;	/* metric units per canary unit (ns for ns/IO) */
	double noise_pct;	/* pooled within-step sd, NAN without replicates */
	size_t noise_df, runs;	/* runs: fewest runs of a step (>= 2) */
	bool noise_from_fit;	/* replicates identical: residual sd of the fit */
	double mde_pct;		/* verdict MDE at @runs per side, NAN if unknown */
	double mde_units;	/* the same in canary units */
	size_t npoints;
};

/* 0, or -1 without N = 0 runs or with fewer than two distinct N. */
int ladder_fit(const double *n, const double *v, size_t np,
	       const struct verdict_opts *o, struct ladder_fit *f);

#endif
