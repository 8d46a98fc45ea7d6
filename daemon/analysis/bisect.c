// SPDX-License-Identifier: MIT
/*
 * Bisection: the next commit to test and the stop rule; see bisect.h.
 */
#include <math.h>

#include "daemon/analysis/bisect.h"

/* The interval: hi the first bad commit, lo the last good one before it. */
static void interval(const enum bisect_state *s, size_t n, size_t *lo,
		     size_t *hi)
{
	size_t i;

	*hi = n - 1;
	for (i = 1; i < n; i++)
		if (s[i] == BISECT_BAD) {
			*hi = i;
			break;
		}
	*lo = 0;
	for (i = *hi; i-- > 0;)
		if (s[i] == BISECT_GOOD) {
			*lo = i;
			break;
		}
}

struct bisect_step bisect_next(const enum bisect_state *s, size_t n)
{
	struct bisect_step r = { .result = BISECT_INVALID };
	size_t lo, hi, mid, d;

	if (n < 2 || s[0] != BISECT_GOOD || s[n - 1] != BISECT_BAD)
		return r;
	interval(s, n, &lo, &hi);
	r.lo = lo;
	r.hi = hi;
	if (hi - lo == 1) {
		r.result = BISECT_FOUND;
		r.index = hi;
		return r;
	}
	mid = lo + (hi - lo) / 2;
	/* mid, then mid + 1, mid - 1, mid + 2, mid - 2, ... inside (lo, hi) */
	for (d = 0; d < hi - lo; d++) {
		if (mid + d < hi && s[mid + d] == BISECT_UNTESTED) {
			r.index = mid + d;
			r.result = BISECT_TEST;
			return r;
		}
		if (d && d < mid - lo && s[mid - d] == BISECT_UNTESTED) {
			r.index = mid - d;
			r.result = BISECT_TEST;
			return r;
		}
	}
	r.result = BISECT_RANGE;
	return r;
}

bool bisect_is_bad(double delta_pct, double step_pct)
{
	if (!isfinite(delta_pct) || !isfinite(step_pct) || step_pct == 0)
		return false;
	return step_pct < 0 ? delta_pct <= step_pct / 2 : delta_pct >= step_pct / 2;
}

enum bisect_call bisect_call(double lo, double hi, double step_pct, int dir)
{
	double a, b, line;

	if (!isfinite(lo) || !isfinite(hi) || !isfinite(step_pct) ||
	    (dir != 1 && dir != -1))
		return BISECT_CALL_UNKNOWN;
	/* In the step's direction: B is at +step, G at 0. */
	a = dir * lo;
	b = dir * hi;
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	line = dir * step_pct / 2;
	if (!(line > 0))
		return BISECT_CALL_UNKNOWN;
	if (a > line)
		return BISECT_CALL_BAD;
	if (b < line)
		return BISECT_CALL_GOOD;
	return BISECT_CALL_UNKNOWN;
}

const char *bisect_call_str(enum bisect_call c)
{
	switch (c) {
	case BISECT_CALL_GOOD:
		return "good";
	case BISECT_CALL_BAD:
		return "bad";
	default:
		return "unknown";
	}
}
