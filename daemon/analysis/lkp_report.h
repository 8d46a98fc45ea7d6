/* SPDX-License-Identifier: MIT */
/*
 * lkp_report - the "kernel test robot" style text of a bisection culprit,
 * as 0-day/LKP mails it: a greeting line with the change, the commit, the
 * test parameters, the numbers, the bisection log, the top rows of the
 * exact perf diff and how to reproduce. Pure: a struct in, text out.
 *
 * Number formats (the unit test checks every field against these):
 *	headline delta		"%+.1f%%"	(0-day's "-12.3% regression")
 *	delta, CI bounds	"%+.2f%%"
 *	MDE			"%.2f%%"
 *	runs, ids		"%d" / "%lld"
 *	perf diff per IO	"%.2f", its delta "%+.2f", share "%.2f%%"
 * A NAN number prints as "-". Text lines are at most LKP_WIDTH columns
 * except the rows of the two tables (steps, perf diff), which are as wide
 * as their longest subject or symbol, like perf diff's.
 */
#ifndef PERFLAB_LKP_REPORT_H
#define PERFLAB_LKP_REPORT_H

#include <stddef.h>
#include <stdint.h>

#define LKP_WIDTH 80

struct lkp_kv {
	const char *key, *value;
};

/* One bisection step: the commit measured against the good end. */
struct lkp_step {
	const char *commit, *subject;
	const char *state;	/* done, skipped (did not build), queued, running */
	int runs;
	double delta_pct, ci_lo, ci_hi, mde_pct;	/* NAN: not measured */
	const char *verdict;	/* NULL: none */
	int bad;		/* 1 bad, 0 good, -1 not judged */
};

/* One symbol of the exact perf diff: instructions per IO. */
struct lkp_pd_row {
	const char *dso, *sym;
	double base, new_, delta, share;	/* share of the new side */
};

struct lkp_report {
	const char *lab_url;	/* http://lab:8080, for links; may be "" */
	int64_t bisection_id;
	int64_t experiment_id;	/* the culprit's experiment */
	const char *metric;	/* iops */
	const char *direction;	/* "regression" or "improvement" */
	/* the culprit */
	const char *commit, *subject, *author, *email;
	const char *parent;	/* its first parent, for reproducing it */
	/* what was bisected; the culprit's experiment is good vs culprit */
	const char *base, *url, *ref, *good, *bad;
	const char *label, *backend;
	double step_pct;	/* the change point's delta */
	size_t nr_params;
	const struct lkp_kv *params;	/* bench parameters */
	/* the culprit's numbers */
	int runs;
	double delta_pct, ci_lo, ci_hi, mde_pct;
	const char *verdict;
	size_t nr_steps;
	const struct lkp_step *steps;
	size_t nr_rows;
	const struct lkp_pd_row *rows;	/* sorted by the caller, top first */
	const char *in_reply_to;	/* stored patch's Message-ID or NULL */
};

/* The report (malloc'd, "\n" line ends, NUL-terminated) or NULL. */
char *lkp_report_text(const struct lkp_report *r);

#endif /* PERFLAB_LKP_REPORT_H */
