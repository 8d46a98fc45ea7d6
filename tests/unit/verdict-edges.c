// SPDX-License-Identifier: MIT
/*
 * Description: verdicts at the edges, each against a value
 * known without the code: the sd of identical values is exactly 0 for
 * every n up to 200 (and Hedges' g of two equal constant sides is 0);
 * 4 runs against 10 constants is inconclusive (fewer than 5 a side),
 * 5 against 5 fully separated constants is a regression at p = 2/252
 * with the rule's real level 2/252 in the text; identical runs without
 * a host calibration are "inconclusive (no noise estimate)", never MDE 0;
 * 5 x 2408.60 against 5 x 2408.61 ns/IO (one quantum) on a calibrated
 * host is no change; a p below alpha whose 99 % CI includes 0 says so
 * instead of "p >= alpha"; one run a side compares seconds only for
 * imported logs (allow_per_second), and says so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"
#include "unit/check.h"

static void constants(void)
{
	static const double vals[] = { 2408.6, 0.1, 1e6 / 3, 3529869.7 };
	double x[200], y[10];

	for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++)
		for (size_t n = 2; n <= 200; n++) {
			for (size_t i = 0; i < n; i++)
				x[i] = vals[v];
			CHECK(stats_stddev(x, n) == 0, "sd of %zu x %g = %g", n,
			      vals[v], stats_stddev(x, n));
		}
	for (int i = 0; i < 10; i++)
		y[i] = 2408.6;
	for (int i = 0; i < 7; i++)
		x[i] = 2408.6;
	CHECK(stats_hedges_g(x, 7, y, 10) == 0, "g of equal constants %g",
	      stats_hedges_g(x, 7, y, 10));
}

static void small_and_separated(void)
{
	double a[10], b[10];
	struct verdict_opts o;
	struct verdict_result r;
	char sum[160];

	verdict_opts_default(&o);
	for (int i = 0; i < 10; i++) {
		a[i] = 2408.60;
		b[i] = 2415.80;
	}
	CHECK(verdict_compare_values(a, 4, b, 10, VERDICT_NS_PER_IO, &o, &r) ==
			      0 &&
		      r.kind == VERDICT_INCONCLUSIVE &&
		      strstr(r.reason, "5 runs"),
	      "4 vs 10: %s (%s)", verdict_kind_str(r.kind), r.reason);
	CHECK(verdict_compare_values(a, 5, b, 5, VERDICT_NS_PER_IO, &o, &r) ==
			      0 &&
		      r.kind == VERDICT_REGRESSION &&
		      fabs(r.p - 2.0 / 252) < 1e-12 &&
		      fabs(r.level - 2.0 / 252) < 1e-12 &&
		      strstr(r.reason, "level 0.00794"),
	      "5 vs 5 separated: %s p %g level %g (%s)",
	      verdict_kind_str(r.kind), r.p, r.level, r.reason);
	/* No observed noise, no calibration: no MDE can be claimed. */
	CHECK(verdict_compare_values(a, 5, a + 5, 5, VERDICT_NS_PER_IO, &o,
				     &r) == 0 &&
		      r.kind == VERDICT_INCONCLUSIVE && r.no_noise &&
		      !isfinite(r.mde_pct),
	      "identical runs: %s mde %g", verdict_kind_str(r.kind), r.mde_pct);
	verdict_summary(&r, sum, sizeof(sum));
	CHECK(strstr(sum, "no noise estimate") && !strstr(sum, "MDE 0"),
	      "summary: %s", sum);
	/* One quantum (0.01 ns) apart on a host calibrated at 0.1 %. */
	for (int i = 0; i < 5; i++)
		b[i] = 2408.61;
	o.host_noise_pct = 0.1;
	CHECK(verdict_compare_values(a, 5, b, 5, VERDICT_NS_PER_IO, &o, &r) ==
			      0 &&
		      r.kind == VERDICT_NO_CHANGE && r.mde_pct > 0.1,
	      "one quantum: %s mde %g (%s)", verdict_kind_str(r.kind),
	      r.mde_pct, r.reason);
}

/* Found by search: exact MWU p 0.0070 (< 0.01), 99 % CI -0.25 .. +4.5. */
static void ci_includes_zero(void)
{
	static const double a[7] = { 99.13,  98.21, 98.55, 100.04,
				     100.73, 99.08, 101.07 };
	static const double b[7] = { 100.38, 102.69, 102.52, 103.98,
				     101.50, 102.64, 100.48 };
	struct verdict_opts o;
	struct verdict_result r;

	verdict_opts_default(&o);
	o.host_noise_pct = 0.1;
	CHECK(verdict_compare_values(a, 7, b, 7, VERDICT_NS_PER_IO, &o, &r) ==
		      0,
	      "compare failed");
	/* U = 3 of 49 pairs: exact two-sided p 0.006993 (tables: U <= 4
	 * is significant at 0.01 for 7/7). */
	CHECK(fabs(r.p - 0.006993) < 1e-6, "p %g", r.p);
	/* The seeded bootstrap's 99 % interval includes 0 for this data. */
	CHECK(r.dci_lo <= 0 && r.dci_hi >= 0, "99 %% CI %g .. %g", r.dci_lo,
	      r.dci_hi);
	CHECK(r.kind == VERDICT_NO_CHANGE && strstr(r.reason, "includes 0") &&
		      !strstr(r.reason, ">="),
	      "reason: %s", r.reason);
}

static void one_boot(void)
{
	double s1[10], s2[10];
	struct verdict_run c = { .iops = s1, .nsamples = 10, .warmup = 0 };
	struct verdict_run v = { .iops = s2, .nsamples = 10, .warmup = 0 };
	struct verdict_opts o;
	struct verdict_result r;
	char sum[160];

	for (int i = 0; i < 10; i++) {
		s1[i] = 1000000 + 1000 * (i % 3);
		s2[i] = 950000 + 1000 * (i % 4);
	}
	verdict_opts_default(&o);
	CHECK(verdict_compare_runs(&c, 1, &v, 1, &o, &r) == 0 &&
		      r.kind == VERDICT_INCONCLUSIVE && !r.per_second &&
		      r.n_ctrl == 1,
	      "experiment, one boot: %s per_second %d",
	      verdict_kind_str(r.kind), r.per_second);
	o.allow_per_second = 1;
	CHECK(verdict_compare_runs(&c, 1, &v, 1, &o, &r) == 0 && r.per_second &&
		      r.n_ctrl == 10 && r.kind == VERDICT_REGRESSION,
	      "log, one boot: %s per_second %d", verdict_kind_str(r.kind),
	      r.per_second);
	verdict_summary(&r, sum, sizeof(sum));
	CHECK(strstr(sum, "seconds of one boot a side") != NULL, "summary %s",
	      sum);
}

int main(void)
{
	constants();
	small_and_separated();
	ci_includes_zero();
	one_boot();
	if (fails)
		return 1;
	printf("verdict edges ok\n");
	return 0;
}
