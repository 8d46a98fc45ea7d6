// SPDX-License-Identifier: MIT
/*
 * Description: the dose-response ladder fit recovers a known slope:
 * generated per-IO cost deltas for canary N = 0,1,2,4,8,16,64,256 with a
 * known cost per unit and noise give the slope within 3 standard errors
 * and R^2 >= 0.99; the share of fits within 1 and 2 standard errors
 * matches Student's t with 38 df (0.676 and 0.947, by numerical
 * integration of the t density: 200 fits, 3-sigma binomial bands), so a
 * standard error that is too large or too small fails; a small data set
 * matches its hand-computed least squares (slope 4/5, intercept 3/5,
 * R^2 16/25, se sqrt(0.12)); an exact line gives R^2 = 1; pure noise
 * gives R^2 ~ 0; the MDE formula matches its closed form.
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/stats.h"
#include "unit/check.h"

int main(void)
{
	static const double ladder[] = { 0, 1, 2, 4, 8, 16, 64, 256 };
	const double slope = 0.0123, noise = 0.002;	/* % per unit, % */
	double x[8 * 5], y[8 * 5], mde;
	struct stats_linfit f;
	struct stats_rng rng;
	int n = 0, within = 0, within1 = 0;

	/* Many ladders: the slope estimate is unbiased and calibrated. */
	stats_rng_seed(&rng, 2024);
	for (int trial = 0; trial < 200; trial++) {
		n = 0;
		for (int i = 0; i < 8; i++)
			for (int r = 0; r < 5; r++) {
				x[n] = ladder[i];
				y[n] = 0.01 + slope * ladder[i] +
				       noise * stats_rng_normal(&rng);
				n++;
			}
		if (stats_linfit(x, y, n, &f)) {
			CHECK(0, "fit failed");
			break;
		}
		within += fabs(f.slope - slope) <= 2 * f.slope_se;
		within1 += fabs(f.slope - slope) <= f.slope_se;
		CHECK(fabs(f.slope - slope) < 4.5 * f.slope_se + 1e-12,
		      "slope %.6f vs %.6f (se %.6f)", f.slope, slope, f.slope_se);
		CHECK(f.r2 >= 0.99, "r2 %.5f", f.r2);
	}
	/* P(|t_38| <= 2) = 0.9473: 189.5 +- 3 x 3.16 of 200 fits. */
	CHECK(within >= 180 && within <= 199, "%d/200 within 2 se", within);
	/* P(|t_38| <= 1) = 0.6764: 135.3 +- 3 x 6.62. */
	CHECK(within1 >= 116 && within1 <= 155, "%d/200 within 1 se", within1);
	/* x = 1..5, y = 1 3 2 5 4: Sxx 10, Sxy 8, Syy 10, SSE 18/5. */
	{
		const double hx[5] = { 1, 2, 3, 4, 5 }, hy[5] = { 1, 3, 2, 5, 4 };

		CHECK(stats_linfit(hx, hy, 5, &f) == 0 &&
			      fabs(f.slope - 0.8) < 1e-12 &&
			      fabs(f.intercept - 0.6) < 1e-12 &&
			      fabs(f.r2 - 0.64) < 1e-12 &&
			      fabs(f.slope_se - sqrt(0.12)) < 1e-12,
		      "hand example: slope %g intercept %g r2 %g se %g", f.slope,
		      f.intercept, f.r2, f.slope_se);
	}
	printf("ladder: %d/200 fits within 1 se, %d/200 within 2 se\n", within1,
	       within);

	/* Exact line. */
	for (int i = 0; i < 8; i++) {
		x[i] = ladder[i];
		y[i] = 3 - 0.5 * ladder[i];
	}
	CHECK(stats_linfit(x, y, 8, &f) == 0 && fabs(f.slope + 0.5) < 1e-12 &&
		      fabs(f.intercept - 3) < 1e-9 && fabs(f.r2 - 1) < 1e-12,
	      "exact line slope %g r2 %g", f.slope, f.r2);
	/* Pure noise: no linear relation. */
	for (int i = 0; i < 40; i++) {
		x[i] = i % 8;
		y[i] = stats_rng_normal(&rng);
	}
	CHECK(stats_linfit(x, y, 40, &f) == 0 && f.r2 < 0.2, "noise r2 %g", f.r2);
	/* Degenerate x. */
	for (int i = 0; i < 4; i++)
		x[i] = 1;
	CHECK(stats_linfit(x, y, 4, &f) < 0, "constant x accepted");

	/* MDE: (z.995 + z.80) * sd * sqrt(2/n) = 3.4316 * 0.1 * sqrt(0.2). */
	mde = stats_mde(0.1, 10, 0.1, 10, 0.01, 0.8);
	CHECK(fabs(mde - (2.5758293 + 0.8416212) * 0.1 * sqrt(0.2)) < 1e-6,
	      "mde %.6f", mde);
	CHECK(fabs(stats_norm_quantile(0.975) - 1.959963985) < 1e-8,
	      "z.975 %.9f", stats_norm_quantile(0.975));
	if (fails) {
		printf("%d checks failed\n", fails);
		return 1;
	}
	printf("linfit ok, MDE(sd 0.1 %%, 10 runs) = %.4f %%\n", mde);
	return 0;
}
