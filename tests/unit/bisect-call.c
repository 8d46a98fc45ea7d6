// SPDX-License-Identifier: MIT
/*
 * Description: a bisection step's three-way decision (bisect_call). Over
 * a grid of CIs [lo, hi] (either order), re-measured steps and both
 * directions, against a reference written differently: a step is bad
 * when both ends of its CI are nearer the re-measured B than G (|x - s|
 * < |x|), good when both are nearer G, else unknown (a CI that reaches
 * the half-way line either way, or touches it); unknown whenever the
 * re-measured step is zero, not finite, or against the bisection's
 * direction, or a bound is not finite. (The old rule, bisect_is_bad(),
 * had no unknown: it named a side from the point estimate alone; the
 * wrong culprits that cost are in bench/bisect-verdicts.)
 */
#include <math.h>
#include <stdio.h>

#include "daemon/analysis/bisect.h"
#include "unit/check.h"

static enum bisect_call ref(double lo, double hi, double s, int dir)
{
	int near_b = 0, near_g = 0;
	double e[2] = { lo, hi };

	if (!isfinite(lo) || !isfinite(hi) || !isfinite(s) || !(dir * s > 0))
		return BISECT_CALL_UNKNOWN;
	for (int i = 0; i < 2; i++) {
		near_b += fabs(e[i] - s) < fabs(e[i]);
		near_g += fabs(e[i]) < fabs(e[i] - s);
	}
	return near_b == 2 ? BISECT_CALL_BAD : near_g == 2 ? BISECT_CALL_GOOD :
			     BISECT_CALL_UNKNOWN;
}

int main(void)
{
	static const double steps[] = { -10, -2, -0.25, 0, 0.25, 2, 10, NAN,
					INFINITY };
	long n = 0;

	for (int dir = -1; dir <= 1; dir += 2)
		for (size_t si = 0; si < sizeof(steps) / sizeof(steps[0]); si++)
			for (int a = -48; a <= 48; a++)
				for (int b = -48; b <= 48; b++) {
					double s = steps[si], lo = a / 4.0, hi = b / 4.0;
					enum bisect_call got = bisect_call(lo, hi, s, dir);
					enum bisect_call want = ref(lo, hi, s, dir);

					CHECK(got == want, "lo %g hi %g step %g dir %d: %s,"
					      " want %s", lo, hi, s, dir,
					      bisect_call_str(got), bisect_call_str(want));
					n++;
				}
	CHECK(bisect_call(NAN, 1, 2, 1) == BISECT_CALL_UNKNOWN);
	CHECK(bisect_call(0.5, 0.6, 2, 0) == BISECT_CALL_UNKNOWN, "no direction");
	CHECK(bisect_call(-3, -2.6, -5, -1) == BISECT_CALL_BAD);
	CHECK(bisect_call(-3, -2.5, -5, -1) == BISECT_CALL_UNKNOWN, "on the line");
	CHECK(bisect_call(-0.1, 0.2, -5, -1) == BISECT_CALL_GOOD);
	CHECK(bisect_call(-3, -2, -5, -1) == BISECT_CALL_UNKNOWN, "straddles");
	CHECK(bisect_call(-3, -2, 5, -1) == BISECT_CALL_UNKNOWN, "step reversed");
	printf("%ld cases\n", n);
	DONE();
}
