// SPDX-License-Identifier: MIT
/*
 * Description: bisection order without skips. For every list of n = 2..40
 * commits (G first, B last) and every position of the first bad commit,
 * bisect_next() tests exactly the floor midpoint of the open interval
 * (last good, first bad) each time (recomputed here from the answers
 * given, not from bisect.c), never tests a commit twice or outside the
 * interval, stops with that commit as the culprit once its predecessor is
 * good, and needs at most ceil(log2(n - 1)) tests. Also: n = 2 is done at
 * once; a list whose ends are not good/bad is refused; the "bad" rule is
 * half the step in the step's direction.
 */
#include <math.h>
#include <string.h>

#include "daemon/analysis/bisect.h"
#include "unit/check.h"

#define MAXN 40

static void one(size_t n, size_t culprit)
{
	enum bisect_state s[MAXN];
	size_t lo = 0, hi = n - 1, tests = 0, limit;
	struct bisect_step st;

	for (size_t i = 0; i < n; i++)
		s[i] = BISECT_UNTESTED;
	s[0] = BISECT_GOOD;
	s[n - 1] = BISECT_BAD;
	limit = (size_t)ceil(log2((double)(n - 1)));
	for (;;) {
		st = bisect_next(s, n);
		if (st.result != BISECT_TEST)
			break;
		CHECK(st.index == lo + (hi - lo) / 2, "n %zu culprit %zu: tested %zu,"
		      " want midpoint of (%zu, %zu)", n, culprit, st.index, lo, hi);
		CHECK(st.index > lo && st.index < hi);
		CHECK(s[st.index] == BISECT_UNTESTED, "n %zu: %zu tested twice", n, st.index);
		if (st.index >= culprit) {
			s[st.index] = BISECT_BAD;
			hi = st.index;
		} else {
			s[st.index] = BISECT_GOOD;
			lo = st.index;
		}
		if (++tests > n)
			break;
	}
	CHECK(st.result == BISECT_FOUND, "n %zu culprit %zu: result %d", n, culprit,
	      st.result);
	CHECK(st.index == culprit, "n %zu: found %zu, culprit %zu", n, st.index, culprit);
	CHECK(st.lo == culprit - 1 && st.hi == culprit);
	CHECK(tests <= limit, "n %zu culprit %zu: %zu tests > %zu", n, culprit,
	      tests, limit);
}

int main(void)
{
	enum bisect_state s[3] = { BISECT_GOOD, BISECT_BAD, BISECT_UNTESTED };
	struct bisect_step st;

	for (size_t n = 2; n <= MAXN; n++)
		for (size_t c = 1; c < n; c++)
			one(n, c);

	/* Stop rule: adjacent G and B are done without a test. */
	st = bisect_next(s, 2);
	CHECK(st.result == BISECT_FOUND && st.index == 1);
	/* Refused inputs. */
	CHECK(bisect_next(s, 1).result == BISECT_INVALID);
	s[1] = BISECT_UNTESTED;
	CHECK(bisect_next(s, 2).result == BISECT_INVALID);
	s[0] = BISECT_SKIP;
	s[1] = BISECT_BAD;
	CHECK(bisect_next(s, 2).result == BISECT_INVALID);

	/* bad: at least half the step, in the step's direction */
	CHECK(bisect_is_bad(-3.0, -6.0));
	CHECK(bisect_is_bad(-2.9, -6.0) == false);
	CHECK(bisect_is_bad(-9.0, -6.0));
	CHECK(bisect_is_bad(3.0, -6.0) == false);
	CHECK(bisect_is_bad(4.0, 8.0));
	CHECK(bisect_is_bad(3.9, 8.0) == false);
	CHECK(bisect_is_bad(-4.0, 8.0) == false);
	CHECK(bisect_is_bad(1.0, 0.0) == false);
	CHECK(bisect_is_bad(NAN, -6.0) == false);
	DONE();
}
