// SPDX-License-Identifier: MIT
/*
 * Toggle experiments on a noisy host, simulated with the lab's own code:
 * the planner's hand-out order (planner_order_boots: which variant opens
 * each boot alternates; "before": planner_order, every boot opened by the
 * control when the rounds a boot are even), runs drawn with a boot offset
 * common to both sides (2 sd) and per-run noise of sd @noise %, and the
 * verdict of paired_verdict() (pairs by round, non-central t MDE with the
 * sd's upper bound, "this boot only" for one boot).
 *
 * Noise models, A/A (both variants identical):
 *   iid       independent runs;
 *   warm-up   the first run of each boot 2 sd slower;
 *   ar1       runs of a boot AR(1), rho 0.5 (stationary sd @noise);
 *   carry     a run right after a run of B is 1 sd slower when it is A
 *             (asymmetric carry-over);
 *   boot-var  iid, plus an effect of B that varies by boot (sd 2 sd,
 *             mean 0): a one-boot verdict is exact for its boot only.
 * Designs: 1 boot x 10 rounds, 5 x 2, 10 x 2. Printed: false alarms
 * (regression or improvement), the ones that alert (one boot never does),
 * and the reported MDE; then power at the mean reported MDE (iid, the
 * effect added to B). Figures, no assertions.
 *
 *   toggle-verdicts [-n EXPERIMENTS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/analysis/paired.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"
#include "daemon/lab/planner.h"

#define MAXRUNS 64

enum model { IID, WARMUP, AR1, CARRY, BOOTVAR, NMODEL };
static const char *const model_name[] = { "iid", "warm-up 2 sd", "AR(1) 0.5",
					  "carry-over 1 sd", "boot-varying effect" };

struct design {
	int boots, per_boot;
};

struct tally {
	long alarms, alerting, n;
	double mde, mde_old;
};

/* One experiment: runs drawn in hand-out order; the paired verdict. */
static void one(struct stats_rng *g, const struct design *d, enum model m,
		double noise, double effect, int before, struct verdict_result *r,
		double *mde_old)
{
	static const char *const ids[] = { "b0", "b1", "b2", "b3", "b4", "b5",
					   "b6", "b7", "b8", "b9" };
	int rounds = d->boots * d->per_boot, vi[2 * MAXRUNS], ri[2 * MAXRUNS];
	struct paired_run c[MAXRUNS], v[MAXRUNS];
	struct verdict_opts o;
	struct paired_result p;
	int nc = 0, nv = 0;

	if (before)
		planner_order(2, 0, rounds, vi, ri);
	else
		planner_order_boots(2, 0, rounds, d->per_boot, vi, ri);
	for (int b = 0; b < d->boots; b++) {
		double off = 2 * noise * stats_rng_normal(g), ar = 0;
		double bootfx = m == BOOTVAR ? 2 * noise * stats_rng_normal(g) : 0;
		int prev = -1;

		for (int k = 0; k < 2 * d->per_boot; k++) {
			int i = 2 * b * d->per_boot + k, var = vi[i];
			double e = stats_rng_normal(g), x;

			if (m == AR1) {
				ar = k ? 0.5 * ar + sqrt(0.75) * e : e;
				e = ar;
			}
			x = 1 + (off + noise * e) / 100;
			if (m == WARMUP && k == 0)
				x -= 2 * noise / 100;
			if (m == CARRY && var == 0 && prev == 1)
				x -= noise / 100;
			if (var == 1)
				x *= 1 + (effect + bootfx) / 100;
			prev = var;
			if (var == 0)
				c[nc++] = (struct paired_run){ 1e5 * x, ids[b], k, ri[i] + 1 };
			else
				v[nv++] = (struct paired_run){ 1e5 * x, ids[b], k, ri[i] + 1 };
		}
	}
	verdict_opts_default(&o);
	o.looks = 1;
	memset(r, 0, sizeof(*r));
	r->metric = VERDICT_IOPS;
	paired_verdict(c, nc, v, nv, &o, r);
	/* before: t + t with the observed sd (paired.c until issue 29) */
	*mde_old = NAN;
	if (!paired_compare(c, nc, v, nv, o.alpha, o.power, 0, &p))
		*mde_old = (stats_t_quantile(1 - o.alpha / 2, p.df) +
			    stats_t_quantile(o.power, p.df)) * p.sd_pct /
			   sqrt((double)p.units);
}

static void run(struct stats_rng *g, const struct design *d, enum model m,
		double noise, double effect, int before, int n, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < n; i++) {
		struct verdict_result r;
		double old;
		int sig;

		one(g, d, m, noise, effect, before, &r, &old);
		sig = r.kind == VERDICT_REGRESSION || r.kind == VERDICT_IMPROVEMENT;
		t->alarms += sig;
		t->alerting += sig && !r.one_boot;
		if (isfinite(r.mde_pct))
			t->mde += r.mde_pct;
		if (isfinite(old))
			t->mde_old += old;
		t->n++;
	}
	t->mde /= n;
	t->mde_old /= n;
}

int main(int argc, char **argv)
{
	static const struct design ds[] = { { 1, 10 }, { 5, 2 }, { 10, 2 } };
	static const double noise[] = { 0.002, 0.1, 0.5 };
	struct stats_rng g;
	int n = 2000, opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: %s [-n experiments]\n", argv[0]);
			return 2;
		}
		n = atoi(optarg);
	}
	if (n < 10) {
		fprintf(stderr, "-n: at least 10\n");
		return 2;
	}
	printf("A/A toggle experiments, %d a row, alpha 0.01; boots x rounds"
	       " a boot; before = every boot opened by the control when the"
	       " rounds a boot are even, t + t MDE of the observed sd\n", n);
	printf("%-7s %-20s %-7s %14s %14s %12s %12s\n", "noise %", "model",
	       "design", "before alarms", "after alarms", "alerting", "MDE after");
	for (size_t ni = 0; ni < 3; ni++)
		for (int m = 0; m < NMODEL; m++)
			for (size_t di = 0; di < 3; di++) {
				struct tally b, a;

				stats_rng_seed(&g, 0x7099 + 100 * ni + 10 * m + di);
				run(&g, &ds[di], m, noise[ni], 0, 1, n, &b);
				run(&g, &ds[di], m, noise[ni], 0, 0, n, &a);
				printf("%-7g %-20s %2dx%-4d %13.1f%% %13.1f%% %11.1f%%"
				       " %10.4f %%\n", noise[ni], model_name[m],
				       ds[di].boots, ds[di].per_boot,
				       100.0 * b.alarms / n, 100.0 * a.alarms / n,
				       100.0 * a.alerting / n, a.mde);
				fflush(stdout);
			}
	printf("\npower at the mean reported MDE (iid, effect on B), %d a row\n", n);
	printf("%-7s %-7s %12s %10s %12s %10s\n", "noise %", "design",
	       "MDE before", "detected", "MDE after", "detected");
	for (size_t ni = 0; ni < 3; ni++)
		for (size_t di = 0; di < 3; di++) {
			struct tally aa, pb, pa;

			stats_rng_seed(&g, 0x7e57 + 100 * ni + di);
			run(&g, &ds[di], IID, noise[ni], 0, 0, n, &aa);
			run(&g, &ds[di], IID, noise[ni], -aa.mde_old, 1, n, &pb);
			run(&g, &ds[di], IID, noise[ni], -aa.mde, 0, n, &pa);
			printf("%-7g %2dx%-4d %10.4f %% %9.1f%% %10.4f %% %9.1f%%\n",
			       noise[ni], ds[di].boots, ds[di].per_boot, aa.mde_old,
			       100.0 * pb.alarms / n, aa.mde, 100.0 * pa.alarms / n);
			fflush(stdout);
		}
	return 0;
}
