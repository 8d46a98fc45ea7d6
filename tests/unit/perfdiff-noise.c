// SPDX-License-Identifier: MIT
/*
 * Description: with several runs per side, samples and totals are summed,
 * each symbol's stddev is that of its per-run percent (0 in runs without
 * it; duplicates within a run add up), each delta gets the p-value of
 * Welch's t test (checked against the closed forms of the t tail with 1
 * and 2 degrees of freedom), and Benjamini-Hochberg at 5 % over the
 * symbols decides which deltas are real (noise 0).
 */
#include "unit/perfdiff-fixture.h"

int main(void)
{
	struct perfdiff_opts o;
	struct perfdiff_result *r;
	const struct perfdiff_row *x;
	char err[128];
	double t;

	perfdiff_default_opts(&o);
	r = perfdiff_compute(&perfdiff_samples, fx2_sides, 2, &o, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "perfdiff_compute: %s\n", err);
		return 1;
	}
	CHECK(r->sides[0].counter[0] == 400 && r->sides[1].counter[0] == 300);
	CHECK(r->sides[0].nr_runs == 3 && r->sides[1].nr_runs == 3);

	/* get_tag: base shares 10, 12, 11 (22/200) -> sd 1; 44/400 = 11%
	 * new shares 11 (5+6), 13, 12 -> sd 1; 36/300 = 12%; delta 1
	 * t = 1/sqrt(2/3) = 1.22 with df 4: p = 0.29 -> noise */
	x = fx_row(r, "blk_mq_get_tag");
	CHECK(x && x->cells[1].v[0].count == 36 && x->cells[0].v[0].count == 44);
	CHECK_NEAR(x->cells[0].v[0].pooled, 11.0);
	CHECK_NEAR(x->cells[1].v[0].pooled, 12.0);
	CHECK_NEAR(x->cells[0].v[0].run.sd, 1.0);
	CHECK_NEAR(x->cells[1].v[0].run.sd, 1.0);
	CHECK_NEAR(x->cells[1].v[0].delta, 1.0);
	CHECK(x->cells[1].p_value > 0.2 && x->cells[1].p_value < 0.35,
	      "p %g", x->cells[1].p_value);
	CHECK(x->cells[1].noise == 1);

	/* enter: base 20, 20, 20 -> sd 0, 20%; new 30, 32, 34 -> sd 2, 32%
	 * t = 12/sqrt(4/3) with df 2 (all the variance on the new side):
	 * p = 1 - t/sqrt(2 + t^2) = 0.0092 <= 1/3 * 0.05 -> real */
	x = fx_row(r, "__do_sys_io_uring_enter");
	CHECK_NEAR(x->cells[0].v[0].run.sd, 0.0);
	CHECK_NEAR(x->cells[1].v[0].run.sd, 2.0);
	CHECK_NEAR(x->cells[1].v[0].delta, 12.0);
	t = 12 / sqrt(4.0 / 3);
	CHECK_NEAR(x->cells[1].p_value, 1 - t / sqrt(2 + t * t));
	CHECK(x->cells[1].noise == 0);

	/* free: only in new run 3 (3/100): shares 0, 0, 3 -> sd sqrt(3);
	 * 3/300 = 1%; t = 1/sqrt(3/3) = 1 with df 2: p = 1 - 1/sqrt(3) = 0.42
	 * -> noise */
	x = fx_row(r, "__blk_mq_free_request");
	CHECK(x && !x->cells[0].present);
	CHECK_NEAR(x->cells[1].v[0].run.sd, sqrt(3.0));
	CHECK_NEAR(x->cells[1].v[0].delta, 1.0);
	CHECK_NEAR(x->cells[1].p_value, 1 - 1 / sqrt(3.0));
	CHECK(x->cells[1].noise == 1);
	perfdiff_free(r);

	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
