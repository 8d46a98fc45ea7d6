// SPDX-License-Identifier: MIT
/*
 * Description: Mann-Whitney U p-values match published critical values
 * (two-sided tables at alpha 0.05 and 0.01), a brute-force enumeration of
 * every rank assignment, and the normal approximation for larger samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/stats.h"
#include "unit/check.h"

/* Critical U (largest U still significant) from the standard tables. */
static const struct {
	int n1, n2;
	double alpha;
	int ucrit;
} table[] = {
	{ 5, 5, 0.05, 2 },    { 6, 6, 0.05, 5 },    { 7, 7, 0.05, 8 },
	{ 8, 8, 0.05, 13 },   { 9, 9, 0.05, 17 },   { 10, 10, 0.05, 23 },
	{ 5, 10, 0.05, 8 },   { 20, 20, 0.05, 127 }, { 8, 8, 0.01, 7 },
	{ 10, 10, 0.01, 16 }, { 5, 5, 0.01, 0 },
};

/* Count U over all C(n, k) subsets by recursion (independent of the DP). */
static void enumerate(int pos, int n, int k, int chosen, int rank_sum,
		      int k_total, long *hist)
{
	if (chosen == k) {
		hist[rank_sum - k_total * (k_total + 1) / 2]++;
		return;
	}
	if (pos > n || n - pos + 1 < k - chosen)
		return;
	enumerate(pos + 1, n, k, chosen + 1, rank_sum + pos, k_total, hist);
	enumerate(pos + 1, n, k, chosen, rank_sum, k_total, hist);
}

static void check_table(void)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		double p0 = stats_mwu_exact_p(table[i].n1, table[i].n2,
					      table[i].ucrit);
		double p1 = stats_mwu_exact_p(table[i].n1, table[i].n2,
					      table[i].ucrit + 1);

		CHECK(p0 <= table[i].alpha && p1 > table[i].alpha,
		      "n=%d,%d alpha %.2f: p(U=%d)=%.5f p(U=%d)=%.5f",
		      table[i].n1, table[i].n2, table[i].alpha,
		      table[i].ucrit, p0, table[i].ucrit + 1, p1);
	}
}

static void check_enumeration(int n1, int n2)
{
	long hist[n1 * n2 + 1], total = 0;

	for (int u = 0; u <= n1 * n2; u++)
		hist[u] = 0;
	enumerate(1, n1 + n2, n1, 0, 0, n1, hist);
	for (int u = 0; u <= n1 * n2; u++)
		total += hist[u];
	for (int u = 0; u <= n1 * n2; u++) {
		long lo = 0, hi = 0;
		double p;

		for (int k = 0; k <= n1 * n2; k++) {
			if (k <= u)
				lo += hist[k];
			if (k >= u)
				hi += hist[k];
		}
		p = 2.0 * (lo < hi ? lo : hi) / total;
		if (p > 1)
			p = 1;
		CHECK(fabs(p - stats_mwu_exact_p(n1, n2, u)) < 1e-12,
		      "n=%d,%d U=%d: enum %.6f dp %.6f", n1, n2, u, p,
		      stats_mwu_exact_p(n1, n2, u));
	}
}

int main(void)
{
	double a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 6, 7, 8, 9, 10 };
	double same[6] = { 3, 3, 3, 3, 3, 3 };
	struct stats_mwu r;
	struct stats_rng rng;
	double x[25], y[25];

	check_table();
	check_enumeration(4, 5);
	check_enumeration(6, 7);

	CHECK(stats_mwu(a, 5, b, 5, &r) == 0 && r.exact && r.u == 0 &&
		      fabs(r.p - 2.0 / 252) < 1e-12,
	      "separated 5/5: U=%g p=%g", r.u, r.p);
	CHECK(stats_mwu(b, 5, a, 5, &r) == 0 && r.u == 25, "U of first sample");
	CHECK(fabs(stats_mwu_min_p(5, 5) - 2.0 / 252) < 1e-12, "min p 5/5");

	/* All tied: no evidence at all. */
	CHECK(stats_mwu(same, 3, same + 3, 3, &r) == 0 && !r.exact && r.p == 1,
	      "all ties p=%g", r.p);

	/* Normal approximation agrees with the exact distribution at 25/25. */
	stats_rng_seed(&rng, 7);
	for (int t = 0; t < 20; t++) {
		double pa, pe;

		for (int i = 0; i < 25; i++) {
			x[i] = stats_rng_normal(&rng);
			y[i] = stats_rng_normal(&rng) + 0.4;
		}
		stats_mwu(x, 25, y, 25, &r);
		pe = r.p;
		/* 26 + 25 > STATS_MWU_EXACT_MAX? no: 50 is exact; compare. */
		{
			double n = 50, mu = 312.5;
			double sd = sqrt(25.0 * 25 / 12 * (n + 1));
			double z = (fabs(r.u - mu) - 0.5) / sd;

			pa = erfc(z / M_SQRT2);
		}
		CHECK(fabs(pa - pe) < 0.01 + 0.05 * pe,
		      "approx %.4f vs exact %.4f (U=%g)", pa, pe, r.u);
	}
	if (fails) {
		printf("%d checks failed\n", fails);
		return 1;
	}
	printf("mwu: table, enumeration, approximation ok\n");
	return 0;
}
