/* SPDX-License-Identifier: MIT */
/*
 * Paired verdicts for toggle experiments.
 *
 * In a toggle experiment the variants run alternately in one boot, so the
 * boot-to-boot noise (memory layout, cache colouring, frequency state) is
 * common to both sides of a boot. Runs of one boot are paired by round
 * (see below; in A B B A order each pair is adjacent). Each pair gives
 * d = 100 (variant - control) / control, in %.
 *
 *   one boot:     the unit is the pair; paired t test on the n pair
 *                 differences, n - 1 df (the seed's design);
 *   several:      boot is a block. Pairs of one boot are not independent
 *                 of each other (they share the boot's state), so the unit
 *                 is the boot: the mean difference of its pairs; t test on
 *                 the B boot means, B - 1 df.
 *
 * Pairs are the two runs of one round (run_index) of one boot: a run
 * that failed drops its own pair only (pairing the k-th run of each
 * side shifted every later pair). Runs without a round pair by position.
 *
 * MDE of the design at power 1 - beta, two-sided level alpha_look: the
 * effect whose non-central t (df = units - 1) rejects with that power,
 * ncp * s / sqrt(units), s the 90 % upper bound of the units' sd (its
 * own df; at least the floor): the within-boot sd of pair differences
 * for one boot, the sd of boot means for several. (Before: t + t times
 * the observed sd, 74 % power at 10 units, 43 % at 2.) Below
 * PAIRED_MIN_BOOTS boots the design text warns: the boot-to-boot spread
 * of the effect is barely known.
 *
 * One boot: the verdict is exact for that boot only, and says so; it
 * raises no alert (verdict_result.one_boot).
 *
 * Carry-over: with ABBA rounds, pairs where the control ran first and
 * pairs where the variant ran first; half the difference of their mean
 * differences estimates the order (carry-over) effect, shown with its
 * 95 % CI; the alternating design cancels it from the mean.
 */
#define PAIRED_MIN_BOOTS 5
#ifndef PERFLAB_PAIRED_H
#define PERFLAB_PAIRED_H

#include <stddef.h>

struct paired_run {
	double value; /* the run's value (ns/IO or mean IOPS) */
	const char *boot; /* boot id; NULL or "": not paired */
	int pos; /* position in its boot */
	int round; /* run_index + 1 (the planner's round); 0: unknown */
};

struct paired_result {
	size_t pairs, boots, units;
	int by_boot; /* 1: the unit is the boot (several boots) */
	double df;
	double mean_pct; /* mean of the units' differences */
	double sd_pct; /* sd of the units */
	double t, p; /* two-sided */
	double ci_lo, ci_hi; /* 95 % t interval of the mean */
	double mde_pct;
	double sd_ucb_pct; /* 90 % upper bound of sd_pct, behind the MDE */
	/* order effect: (mean d, control first - variant first) / 2; NAN
	 * without two pairs of each order */
	double carry_pct, carry_lo, carry_hi;
};

/*
 * Pair @c and @v and test the mean difference at @alpha_look with
 * @power; @floor_pct bounds the sd behind the MDE from below (the
 * metric's resolution). 0, or -1 when fewer than two units pair up
 * (r->units says how many did).
 */
int paired_compare(const struct paired_run *c, size_t nc,
		   const struct paired_run *v, size_t nv, double alpha_look,
		   double power, double floor_pct, struct paired_result *r);

struct verdict_opts;
struct verdict_result;

/*
 * The verdict of a toggle experiment's comparison: @r holds the unpaired
 * comparison of the same runs (verdict_compare_runs: its rows, metric and
 * resolution stay); the kind, delta, CI, p and MDE become the paired
 * test's, and r->design says which test decided. Fewer than
 * VERDICT_MIN_RUNS pairs, or fewer than two units: inconclusive. 0.
 */
int paired_verdict(const struct paired_run *c, size_t nc,
		   const struct paired_run *v, size_t nv,
		   const struct verdict_opts *o, struct verdict_result *r);

#endif
