/* SPDX-License-Identifier: MIT */
/*
 * Synthetic profiles shared by the perfdiff-* unit tests. The expected
 * values are worked out by hand in each test from these numbers.
 */
#ifndef PERFLAB_TEST_PERFDIFF_FIXTURE_H
#define PERFLAB_TEST_PERFDIFF_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"

#include "unit/check.h"

#define K "[kernel.kallsyms]"

/*
 * One run per side.
 *   control (total 1000): get_tag 200, alloc 100, put_tag 50, loop 10
 *   tag     (total 2000): get_tag 200, alloc 300, loop 20, free 40
 */
static const struct perfdiff_sym fx1_base_syms[] = {
	{ K, "blk_mq_get_tag", { 200 } },
	{ K, "__blk_mq_alloc_request", { 100 } },
	{ K, "blk_mq_put_tag", { 50 } },
	{ "perflab-bench", "io_submit_loop", { 10 } },
};
static const struct perfdiff_sym fx1_new_syms[] = {
	{ "perflab-bench", "io_submit_loop", { 20 } },
	{ K, "__blk_mq_free_request", { 40 } },
	{ K, "__blk_mq_alloc_request", { 300 } },
	{ K, "blk_mq_get_tag", { 200 } },
};
static const struct perfdiff_run fx1_base[] = {
	{ "cpu-clock", { 1000, 0 }, 4, fx1_base_syms },
};
static const struct perfdiff_run fx1_new[] = {
	{ "cpu-clock", { 2000, 3 }, 4, fx1_new_syms },
};
static const struct perfdiff_side fx1_sides[] = {
	{ "control", 1, fx1_base },
	{ "tag", 1, fx1_new },
};

/*
 * Three runs per side.
 *   control: r1 (100) get_tag 10, enter 20; r2 (100) 12, 20; r3 (200) 22, 40
 *   tag:     r1 (100) get_tag 5+6 (listed twice), enter 30;
 *            r2 (100) 13, 32; r3 (100) 12, 34, free 3
 */
static const struct perfdiff_sym fx2_b1[] = { { K, "blk_mq_get_tag", { 10 } }, { K, "__do_sys_io_uring_enter", { 20 } } };
static const struct perfdiff_sym fx2_b2[] = { { K, "blk_mq_get_tag", { 12 } }, { K, "__do_sys_io_uring_enter", { 20 } } };
static const struct perfdiff_sym fx2_b3[] = { { K, "blk_mq_get_tag", { 22 } }, { K, "__do_sys_io_uring_enter", { 40 } } };
static const struct perfdiff_sym fx2_n1[] = { { K, "blk_mq_get_tag", { 5 } }, { K, "__do_sys_io_uring_enter", { 30 } },
					{ K, "blk_mq_get_tag", { 6 } } };
static const struct perfdiff_sym fx2_n2[] = { { K, "blk_mq_get_tag", { 13 } }, { K, "__do_sys_io_uring_enter", { 32 } } };
static const struct perfdiff_sym fx2_n3[] = { { K, "blk_mq_get_tag", { 12 } }, { K, "__do_sys_io_uring_enter", { 34 } },
					{ K, "__blk_mq_free_request", { 3 } } };
static const struct perfdiff_run fx2_base[] = {
	{ "cpu-clock", { 100, 0 }, 2, fx2_b1 },
	{ "cpu-clock", { 100, 0 }, 2, fx2_b2 },
	{ "cpu-clock", { 200, 0 }, 2, fx2_b3 },
};
static const struct perfdiff_run fx2_new[] = {
	{ "cpu-clock", { 100, 0 }, 3, fx2_n1 },
	{ "cpu-clock", { 100, 0 }, 2, fx2_n2 },
	{ "cpu-clock", { 100, 0 }, 3, fx2_n3 },
};
static const struct perfdiff_side fx2_sides[] = {
	{ "control", 3, fx2_base },
	{ "tag", 3, fx2_new },
};

#define CHECK_NEAR(a, b)                                                     \
	do {                                                                 \
		double _a = (a), _b = (b);                                   \
		if (!(fabs(_a - _b) <= 1e-9)) {                              \
			fprintf(stderr, "%s:%d: %s = %.12g, want %.12g\n",   \
				__FILE__, __LINE__, #a, _a, _b);             \
			fails++;                                             \
		}                                                            \
	} while (0)

static inline const struct perfdiff_row *fx_row(const struct perfdiff_result *r,
					  const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		if (!strcmp(r->rows[i].name, name))
			return &r->rows[i];
	return NULL;
}

static inline int fx_index(const struct perfdiff_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		if (!strcmp(r->rows[i].name, name))
			return (int)i;
	return -1;
}

#endif
