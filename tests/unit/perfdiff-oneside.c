// SPDX-License-Identifier: MIT
/*
 * Description: symbols present on one side only are included: new-only
 * rows have no baseline, delta = new percent, ratio/wdiff undefined (N/A);
 * baseline-only rows have no pair (blank delta, like perf) and sort last;
 * JSON carries null for the undefined values.
 */
#include <stdlib.h>

#include "unit/perfdiff-fixture.h"

int main(void)
{
	struct perfdiff_opts o;
	struct perfdiff_result *r;
	const struct perfdiff_row *x;
	json_t *j, *row;
	char err[128];
	size_t i;

	perfdiff_default_opts(&o);
	perfdiff_parse_compute("ratio", &o);
	r = perfdiff_compute(&perfdiff_samples, fx1_sides, 2, &o, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "perfdiff_compute: %s\n", err);
		return 1;
	}
	/* new only: __blk_mq_free_request 40/2000 = 2% */
	x = fx_row(r, "__blk_mq_free_request");
	CHECK(x && !x->cells[0].present && x->cells[1].has_pair);
	CHECK(x->cells[0].v[0].count == 0 && x->cells[1].v[0].count == 40);
	CHECK_NEAR(x->cells[1].v[0].delta, 2.0);
	/* baseline only: blk_mq_put_tag 50/1000 = 5% */
	x = fx_row(r, "blk_mq_put_tag");
	CHECK(x && x->cells[0].present && !x->cells[1].has_pair);
	CHECK_NEAR(x->cells[0].v[0].pooled, 5.0);
	/* ratio sort: the three paired rows, then the two without a ratio */
	CHECK(fx_index(r, "__blk_mq_free_request") >= 3);
	CHECK(fx_index(r, "blk_mq_put_tag") >= 3);

	j = perfdiff_json(r);
	CHECK(j != NULL);
	for (i = 0; j && i < json_array_size(json_object_get(j, "rows")); i++) {
		const char *name;

		row = json_array_get(json_object_get(j, "rows"), i);
		name = json_string_value(json_object_get(row, "symbol"));
		if (!strcmp(name, "__blk_mq_free_request")) {
			CHECK(json_is_null(json_object_get(row, "baseline")));
			CHECK(json_is_null(json_object_get(row, "ratio")));
			CHECK(json_is_null(json_object_get(row, "wdiff")));
			CHECK_NEAR(json_real_value(json_object_get(row, "delta")), 2.0);
		} else if (!strcmp(name, "blk_mq_put_tag")) {
			CHECK_NEAR(json_real_value(json_object_get(row, "baseline")), 5.0);
			CHECK(json_is_null(json_object_get(row, "delta")));
			CHECK(json_integer_value(json_object_get(row, "new_samples")) == 0);
		} else if (!strcmp(name, "__blk_mq_alloc_request")) {
			CHECK_NEAR(json_real_value(json_object_get(row, "ratio")), 3.0);
		}
	}
	CHECK(j && json_integer_value(json_object_get(j, "symbols")) == 5);
	json_decref(j);
	perfdiff_free(r);

	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
