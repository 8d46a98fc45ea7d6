// SPDX-License-Identifier: MIT
/*
 * Description: A/A false-alarm rate of the verdict is <= 1 % over 1500
 * simulated experiments (10 runs per side, per-run noise sd 0.1 %), both
 * with the host's calibrated noise and with the experiment's own, and
 * at least 97 % of them read "no change". An experiment far noisier than
 * the host's calibration is "inconclusive" while more runs can come, and
 * at its last look "no change" with an MDE from its own noise, at least
 * twice the calibrated one (3x the noise: the own-noise MDE is ~3x).
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"

static int run_more(int host, int exps, double sd_pct, double host_sd,
		    uint64_t seed, int more, int *kinds);

static double mde_sum;

static int run(int host, int exps, double sd_pct, double host_sd,
	       uint64_t seed, int *kinds)
{
	return run_more(host, exps, sd_pct, host_sd, seed, 0, kinds);
}

static int run_more(int host, int exps, double sd_pct, double host_sd,
		    uint64_t seed, int more, int *kinds)
{
	struct verdict_opts o;
	struct stats_rng rng;

	verdict_opts_default(&o);
	o.resamples = 1000;
	o.more_runs = more;
	o.host_noise_pct = host ? host_sd : 0;
	stats_rng_seed(&rng, seed);
	for (int e = 0; e < exps; e++) {
		struct verdict_result r;
		double a[10], b[10];

		for (int i = 0; i < 10; i++) {
			a[i] = 3.5e6 * (1 + sd_pct / 100 * stats_rng_normal(&rng));
			b[i] = 3.5e6 * (1 + sd_pct / 100 * stats_rng_normal(&rng));
		}
		o.seed = seed + e;
		if (verdict_compare_values(a, 10, b, 10, VERDICT_IOPS, &o, &r))
			return -1;
		kinds[r.kind]++;
		mde_sum += r.kind == VERDICT_NO_CHANGE ? r.mde_pct : 0;
	}
	return 0;
}

int main(void)
{
	const int exps = 1500;
	int fails = 0;

	for (int host = 0; host <= 1; host++) {
		int k[4] = { 0 }, alarms;

		if (run(host, exps, 0.1, 0.1, 100 + host, k)) {
			printf("verdict failed\n");
			return 1;
		}
		alarms = k[VERDICT_REGRESSION] + k[VERDICT_IMPROVEMENT];
		printf("A/A (%s noise): false alarms %d/%d = %.2f %%, no change %.2f %%, inconclusive %.2f %%\n",
		       host ? "host" : "own", alarms, exps, 100.0 * alarms / exps,
		       100.0 * k[VERDICT_NO_CHANGE] / exps,
		       100.0 * k[VERDICT_INCONCLUSIVE] / exps);
		if (alarms > exps / 100) {
			printf("FAIL: false-alarm rate above 1 %%\n");
			fails++;
		}
		if (k[VERDICT_NO_CHANGE] < exps * 97 / 100) {
			printf("FAIL: no change below 97 %%\n");
			fails++;
		}
	}
	/* Runs 3x noisier than the calibration claims: more runs... */
	{
		int k[4] = { 0 };

		run_more(1, 200, 0.3, 0.1, 7, 1, k);
		printf("3x noisier than calibrated, more runs possible: inconclusive %d/200\n",
		       k[VERDICT_INCONCLUSIVE]);
		if (k[VERDICT_INCONCLUSIVE] < 180) {
			printf("FAIL: noisy experiment not flagged inconclusive\n");
			fails++;
		}
	}
	/* ... and at the last look the MDE of its own noise. */
	{
		struct verdict_opts o;
		int k[4] = { 0 };
		double host_mde, mean;

		verdict_opts_default(&o);
		/* The z-formula MDE of the calibration, as an outside yardstick. */
		host_mde = 1.2533 * (2.5758 + 0.8416) * 0.1 * sqrt(2.0 / 10);
		mde_sum = 0;
		run_more(1, 200, 0.3, 0.1, 8, 0, k);
		mean = k[VERDICT_NO_CHANGE] ? mde_sum / k[VERDICT_NO_CHANGE] : 0;
		printf("3x noisier, last look: no change %d/200, mean MDE %.3f %% (calibrated %.3f %%)\n",
		       k[VERDICT_NO_CHANGE], mean, host_mde);
		if (k[VERDICT_NO_CHANGE] < 180 || mean < 2 * host_mde) {
			printf("FAIL: last look does not report the own-noise MDE\n");
			fails++;
		}
	}
	return fails ? 1 : 0;
}
