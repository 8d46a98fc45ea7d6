// SPDX-License-Identifier: MIT
/*
 * Description: planner_points() plans the analyses of an experiment as
 * docs/verdicts.md states, checked against hand-written schedules: runs,
 * then max(5, twice the last) up to max_runs; points with at least 5
 * runs are looks, at most 3, and nothing is planned after the third; an
 * experiment capped below 5 runs has no look at all. planner_look_alpha()
 * spends alpha = 0.01 as documented, against hand-computed values: even
 * shares, except a 5-run first look, whose smallest exact MWU p is
 * 2 / C(10, 5) = 2/252: it gets just that, the later looks the rest.
 */
#include <math.h>
#include <stdio.h>

#include "daemon/lab/planner.h"
#include "unit/check.h"

static const struct {
	int runs, max_runs, looks, n, at[6];
} cases[] = {
	{ 1, 2, 0, 2, { 1, 2 } },
	{ 3, 6, 1, 2, { 3, 6 } },
	{ 5, 5, 1, 1, { 5 } },
	{ 5, 10, 2, 2, { 5, 10 } },
	{ 5, 20, 3, 3, { 5, 10, 20 } },
	{ 5, 500, 3, 3, { 5, 10, 20 } },
	{ 1, 20, 3, 4, { 1, 5, 10, 20 } },
	{ 10, 40, 3, 3, { 10, 20, 40 } },
	{ 10, 30, 3, 3, { 10, 20, 30 } },
	{ 20, 20, 1, 1, { 20 } },
	{ 4, 8, 1, 2, { 4, 8 } },
};

static const struct {
	int runs, max_runs, rounds;
	double alpha;
} alphas[] = {
	{ 5, 5, 5, 0.01 },
	{ 5, 10, 5, 2.0 / 252 },
	{ 5, 10, 10, 0.01 - 2.0 / 252 },
	{ 5, 20, 5, 2.0 / 252 },
	{ 5, 20, 10, (0.01 - 2.0 / 252) / 2 },
	{ 5, 20, 20, (0.01 - 2.0 / 252) / 2 },
	{ 1, 20, 10, (0.01 - 2.0 / 252) / 2 },
	{ 10, 40, 10, 0.01 / 3 },
	{ 10, 40, 40, 0.01 / 3 },
	{ 6, 24, 6, 0.01 / 3 },	/* 2/924 = 0.0022 reaches 0.0033 */
	{ 3, 6, 6, 0.01 },
	{ 10, 20, 20, 0.005 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(alphas) / sizeof(alphas[0]); i++) {
		double a = planner_look_alpha(alphas[i].runs, alphas[i].max_runs,
					      5, 0.01, alphas[i].rounds);

		CHECK(fabs(a - alphas[i].alpha) < 1e-10,
		      "runs %d max %d, look at %d: alpha %.8g, want %.8g",
		      alphas[i].runs, alphas[i].max_runs, alphas[i].rounds, a,
		      alphas[i].alpha);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int at[32], looks, n, same = 1;

		n = planner_points(cases[i].runs, cases[i].max_runs, 5, at, 32,
				   &looks);
		for (int k = 0; k < n && k < cases[i].n; k++)
			same &= at[k] == cases[i].at[k];
		CHECK(n == cases[i].n && same && looks == cases[i].looks,
		      "runs %d max %d: %d points (want %d), looks %d (want %d)",
		      cases[i].runs, cases[i].max_runs, n, cases[i].n, looks,
		      cases[i].looks);
	}
	if (fails)
		return 1;
	printf("planner looks ok\n");
	return 0;
}
