// SPDX-License-Identifier: MIT
/*
 * Description: the MDE gate before a track's change point is bisected
 * (bisect_gate). Its MDE is checked against an independent reference:
 * sqrt(pi/2) * s_ucb * sqrt(2/n) * (t(1 - a/2, 2n - 2) + t(0.8, 2n - 2)),
 * s_ucb = s * sqrt(dof / chi2(0.10, dof)), with the quantiles from
 * published tables (t 0.995 and 0.80 at 8 and 18 df, chi-square 0.10 at
 * 10 and 40 df) and, for the level a 5-run bisection really tests at
 * (2/252), from quantiles this test finds itself by integrating the t and
 * chi-square densities (Simpson) and bisecting. Steps just above the MDE
 * are bisected, just below are not (either sign), and the note says
 * which, with the run count; no noise estimate starts the bisection and
 * says it was not gated. The tolerance is 0.2 %: the code's chi-square
 * quantile is Wilson-Hilferty's (0.09 % off at 10 dof).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/bisect.h"
#include "unit/check.h"

#define HALF_PI_SQRT 1.2533141373155001

static double t_pdf(double x, double k)
{
	return exp(lgamma((k + 1) / 2) - lgamma(k / 2)) / sqrt(k * M_PI) *
	       pow(1 + x * x / k, -(k + 1) / 2);
}

static double chi2_pdf(double x, double k)
{
	if (x <= 0)
		return 0;
	return exp((k / 2 - 1) * log(x) - x / 2 - (k / 2) * log(2) - lgamma(k / 2));
}

static double simpson(double (*f)(double, double), double k, double a, double b)
{
	int n = 20000;
	double h = (b - a) / n, s = f(a, k) + f(b, k);

	for (int i = 1; i < n; i++)
		s += f(a + i * h, k) * (i % 2 ? 4 : 2);
	return s * h / 3;
}

static double t_quant(double p, double k)
{
	double lo = 0, hi = 50;

	for (int i = 0; i < 60; i++) {
		double m = (lo + hi) / 2;

		if (0.5 + simpson(t_pdf, k, 0, m) < p)
			lo = m;
		else
			hi = m;
	}
	return (lo + hi) / 2;
}

static double chi2_quant(double p, double k)
{
	double lo = 0, hi = 10 * k + 50;

	for (int i = 0; i < 60; i++) {
		double m = (lo + hi) / 2;

		if (simpson(chi2_pdf, k, 0, m) < p)
			lo = m;
		else
			hi = m;
	}
	return (lo + hi) / 2;
}

static double ref_mde(double sd, double dof, int n, double ta, double tp,
		      double chi)
{
	double ucb = sd * sqrt(dof / chi);

	return HALF_PI_SQRT * ucb * sqrt(2.0 / n) * (ta + tp);
}

static void near(double got, double want, double rel, const char *what)
{
	CHECK(fabs(got - want) <= rel * want, "%s: %.6f, reference %.6f", what,
	      got, want);
}

static void edges(double sd, double dof, int n, double a, double mde)
{
	struct bisect_gate g;
	char runs[32];

	snprintf(runs, sizeof(runs), "%d-run steps", n);
	for (int sign = -1; sign <= 1; sign += 2) {
		bisect_gate(sign * mde * 1.002, sd, dof, n, a, "the track's runs", &g);
		CHECK(g.start == 1, "%+.5f above %.5f", sign * mde * 1.002, mde);
		CHECK(strstr(g.note, "above") && strstr(g.note, runs), "%s", g.note);
		bisect_gate(sign * mde * 0.998, sd, dof, n, a, "the track's runs", &g);
		CHECK(g.start == 0, "%+.5f below %.5f", sign * mde * 0.998, mde);
		CHECK(strstr(g.note, "below") && strstr(g.note, "not bisected") &&
		      strstr(g.note, runs) && strstr(g.note, "the track's runs"),
		      "%s", g.note);
	}
}

int main(void)
{
	struct bisect_gate g;
	double want, ta, tp, chi;

	/* Published tables: t(0.995, 8) 3.3554, t(0.80, 8) 0.8889,
	 * chi2(0.10, 10) 4.8652; t(0.995, 18) 2.8784, t(0.80, 18) 0.8620,
	 * chi2(0.10, 40) 29.0505. */
	want = ref_mde(0.1, 10, 5, 3.3554, 0.8889, 4.8652);
	bisect_gate(1, 0.1, 10, 5, 0.01, "x", &g);
	near(g.mde_pct, want, 2e-3, "5 runs, dof 10, alpha 0.01");
	near(g.sigma_pct, 0.1 * sqrt(10 / 4.8652), 2e-3, "upper bound, dof 10");
	edges(0.1, 10, 5, 0.01, want);
	want = ref_mde(0.3, 40, 10, 2.8784, 0.8620, 29.0505);
	bisect_gate(1, 0.3, 40, 10, 0.01, "x", &g);
	near(g.mde_pct, want, 2e-3, "10 runs, dof 40, alpha 0.01");
	edges(0.3, 40, 10, 0.01, want);

	/* The level of a 5-run first step (2/252), quantiles found here. */
	ta = t_quant(1 - (2.0 / 252) / 2, 8);
	tp = t_quant(0.8, 8);
	chi = chi2_quant(0.10, 24);
	CHECK(fabs(tp - 0.8889) < 1e-3, "own t quantile %.5f", tp);
	want = ref_mde(0.002, 24, 5, ta, tp, chi);
	bisect_gate(1, 0.002, 24, 5, 2.0 / 252, "x", &g);
	near(g.mde_pct, want, 2e-3, "5 runs, dof 24, alpha 2/252");
	edges(0.002, 24, 5, 2.0 / 252, want);

	/* The example: 0.04 % on a host of 0.1 % run noise. */
	bisect_gate(0.04, 0.1, 40, 5, 2.0 / 252, "the track's runs", &g);
	const char *want_note = "step 0.04 % is below what 5-run steps resolve"
				" on this host";

	CHECK(!g.start && !strncmp(g.note, want_note, strlen(want_note)), "%s",
	      g.note);

	/* No noise estimate: bisected, and said so. */
	bisect_gate(5, NAN, 0, 5, 0.01, "none", &g);
	CHECK(g.start == 1 && isnan(g.mde_pct) && strstr(g.note, "without the MDE gate"),
	      "%s", g.note);
	bisect_gate(5, 0.1, 0, 5, 0.01, "none", &g);
	CHECK(g.start == 1 && isnan(g.mde_pct), "no dof");
	DONE();
}
