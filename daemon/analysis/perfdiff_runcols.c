// SPDX-License-Identifier: MIT
/*
 * perfdiff_runcols: getters over the headline figure's run statistics,
 * shared by the exact kinds; see perfdiff_runcols.h.
 */
#include <math.h>

#include "daemon/analysis/perfdiff_runcols.h"

#define CELL(side) (&row->cells[(side)])

static void set_num(struct perfdiff_val *v, double x)
{
	v->type = PERFDIFF_NUM;
	v->num = x;
}

static double spread(const struct perfdiff_cell *c)
{
	return c->v[0].run.max - c->v[0].run.min;
}

void perfdiff_run_spread_pair(const struct perfdiff_result *r,
			      const struct perfdiff_row *row, size_t s,
			      struct perfdiff_val *v)
{
	const struct perfdiff_cell *b = CELL(0), *c = CELL(s);

	(void)r;
	if (b->unstable < 0 && c->unstable < 0)
		return;
	set_num(v, fmax(spread(b), spread(c)));
	v->mark = b->unstable == 1 || c->unstable == 1 ? '!' : ' ';
}

void perfdiff_run_pair_unstable(const struct perfdiff_result *r,
				const struct perfdiff_row *row, size_t s,
				struct perfdiff_val *v)
{
	const struct perfdiff_cell *b = CELL(0), *c = CELL(s);
	int u = b->unstable == 1 || c->unstable == 1 ? 1 :
		b->unstable < 0 && c->unstable < 0 ? -1 : 0;

	(void)r;
	if (u >= 0) {
		v->type = PERFDIFF_BOOL;
		v->i = u;
	}
}

void perfdiff_run_ratio(const struct perfdiff_result *r,
			const struct perfdiff_row *row, size_t s,
			struct perfdiff_val *v)
{
	double b = CELL(0)->v[0].run.mean;

	(void)r;
	set_num(v, b > 0 ? CELL(s)->v[0].run.mean / b : INFINITY);
}

void perfdiff_run_max_spread(const struct perfdiff_result *r,
			     const struct perfdiff_row *row, size_t s,
			     struct perfdiff_val *v)
{
	(void)r;
	set_num(v, fmax(spread(CELL(0)), spread(CELL(s))));
}

void perfdiff_run_both(const struct perfdiff_result *r,
		       const struct perfdiff_row *row, size_t s,
		       struct perfdiff_val *v)
{
	(void)r;
	set_num(v, CELL(0)->v[0].run.mean + CELL(s)->v[0].run.mean);
}

void perfdiff_run_delta_abs(const struct perfdiff_result *r,
			    const struct perfdiff_row *row, size_t s,
			    struct perfdiff_val *v)
{
	(void)r;
	set_num(v, fabs(CELL(s)->v[0].delta));
}
