// SPDX-License-Identifier: MIT
/*
 * Description: the E-Divisive split maximises over the right edge too: its
 * statistic equals a brute-force maximum over every (tau, kappa) of the
 * energy statistic computed from its definition, and on a short
 * excursion it differs from the best split with the edge fixed at the
 * end; the merge step drops a change point planted in pure noise next to
 * a real shift and keeps the real one; confirmation: a change point is
 * confirmed only when a second run finds it, retracted when one does not.
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/changepoint.h"
#include "daemon/analysis/stats.h"
#include "unit/check.h"

/* Energy statistic of y[0..t) against y[t..k), from the definition. */
static double energy_def(const double *y, int t, int k)
{
	double b = 0, wl = 0, wr = 0, l = t, r = k - t;

	for (int i = 0; i < t; i++)
		for (int j = t; j < k; j++)
			b += fabs(y[i] - y[j]);
	for (int i = 0; i < t; i++)
		for (int j = 0; j < t; j++)
			wl += fabs(y[i] - y[j]);
	for (int i = t; i < k; i++)
		for (int j = t; j < k; j++)
			wr += fabs(y[i] - y[j]);
	/* Matteson & James (2014), eq. 5 and 6, alpha = 1. */
	return l * r / (l + r) *
	       (2 * b / (l * r) - wl / (l * (l - 1)) - wr / (r * (r - 1)));
}

static double brute(const double *y, int m, int min, int fixed, int *tau)
{
	double best = -INFINITY;

	for (int t = min; t <= m - min; t++)
		for (int k = fixed ? m : t + min; k <= m; k++) {
			double q = energy_def(y, t, k);

			if (q > best) {
				best = q;
				*tau = t;
			}
		}
	return best;
}

static void check_split(void)
{
	struct stats_rng r;
	double y[36];
	size_t tau;
	int bt, ft;

	stats_rng_seed(&r, 3);
	for (int rep = 0; rep < 20; rep++) {
		int m = 12 + rep;

		for (int i = 0; i < m; i++)
			y[i] = stats_rng_normal(&r) + (i > m / 3 ? 1.5 : 0);
		double q = cp_best_split(y, m, 5, &tau);
		double b = brute(y, m, 5, 0, &bt);

		CHECK(fabs(q - b) < 1e-9 * fabs(b) && (int)tau == bt,
		      "m %d: q %.9g at %zu, brute force %.9g at %d", m, q, tau,
		      b, bt);
	}
	/* 15 x 0, a 6-point excursion to 10, 15 x 0 (plus a small ramp). */
	for (int i = 0; i < 36; i++)
		y[i] = (i >= 15 && i < 21 ? 10 : 0) + 0.01 * ((i * 7) % 5);
	cp_best_split(y, 36, 5, &tau);
	brute(y, 36, 5, 1, &ft);
	brute(y, 36, 5, 0, &bt);
	CHECK((int)tau == bt && bt == 15 && ft != bt,
	      "excursion: split %zu, both edges %d, fixed edge %d", tau, bt,
	      ft);
}

static void check_merge(void)
{
	struct cp_opts o;
	struct cp v[4];
	struct stats_rng r;
	double x[120];
	int k;

	cp_opts_default(&o);
	stats_rng_seed(&r, 9);
	for (int i = 0; i < 120; i++)
		x[i] = 100 + stats_rng_normal(&r) + (i >= 60 ? 5 : 0);
	/* A real shift at 60 and an invented one at 30 in pure noise. */
	v[0] = (struct cp){ .index = 30 };
	v[1] = (struct cp){ .index = 60 };
	k = cp_merge(x, 120, &o, v, 2);
	CHECK(k == 1 && v[0].index == 60 && v[0].p <= o.max_p &&
		      fabs(v[0].delta_pct - 5) < 1,
	      "merge kept %d, first at %zu p %g delta %g", k, v[0].index,
	      v[0].p, v[0].delta_pct);
}

static void check_confirm(void)
{
	struct cp_mark m[2] = { { 40, CP_CANDIDATE }, { 80, CP_CANDIDATE } };
	struct cp cur[2] = { { .index = 41 }, { .index = 100 } };
	unsigned char fresh[2];
	int n;

	n = cp_reconcile(m, 2, cur, 2, 5, fresh);
	CHECK(n == 1 && m[0].state == CP_CONFIRMED &&
		      m[1].state == CP_RETRACTED && !fresh[0] && fresh[1],
	      "reconcile: %d confirmed, states %d %d, fresh %d %d", n,
	      m[0].state, m[1].state, fresh[0], fresh[1]);
	/* Confirmed once is confirmed: a later run does not alert again. */
	n = cp_reconcile(m, 2, cur, 1, 5, fresh);
	CHECK(n == 0 && m[0].state == CP_CONFIRMED, "second run: %d", n);
}

int main(void)
{
	check_split();
	check_merge();
	check_confirm();
	if (fails)
		return 1;
	printf("changepoint: split over both edges, merge, confirmation ok\n");
	return 0;
}
