// SPDX-License-Identifier: MIT
/*
 * Description: the toggle design's rules (daemon/analysis/paired.c).
 * - Power of the t test from the non-central t (stats_nct_power) against
 *   mpmath's integral over z of phi(z) P(chi2_df < df (z + ncp)^2 / c^2)
 *   (a different formula, computed apart: 1, 4, 9 and 19 df), and against
 *   20,000 simulated t tests at 9 df; the ncp of 80 % power at 4 and 9 df.
 * - Pairs by round: one boot of 5 ABBA rounds whose third control run
 *   failed keeps rounds 1, 2, 4, 5 paired as they ran (mean difference
 *   by hand); pairing the k-th runs, as before, shifts rounds 4 and 5.
 * - Carry-over: pairs whose control ran first differ by +2 g more than
 *   the others: the estimate is g, its CI holds g; with fewer than two
 *   pairs of one order there is none.
 * - One boot says "this boot only" and flags one_boot (no alert); two
 *   boots warn that fewer than 5 boots barely know the spread; six do not.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/paired.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"
#include "unit/check.h"

static void nct(void)
{
	static const struct { double df, c, ncp, p; } ref[] = {
		{ 4, 4.604094871, 3, 0.245571357469 },
		{ 4, 4.604094871, 6, 0.816563996521 },
		{ 9, 3.249835542, 4, 0.750025523292 },
		{ 1, 12.70620474, 5, 0.305160102648 },
		{ 19, 2.860934606, 3.5, 0.730916308161 },
	};
	struct stats_rng rng;
	int rej = 0, trials = 20000;

	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		double a = 2 * (1 - 0.995);
		double p;

		if (ref[i].df == 1)
			a = 0.05;
		p = stats_nct_power(ref[i].ncp, ref[i].df, a);
		CHECK(fabs(p - ref[i].p) < 2e-4, "df %g ncp %g: %.6f, mpmath %.6f",
		      ref[i].df, ref[i].ncp, p, ref[i].p);
	}
	CHECK(fabs(stats_nct_ncp(0.8, 4, 0.01) - 5.878564) < 2e-3, "%g",
	      stats_nct_ncp(0.8, 4, 0.01));
	CHECK(fabs(stats_nct_ncp(0.8, 9, 0.01) - 4.212255) < 2e-3, "%g",
	      stats_nct_ncp(0.8, 9, 0.01));
	/* 10 units, true mean 4 sd / sqrt(10): ncp 4 at 9 df */
	stats_rng_seed(&rng, 29);
	for (int t = 0; t < trials; t++) {
		double x[10];

		for (int i = 0; i < 10; i++)
			x[i] = 4 / sqrt(10) + stats_rng_normal(&rng);
		rej += fabs(stats_mean(x, 10) / (stats_stddev(x, 10) / sqrt(10))) >
		       3.249835542;
	}
	CHECK(fabs((double)rej / trials - stats_nct_power(4, 9, 0.01)) < 0.012,
	      "simulated %.4f, computed %.4f", (double)rej / trials,
	      stats_nct_power(4, 9, 0.01));
}

static void failed_run(void)
{
	/* rounds 1..5 of one boot, A B | B A | A B | B A | A B; the control
	 * run of round 3 failed. Variant round k is 100 + k, control 100. */
	struct paired_run c[4], v[5];
	struct paired_result r;
	int n = 0;

	for (int k = 1; k <= 5; k++) {
		int cpos = 2 * (k - 1) + (k % 2 ? 0 : 1);

		v[k - 1] = (struct paired_run){ 100 + k, "b", cpos ^ 1, k };
		if (k != 3)
			c[n++] = (struct paired_run){ 100, "b", cpos, k };
	}
	CHECK(paired_compare(c, 4, v, 5, 0.01, 0.8, 0, &r) == 0);
	CHECK(r.pairs == 4, "%zu pairs", r.pairs);
	/* (1 + 2 + 4 + 5) / 4 % */
	CHECK(fabs(r.mean_pct - 3) < 1e-9, "mean %g", r.mean_pct);
	for (int i = 0; i < 4; i++)
		c[i].round = 0;
	for (int i = 0; i < 5; i++)
		v[i].round = 0;
	CHECK(paired_compare(c, 4, v, 5, 0.01, 0.8, 0, &r) == 0);
	CHECK(fabs(r.mean_pct - 2.5) < 1e-9, "by position (the old pairing):"
	      " %g", r.mean_pct);
}

static void carry(void)
{
	struct paired_run c[12], v[12];
	struct paired_result r;

	/* 12 rounds in one boot: control first in odd rounds (d = 1 + 0.3
	 * + e), variant first in even ones (d = 1 - 0.3 + e). */
	for (int k = 1; k <= 12; k++) {
		int cf = k % 2, base = 2 * (k - 1);
		double e = 0.01 * ((k * 7) % 5 - 2);

		c[k - 1] = (struct paired_run){ 1000, "b", cf ? base : base + 1, k };
		v[k - 1] = (struct paired_run){ 1000 * (1 + (1 + (cf ? 0.3 : -0.3) + e) / 100),
						"b", cf ? base + 1 : base, k };
	}
	CHECK(paired_compare(c, 12, v, 12, 0.01, 0.8, 0, &r) == 0);
	CHECK(fabs(r.carry_pct - 0.3) < 0.02, "carry %g", r.carry_pct);
	CHECK(r.carry_lo < 0.3 && r.carry_hi > 0.3 && r.carry_lo > 0.2,
	      "[%g, %g]", r.carry_lo, r.carry_hi);
	CHECK(paired_compare(c, 3, v, 3, 0.01, 0.8, 0, &r) == 0 &&
	      isnan(r.carry_pct), "one pair of one order: none");
}

static void boots(void)
{
	static const char *const id[] = { "b1", "b2", "b3", "b4", "b5", "b6" };
	struct paired_run c[36], v[36];
	struct verdict_result r;
	struct verdict_opts o;

	verdict_opts_default(&o);
	o.looks = 1;
	for (int nb = 1; nb <= 6; nb += (nb == 2 ? 4 : 1)) {
		int n = 0;

		for (int b = 0; b < nb; b++)
			for (int k = 1; k <= 6; k++, n++) {
				c[n] = (struct paired_run){ 1000, id[b], 2 * k, k };
				v[n] = (struct paired_run){ 1000 * (1 + 0.001 * ((n * 3) % 7)),
							    id[b], 2 * k + 1, k };
			}
		memset(&r, 0, sizeof(r));
		r.metric = VERDICT_IOPS;
		CHECK(paired_verdict(c, n, v, n, &o, &r) == 0);
		CHECK(r.one_boot == (nb == 1), "%d boots: one_boot %d", nb, r.one_boot);
		CHECK(!strstr(r.design, "this boot only") == (nb != 1), "%s", r.design);
		CHECK(!strstr(r.design, "barely known") == (nb != 2), "%s", r.design);
	}
}

int main(void)
{
	nct();
	failed_run();
	carry();
	boots();
	DONE();
}
