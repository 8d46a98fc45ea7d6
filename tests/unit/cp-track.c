// SPDX-License-Identifier: MIT
/*
 * Description: stored change points against a new detection
 * (cp_track_reconcile, what lab/series.c runs after every point). Rules
 * by hand: a row moves to the current detection's index and is confirmed
 * when the run before the last point had it; matching is one to one,
 * live rows before retracted ones; unmatched current change points are
 * new rows. Then, seeded simulations fed point by point like the series
 * code, checked against the truth the series was built from:
 *   - a clean 5 sd step at point 30 of 45 (0.3 % noise, track
 *     defaults): the confirmed change point is stored exactly at 30 in
 *     >= 44 of 50 series (measured 95-97 %: binomial P(< 44) ~ 2 %;
 *     storing the first candidate, the old rule, is exact in ~75 %, one
 *     point early in the rest: P(>= 44) < 1e-3);
 *   - pure noise at the track defaults (cp_opts_track(0, 0)), 40 series
 *     of 150 points: at most 2 confirmed change points in the 6,000
 *     points (the documented rate, 0.005 per 1,000, expects 0.03;
 *     Poisson P(>= 3) < 1e-5; even 10x the rate gives P < 0.004; the old
 *     track defaults, 3 and 0.05, confirm ~2-4 per 1,000: ~15).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/changepoint.h"
#include "daemon/analysis/cp_track.h"
#include "daemon/analysis/stats.h"
#include "unit/check.h"

#define MAXCP 64

static void by_hand(void)
{
	struct cp cur[2] = { { .index = 30 }, { .index = 60 } };
	struct cp prev[1] = { { .index = 30 } };
	struct cp_row r[3];
	unsigned char fresh[2];
	int n;

	/* A candidate one point early moves onto the detection, confirmed. */
	r[0] = (struct cp_row){ .index = 29, .state = CP_CANDIDATE };
	n = cp_track_reconcile(r, 1, cur, 2, prev, 1, 5, fresh);
	CHECK(r[0].index == 30, "moved to %zu", r[0].index);
	CHECK(r[0].state == CP_CONFIRMED && r[0].promoted && r[0].match == 0);
	CHECK(fresh[0] == 0 && fresh[1] == CP_CANDIDATE + 1,
	      "fresh %d %d", fresh[0], fresh[1]);
	CHECK(n == 1, "%d promoted", n);

	/* Two live rows near one change point: one takes it. */
	r[0] = (struct cp_row){ .index = 28, .state = CP_CONFIRMED };
	r[1] = (struct cp_row){ .index = 31, .state = CP_CANDIDATE };
	n = cp_track_reconcile(r, 2, cur, 1, prev, 1, 5, fresh);
	CHECK(r[0].match == 0 && r[0].index == 30 && !r[0].promoted);
	CHECK(r[1].match == -1 && r[1].state == CP_RETRACTED);
	CHECK(n == 0 && fresh[0] == 0);

	/* A retracted row does not take a live row's change point. */
	r[0] = (struct cp_row){ .index = 30, .state = CP_RETRACTED };
	r[1] = (struct cp_row){ .index = 32, .state = CP_CANDIDATE };
	cp_track_reconcile(r, 2, cur, 1, NULL, 0, 5, fresh);
	CHECK(r[0].state == CP_RETRACTED && r[0].match == -1 && r[0].index == 30);
	CHECK(r[1].match == 0 && r[1].index == 30 && r[1].state == CP_CANDIDATE);

	/* ... but comes back to one no live row took; new ones by @prev. */
	r[0] = (struct cp_row){ .index = 61, .state = CP_RETRACTED };
	n = cp_track_reconcile(r, 1, cur, 2, prev, 1, 5, fresh);
	CHECK(r[0].match == 1 && r[0].index == 60 && r[0].state == CP_CANDIDATE);
	CHECK(fresh[0] == CP_CONFIRMED + 1 && fresh[1] == 0);
	CHECK(n == 1);

	/* Too far (min_size) is no match. */
	r[0] = (struct cp_row){ .index = 35, .state = CP_CONFIRMED };
	cp_track_reconcile(r, 1, cur, 1, prev, 1, 5, fresh);
	CHECK(r[0].state == CP_RETRACTED && r[0].index == 35);
}

struct row {
	struct cp_row r;
	int confirmed;
};

static int detect(const double *x, size_t n, const struct cp_opts *o,
		  struct cp *out)
{
	int k;

	if (n < 2 * (size_t)o->min_size)
		return 0;
	k = cp_detect(x, n, o, out, MAXCP);
	return k < 0 ? -1 : cp_merge(x, n, o, out, (size_t)k);
}

/* Feed x[0..len) point by point; the rows in @rows, their count. */
static int feed(const double *x, size_t len, const struct cp_opts *o,
		struct row *rows)
{
	struct cp a[MAXCP], b[MAXCP], *prev = a, *cur = b, *t;
	struct cp_row rr[MAXCP];
	unsigned char fresh[MAXCP];
	size_t nrows = 0;
	int kp = 0, k;

	for (size_t n = 1; n <= len; n++) {
		k = detect(x, n, o, cur);
		if (k < 0)
			return -1;
		for (size_t i = 0; i < nrows; i++)
			rr[i] = rows[i].r;
		cp_track_reconcile(rr, nrows, cur, (size_t)k, prev, (size_t)kp,
				   (size_t)o->min_size, fresh);
		for (size_t i = 0; i < nrows; i++) {
			rows[i].r = rr[i];
			rows[i].confirmed |= rr[i].state == CP_CONFIRMED;
		}
		for (int c = 0; c < k && nrows < MAXCP; c++)
			if (fresh[c]) {
				rows[nrows].r = (struct cp_row){
					.index = cur[c].index,
					.state = (enum cp_state)(fresh[c] - 1) };
				rows[nrows].confirmed =
					fresh[c] == CP_CONFIRMED + 1;
				nrows++;
			}
		t = prev;
		prev = cur;
		cur = t;
		kp = k;
	}
	return (int)nrows;
}

static void step_location(void)
{
	struct row rows[MAXCP];
	struct cp_opts o;
	double x[45];
	int exact = 0, found = 0;

	cp_opts_track(&o, 0, 0);
	for (int s = 0; s < 50; s++) {
		struct stats_rng r;
		int n, hit = 0;

		stats_rng_seed(&r, 0xc0ffee + 31 * s);
		for (int i = 0; i < 45; i++)
			x[i] = 1e6 * (1 + 0.003 * (stats_rng_normal(&r) -
						   (i >= 30 ? 5 : 0)));
		o.seed = 0xed1 ^ (uint64_t)(s + 1);
		n = feed(x, 45, &o, rows);
		CHECK(n >= 0);
		for (int i = 0; i < n; i++)
			if (rows[i].r.state == CP_CONFIRMED &&
			    fabs((double)rows[i].r.index - 30) < 5) {
				hit = 1;
				exact += rows[i].r.index == 30;
			}
		found += hit;
	}
	CHECK(found >= 49, "a 5 sd step confirmed in %d of 50", found);
	CHECK(exact >= 44, "stored exactly at the step in %d of 50", exact);
}

static void noise_rate(void)
{
	struct row rows[MAXCP];
	struct cp_opts o;
	double x[150];
	int confirmed = 0;

	cp_opts_track(&o, 0, 0);
	CHECK(o.min_size == 5 && o.max_p == 0.001, "track defaults %d %g",
	      o.min_size, o.max_p);
	for (int s = 0; s < 40; s++) {
		struct stats_rng r;
		int n;

		stats_rng_seed(&r, 0x5eed + 7 * s);
		for (int i = 0; i < 150; i++)
			x[i] = 1e6 * (1 + 0.003 * stats_rng_normal(&r));
		o.seed = 0xed1 ^ (uint64_t)(s + 1);
		n = feed(x, 150, &o, rows);
		CHECK(n >= 0);
		for (int i = 0; i < n; i++)
			confirmed += rows[i].confirmed;
	}
	CHECK(confirmed <= 2, "%d confirmed change points in 6,000 points"
	      " of pure noise", confirmed);
}

int main(void)
{
	by_hand();
	step_location();
	noise_rate();
	DONE();
}
