// SPDX-License-Identifier: MIT
/*
 * Bisection: the next commit to test and the stop rule; see bisect.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/bisect.h"
#include "daemon/analysis/verdict.h"

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

/* [lo, hi] in direction @dir, ordered. */
static void oriented(double lo, double hi, int dir, double *a, double *b)
{
	*a = fmin(dir * lo, dir * hi);
	*b = fmax(dir * lo, dir * hi);
}

bool bisect_splits(double lo, double hi, double b_lo, double b_hi, int dir)
{
	double a, b, c, d;

	if (!isfinite(lo) || !isfinite(hi) || !isfinite(b_lo) ||
	    !isfinite(b_hi) || (dir != 1 && dir != -1))
		return false;
	oriented(lo, hi, dir, &a, &b);
	oriented(b_lo, b_hi, dir, &c, &d);
	(void)d;
	return c > 0 && a > c / 5 && b < 4 * c / 5;
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

void bisect_gate(double step_pct, double sd_pct, double dof, int runs,
		 double alpha, const char *source, struct bisect_gate *g)
{
	struct verdict_opts o;
	double step = fabs(step_pct);

	memset(g, 0, sizeof(*g));
	g->mde_pct = g->sigma_pct = NAN;
	verdict_opts_default(&o);
	o.alpha_look = alpha;
	if (dof >= 1 && sd_pct >= 0 && isfinite(sd_pct) && runs >= 2) {
		g->sigma_pct = verdict_sigma_ucb(sd_pct, dof);
		g->mde_pct = verdict_mde(g->sigma_pct, runs, runs, &o);
	}
	if (!isfinite(g->mde_pct)) {
		g->start = isfinite(step_pct);
		snprintf(g->note, sizeof(g->note), "no noise estimate of this"
			 " host (%s): bisected without the MDE gate", source);
		return;
	}
	g->start = step > g->mde_pct;
	snprintf(g->note, sizeof(g->note), "step %.3g %% is %s what %d-run"
		 " steps resolve on this host (MDE %.3g %% at alpha %.2g; sd"
		 " %.3g %%, the 90 %% upper bound of %.3g %% over %.0f dof of"
		 " %s)%s", step, g->start ? "above" : "below", runs, g->mde_pct,
		 alpha, g->sigma_pct, sd_pct, dof, source,
		 g->start ? "" : ": not bisected");
}
