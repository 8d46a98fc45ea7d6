// SPDX-License-Identifier: MIT
/*
 * Description: a planted 0.3 % shift with per-run noise sd 0.1 % and 10
 * runs per side is detected (right direction) in >= 95 % of 500 simulated
 * experiments: ns/IO up is a regression, IOPS down is a regression, IOPS
 * up is an improvement; and a 1 % shift is never called "no change".
 */
#include <stdio.h>

#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"

static int detected(enum verdict_metric m, double shift_pct, int exps,
		    enum verdict_kind want, uint64_t seed)
{
	struct verdict_opts o;
	struct stats_rng rng;
	int hits = 0;

	verdict_opts_default(&o);
	o.resamples = 1000;
	o.host_noise_pct = 0.1;
	stats_rng_seed(&rng, seed);
	for (int e = 0; e < exps; e++) {
		struct verdict_result r;
		double a[10], b[10];

		for (int i = 0; i < 10; i++) {
			a[i] = 4000 * (1 + 0.001 * stats_rng_normal(&rng));
			b[i] = 4000 * (1 + shift_pct / 100) *
			       (1 + 0.001 * stats_rng_normal(&rng));
		}
		o.seed = seed ^ e;
		if (verdict_compare_values(a, 10, b, 10, m, &o, &r))
			return -1;
		hits += r.kind == want;
	}
	return hits;
}

int main(void)
{
	int fails = 0, h;

	h = detected(VERDICT_NS_PER_IO, 0.3, 500, VERDICT_REGRESSION, 1);
	printf("ns/IO +0.3 %%: regression %d/500\n", h);
	fails += h < 475;
	h = detected(VERDICT_IOPS, -0.3, 500, VERDICT_REGRESSION, 2);
	printf("IOPS -0.3 %%: regression %d/500\n", h);
	fails += h < 475;
	h = detected(VERDICT_IOPS, 0.3, 500, VERDICT_IMPROVEMENT, 3);
	printf("IOPS +0.3 %%: improvement %d/500\n", h);
	fails += h < 475;
	h = detected(VERDICT_NS_PER_IO, 1.0, 200, VERDICT_NO_CHANGE, 4);
	printf("ns/IO +1 %%: no change %d/200\n", h);
	fails += h != 0;
	if (fails)
		printf("FAIL: %d power checks below target\n", fails);
	return fails ? 1 : 0;
}
