// SPDX-License-Identifier: MIT
/*
 * Verdict false alarms and power on simulated experiments at the
 * qemu-icount noise level (per-run sd 0.1 % of the run value), through
 * the same code as real comparisons: verdict_compare_values() at each
 * look that planner_points() plans, stopping at the first verdict that is
 * not inconclusive, as analysis.c does. Prints figures; asserts nothing.
 *
 *   stats-power [-e EXPERIMENTS] [-s SD_PCT] [-a|-p]
 *     -a  A/A table only; -p  power table only
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon/lab/planner.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"

#define MAXN 128

struct design {
	int runs, max_runs;
	double host_sd; /* calibration given to the verdict, 0: none */
	double true_sd; /* noise of the simulated runs */
	double effect; /* % change of the variant (ns/IO up = worse) */
};

struct tally {
	int n, runs_used, kinds[4];
	double mde_sum;
	int mde_below; /* no change with an MDE below the true one */
};

/* One experiment through its looks; the final verdict into @t. */
static void experiment(const struct design *d, struct stats_rng *rng,
		       uint64_t seed, struct tally *t)
{
	const double base = 4264.39;
	double a[MAXN], b[MAXN];
	int at[32], np, looks;
	struct verdict_opts o;
	struct verdict_result r = { .kind = VERDICT_INCONCLUSIVE };

	np = planner_points(d->runs, d->max_runs, VERDICT_MIN_RUNS, at, 32,
			    &looks);
	for (int i = 0; i < at[np - 1]; i++) {
		a[i] = base * (1 + d->true_sd / 100 * stats_rng_normal(rng));
		b[i] = base * (1 + d->effect / 100) *
		       (1 + d->true_sd / 100 * stats_rng_normal(rng));
	}
	verdict_opts_default(&o);
	o.host_noise_pct = d->host_sd;
	o.looks = looks;
	for (int k = 0; k < np; k++) {
		o.more_runs = k + 1 < np;
		o.alpha_look = planner_look_alpha(
			d->runs, d->max_runs, VERDICT_MIN_RUNS, o.alpha, at[k]);
		o.seed = seed * 1000003 + k;
		if (verdict_compare_values(a, at[k], b, at[k],
					   VERDICT_NS_PER_IO, &o, &r))
			return;
		if (r.kind != VERDICT_INCONCLUSIVE || k + 1 == np) {
			t->runs_used += at[k];
			break;
		}
	}
	t->kinds[r.kind]++;
	t->n++;
	if (r.kind == VERDICT_NO_CHANGE) {
		t->mde_sum += r.mde_pct;
		o.alpha_look = r.alpha_look;
		t->mde_below += r.mde_pct <
				verdict_mde(d->true_sd, r.n_ctrl, r.n_var, &o);
	}
}

static void simulate(const struct design *d, int exps, uint64_t seed,
		     struct tally *t)
{
	struct stats_rng rng;

	stats_rng_seed(&rng, seed);
	for (int e = 0; e < exps; e++)
		experiment(d, &rng, seed + e, t);
}

static double pct(int k, int n)
{
	return n ? 100.0 * k / n : NAN;
}

/* One-sided 95 % upper bound of a binomial proportion (Wilson score). */
static double wilson_upper(int k, int n)
{
	double z = 1.6449, p = (double)k / n, z2n = z * z / n;

	if (!n)
		return NAN;
	return (p + z2n / 2 + z * sqrt(p * (1 - p) / n + z2n / (4.0 * n))) /
	       (1 + z2n);
}

static void aa_row(const char *label, const struct design *d, int exps,
		   uint64_t seed)
{
	struct tally t = { 0 };
	int at[32], looks, np, alarms;
	char pts[64] = "";
	size_t len = 0;

	np = planner_points(d->runs, d->max_runs, VERDICT_MIN_RUNS, at, 32,
			    &looks);
	for (int k = 0; k < np && len < sizeof(pts) - 8; k++)
		len += snprintf(pts + len, sizeof(pts) - len, "%s%d",
				k ? "," : "", at[k]);
	/* One seed per row: the rules are scale-free, so equal seeds would
	 * repeat the same decisions at another noise level. */
	simulate(d, exps, seed, &t);
	alarms = t.kinds[VERDICT_REGRESSION] + t.kinds[VERDICT_IMPROVEMENT];
	printf("%-22s %4d %4d %-12s %5d %6d %7.2f%% %7.2f%% %7.2f%% %7.2f%% %6.1f\n",
	       label, d->runs, d->max_runs, pts, looks, t.n, pct(alarms, t.n),
	       100 * wilson_upper(alarms, t.n),
	       pct(t.kinds[VERDICT_NO_CHANGE], t.n),
	       pct(t.kinds[VERDICT_INCONCLUSIVE], t.n),
	       t.n ? (double)t.runs_used / t.n : NAN);
}

static void aa_table(int exps, double sd)
{
	static const int runs[] = { 1, 5, 10, 20 };

	printf("== A/A, looks as planned (runs, then max(5, 2x) up to max_runs, at most %d looks, alpha 0.01 spent across them)\n",
	       PLANNER_MAX_LOOKS);
	printf("%-22s %4s %4s %-12s %5s %6s %8s %8s %8s %8s %6s\n", "noise",
	       "runs", "max", "points", "looks", "exps", "alarms", "95% ub",
	       "no chg", "inconcl", "runs");
	for (int f = 0; f < 4; f++) {
		static const char *const label[] = {
			"calibrated, true",
			"calibrated, 1.5x true",
			"calibrated, 2x true",
			"not calibrated",
		};
		static const double factor[] = { 1, 1.5, 2, 1 };

		for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
			struct design d = {
				.runs = runs[i],
				.max_runs = 4 * (runs[i] < 5 ? 5 : runs[i]),
				.host_sd = f < 3 ? sd : 0,
				.true_sd = sd * factor[f],
			};

			/*
			 * 5x the experiments where they are cheap (few runs
			 * used): the first look at 5 runs spends 0.79 % at
			 * once, and 2000 experiments leave +-0.2 % of noise.
			 */
			aa_row(label[f], &d, f == 0 || f == 3 ? 5 * exps : exps,
			       1000 + 10 * f + i);
		}
	}
	printf("(alarms = regression + improvement: the false-alarm rate, with its one-sided 95 %% Wilson\n"
	       " upper bound; by construction (Bonferroni) at most 1 %%; runs = mean runs a side used)\n\n");
}

/*
 * Runs a side at the first look whose exact MWU can reach its alpha, and
 * that alpha in @alpha.
 */
static int first_decisive(const struct design *d, int *looks, double *alpha)
{
	struct verdict_opts o;
	int at[32], np;

	verdict_opts_default(&o);
	np = planner_points(d->runs, d->max_runs, VERDICT_MIN_RUNS, at, 32,
			    looks);
	for (int k = 0; k < np; k++) {
		*alpha = planner_look_alpha(d->runs, d->max_runs,
					    VERDICT_MIN_RUNS, o.alpha, at[k]);
		if (at[k] >= VERDICT_MIN_RUNS &&
		    stats_mwu_min_p(at[k], at[k]) < *alpha)
			return at[k];
	}
	return at[np - 1];
}

/*
 * Power at the MDE the verdict reports for this design: with the host's
 * true noise, the MDE of the first look that can decide; otherwise (own
 * noise, or runs noisier than the calibration) the mean MDE that A/A
 * experiments of the design report.
 */
static void power_row(const char *label, struct design d, int exps)
{
	struct tally aa = { 0 }, t = { 0 };
	struct verdict_opts o;
	int looks, n;

	verdict_opts_default(&o);
	n = first_decisive(&d, &looks, &o.alpha_look);
	o.looks = looks;
	if (d.host_sd > 0 && d.host_sd == d.true_sd) {
		d.effect = verdict_mde(d.host_sd, n, n, &o);
	} else {
		simulate(&d, exps, 77, &aa);
		d.effect = aa.mde_sum / aa.kinds[VERDICT_NO_CHANGE];
	}
	simulate(&d, exps, 5000 + d.runs, &t);
	printf("%-22s %4d %4d %5d %7.3f%% %6d %8.2f%% %8.2f%% %8.2f%% %6.1f",
	       label, d.runs, d.max_runs, looks, d.effect, t.n,
	       pct(t.kinds[VERDICT_REGRESSION], t.n),
	       pct(t.kinds[VERDICT_NO_CHANGE], t.n),
	       pct(t.kinds[VERDICT_INCONCLUSIVE], t.n),
	       t.n ? (double)t.runs_used / t.n : NAN);
	if (aa.n)
		printf("   (A/A: %.1f %% of no-change MDEs below the true-sigma MDE)",
		       pct(aa.mde_below, aa.kinds[VERDICT_NO_CHANGE]));
	printf("\n");
}

static void power_table(int exps, double sd)
{
	static const struct {
		const char *label;
		int runs, max_runs;
		double host, noise; /* calibration and true noise, x sd */
	} rows[] = {
		{ "calibrated", 5, 5, 1, 1 },
		{ "calibrated", 10, 10, 1, 1 },
		{ "calibrated", 20, 20, 1, 1 },
		{ "calibrated, looks", 5, 20, 1, 1 },
		{ "calibrated, looks", 10, 40, 1, 1 },
		{ "calibrated, 1.5x true", 5, 5, 1, 1.5 },
		{ "calibrated, 1.5x true", 10, 10, 1, 1.5 },
		{ "own (90 % UCB)", 5, 5, 0, 1 },
		{ "own (90 % UCB)", 10, 10, 0, 1 },
		{ "own (90 % UCB)", 20, 20, 0, 1 },
	};

	printf("== power at the reported MDE (effect = that MDE, ns/IO up)\n");
	printf("%-22s %4s %4s %5s %8s %6s %9s %9s %9s %6s\n", "noise", "runs",
	       "max", "looks", "effect", "exps", "detected", "no chg",
	       "inconcl", "runs");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct design d = {
			.runs = rows[i].runs,
			.max_runs = rows[i].max_runs,
			.host_sd = rows[i].host * sd,
			.true_sd = rows[i].noise * sd,
		};

		power_row(rows[i].label, d, exps);
	}
	printf("(calibrated at the true noise: effect = the MDE of the first look that can decide;\n"
	       " otherwise effect = the mean MDE reported by A/A experiments of the design)\n");
}

int main(int argc, char **argv)
{
	int exps = 2000, opt, which = 3;
	double sd = 0.1;

	while ((opt = getopt(argc, argv, "e:s:ap")) != -1) {
		switch (opt) {
		case 'e':
			exps = atoi(optarg);
			break;
		case 's':
			sd = atof(optarg);
			break;
		case 'a':
			which = 1;
			break;
		case 'p':
			which = 2;
			break;
		default:
			fprintf(stderr,
				"usage: %s [-e experiments] [-s sd%%] [-a|-p]\n",
				argv[0]);
			return 2;
		}
	}
	if (exps < 1 || !(sd > 0)) {
		fprintf(stderr, "bad -e or -s\n");
		return 2;
	}
	printf("per-run sd %.3f %%, ns/IO, %d simulated experiments per row\n\n",
	       sd, exps);
	if (which & 1)
		aa_table(exps, sd);
	if (which & 2)
		power_table(exps, sd);
	return 0;
}
