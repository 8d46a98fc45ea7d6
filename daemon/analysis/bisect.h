/* SPDX-License-Identifier: MIT */
/*
 * Bisection of a first-parent history, as a pure function of what is
 * known so far (no SQLite, no git: the caller measures).
 *
 * Commits are c[0] = G (good) .. c[n-1] = B (bad), oldest first; each
 * has a state. The open interval is (lo, hi): lo the last good commit
 * before hi, hi the first bad one. The next commit to test is the
 * midpoint lo + (hi - lo) / 2; when that one was skipped (it does not
 * build), the nearest untested commit to it inside the interval,
 * alternating right and left (mid + 1, mid - 1, mid + 2, ...), as git
 * bisect steps away from skipped commits.
 *
 * Stop rule: done when hi's first-parent predecessor hi - 1 is good (hi
 * is the culprit), or when every commit inside the interval is skipped
 * (the first bad commit is one of lo + 1 .. hi; no culprit).
 */
#ifndef PERFLAB_BISECT_H
#define PERFLAB_BISECT_H

#include <stdbool.h>
#include <stddef.h>

enum bisect_state {
	BISECT_UNTESTED,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,
};

enum bisect_result {
	BISECT_TEST,		/* test commit @index next */
	BISECT_FOUND,		/* @index is the first bad commit */
	BISECT_RANGE,		/* all of lo+1 .. hi-1 skipped: first bad in (lo, hi] */
	BISECT_INVALID,		/* n < 2, c[0] not good or c[n-1] not bad */
};

struct bisect_step {
	enum bisect_result result;
	size_t index;		/* TEST: the commit; FOUND: the culprit */
	size_t lo, hi;		/* the interval (last good, first bad) */
};

/* What to do next given @state[0..n). */
struct bisect_step bisect_next(const enum bisect_state *state, size_t n);

/*
 * Whether a step's measured delta (%, vs G) counts as bad: at least half
 * the whole step @step_pct (B vs G) in the step's direction. A zero or
 * non-finite step makes nothing bad. (The old rule: a point estimate
 * against a step estimate that was selected for being significant;
 * bisect_call() replaced it in the driver.)
 */
bool bisect_is_bad(double delta_pct, double step_pct);

/* A step's three-way decision. */
enum bisect_call {
	BISECT_CALL_UNKNOWN,	/* the CI straddles the line: more runs */
	BISECT_CALL_GOOD,	/* like G */
	BISECT_CALL_BAD,	/* like B */
};

/*
 * The decision of a step measured against both ends in one experiment
 * (G the control, the step's commit M, and B, fresh runs of each): M's
 * delta vs G has the 95 % CI [@lo, @hi]; B's delta vs G, re-measured in
 * the same experiment, is @step_pct. The line is half of it: M is bad
 * when its whole CI lies past the line in the direction @dir (+1: the
 * bad commit is higher; -1: lower), good when its whole CI lies short of
 * it, else unknown. Unknown too when the re-measured step is not in
 * direction @dir at all, or any input is not finite.
 */
enum bisect_call bisect_call(double lo, double hi, double step_pct, int dir);

const char *bisect_call_str(enum bisect_call c);

/*
 * Whether a midpoint M lies between both ends, so that the range holds a
 * change on each side of it (several culprits, Pinpoint's rule): in the
 * direction @dir of the step (+1: B is higher), with b the near end of
 * B's CI vs G [@b_lo, @b_hi] re-measured in the same experiment, M's 95 %
 * CI vs G [@lo, @hi] lies wholly inside (b / 5, 4 b / 5): M differs from
 * both ends by at least a fifth of the step, so that neither side is a
 * sliver (an exact backend tells every commit apart by a few
 * instructions; those are no culprits). Checked before bisect_call(): such
 * a midpoint is neither good nor bad but splits the range in two.
 */
bool bisect_splits(double lo, double hi, double b_lo, double b_hi, int dir);

/*
 * Whether a track's change point is worth a bisection: its size against
 * the MDE of the bisection's own first step (bad against good, @runs a
 * side at that look's level @alpha, 80 % power; verdict_mde()), with the
 * sd behind it the 90 % upper bound of the host's run noise @sd_pct of
 * @dof degrees of freedom (verdict_sigma_ucb()). A step at or below that
 * MDE would not reproduce, or would be bisected on noise: no bisection,
 * and the note says why. No noise estimate (@dof < 1 or @sd_pct not
 * finite): started, saying it was not gated. @source names where the
 * noise came from ("the track's runs").
 */
struct bisect_gate {
	int start;		/* 1: bisect it */
	double mde_pct;		/* NAN without a noise estimate */
	double sigma_pct;	/* the upper bound behind it */
	char note[320];
};

void bisect_gate(double step_pct, double sd_pct, double dof, int runs,
		 double alpha, const char *source, struct bisect_gate *g);

#endif
