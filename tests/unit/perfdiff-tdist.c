// SPDX-License-Identifier: MIT
/*
 * Description: the Student t quantile and tail of the perf diff noise mark
 * against published table values (two-sided 5 % and 1 %, one-sided 5 %)
 * and the closed forms of the tail with 1 and 2 degrees of freedom; the
 * Welch-Satterthwaite degrees of freedom; Benjamini-Hochberg on worked
 * examples.
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/perfdiff_noise.h"
#include "daemon/analysis/stats.h"
#include "unit/check.h"

/* Published to 3 decimals (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2). */
static const struct {
	double p, df, t;
} table[] = {
	{ 0.975, 1, 12.706 }, { 0.975, 2, 4.303 },  { 0.975, 3, 3.182 },
	{ 0.975, 4, 2.776 },  { 0.975, 5, 2.571 },  { 0.975, 10, 2.228 },
	{ 0.975, 20, 2.086 }, { 0.975, 30, 2.042 }, { 0.975, 100, 1.984 },
	{ 0.995, 1, 63.657 }, { 0.995, 5, 4.032 },  { 0.995, 10, 3.169 },
	{ 0.95, 1, 6.314 },   { 0.95, 2, 2.920 },   { 0.95, 8, 1.860 },
};

int main(void)
{
	double t, q;
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		q = stats_t_quantile(table[i].p, table[i].df);
		CHECK(fabs(q - table[i].t) <= 0.0005,
		      "t(%g, %g) = %.4f, table %.3f", table[i].p, table[i].df,
		      q, table[i].t);
		CHECK(fabs(stats_t_quantile(1 - table[i].p, table[i].df) + q) <
			      1e-9,
		      "symmetry at df %g", table[i].df);
	}
	/* df -> large: the normal 1.95996 */
	CHECK(fabs(stats_t_quantile(0.975, 1e7) - 1.959964) < 1e-5);
	CHECK(stats_t_quantile(0.5, 3) == 0 && isnan(stats_t_quantile(1, 3)) &&
	      isnan(stats_t_quantile(0.9, 0)));

	/* closed forms: df 1 (Cauchy) and df 2 */
	for (t = 0; t < 200; t = t * 1.7 + 0.05) {
		double c1 = 1 - 2 / M_PI * atan(t),
		       c2 = 1 - t / sqrt(2 + t * t);

		CHECK(fabs(stats_t_tail2(t, 1) - c1) <= 1e-12 + 1e-9 * c1,
		      "df 1 tail at %g: %.15g vs %.15g", t, stats_t_tail2(t, 1),
		      c1);
		CHECK(fabs(stats_t_tail2(-t, 2) - c2) <= 1e-12 + 1e-9 * c2,
		      "df 2 tail at %g: %.15g vs %.15g", t, stats_t_tail2(-t, 2),
		      c2);
	}
	/* real df between: the tail falls as df grows */
	CHECK(stats_t_tail2(3, 1.5) < stats_t_tail2(3, 1) &&
	      stats_t_tail2(3, 1.5) > stats_t_tail2(3, 2));

	/* Welch: equal variances and sizes give n1 + n2 - 2; all the variance
	 * on one side gives that side's n - 1 */
	CHECK(fabs(perfdiff_noise_welch_df(4, 5, 4, 5) - 8) < 1e-12);
	CHECK(fabs(perfdiff_noise_welch_df(0, 5, 4, 3) - 2) < 1e-12);
	/* va 1, vb 4, n 2 and 3: (0.5 + 1.333)^2 / (0.25/1 + 1.778/2) */
	CHECK(fabs(perfdiff_noise_welch_df(1, 2, 4, 3) -
		   (11.0 / 6) * (11.0 / 6) / (0.25 + 16.0 / 18)) < 1e-12);
	CHECK(perfdiff_noise_welch_p(0, 1, 3, 1, 3) == 1 && perfdiff_noise_welch_p(2, 0, 3, 0, 3) == 0);
	CHECK(isnan(perfdiff_noise_welch_p(1, 1, 1, 1, 3)));

	/* BH: p = .01 .04 .045 .2 at q .05 -> thresholds .0125 .025 .0375 .05:
	 * only the first. p = .01 .02 .03 .04 .05 -> all five (step-up). */
	{
		const double p1[] = { 0.2, 0.045, 0.01, 0.04, NAN };
		const double p2[] = { 0.05, 0.04, 0.03, 0.02, 0.01 };
		const double p3[] = { 0.011, 0.02,
				      0.5 }; /* .0167 .0333: both */
		unsigned char r[5];

		CHECK(!perfdiff_noise_bh(p1, 5, 0.05, r));
		CHECK(!r[0] && !r[1] && r[2] && !r[3] && !r[4]);
		CHECK(!perfdiff_noise_bh(p2, 5, 0.05, r));
		CHECK(r[0] && r[1] && r[2] && r[3] && r[4]);
		CHECK(!perfdiff_noise_bh(p3, 3, 0.05, r));
		CHECK(r[0] && r[1] && !r[2]);
	}
	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
