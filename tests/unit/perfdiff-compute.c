// SPDX-License-Identifier: MIT
/*
 * Description: perf diff formulas on synthetic one-run profiles: baseline
 * percent, delta (new% - base%), ratio (new/base), wdiff:W1,W2
 * (new*W2 - base*W1), worked out by hand from tests/unit/perfdiff-fixture.h.
 */
#include <stdlib.h>

#include "unit/perfdiff-fixture.h"

static struct perfdiff_result *run(const char *compute)
{
	struct perfdiff_opts o;
	char err[128];
	struct perfdiff_result *r;

	perfdiff_default_opts(&o);
	if (perfdiff_parse_compute(compute, &o)) {
		fprintf(stderr, "cannot parse %s\n", compute);
		exit(1);
	}
	r = perfdiff_compute(&perfdiff_samples, fx1_sides, 2, &o, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "perfdiff_compute: %s\n", err);
		exit(1);
	}
	return r;
}

int main(void)
{
	struct perfdiff_result *r = run("delta");
	const struct perfdiff_row *x;

	CHECK(r->nr_rows == 5 && r->nr_symbols == 5);
	CHECK(r->sides[0].counter[0] == 1000 && r->sides[1].counter[0] == 2000);
	CHECK(r->sides[1].counter[1] == 3);

	/* get_tag: 200/1000 = 20%, 200/2000 = 10% */
	x = fx_row(r, "blk_mq_get_tag");
	CHECK(x && x->cells[0].present && x->cells[1].has_pair);
	CHECK_NEAR(x->cells[0].v[0].pooled, 20.0);
	CHECK_NEAR(x->cells[1].v[0].pooled, 10.0);
	CHECK_NEAR(x->cells[1].v[0].delta, -10.0);
	CHECK_NEAR(x->cells[1].ratio, 1.0);
	CHECK(x->cells[1].wdiff == 0);		/* 200*1 - 200*1 */
	/* alloc: 10% -> 15% */
	x = fx_row(r, "__blk_mq_alloc_request");
	CHECK_NEAR(x->cells[0].v[0].pooled, 10.0);
	CHECK_NEAR(x->cells[1].v[0].delta, 5.0);
	CHECK_NEAR(x->cells[1].ratio, 3.0);
	CHECK(x->cells[1].wdiff == 200);	/* 300 - 100 */
	/* loop (user dso): 1% -> 1% */
	x = fx_row(r, "io_submit_loop");
	CHECK(x && !strcmp(x->dso, "perflab-bench"));
	CHECK_NEAR(x->cells[1].v[0].delta, 0.0);
	CHECK_NEAR(x->cells[1].ratio, 2.0);
	/* no stddev with one run, noise unknown */
	CHECK(isnan(x->cells[0].v[0].run.sd) && x->cells[1].noise == -1);
	perfdiff_free(r);

	/* wdiff:3,2 = new*2 - base*3 */
	r = run("wdiff:3,2");
	CHECK(r->opts.w1 == 3 && r->opts.w2 == 2);
	CHECK(fx_row(r, "blk_mq_get_tag")->cells[1].wdiff == -200);
	CHECK(fx_row(r, "__blk_mq_alloc_request")->cells[1].wdiff == 300);
	CHECK(fx_row(r, "io_submit_loop")->cells[1].wdiff == 10);
	/* default sort for wdiff: by wdiff, rows without one last */
	CHECK(fx_index(r, "__blk_mq_alloc_request") == 0);
	CHECK(fx_index(r, "io_submit_loop") == 1);
	CHECK(fx_index(r, "blk_mq_get_tag") == 2);
	perfdiff_free(r);

	r = run("ratio");
	CHECK(fx_index(r, "__blk_mq_alloc_request") == 0);	/* 3.0 */
	CHECK(fx_index(r, "io_submit_loop") == 1);		/* 2.0 */
	CHECK(fx_index(r, "blk_mq_get_tag") == 2);		/* 1.0 */
	perfdiff_free(r);

	/* option parsing */
	{
		struct perfdiff_opts o;

		perfdiff_default_opts(&o);
		CHECK(perfdiff_parse_compute("wdiff:1", &o) == -1);
		CHECK(perfdiff_parse_compute("wdiff:0,2", &o) == -1);
		CHECK(perfdiff_parse_compute("wdiff:1,2x", &o) == -1);
		CHECK(perfdiff_parse_compute("cycles", &o) == -1);
		CHECK(perfdiff_parse_compute("delta-abs", &o) == 0 &&
		      o.compute == PERFDIFF_DELTA_ABS);
	}
	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
