// SPDX-License-Identifier: MIT
/*
 * Description: ladder_fit() (daemon/analysis/ladder.h), the calibration ladder's
 * fit and MDE, on generated ns/IO runs with a known cost per canary unit
 * (3 ns on a 2400 ns/IO base, N = 0,1,2,4,8,16,64,256, 5 runs each, known
 * run noise): the cost per unit and the slope in % are recovered within 3
 * standard errors, R^2 >= 0.99, the pooled noise is close to the truth,
 * the MDE equals its closed form with t table values at 5 runs and its value in
 * canary units is MDE / slope; an IOPS ladder gives a negative slope and
 * a positive MDE in units; a ladder without N = 0 or with a single N is
 * refused; without replicates the MDE is unknown (NAN); when every step's
 * runs are identical (qemu-icount can repeat to the last digit) the noise
 * is the residual sd of the fit, not 0, and an exact line stays at 0.
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/ladder.h"
#include "daemon/analysis/stats.h"
#include "unit/check.h"

/*
 * The MDE at 5 runs a side from its closed form with Student t table
 * values (df 8: t.995 = 3.3554, t.80 = 0.8889), not from verdict_mde():
 * sqrt(pi/2) (t.995 + t.80) sd sqrt(2/5).
 */
static double mde5(double sd)
{
	return 1.2533141 * (3.3554 + 0.8889) * sd * sqrt(2.0 / 5);
}

static const double steps[] = { 0, 1, 2, 4, 8, 16, 64, 256 };
#define NSTEPS 8
#define RUNS 5

/* value = (base + cost * N) * (1 + noise% * z) */
static size_t gen(struct stats_rng *rng, double base, double cost,
		  double noise_pct, double *n, double *v)
{
	size_t k = 0;

	for (int r = 0; r < RUNS; r++)
		for (int i = 0; i < NSTEPS; i++) {
			n[k] = steps[i];
			v[k++] = (base + cost * steps[i]) *
				 (1 + noise_pct / 100 * stats_rng_normal(rng));
		}
	return k;
}

static void known_slope(void)
{
	double n[NSTEPS * RUNS], v[NSTEPS * RUNS], true_slope = 100 * 3.0 / 2400;
	struct verdict_opts o;
	struct stats_rng rng;
	struct ladder_fit f;
	int within = 0, trials = 200;
	double noise_sum = 0;

	verdict_opts_default(&o);
	stats_rng_seed(&rng, 10);
	for (int t = 0; t < trials; t++) {
		size_t np = gen(&rng, 2400, 3, 0.001, n, v);

		CHECK(ladder_fit(n, v, np, &o, &f) == 0, "fit failed");
		CHECK(f.npoints == np, "points %zu", f.npoints);
		CHECK(f.r2 >= 0.99, "R^2 %g", f.r2);
		CHECK(fabs(f.cost_per_unit - 3) < 0.01, "cost %g ns/unit",
		      f.cost_per_unit);
		within += fabs(f.slope_pct - true_slope) <= 3 * f.slope_se;
		CHECK(f.runs == RUNS && f.noise_df == NSTEPS * (RUNS - 1),
		      "runs %zu df %zu", f.runs, f.noise_df);
		CHECK(fabs(f.mde_pct / mde5(f.noise_pct) - 1) < 1e-3,
		      "mde %g, closed form %g", f.mde_pct, mde5(f.noise_pct));
		CHECK(fabs(f.mde_units - f.mde_pct / f.slope_pct) < 1e-9,
		      "mde units %g", f.mde_units);
		noise_sum += f.noise_pct;
	}
	CHECK(within >= trials * 95 / 100, "slope within 3 SE in %d/%d", within,
	      trials);
	/* The pooled noise estimates the generating 0.001 %. */
	CHECK(fabs(noise_sum / trials - 0.001) < 0.0002, "mean noise %g %%",
	      noise_sum / trials);
	/* An MDE of ~0.002 % at 5 runs is well under one canary unit. */
	CHECK(f.mde_units > 0 && f.mde_units < 0.1, "mde units %g", f.mde_units);
}

static void exact_and_iops(void)
{
	double n[NSTEPS * RUNS], v[NSTEPS * RUNS];
	struct verdict_opts o;
	struct stats_rng rng;
	struct ladder_fit f;
	size_t np;

	verdict_opts_default(&o);
	stats_rng_seed(&rng, 11);
	/* No noise: an exact line, R^2 = 1, MDE 0. */
	np = gen(&rng, 2400, 3, 0, n, v);
	CHECK(ladder_fit(n, v, np, &o, &f) == 0, "exact fit failed");
	CHECK(fabs(f.r2 - 1) < 1e-12, "exact R^2 %g", f.r2);
	CHECK(fabs(f.intercept_pct) < 1e-9, "intercept %g", f.intercept_pct);
	CHECK(fabs(f.ctrl_median - 2400) < 1e-9, "control %g", f.ctrl_median);
	CHECK(f.mde_pct == 0, "exact mde %g", f.mde_pct);
	/* IOPS falls with N: negative slope, MDE in units still positive. */
	for (size_t i = 0; i < np; i++)
		v[i] = 1e9 / v[i] * (1 + 0.001 / 100 * stats_rng_normal(&rng));
	CHECK(ladder_fit(n, v, np, &o, &f) == 0, "iops fit failed");
	CHECK(f.slope_pct < 0 && f.mde_units > 0, "iops slope %g units %g",
	      f.slope_pct, f.mde_units);
}

static void identical_replicates(void)
{
	double n[NSTEPS * 2], v[NSTEPS * 2], ss = 0, r;
	struct verdict_opts o;
	struct ladder_fit f;
	size_t np = 0;

	verdict_opts_default(&o);
	/* two identical runs per step, a slight curve on top of 3 ns/unit */
	for (int i = 0; i < NSTEPS; i++)
		for (int k = 0; k < 2; k++) {
			n[np] = steps[i];
			v[np++] = 2400 + 3 * steps[i] + 0.05 * sqrt(steps[i]);
		}
	CHECK(ladder_fit(n, v, np, &o, &f) == 0, "fit failed");
	for (size_t i = 0; i < np; i++) {
		r = 100 * (v[i] - f.ctrl_median) / f.ctrl_median -
		    (f.intercept_pct + f.slope_pct * n[i]);
		ss += r * r;
	}
	CHECK(f.noise_from_fit && f.noise_df == np - 2,
	      "from fit %d df %zu", f.noise_from_fit, f.noise_df);
	CHECK(fabs(f.noise_pct - sqrt(ss / (np - 2))) < 1e-12 && f.noise_pct > 0,
	      "noise %g", f.noise_pct);
	CHECK(f.mde_pct > 0 && f.runs == 2, "mde %g runs %zu", f.mde_pct,
	      f.runs);
	/* without the curve the line is exact: nothing to stand in */
	for (size_t i = 0; i < np; i++)
		v[i] = 2400 + 3 * n[i];
	CHECK(ladder_fit(n, v, np, &o, &f) == 0, "exact fit failed");
	CHECK(!f.noise_from_fit && f.noise_pct == 0 && f.mde_pct == 0,
	      "exact: from fit %d noise %g", f.noise_from_fit, f.noise_pct);
}

static void refused(void)
{
	double n[4] = { 1, 1, 2, 2 }, v[4] = { 10, 10.1, 11, 11.1 };
	struct verdict_opts o;
	struct ladder_fit f;

	verdict_opts_default(&o);
	CHECK(ladder_fit(n, v, 4, &o, &f) == -1, "no N = 0 accepted");
	n[0] = n[1] = n[2] = n[3] = 0;
	CHECK(ladder_fit(n, v, 4, &o, &f) == -1, "single N accepted");
	/* One run per step: a fit, but no noise and no MDE. */
	n[0] = 0, n[1] = 1, n[2] = 2, n[3] = 4;
	CHECK(ladder_fit(n, v, 4, &o, &f) == 0, "unreplicated fit failed");
	CHECK(isnan(f.mde_pct) && isnan(f.noise_pct) && f.runs == 0,
	      "unreplicated mde %g noise %g runs %zu", f.mde_pct, f.noise_pct,
	      f.runs);
}

int main(void)
{
	known_slope();
	exact_and_iops();
	identical_replicates();
	refused();
	if (fails) {
		printf("ladder-fit: %d checks failed\n", fails);
		return 1;
	}
	printf("ladder-fit: ok\n");
	return 0;
}
