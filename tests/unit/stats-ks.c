// SPDX-License-Identifier: MIT
/*
 * Description: two-sample Kolmogorov-Smirnov: D and the exact p-value
 * match a brute-force enumeration of every split of the pooled sample,
 * the large-sample p-value matches the tabulated 5 % critical value
 * 1.358 * sqrt((n1 + n2) / (n1 n2)), and a real shift is detected.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/stats.h"
#include "unit/check.h"

/* D of the split given by mask over values 1..n (no ties): plain ECDFs. */
static double split_d(unsigned mask, int n, int n1)
{
	int c1 = 0, c2 = 0;
	double d = 0;

	for (int v = 0; v < n; v++) {
		if (mask & (1u << v))
			c1++;
		else
			c2++;
		d = fmax(d, fabs((double)c1 / n1 - (double)c2 / (n - n1)));
	}
	return d;
}

static void check_enumeration(int n1, int n2, unsigned obs)
{
	int n = n1 + n2;
	long total = 0, ge = 0;
	double dobs = split_d(obs, n, n1), x[32], y[32];
	int nx = 0, ny = 0;
	struct stats_ks r;

	for (unsigned m = 0; m < (1u << n); m++) {
		if (__builtin_popcount(m) != n1)
			continue;
		total++;
		ge += split_d(m, n, n1) >= dobs - 1e-12;
	}
	for (int v = 0; v < n; v++) {
		if (obs & (1u << v))
			x[nx++] = v;
		else
			y[ny++] = v;
	}
	CHECK(stats_ks(x, nx, y, ny, &r) == 0, "ks failed");
	CHECK(fabs(r.d - dobs) < 1e-12, "D %g vs %g", r.d, dobs);
	CHECK(r.exact && fabs(r.p - (double)ge / total) < 1e-12,
	      "n=%d,%d D=%.3f: enum p %.6f, exact %.6f", n1, n2, dobs,
	      (double)ge / total, r.p);
}

int main(void)
{
	struct stats_rng rng;
	struct stats_ks r;
	double x[200], y[200], dcrit;
	int detected = 0;

	/* A few splits of 5+6 and 7+7 values, from separated to mixed. */
	check_enumeration(5, 6, 0x01f);
	check_enumeration(5, 6, 0x155);
	check_enumeration(5, 6, 0x0e3);
	check_enumeration(7, 7, 0x07f);
	check_enumeration(7, 7, 0x1555);
	check_enumeration(7, 7, 0x0787);

	/* Large samples: p at the 5 % critical value is about 0.05. */
	dcrit = 1.358 * sqrt(400.0 / (200.0 * 200.0));
	{
		double p = stats_ks_p(200, 200, dcrit);

		CHECK(p > 0.035 && p < 0.065, "p(Dcrit=%.4f) = %.4f", dcrit, p);
	}
	/* Exact (100x100) and asymptotic (101x101) agree near alpha. */
	{
		double pe = stats_ks_p(100, 100, 0.19);
		double pa = stats_ks_p(101, 101, 0.19);

		CHECK(fabs(pe - pa) < 0.015, "exact %.4f vs asymptotic %.4f", pe,
		      pa);
	}
	/* Ties: identical samples give D = 0, p = 1. */
	for (int i = 0; i < 10; i++)
		x[i] = y[i] = 5;
	CHECK(stats_ks(x, 10, y, 10, &r) == 0 && r.d == 0 && r.p == 1,
	      "ties D=%g p=%g", r.d, r.p);

	/* A one-sd shift with 50 per side is found nearly always. */
	stats_rng_seed(&rng, 11);
	for (int t = 0; t < 100; t++) {
		for (int i = 0; i < 50; i++) {
			x[i] = stats_rng_normal(&rng);
			y[i] = stats_rng_normal(&rng) + 1;
		}
		stats_ks(x, 50, y, 50, &r);
		detected += r.p < 0.05;
	}
	CHECK(detected >= 90, "1 sd shift detected %d/100", detected);
	if (fails) {
		printf("%d checks failed\n", fails);
		return 1;
	}
	printf("ks: enumeration, critical value, power ok (%d/100)\n", detected);
	return 0;
}
