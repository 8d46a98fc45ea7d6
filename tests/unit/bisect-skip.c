// SPDX-License-Identifier: MIT
/*
 * Description: bisection with commits that do not build. For every list
 * of n = 2..13 commits, every position of the first bad commit and every
 * set of skipped (unbuildable) commits strictly between G and B: no commit
 * is tested twice or outside the open interval; a commit other than the
 * midpoint is tested only when the midpoint is skipped and every commit
 * nearer to it in the order mid+1, mid-1, mid+2, ... is no longer
 * untested; the result is the culprit when it and its predecessor
 * build, else the range (last buildable commit before it, first buildable
 * one from it on] with no culprit, as `git bisect skip` reports "could be any of". A list whose
 * commits between G and B are all skipped ends as that range at once.
 */
#include <string.h>

#include "daemon/analysis/bisect.h"
#include "unit/check.h"

#define MAXN 13

static size_t dist(size_t a, size_t b)
{
	return a > b ? a - b : b - a;
}

/* Is @i nearer @mid than @j in the order mid, mid+1, mid-1, mid+2, ...? */
static int before(size_t i, size_t j, size_t mid)
{
	if (dist(i, mid) != dist(j, mid))
		return dist(i, mid) < dist(j, mid);
	return i > j;
}

static void one(size_t n, size_t culprit, unsigned skipmask)
{
	enum bisect_state s[MAXN];
	struct bisect_step st;
	size_t tests = 0, lo_want, hi_want;

	for (size_t i = 0; i < n; i++)
		s[i] = BISECT_UNTESTED;
	s[0] = BISECT_GOOD;
	s[n - 1] = BISECT_BAD;
	for (;;) {
		st = bisect_next(s, n);
		if (st.result != BISECT_TEST)
			break;
		size_t mid = st.lo + (st.hi - st.lo) / 2, i = st.index;

		CHECK(i > st.lo && i < st.hi, "n %zu: %zu outside (%zu, %zu)", n, i,
		      st.lo, st.hi);
		CHECK(s[i] == BISECT_UNTESTED, "n %zu mask %x: %zu twice", n, skipmask, i);
		if (i != mid) {
			CHECK(s[mid] == BISECT_SKIP, "n %zu: left the midpoint %zu", n, mid);
			for (size_t j = st.lo + 1; j < st.hi; j++)
				if (before(j, i, mid))
					CHECK(s[j] != BISECT_UNTESTED, "n %zu mask %x: %zu"
					      " before %zu (mid %zu)", n, skipmask, j, i, mid);
		}
		if (skipmask & (1u << i))
			s[i] = BISECT_SKIP;
		else
			s[i] = i >= culprit ? BISECT_BAD : BISECT_GOOD;
		if (++tests > n)
			break;
	}
	lo_want = culprit - 1;
	while (lo_want > 0 && (skipmask & (1u << lo_want)))
		lo_want--;
	hi_want = culprit;
	while (hi_want < n - 1 && (skipmask & (1u << hi_want)))
		hi_want++;
	if (lo_want == culprit - 1 && hi_want == culprit) {
		CHECK(st.result == BISECT_FOUND && st.index == culprit,
		      "n %zu culprit %zu mask %x: result %d index %zu", n, culprit,
		      skipmask, st.result, st.index);
	} else {
		CHECK(st.result == BISECT_RANGE, "n %zu culprit %zu mask %x: result %d",
		      n, culprit, skipmask, st.result);
	}
	CHECK(st.lo == lo_want && st.hi == hi_want, "n %zu culprit %zu mask"
	      " %x: range (%zu, %zu], want (%zu, %zu]", n, culprit, skipmask,
	      st.lo, st.hi, lo_want, hi_want);
}

int main(void)
{
	enum bisect_state s[6] = { BISECT_GOOD, BISECT_SKIP, BISECT_SKIP,
				   BISECT_SKIP, BISECT_SKIP, BISECT_BAD };
	struct bisect_step st;

	for (size_t n = 2; n <= MAXN; n++)
		for (size_t c = 1; c < n; c++)
			for (unsigned m = 0; m < (1u << (n - 2)); m++)
				one(n, c, m << 1);	/* bits 1 .. n-2 */

	/* Everything in between skipped: the whole range, no culprit. */
	st = bisect_next(s, 6);
	CHECK(st.result == BISECT_RANGE && st.lo == 0 && st.hi == 5);
	/* A skipped first-parent predecessor of a bad commit: not found yet. */
	s[4] = BISECT_BAD;
	st = bisect_next(s, 6);
	CHECK(st.result == BISECT_RANGE && st.lo == 0 && st.hi == 4);
	s[1] = BISECT_GOOD;
	s[3] = BISECT_GOOD;
	st = bisect_next(s, 6);
	CHECK(st.result == BISECT_FOUND && st.index == 4);
	DONE();
}
