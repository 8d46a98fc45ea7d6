/* SPDX-License-Identifier: MIT */
/*
 * lkp_table - the LKP comparison table of an experiment's runs so far,
 * one line per metric, as 0-day's reports lay it out:
 *
 *	              base                  patched
 *	---------------- --------------------------- 
 *	    234512 ±  0.1%     -1.2%     231700 ±  0.2%  iops
 *
 * the control's mean ±% sample stddev, then for every other variant the
 * change of its mean and its mean ±% stddev, then the metric's name.
 * Means of 10000 or more print rounded, others with two decimals; a side
 * with no value prints "–". Pure: numbers in, text out; the verdicts and
 * their own tables are verdict.h's.
 */
#ifndef PERFLAB_LKP_TABLE_H
#define PERFLAB_LKP_TABLE_H

#include <stddef.h>

/* A variant's runs: value[m * nruns + r] of metric m in run r, NAN where
 * the run did not report it. */
struct lkp_table_side {
	const char *name;
	const double *value;
	size_t nruns;
};

/*
 * The table of @nmetrics metrics (@metrics: names, in display order) for
 * control @ctl against @others[0..nothers); a metric the control has no
 * value of is left out. Malloc'd text, lines ended by "\n", or NULL when
 * the control has no run (or no memory).
 */
char *lkp_table_text(const char *const *metrics, size_t nmetrics,
		     const struct lkp_table_side *ctl,
		     const struct lkp_table_side *others, size_t nothers);

#endif
