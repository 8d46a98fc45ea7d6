// SPDX-License-Identifier: MIT
/*
 * Description: A/A false-alarm rate of the verdict is <= 1 % over 1500
 * simulated experiments (10 runs per side, per-run noise sd 0.1 %), both
 * with the host's calibrated noise and with the experiment's own, and
 * at least 97 % of them read "no change". An experiment far noisier than
 * the host's calibration is "inconclusive", not "no change".
 */
#include <stdio.h>

#include "daemon/stats.h"
#include "daemon/verdict.h"

static int run(int host, int exps, double sd_pct, double host_sd,
	       uint64_t seed, int *kinds)
{
	struct verdict_opts o;
	struct stats_rng rng;

	verdict_opts_default(&o);
	o.resamples = 1000;
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
	/* Runs 3x noisier than the calibration claims: not "no change". */
	{
		int k[4] = { 0 };

		run(1, 200, 0.3, 0.1, 7, k);
		printf("3x noisier than calibrated: inconclusive %d/200, no change %d/200\n",
		       k[VERDICT_INCONCLUSIVE], k[VERDICT_NO_CHANGE]);
		if (k[VERDICT_INCONCLUSIVE] < 180) {
			printf("FAIL: noisy experiment not flagged inconclusive\n");
			fails++;
		}
	}
	return fails ? 1 : 0;
}
