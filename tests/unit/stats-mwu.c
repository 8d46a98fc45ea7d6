// SPDX-License-Identifier: MIT
/*
 * Description: Mann-Whitney U p-values match published critical values
 * (two-sided tables at alpha 0.05 and 0.01), a brute-force enumeration of
 * every rank assignment (also with tied values, on midranks), the closed
 * forms of fully separated tied samples, the real level of the rule at
 * 5/5, and beyond 60 a side the tie-corrected normal approximation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/analysis/stats.h"
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

/* U by counting pairs x > y (ties 1/2): Mann & Whitney's definition. */
static double u_count(const double *x, int nx, const double *y, int ny)
{
	double u = 0;

	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny; j++)
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	return u;
}

/* sum(t^3 - t) over groups of equal values, by counting. */
static double tie_term(const double *x, int nx, const double *y, int ny)
{
	double all[140], s = 0;
	int n = nx + ny;

	for (int i = 0; i < n; i++)
		all[i] = i < nx ? x[i] : y[i - nx];
	for (int i = 0; i < n; i++) {
		int t = 0, first = 1;

		for (int j = 0; j < n; j++) {
			t += all[j] == all[i];
			first &= !(j < i && all[j] == all[i]);
		}
		if (first)
			s += (double)t * t * t - t;
	}
	return s;
}

/*
 * Tied samples: enumerate every split of the pooled values into n1 and
 * n2, compute U of each by pair counting, p = 2 min(P(U <= u), P(U >= u)).
 */
static void check_ties(void)
{
	const double pool[11] = { 1, 2, 2, 3, 3, 2, 3, 3, 4, 4, 5 };
	const int n = 11, n1 = 5;
	double uobs, lo = 0, hi = 0, total = 0, p, x[5], y[6];
	struct stats_mwu r;

	uobs = u_count(pool, n1, pool + n1, n - n1);
	for (unsigned m = 0; m < (1u << n); m++) {
		int nx = 0, ny = 0;
		double u;

		if (__builtin_popcount(m) != n1)
			continue;
		for (int i = 0; i < n; i++) {
			if (m & (1u << i))
				x[nx++] = pool[i];
			else
				y[ny++] = pool[i];
		}
		u = u_count(x, nx, y, ny);
		total++;
		lo += u <= uobs + 1e-9;
		hi += u >= uobs - 1e-9;
	}
	p = fmin(1, 2 * fmin(lo, hi) / total);
	CHECK(stats_mwu(pool, n1, pool + n1, n - n1, &r) == 0 && r.exact &&
		      fabs(r.p - p) < 1e-12, "ties: enum p %.6f, stats %.6f", p,
	      r.p);
}

/* P(enumerated exact p < a) over all splits of 1..n1+n2. */
static void check_level(int n1, int n2, double a)
{
	long *hist = calloc(n1 * n2 + 1, sizeof(*hist)), total = 0;
	double level = 0;

	enumerate(1, n1 + n2, n1, 0, 0, n1, hist);
	for (int u = 0; u <= n1 * n2; u++)
		total += hist[u];
	for (int u = 0; u <= n1 * n2; u++) {
		long lo = 0, hi = 0;

		for (int k = 0; k <= n1 * n2; k++) {
			lo += k <= u ? hist[k] : 0;
			hi += k >= u ? hist[k] : 0;
		}
		if (2.0 * (lo < hi ? lo : hi) / total < a)
			level += (double)hist[u] / total;
	}
	free(hist);
	CHECK(fabs(level - stats_mwu_level(n1, n2, a)) < 1e-12,
	      "level %d/%d at %g: enum %.6g, stats %.6g", n1, n2, a, level,
	      stats_mwu_level(n1, n2, a));
}

int main(void)
{
	double a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 6, 7, 8, 9, 10 };
	double same[6] = { 3, 3, 3, 3, 3, 3 };
	struct stats_mwu r;
	struct stats_rng rng;
	double x[70], y[70], c[33];

	check_table();
	check_enumeration(4, 5);
	check_enumeration(6, 7);

	CHECK(stats_mwu(a, 5, b, 5, &r) == 0 && r.exact && r.u == 0 &&
		      fabs(r.p - 2.0 / 252) < 1e-12,
	      "separated 5/5: U=%g p=%g", r.u, r.p);
	CHECK(stats_mwu(b, 5, a, 5, &r) == 0 && r.u == 25, "U of first sample");
	CHECK(fabs(stats_mwu_min_p(5, 5) - 2.0 / 252) < 1e-12, "min p 5/5");

	/* All tied: no evidence at all. */
	CHECK(stats_mwu(same, 3, same + 3, 3, &r) == 0 && r.p == 1,
	      "all ties p=%g", r.p);
	/* Ties, by enumeration of all C(11, 5) splits on midranks. */
	check_ties();
	/*
	 * Constant samples, fully separated: only one split of C(N, n1) is
	 * as extreme, doubled: 2 / C(10, 5) and 2 / C(33, 3). The normal
	 * approximation said 0.0040 and 2.2e-8.
	 */
	for (int i = 0; i < 33; i++)
		c[i] = i < 5 ? 2408.60 : 2415.80;
	CHECK(stats_mwu(c, 5, c + 5, 5, &r) == 0 && r.exact &&
		      fabs(r.p - 2.0 / 252) < 1e-12, "5 x 2408.60 vs 5 x 2415.80: p %g", r.p);
	for (int i = 0; i < 33; i++)
		c[i] = i < 3 ? 1 : 2;
	CHECK(stats_mwu(c, 3, c + 3, 30, &r) == 0 && r.exact &&
		      fabs(r.p - 2.0 / 5456) < 1e-15, "3 vs 30 constants: p %g", r.p);
	/* Real level of p < 0.01 at 5/5: only the two full separations. */
	CHECK(fabs(stats_mwu_level(5, 5, 0.01) - 2.0 / 252) < 1e-12,
	      "level 5/5 %g", stats_mwu_level(5, 5, 0.01));
	/* 10/10 at 0.01: the table's U <= 16 region, by enumeration. */
	check_level(10, 10, 0.01);

	/* Beyond 60 a side: the tie-corrected normal approximation. */
	stats_rng_seed(&rng, 7);
	for (int t = 0; t < 20; t++) {
		double n = 140, mu = 70 * 70 / 2.0, ties, sd, z, pa;

		for (int i = 0; i < 70; i++) {
			x[i] = round(4 * stats_rng_normal(&rng));
			y[i] = round(4 * stats_rng_normal(&rng) + 1);
		}
		CHECK(stats_mwu(x, 70, y, 70, &r) == 0 && !r.exact,
		      "70/70 not approximated");
		ties = tie_term(x, 70, y, 70);
		sd = sqrt(70.0 * 70 / 12 * ((n + 1) - ties / (n * (n - 1))));
		z = (fabs(r.u - mu) - 0.5) / sd;
		pa = fmin(1, erfc(fmax(z, 0) / M_SQRT2));
		CHECK(fabs(pa - r.p) < 1e-12, "approx %.6f vs %.6f (U=%g)", pa,
		      r.p, r.u);
		CHECK(fabs(r.u - u_count(x, 70, y, 70)) < 1e-9, "U %g vs %g",
		      r.u, u_count(x, 70, y, 70));
	}
	if (fails) {
		printf("%d checks failed\n", fails);
		return 1;
	}
	printf("mwu: table, enumeration, approximation ok\n");
	return 0;
}
