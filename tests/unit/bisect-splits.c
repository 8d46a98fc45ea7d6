// SPDX-License-Identifier: MIT
/*
 * Description: a midpoint that lies between both ends splits the range
 * (bisect_splits: several culprits). Over a grid of M's CI [lo, hi] and
 * B's CI [b_lo, b_hi] (either order of each, both directions), against a
 * reference written differently: every value x of M's CI and y of B's
 * CI (the interval ends, by pairs) has 0 < dir * x < dir * y. Touching 0
 * or B's CI does not split; non-finite bounds or no direction never do.
 * Two regressions of equal size put M at half the step with a narrow CI:
 * it splits (bisect_call() alone calls that unknown for ever).
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/bisect.h"
#include "unit/check.h"

static bool ref(double lo, double hi, double blo, double bhi, int dir)
{
	double m[2] = { lo, hi }, b[2] = { blo, bhi };

	for (int i = 0; i < 2; i++) {
		if (!isfinite(m[i]) || !isfinite(b[i]) || !(dir * m[i] > 0))
			return false;
		for (int j = 0; j < 2; j++)
			if (!(dir * m[i] < dir * b[j]))
				return false;
	}
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
	CHECK(split > 1000 && split < n / 2, "%ld of %ld split", split, n);
	CHECK(bisect_splits(-5.2, -4.8, -10.4, -9.6, -1), "two equal regressions");
	CHECK(!bisect_splits(-5.2, -4.8, -10.4, -9.6, 1), "against the direction");
	CHECK(!bisect_splits(-5.2, 0, -10.4, -9.6, -1), "touches G");
	CHECK(!bisect_splits(-9.6, -4.8, -10.4, -9.6, -1), "touches B");
	CHECK(!bisect_splits(NAN, -4.8, -10.4, -9.6, -1));
	CHECK(!bisect_splits(-5.2, -4.8, -10.4, INFINITY, -1));
	CHECK(!bisect_splits(-5.2, -4.8, -10.4, -9.6, 0), "no direction");
	DONE();
}
