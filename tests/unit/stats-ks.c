// SPDX-License-Identifier: MIT
/*
 * Description: two-sample Kolmogorov-Smirnov: D and the exact p-value
 * match a brute-force enumeration of every split of the pooled sample;
 * the exact branch up to 500 x 500 matches exact integer path counts of
 * Python (tests/stats/ks_ref.py, values below) to 1e-9; the asymptotic
 * branch beyond is not anti-conservative against them near alpha; the
 * large-sample p-value matches the tabulated 5 % critical value
 * 1.358 * sqrt((n1 + n2) / (n1 n2)), and a real shift is detected.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/analysis/stats.h"
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

/* P(D >= k / den) from tests/stats/ks_ref.py. */
static const struct {
	int n1, n2, k, den;
	double p;
} ref[] = {
	{ 101, 101, 23, 101, 0.010418460028561071 },
	{ 101, 101, 24, 101, 0.0065011194543161512 },
	{ 101, 101, 20, 101, 0.037869186745081128 },
	{ 100, 100, 19, 100, 0.053902078931298739 },
	{ 60, 40, 1, 4, 0.088330767491295481 },
	{ 300, 200, 1, 10, 0.17313583335670973 },
	{ 500, 500, 43, 500, 0.04950261174890188 },
};

/* 600 x 600 (asymptotic branch), exact tails from ks_ref.py. */
static const struct {
	int k;
	double p;
} big[] = {
	{ 50, 0.0309656556376575 },
	{ 56, 0.01070801941021312 },
	{ 57, 0.008866305806224054 },
	{ 60, 0.004932690564968614 },
	{ 70, 0.000561275399447204 },
};

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
	/*
	 * Exact branch against tests/stats/ks_ref.py (Python integers):
	 * `python3 tests/stats/ks_ref.py 101 101 23/101` and so on. 101 x 101
	 * went to the Kolmogorov limit before, 0.0087 where exact is 0.0104.
	 */
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		double p = stats_ks_p(ref[i].n1, ref[i].n2,
				      (double)ref[i].k / ref[i].den);

		CHECK(fabs(p - ref[i].p) <= 1e-9 * ref[i].p + 1e-15,
		      "%d x %d, D %d/%d: %.12g, Python %.12g", ref[i].n1,
		      ref[i].n2, ref[i].k, ref[i].den, p, ref[i].p);
	}
	/* Beyond 500 x 500: the limit may only err on the large side. */
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		double p = stats_ks_p(600, 600, big[i].k / 600.0);

		CHECK(p >= big[i].p && p <= 1.02 * big[i].p,
		      "600 x 600, D %d/600: %.6g, exact %.6g", big[i].k, p,
		      big[i].p);
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
