// SPDX-License-Identifier: MIT
/*
 * Description: toggle-experiment verdicts (daemon/analysis/paired.c) against values
 * known without the code: the two-sided t p-value at Student-t table
 * quantiles (df 1, 4, 9: 0.05, 0.05, 0.01) and at t statistics whose p was
 * integrated numerically from the t density (Python, independent of the
 * incomplete beta used here); runs of one boot paired by position (not by
 * upload order), so a paired test on 1..5 % differences gives t = 4.2426,
 * p = 0.013236 with 4 df; two boots with an offset of 100 % between them
 * cancel inside each pair, and the unit is then the boot (2 units, 1 df);
 * runs without a boot id or of a boot the other side lacks are not
 * paired; the verdict of 6 pairs of +0.4..0.7 % ns/IO is a regression
 * decided by the paired test (text says so), 7 pairs around 0 is no
 * change with an MDE of the within-boot design, 4 pairs inconclusive.
 * The MDE is the non-central t's (the ncp of 80 % power, checked against
 * mpmath's integral over z) times the 90 % upper bound of the sd.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/paired.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"
#include "unit/check.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static void t_pvalues(void)
{
	CHECK(NEAR(stats_t_tail2(2.776445, 4), 0.05, 1e-6), "%g",
	      stats_t_tail2(2.776445, 4));
	CHECK(NEAR(stats_t_tail2(-3.249836, 9), 0.01, 1e-6));
	CHECK(NEAR(stats_t_tail2(12.7062, 1), 0.05, 1e-5));
	CHECK(NEAR(stats_t_tail2(4.242640687, 4), 0.0132356, 1e-6));
	CHECK(NEAR(stats_t_tail2(12.850792, 5), 5.08022e-05, 1e-9));
	CHECK(NEAR(stats_t_tail2(0.15681251, 6), 0.880536, 1e-5));
	CHECK(stats_t_tail2(0, 3) == 1);
	/* quantiles: the table values back */
	CHECK(NEAR(stats_t_quantile(0.975, 1), 12.7062, 1e-4));
	CHECK(NEAR(stats_t_quantile(0.995, 4), 4.604095, 1e-5));
	CHECK(NEAR(stats_t_quantile(0.8, 4), 0.940965, 1e-5));
	CHECK(NEAR(stats_t_quantile(0.025, 9), -2.262157, 1e-5));
	CHECK(stats_t_tail2(INFINITY, 3) == 0);
}

/* One boot, runs given out of order: pairing is by position. */
static void one_boot(void)
{
	/* A B B A A B B A A B: control at 0,3,4,7,8; variant at 1,2,5,6,9 */
	struct paired_run c[] = { { 100, "b1", 8, 0 }, { 100, "b1", 0, 0 },
				  { 100, "b1", 4, 0 }, { 100, "b1", 3, 0 },
				  { 100, "b1", 7, 0 } };
	struct paired_run v[] = { { 105, "b1", 9, 0 }, { 101, "b1", 1, 0 },
				  { 103, "b1", 5, 0 }, { 102, "b1", 2, 0 },
				  { 104, "b1", 6, 0 } };
	struct paired_result r;

	CHECK(paired_compare(c, 5, v, 5, 0.01, 0.8, 0, &r) == 0);
	CHECK(r.pairs == 5 && r.boots == 1 && r.units == 5 && !r.by_boot);
	CHECK(r.df == 4);
	CHECK(NEAR(r.mean_pct, 3, 1e-12));
	CHECK(NEAR(r.sd_pct, 1.5811388, 1e-6));
	CHECK(NEAR(r.t, 4.2426407, 1e-6));
	CHECK(NEAR(r.p, 0.0132356, 1e-6));
	/* 95 % CI: 3 +- 2.776445 * 0.7071068 */
	CHECK(NEAR(r.ci_lo, 3 - 1.963243, 1e-5) && NEAR(r.ci_hi, 3 + 1.963243, 1e-5));
	/* MDE: the non-central t's ncp of 80 % power at 4 df, alpha 0.01
	 * (5.878564, mpmath: integral over z of phi(z) P(chi2_4 < 4 (z +
	 * ncp)^2 / c^2)) times the 90 % upper bound of the sd (chi2(0.10, 4)
	 * 1.063623) over sqrt(5); 0.5 %: the code's chi-square quantile is
	 * Wilson-Hilferty's. (The old t + t with the sd itself: 3.920913.) */
	CHECK(fabs(r.mde_pct / (5.878564 * 1.5811388 * sqrt(4 / 1.063623) /
				sqrt(5)) - 1) < 5e-3, "%g", r.mde_pct);
}

/* Boot 2 runs 100 % slower for both sides: it cancels within each pair. */
static void two_boots(void)
{
	struct paired_run c[] = { { 100, "A", 0, 0 }, { 100, "A", 3, 0 },
				  { 200, "B", 0, 0 }, { 200, "B", 3, 0 },
				  { 300, NULL, 0, 0 }, { 300, "C", 0, 0 } };
	struct paired_run v[] = { { 101, "A", 1, 0 }, { 102, "A", 2, 0 },
				  { 202, "B", 1, 0 }, { 204, "B", 2, 0 } };
	struct paired_result r;

	CHECK(paired_compare(c, 6, v, 4, 0.01, 0.8, 0, &r) == 0);
	CHECK(r.pairs == 4 && r.boots == 2 && r.by_boot && r.units == 2,
	      "pairs %zu boots %zu units %zu", r.pairs, r.boots, r.units);
	CHECK(r.df == 1);
	CHECK(NEAR(r.mean_pct, 1.5, 1e-12));
	CHECK(r.sd_pct == 0 && r.p == 0);
	/* One boot pairs nothing: fewer than two units. */
	CHECK(paired_compare(c, 2, v + 2, 2, 0.01, 0.8, 0, &r) == -1 &&
	      r.pairs == 0);
}

static void verdicts(void)
{
	struct paired_run c[7], v[7];
	static const double up[] = { 0.5, 0.7, 0.4, 0.6, 0.55, 0.65 };
	static const double aa[] = { 0.1, -0.2, 0.05, 0.0, -0.1, 0.15, 0.05 };
	struct verdict_result r;
	struct verdict_opts o;

	verdict_opts_default(&o);
	o.looks = 1;
	for (int i = 0; i < 7; i++) {
		c[i] = (struct paired_run){ 1000, "x", 2 * i, 0 };
		v[i] = (struct paired_run){ 1000 * (1 + up[i % 6] / 100), "x",
					    2 * i + 1, 0 };
	}
	memset(&r, 0, sizeof(r));
	r.metric = VERDICT_NS_PER_IO;
	CHECK(paired_verdict(c, 6, v, 6, &o, &r) == 0);
	CHECK(r.kind == VERDICT_REGRESSION, "%s", verdict_kind_str(r.kind));
	CHECK(NEAR(r.p, 5.08022e-05, 1e-8));
	CHECK(strstr(r.design, "paired t test on the within-boot pair differences"));
	CHECK(strstr(r.mde_source, "within-boot"));

	for (int i = 0; i < 7; i++)
		v[i].value = 1000 * (1 + aa[i] / 100);
	memset(&r, 0, sizeof(r));
	r.metric = VERDICT_NS_PER_IO;
	CHECK(paired_verdict(c, 7, v, 7, &o, &r) == 0);
	CHECK(r.kind == VERDICT_NO_CHANGE, "%s", verdict_kind_str(r.kind));
	CHECK(NEAR(r.p, 0.880536, 1e-5));
	CHECK(isfinite(r.mde_pct) && r.mde_pct > 0.1 && r.mde_pct < 0.5,
	      "%g", r.mde_pct);

	memset(&r, 0, sizeof(r));
	r.metric = VERDICT_IOPS;
	CHECK(paired_verdict(c, 4, v, 4, &o, &r) == 0);
	CHECK(r.kind == VERDICT_INCONCLUSIVE);
}

int main(void)
{
	t_pvalues();
	one_boot();
	two_boots();
	verdicts();
	DONE();
}
