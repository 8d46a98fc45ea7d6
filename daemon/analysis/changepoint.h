/* SPDX-License-Identifier: MIT */
/*
 * Change-point detection on a performance series: E-Divisive means
 * (Matteson & James 2014, energy statistic with alpha = 1) as used by
 * Apache Otava / Hunter, with a permutation significance test.
 *
 * The series is cut into windows of cp_opts.window points starting every
 * window/2 points (each point is seen by up to two windows, so a shift
 * near one window's edge is central in the other). In each window, the
 * split that maximises the energy statistic over split points and right
 * edges (Matteson & James: the stretch before a second shift is measured
 * alone; both sides at least min_size points, so one outlier cannot be a
 * segment) is kept when no
 * permutation of the window's points out of cp_opts.permutations
 * reaches it (p = (1 + hits) / (1 + permutations) <= max_p), then both
 * sides are searched again (binary segmentation). Windows are processed
 * in order and a later window's change point closer than min_size to an
 * accepted one is dropped (the earlier window wins). Permutations come
 * from a PRNG seeded by cp_opts.seed and the window start, so the result
 * is deterministic.
 *
 * Incremental: appending points only changes the windows that reached
 * past the old end, so cp_update() keeps the change points found by the
 * windows before them and recomputes the rest; the result is identical
 * to cp_detect() on the whole series.
 *
 * The series code (api_series.c) re-runs cp_detect() on the whole series
 * for every new point, merges weak change points (cp_merge()) and alerts
 * only on change points a later re-run confirms (cp_reconcile()).
 */
#ifndef PERFLAB_CHANGEPOINT_H
#define PERFLAB_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

struct cp_opts {
	int window;		/* 50 */
	int min_size;		/* 5 */
	int permutations;	/* 999 */
	double max_p;		/* 0.001 */
	uint64_t seed;
};

struct cp {
	size_t index;		/* first point of the new segment */
	double p;		/* permutation p-value */
	double q;		/* energy statistic of the split */
	double mean_before, mean_after;	/* neighbouring segments */
	double delta_pct;	/* 100 * (after - before) / before */
	size_t window;		/* start of the window that found it */
};

void cp_opts_default(struct cp_opts *o);

/*
 * A track's options from its stored @min_size and @max_p (0: the
 * default's): cp_opts_default() is also the tracks' default, the options
 * whose false-alarm rate docs/verdicts.md gives (the old track defaults,
 * 3 and 0.05, confirmed ~700 times as many false change points).
 */
void cp_opts_track(struct cp_opts *o, int min_size, double max_p);

/*
 * The statistic the detection maximises, for tests: the largest energy
 * statistic of y[0..m) over splits tau and right edges kappa (both sides
 * >= min). Returns it (-INFINITY if no split fits, NAN on allocation
 * failure) and its split in @tau.
 */
double cp_best_split(const double *y, size_t m, size_t min, size_t *tau);

/*
 * Detect change points in @x[0..n). Writes up to @max into @out, sorted
 * by index, with segment means filled in. Returns the count, or -1.
 */
int cp_detect(const double *x, size_t n, const struct cp_opts *o,
	      struct cp *out, size_t max);

/*
 * The same after points were appended: @prev[0..nprev) is the result of
 * cp_detect() (same options) on the prefix x[0..nold). Returns the count
 * written to @out (which must not alias @prev), or -1.
 */
int cp_update(const double *x, size_t n, size_t nold, const struct cp *prev,
	      size_t nprev, const struct cp_opts *o, struct cp *out,
	      size_t max);

/*
 * Merge step (as in Apache Otava): each change point of @v[0..k) is
 * re-tested on the stretch between its neighbours (at most window/2
 * points either side): its split's energy against the best split of
 * permutations of that stretch. While the weakest has p > max_p it is
 * dropped, and the rest re-tested. Updates p and the segment means.
 * Returns the number kept (v is compacted, sorted by index), or -1.
 */
int cp_merge(const double *x, size_t n, const struct cp_opts *o,
	     struct cp *v, size_t k);

/*
 * Confirmation across re-runs. A change point is alerted on only when a
 * full re-run of the detection (after the next point) finds it again.
 */
enum cp_state {
	CP_CANDIDATE,		/* found by the last run only */
	CP_CONFIRMED,		/* found again by a later full re-run */
	CP_RETRACTED,		/* a later re-run did not find it */
};

struct cp_mark {
	size_t index;		/* point index in the series */
	enum cp_state state;
};

/*
 * Update tracked change points @marks after a full re-run that found
 * @cur[0..ncur): a mark within min_size points of a current change point
 * survives (a candidate becomes confirmed), the others are retracted for
 * good. @fresh[c] is set to 1 for current change points that match no
 * mark: new candidates. Returns the number of marks just confirmed.
 */
/* Index of the change point of v[0..n) nearest @idx within min_size, or -1. */
long cp_find(const struct cp *v, size_t n, size_t idx, size_t min_size);

int cp_reconcile(struct cp_mark *marks, size_t nmarks, const struct cp *cur,
		 size_t ncur, size_t min_size, unsigned char *fresh);

#endif
