// SPDX-License-Identifier: MIT
/*
 * Verdict power and A/A false-alarm rate on simulated experiments at the
 * qemu-icount noise level (per-run sd 0.1 % of the run value), with the
 * same code path as real comparisons (verdict_compare_values). Prints
 * figures; asserts nothing.
 *
 *   stats-power [-n RUNS] [-s SD_PCT] [-e EXPERIMENTS] [-H]
 *     -H  give the verdict the host's calibrated noise (else it uses the
 *         noise of each simulated experiment)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon/stats.h"
#include "daemon/verdict.h"

struct tally {
	int kinds[4];
	double mde_sum;
};

static void simulate(double effect_pct, int runs, double sd_pct, int exps,
		     int host, uint64_t seed, struct tally *t)
{
	const double base = 4264.39;	/* ns/IO, lower is better */
	struct verdict_opts o;
	struct stats_rng rng;
	double a[256], b[256];

	verdict_opts_default(&o);
	o.resamples = 1000;
	if (host)
		o.host_noise_pct = sd_pct;
	stats_rng_seed(&rng, seed);
	for (int e = 0; e < exps; e++) {
		struct verdict_result r;

		for (int i = 0; i < runs; i++) {
			a[i] = base * (1 + sd_pct / 100 * stats_rng_normal(&rng));
			b[i] = base * (1 + effect_pct / 100) *
			       (1 + sd_pct / 100 * stats_rng_normal(&rng));
		}
		o.seed = seed * 1000003 + e;
		if (verdict_compare_values(a, runs, b, runs, VERDICT_NS_PER_IO,
					   &o, &r))
			continue;
		t->kinds[r.kind]++;
		t->mde_sum += r.mde_pct;
	}
}

int main(int argc, char **argv)
{
	double effects[] = { 0, 0.15, 0.3, 1.0, 0 };
	int runs = 10, exps = 2000, host = 0, opt;
	double sd = 0.1;

	while ((opt = getopt(argc, argv, "n:s:e:H")) != -1) {
		switch (opt) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 's':
			sd = atof(optarg);
			break;
		case 'e':
			exps = atoi(optarg);
			break;
		case 'H':
			host = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-n runs] [-s sd%%] [-e experiments] [-H]\n",
				argv[0]);
			return 2;
		}
	}
	if (runs < 2 || runs > 256 || exps < 1) {
		fprintf(stderr, "bad -n or -e\n");
		return 2;
	}
	/* Last row: the MDE the verdict reports, which should give ~80 %. */
	effects[4] = 1.2533141373155001 * stats_mde(sd, runs, sd, runs, 0.01, 0.8);
	printf("per-run sd %.3f %%, %d runs per side, %d experiments per row, MDE from %s\n",
	       sd, runs, exps, host ? "host calibration" : "each experiment");
	printf("%-8s %10s %10s %10s %12s %9s\n", "effect", "regression",
	       "improve", "no change", "inconclusive", "mean MDE");
	for (size_t i = 0; i < sizeof(effects) / sizeof(effects[0]); i++) {
		struct tally t = { { 0 }, 0 };
		int n;

		simulate(effects[i], runs, sd, exps, host, 1 + i, &t);
		n = t.kinds[0] + t.kinds[1] + t.kinds[2] + t.kinds[3];
		printf("%6.2f %% %9.2f%% %9.2f%% %9.2f%% %11.2f%% %8.3f%%\n",
		       effects[i], 100.0 * t.kinds[VERDICT_REGRESSION] / n,
		       100.0 * t.kinds[VERDICT_IMPROVEMENT] / n,
		       100.0 * t.kinds[VERDICT_NO_CHANGE] / n,
		       100.0 * t.kinds[VERDICT_INCONCLUSIVE] / n,
		       t.mde_sum / n);
	}
	printf("(effect 0 is A/A: regression + improvement = false-alarm rate;\n"
	       " other rows: regression = power, the effect raises ns/IO;\n"
	       " the last row is the reported MDE, power there should be ~80 %%)\n");
	return 0;
}
