// SPDX-License-Identifier: MIT
/*
 * Description: a midpoint that lies between both ends splits the range
 * (bisect_splits: several culprits). Over a grid of M's CI [lo, hi] and
 * B's CI [b_lo, b_hi] (either order of each, both directions), against a
 * reference written differently: with b the end of B's CI nearer G (in
 * the step's direction), every end x of M's CI is more than b / 5 from
 * both G and b (5 x > b and 5 (b - x) > b). Reaching within a fifth of
 * either end does not split (an exact backend's few-instruction
 * differences between commits are no culprits); non-finite bounds or no
 * direction never do.
 * Two regressions of equal size put M at half the step with a narrow CI:
 * it splits (bisect_call() alone calls that unknown for ever).
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/bisect.h"
#include "unit/check.h"

static bool ref(double lo, double hi, double blo, double bhi, int dir)
{
	double m[2] = { lo, hi }, b[2] = { blo, bhi }, near = INFINITY;

	for (int j = 0; j < 2; j++) {
		if (!isfinite(b[j]) || !isfinite(m[j]))
			return false;
		if (dir * b[j] < near)
			near = dir * b[j];
	}
	if (!(near > 0) || (dir != 1 && dir != -1))
		return false;
	/* every value of M's CI at least a fifth of the step from each end */
	for (int i = 0; i < 2; i++)
		if (!(5 * dir * m[i] > near && 5 * (near - dir * m[i]) > near))
			return false;
	return true;
}

int main(void)
{
	long n = 0, split = 0;

	for (int dir = -1; dir <= 1; dir += 2)
		for (int a = -12; a <= 12; a++)
			for (int b = -12; b <= 12; b++)
				for (int c = -12; c <= 12; c += 2)
					for (int d = -12; d <= 12; d += 3) {
						double lo = a / 2.0, hi = b / 2.0;
						double blo = c / 2.0, bhi = d / 2.0;
						bool got = bisect_splits(lo, hi, blo, bhi, dir);

						CHECK(got == ref(lo, hi, blo, bhi, dir),
						      "M [%g, %g] B [%g, %g] dir %d: %d",
						      lo, hi, blo, bhi, dir, got);
						n++;
						split += got;
					}
	CHECK(split > 300 && split < n / 10, "%ld of %ld split", split, n);
	CHECK(bisect_splits(-5.2, -4.8, -10.4, -9.6, -1), "two equal regressions");
	CHECK(!bisect_splits(-5.2, -4.8, -10.4, -9.6, 1), "against the direction");
	CHECK(!bisect_splits(-5.2, 0, -10.4, -9.6, -1), "touches G");
	CHECK(!bisect_splits(-9.6, -4.8, -10.4, -9.6, -1), "touches B");
	CHECK(!bisect_splits(-0.011, -0.009, -10.4, -9.6, -1),
	      "a commit a few instructions off G is no culprit");
	CHECK(!bisect_splits(-9.5, -9.4, -10.4, -9.6, -1), "within a fifth of B");
	CHECK(!bisect_splits(NAN, -4.8, -10.4, -9.6, -1));
	CHECK(!bisect_splits(-5.2, -4.8, -10.4, INFINITY, -1));
	CHECK(!bisect_splits(-5.2, -4.8, -10.4, -9.6, 0), "no direction");
	DONE();
}
