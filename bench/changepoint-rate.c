// SPDX-License-Identifier: MIT
/*
 * False change points on pure-noise series, fed point by point as the
 * series code does: after each new point cp_detect() on the whole series,
 * cp_merge(), cp_reconcile(). Counts, per 1,000 series points:
 *   - alerts: change points confirmed by a later re-run (what alerts);
 *   - ever found: distinct change points any re-run found (what was
 *     stored and alerted on before: nothing was ever retracted);
 *   - batch: one detection on the whole series.
 * Prints figures; asserts nothing.
 *
 *   changepoint-rate [-n SERIES] [-l LENGTH]
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon/analysis/changepoint.h"
#include "daemon/analysis/stats.h"

#define MAXCP 256

struct counts {
	long alerts, ever, batch, points;
};

static int near_any(const size_t *v, size_t n, size_t idx, size_t min)
{
	for (size_t i = 0; i < n; i++)
		if ((v[i] > idx ? v[i] - idx : idx - v[i]) < min)
			return 1;
	return 0;
}

static int one_series(const double *x, size_t len, const struct cp_opts *o,
		      struct counts *c)
{
	struct cp_mark marks[MAXCP];
	struct cp cur[MAXCP];
	unsigned char fresh[MAXCP];
	size_t ever[MAXCP], nmarks = 0, never = 0, min = (size_t)o->min_size;
	int k;

	for (size_t n = 2 * min; n <= len; n++) {
		k = cp_detect(x, n, o, cur, MAXCP);
		if (k < 0)
			return -1;
		for (int i = 0; i < k; i++)
			if (!near_any(ever, never, cur[i].index, min) &&
			    never < MAXCP)
				ever[never++] = cur[i].index;
		k = cp_merge(x, n, o, cur, (size_t)k);
		if (k < 0)
			return -1;
		c->alerts +=
			cp_reconcile(marks, nmarks, cur, (size_t)k, min, fresh);
		for (int i = 0; i < k && nmarks < MAXCP; i++)
			if (fresh[i])
				marks[nmarks++] =
					(struct cp_mark){ cur[i].index,
							  CP_CANDIDATE };
	}
	c->ever += never;
	k = cp_detect(x, len, o, cur, MAXCP);
	if (k < 0)
		return -1;
	c->batch += k;
	c->points += len;
	return 0;
}

static void row(const char *what, long k, const struct counts *c, int nseries)
{
	printf("%-46s %6ld %16.3f %11.4f\n", what, k, 1000.0 * k / c->points,
	       (double)k / nseries);
}

int main(int argc, char **argv)
{
	int nseries = 100, len = 200, opt;
	struct counts c = { 0 };
	struct cp_opts o;
	double *x;

	while ((opt = getopt(argc, argv, "n:l:")) != -1) {
		switch (opt) {
		case 'n':
			nseries = atoi(optarg);
			break;
		case 'l':
			len = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n series] [-l length]\n",
				argv[0]);
			return 2;
		}
	}
	if (nseries < 1 || len < 20) {
		fprintf(stderr, "bad -n or -l\n");
		return 2;
	}
	x = malloc(len * sizeof(*x));
	if (!x)
		return 1;
	cp_opts_default(&o);
	for (int s = 0; s < nseries; s++) {
		struct stats_rng r;

		stats_rng_seed(&r, 4242 + s);
		for (int i = 0; i < len; i++)
			x[i] = 1000 * (1 + 0.001 * stats_rng_normal(&r));
		o.seed = 0xed1 ^ (uint64_t)s;
		if (one_series(x, len, &o, &c)) {
			fprintf(stderr, "detection failed\n");
			return 1;
		}
	}
	free(x);
	printf("pure noise, %d series of %d points fed point by point (%ld points)\n",
	       nseries, len, c.points);
	printf("%-46s %6s %16s %11s\n", "false change points", "count",
	       "per 1000 points", "per series");
	row("alerted (confirmed by a later re-run, merged)", c.alerts, &c,
	    nseries);
	row("ever found by some re-run (the old rule)", c.ever, &c, nseries);
	row("one batch detection of the whole series", c.batch, &c, nseries);
	return 0;
}
