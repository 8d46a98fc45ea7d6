// SPDX-License-Identifier: MIT
/*
 * Description: the exact perf diff (instructions per IO): per-run values
 * averaged over a side with 0 in runs without the symbol (mean, min, max,
 * sd worked out by hand), duplicates within a run summed, share of the
 * side's total, delta, the runs-disagree flag and its tolerance, one run
 * (no spread), three sides and the sort side, and refused input (no IOs,
 * symbols above the total, mixed sources, a side without runs).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"
#include "unit/check.h"

#define K "[kernel.kallsyms]"
#define NEAR(a, b)                                                  \
	CHECK(fabs((a) - (b)) < 1e-9, "%s = %.12g, want %.12g", #a, \
	      (double)(a), (double)(b))

/* base: 2 runs of 100 IOs; put_tag 10/IO in run 0 only; get_tag 5/IO
 * (twice 250 in run 0); total 100/IO */
static const struct perfdiff_sym b0[] = { { K, "put_tag", { 1000 } },
					  { K, "get_tag", { 250 } },
					  { K, "get_tag", { 250 } } };
static const struct perfdiff_sym b1[] = { { K, "get_tag", { 500 } } };
/* new: 2 runs, 100 and 200 IOs: get_tag 7/IO and 7/IO; new_fn 1/IO,
 * 1.0002/IO (within 0.01 + 0.01 %); total 110/IO */
static const struct perfdiff_sym n0[] = { { K, "get_tag", { 700 } },
					  { K, "new_fn", { 100 } } };
static const struct perfdiff_sym n1[] = { { K, "get_tag", { 1400 } },
					  { K, "new_fn", { 200 } } };
static const struct perfdiff_run base[] = {
	{ "qemu-tcg-plugin", { 100, 10000, 9000, 1000, 0 }, 3, b0 },
	{ "qemu-tcg-plugin", { 100, 10000, 9000, 1000, 0 }, 1, b1 },
};
static const struct perfdiff_run new[] = {
	{ "qemu-tcg-plugin", { 100, 11000, 10000, 1000, 10 }, 2, n0 },
	{ "qemu-tcg-plugin", { 200, 22000, 20000, 2000, 20 }, 2, n1 },
};

static const struct perfdiff_row *row(const struct perfdiff_result *r,
				      const char *n)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		if (!strcmp(r->rows[i].name, n))
			return &r->rows[i];
	return NULL;
}

static int refused(const struct perfdiff_run *b, size_t nb, const char *want)
{
	struct perfdiff_side s[2] = { { "base", nb, b }, { "new", 2, new } };
	struct perfdiff_opts o;
	char err[256] = "";
	struct perfdiff_result *r;

	perfdiff_default_opts(&o);
	r = perfdiff_compute(&perfdiff_instructions, s, 2, &o, err,
			     sizeof(err));
	perfdiff_free(r);
	return !r && strstr(err, want);
}

int main(void)
{
	struct perfdiff_side s[3] = { { "base", 2, base },
				      { "new", 2, new },
				      { "one", 1, new } };
	const struct perfdiff_row *x;
	struct perfdiff_result *r;
	struct perfdiff_opts o;
	char err[256], *txt;

	perfdiff_default_opts(&o);
	r = perfdiff_compute(&perfdiff_instructions, s, 2, &o, err,
			     sizeof(err));
	CHECK(r, "%s", err);
	if (!r)
		return 1;
	CHECK(r->nr_rows == 3 && r->sides[1].counter[0] == 300);
	NEAR(r->sides[0].per[1].mean, 100);
	NEAR(r->sides[1].per[1].mean, 110);
	NEAR(r->sides[1].per[4].mean, 0.1);
	/* order by |delta|: put_tag -5, get_tag +2, new_fn +1.0 */
	CHECK(!strcmp(r->rows[0].name, "put_tag") &&
	      !strcmp(r->rows[1].name, "get_tag") &&
	      !strcmp(r->rows[2].name, "new_fn"));
	x = row(r, "put_tag"); /* 10, 0: mean 5, sd sqrt(50) */
	NEAR(x->cells[0].v[0].run.mean, 5);
	NEAR(x->cells[0].v[0].run.min, 0);
	NEAR(x->cells[0].v[0].run.max, 10);
	NEAR(x->cells[0].v[0].run.sd, sqrt(50));
	NEAR(x->cells[1].v[0].delta, -5);
	CHECK(x->cells[0].unstable == 1 && x->cells[1].unstable == 0);
	NEAR(x->cells[1].v[0].run.max, 0);
	x = row(r, "get_tag"); /* duplicates summed: 5 and 5 */
	NEAR(x->cells[0].v[0].run.mean, 5);
	NEAR(x->cells[0].v[0].run.sd, 0);
	NEAR(x->cells[1].v[0].delta, 2);
	NEAR(x->cells[1].v[0].share, 7 * 100.0 / 110);
	NEAR(x->cells[0].v[0].share, 5);
	x = row(r, "new_fn");
	NEAR(x->cells[1].v[0].run.mean, 1);
	CHECK(x->cells[1].unstable == 0 && r->sides[0].nr_unstable == 1);
	txt = perfdiff_text(r, NULL);
	CHECK(txt && strstr(txt,
			    "     5.000       0.000      -5.000    0.00%    10.000!  [kernel.kallsyms]  [k] put_tag\n"),
	      "%s", txt);
	free(txt);
	perfdiff_free(r);

	/* a tighter tolerance flags new_fn's 1 vs 1 (exact here): still 0 */
	o.tol_abs = 0;
	o.tol_rel = 0;
	r = perfdiff_compute(&perfdiff_instructions, s, 2, &o, err,
			     sizeof(err));
	CHECK(r && row(r, "new_fn")->cells[1].unstable == 0);
	perfdiff_free(r);

	/* three sides, sorted by the third (one run: no spread, flag -1) */
	perfdiff_default_opts(&o);
	o.sort_idx = 2;
	r = perfdiff_compute(&perfdiff_instructions, s, 3, &o, err,
			     sizeof(err));
	CHECK(r, "%s", err);
	if (r) {
		x = row(r, "get_tag");
		CHECK(x->cells[2].unstable == -1 &&
		      isnan(x->cells[2].v[0].run.sd));
		NEAR(x->cells[2].v[0].delta, 2);
		txt = perfdiff_text(r, NULL);
		CHECK(txt && strstr(txt, "New/IO/2") &&
			      strstr(txt, "Delta/IO/1"),
		      "%s", txt);
		free(txt);
	}
	perfdiff_free(r);

	/* refused input */
	{
		struct perfdiff_run bad[2] = { base[0], base[1] };

		bad[1].counter[0] = 0;
		CHECK(refused(bad, 2, "no IOs"));
		bad[1] = base[1];
		bad[1].counter[1] = 499;
		CHECK(refused(bad, 2, "exceed the total"));
		bad[1] = base[1];
		bad[1].counter[4] = 9501;
		CHECK(refused(bad, 2, "exceed the total"));
		bad[1] = base[1];
		bad[1].event = "other";
		CHECK(refused(bad, 2, "source"));
		CHECK(refused(base, 0, "no runs"));
	}
	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
