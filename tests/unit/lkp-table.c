// SPDX-License-Identifier: MIT
/*
 * Description: the LKP comparison table of an experiment's runs
 * (lkp_table.c) against numbers worked out by hand: control iops runs
 * 100, 110, 120 (mean 110, sample sd 10: 9.1%) and patched 121, 132, 143
 * (mean 132, +20.0%, sd 11: 8.3%); means of 10000 or more are rounded
 * (234512.5 prints 234513); a metric the control lacks is left out, one
 * the other side lacks prints "–" with no change; the header names the
 * variants; no control run, no table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/lkp_table.h"
#include "unit/check.h"

int main(void)
{
	static const char *const metrics[] = { "iops", "ns_per_io", "sys_ns", "big" };
	/* metric-major: value[m * nruns + r] */
	static const double base[] = {
		100, 110, 120,			/* iops */
		NAN, NAN, NAN,			/* ns_per_io: not reported */
		4, 4, 4,			/* sys_ns */
		234512, 234513, 234512.5,	/* big */
	};
	static const double patched[] = {
		121, 132, 143,
		9, 9, 9,
		NAN, NAN, NAN,
		234512.5, 234512.5, 234512.5,
	};
	struct lkp_table_side ctl = { "base", base, 3 };
	struct lkp_table_side var = { "patched", patched, 3 };
	struct lkp_table_side none = { "base", base, 0 };
	char *t = lkp_table_text(metrics, 4, &ctl, &var, 1);
	const char *want =
		"              base                  patched\n"
		"----------------  --------------------------- \n"
		"     110.00 \xc2\xb1" " 9.1%   +20.0%      132.00 \xc2\xb1" " 8.3%  iops\n"
		"       4.00 \xc2\xb1" " 0.0%                           \xe2\x80\x93" "  sys_ns\n"
		"     234513 \xc2\xb1" " 0.0%    +0.0%      234513 \xc2\xb1" " 0.0%  big\n";

	CHECK(t && !strcmp(t, want), "got:\n%s\nwant:\n%s", t ? t : "(null)", want);
	CHECK(!strstr(t ? t : "", "ns_per_io"), "a metric the control lacks is shown");
	free(t);
	CHECK(lkp_table_text(metrics, 4, &none, &var, 1) == NULL,
	      "a table without control runs");
	DONE();
}
