// SPDX-License-Identifier: MIT
/*
 * Description: perf diff rows sort by any column (baseline, delta, symbol,
 * ...; rows without a value last, descending for numbers), the limit keeps
 * the top rows, and more than two sides give perf's N-way columns
 * (Baseline/0, Delta/1, Delta/2).
 */
#include <stdlib.h>

#include "unit/perfdiff-fixture.h"

static struct perfdiff_result *run(const struct perfdiff_side *s, size_t n,
			     const char *sort, size_t limit)
{
	struct perfdiff_opts o;
	char err[128];
	struct perfdiff_result *r;

	perfdiff_default_opts(&o);
	if (perfdiff_parse_sort(sort, &o.sort)) {
		fprintf(stderr, "bad sort %s\n", sort);
		exit(1);
	}
	o.limit = limit;
	r = perfdiff_compute(&perfdiff_samples, s, n, &o, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "perfdiff_compute: %s\n", err);
		exit(1);
	}
	return r;
}

static void order(const struct perfdiff_result *r, const char *const *want, int n)
{
	int i;

	CHECK(r->nr_rows == (size_t)n);
	for (i = 0; i < n && (size_t)i < r->nr_rows; i++) {
		if (strcmp(r->rows[i].name, want[i])) {
			fprintf(stderr, "row %d: %s, want %s\n", i,
				r->rows[i].name, want[i]);
			fails++;
		}
	}
}

int main(void)
{
	static const char *const by_base[] = { "blk_mq_get_tag",
		"__blk_mq_alloc_request", "blk_mq_put_tag", "io_submit_loop",
		"__blk_mq_free_request" };
	static const char *const by_delta[] = { "__blk_mq_alloc_request",
		"__blk_mq_free_request", "io_submit_loop", "blk_mq_get_tag",
		"blk_mq_put_tag" };
	static const char *const by_abs[] = { "blk_mq_get_tag",
		"__blk_mq_alloc_request" };
	static const char *const by_name[] = { "__blk_mq_alloc_request",
		"__blk_mq_free_request", "blk_mq_get_tag", "blk_mq_put_tag",
		"io_submit_loop" };
	struct perfdiff_side three[3] = { fx1_sides[0], fx1_sides[1], fx1_sides[0] };
	enum perfdiff_sort s;
	struct perfdiff_result *r;
	char *text;

	r = run(fx1_sides, 2, "baseline", 0);
	order(r, by_base, 5);
	perfdiff_free(r);
	r = run(fx1_sides, 2, "delta", 0);
	order(r, by_delta, 5);
	perfdiff_free(r);
	r = run(fx1_sides, 2, "default", 2);
	order(r, by_abs, 2);
	CHECK(r->nr_symbols == 5);
	perfdiff_free(r);
	r = run(fx1_sides, 2, "symbol", 0);
	order(r, by_name, 5);
	perfdiff_free(r);
	CHECK(perfdiff_parse_sort("nope", &s) == -1);

	/* control vs tag vs control again: side 2 deltas are all 0 */
	r = run(three, 3, "default", 0);
	CHECK(r->nr_sides == 3);
	CHECK_NEAR(fx_row(r, "blk_mq_get_tag")->cells[2].v[0].delta, 0.0);
	CHECK_NEAR(fx_row(r, "blk_mq_get_tag")->cells[1].v[0].delta, -10.0);
	CHECK(!fx_row(r, "__blk_mq_free_request")->cells[2].has_pair);
	text = perfdiff_text(r, NULL);
	CHECK(text && strstr(text, "# Baseline/0  Delta/1  Delta/2  Shared Object"));
	CHECK(text && strstr(text, "#  [2] control: 1 run, 1000 samples, 0 lost\n"));
	free(text);
	perfdiff_free(r);

	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
