// SPDX-License-Identifier: MIT
/*
 * The calibration ladder's dose-response fit; see ladder.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/ladder.h"
#include "daemon/analysis/stats.h"

/* Median of the values at N = @n; NAN when there are none. */
static double ladder_median_at(const double *n, const double *v, size_t np,
			       double at, double *tmp, size_t *k)
{
	*k = 0;
	for (size_t i = 0; i < np; i++)
		if (n[i] == at && isfinite(v[i]))
			tmp[(*k)++] = v[i];
	return *k ? stats_median(tmp, *k) : NAN;
}

/* Pooled within-step sd of the values, % of each step's mean. */
static void ladder_noise(const double *n, const double *v, size_t np,
			 double *tmp, struct ladder_fit *f)
{
	double ss = 0;

	f->runs = SIZE_MAX;
	f->noise_df = 0;
	for (size_t i = 0; i < np; i++) {
		size_t k, j;

		for (j = 0; j < i && n[j] != n[i]; j++)
			;
		if (j < i)
			continue;	/* step seen already */
		ladder_median_at(n, v, np, n[i], tmp, &k);
		if (k < 2)
			continue;
		double sd = 100 * stats_stddev(tmp, k) / stats_mean(tmp, k);

		ss += sd * sd * (k - 1);
		f->noise_df += k - 1;
		f->runs = k < f->runs ? k : f->runs;
	}
	f->noise_pct = f->noise_df ? sqrt(ss / f->noise_df) : NAN;
	if (f->runs == SIZE_MAX)
		f->runs = 0;
}

/*
 * Residual sd of the line, in %. Used as the noise when every step's runs
 * were identical, which the qemu-icount tier can do to the last digit: a
 * within-step sd of 0 then says only that the runs could not show their
 * noise. The residuals also carry any curvature of the ladder, so this
 * errs high (a larger MDE), never low. Below 1e-9 % is rounding: 0.
 */
static double ladder_residual_sd(const double *x, const double *y, size_t m,
				 const struct ladder_fit *f)
{
	double ss = 0, r;

	if (m < 3)
		return 0;
	for (size_t i = 0; i < m; i++) {
		r = y[i] - (f->intercept_pct + f->slope_pct * x[i]);
		ss += r * r;
	}
	r = sqrt(ss / (m - 2));
	return r < 1e-9 ? 0 : r;
}

int ladder_fit(const double *n, const double *v, size_t np,
	       const struct verdict_opts *o, struct ladder_fit *f)
{
	double *x = malloc((np + 1) * sizeof(*x));
	double *y = malloc((np + 1) * sizeof(*y));
	double *tmp = malloc((np + 1) * sizeof(*tmp));
	struct stats_linfit lf;
	size_t k, m = 0;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	f->mde_pct = f->mde_units = f->noise_pct = NAN;
	if (!x || !y || !tmp)
		goto out;
	f->ctrl_median = ladder_median_at(n, v, np, 0, tmp, &k);
	if (!(f->ctrl_median != 0) || !isfinite(f->ctrl_median))
		goto out;	/* no N = 0 runs */
	for (size_t i = 0; i < np; i++) {
		if (!isfinite(v[i]) || !(n[i] >= 0))
			continue;
		x[m] = n[i];
		y[m++] = 100 * (v[i] - f->ctrl_median) / f->ctrl_median;
	}
	if (stats_linfit(x, y, m, &lf))
		goto out;	/* fewer than two distinct N */
	f->npoints = m;
	f->slope_pct = lf.slope;
	f->intercept_pct = lf.intercept;
	f->r2 = lf.r2;
	f->slope_se = lf.slope_se;
	f->cost_per_unit = lf.slope / 100 * f->ctrl_median;
	ladder_noise(n, v, np, tmp, f);
	if (f->noise_df && f->noise_pct == 0) {
		double rs = ladder_residual_sd(x, y, m, f);

		if (rs > 0) {
			f->noise_pct = rs;
			f->noise_df = m - 2;
			f->noise_from_fit = true;
		}
	}
	if (f->noise_df) {
		f->mde_pct = verdict_mde(f->noise_pct, f->runs, f->runs, o);
		if (f->slope_pct != 0)
			f->mde_units = f->mde_pct / fabs(f->slope_pct);
	}
	ret = 0;
out:
	free(x);
	free(y);
	free(tmp);
	return ret;
}
