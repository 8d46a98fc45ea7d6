// SPDX-License-Identifier: MIT
/*
 * Description: the top symbols of a perf diff for the LKP table's
 * perf-profile rows: the largest share on either side first, one name in
 * two dsos counted once with its shares summed, ties by the baseline's
 * share, at most the number asked for; worked out by hand.
 */
#include "unit/perfdiff-fixture.h"

/* base (100 samples): a 30 in the kernel and 10 in nvme, b 25;
 * new (100): b 40, c 5 */
static const struct perfdiff_sym base_syms[] = { { K, "a", { 30 } },
						 { "[nvme]", "a", { 10 } },
						 { K, "b", { 25 } } };
static const struct perfdiff_sym new_syms[] = { { K, "b", { 40 } },
						{ K, "c", { 5 } } };
static const struct perfdiff_run base_run[] = {
	{ "cpu-clock", { 100, 0 }, 3, base_syms }
};
static const struct perfdiff_run new_run[] = {
	{ "cpu-clock", { 100, 0 }, 2, new_syms }
};
static const struct perfdiff_side sides[] = { { "base", 1, base_run },
					      { "new", 1, new_run } };

int main(void)
{
	struct perfdiff_top top[4];
	struct perfdiff_result *r;
	struct perfdiff_opts o;
	char err[128];
	size_t n;

	perfdiff_default_opts(&o);
	r = perfdiff_compute(&perfdiff_samples, sides, 2, &o, err, sizeof(err));
	CHECK(r, "%s", err);
	if (!r)
		return 1;
	n = perfdiff_top(r, 1, top, 4);
	/* a: 40 / 0 (two dsos), b: 25 / 40 (ties with a at 40), c: 0 / 5 */
	CHECK(n == 3, "%zu", n);
	CHECK(n == 3 && !strcmp(top[0].name, "a") &&
	      !strcmp(top[1].name, "b") && !strcmp(top[2].name, "c"));
	CHECK_NEAR(top[0].base, 40);
	CHECK_NEAR(top[0].new, 0);
	CHECK_NEAR(top[1].base, 25);
	CHECK_NEAR(top[1].new, 40);
	CHECK_NEAR(top[2].new, 5);
	CHECK(perfdiff_top(r, 1, top, 1) == 1 && !strcmp(top[0].name, "a"));
	CHECK(perfdiff_top(r, 2, top, 4) == 0); /* no side 2 */
	perfdiff_free(r);
	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
