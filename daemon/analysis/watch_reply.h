/* SPDX-License-Identifier: MIT */
/*
 * watch_reply - the body of the lab's reply in a posted series' thread,
 * like the seed's answer and LKP's report: what was tested on which
 * base, the verdict of each prefix of the series (patches 1..k against
 * the base) with its CI and MDE, the LKP %change table, how v2
 * compares with v1, the link, and the Reported-by/Closes lines to add
 * when a regression is fixed. Pure: a struct in, text out.
 *
 * Formats: delta and CI "%+.2f%%", MDE "%.2f%%", NAN prints "-".
 */
#ifndef PERFLAB_WATCH_REPLY_H
#define PERFLAB_WATCH_REPLY_H

#include <stdint.h>

/* One variant against the base: patches 1..npatches applied. */
struct watch_reply_row {
	int npatches;
	const char *verdict;	/* regression, improvement, no change, inconclusive */
	double delta_pct, ci_lo, ci_hi, mde_pct;
	int runs;
};

#define WATCH_REPLY_MAX_ROWS 8

struct watch_reply {
	const char *author_name;	/* "Ann Author", may be "" */
	const char *subject;		/* the series' subject */
	int version, npatches;
	const char *base, *commit;	/* "g", 40 hex */
	const char *base_how;		/* "base-commit" or "ref-head" */
	const char *ref;		/* the watched ref */
	const char *metric;		/* "iops" */
	/* per prefix of the series, shortest first; the last is the whole
	 * series (one row when it was measured whole) */
	const struct watch_reply_row *rows;
	int nrows;
	const char *lkp;		/* the LKP table text, or NULL */
	/* the version before, when it was measured */
	int prev_version;		/* 0: none */
	const char *prev_verdict;
	double prev_delta_pct;
	const char *lab_url;		/* "http://lab:8080" or "" */
	int64_t experiment_id;
	const char *from;		/* the lab's address (Reported-by) */
};

/* The body (malloc'd, "\n" line ends) or NULL. */
char *watch_reply_text(const struct watch_reply *r);

/* The short note for a series that does not apply on @base_used
 * ("g@sha"), with git's @reason (malloc'd) or NULL. */
char *watch_reply_note_text(const char *author_name, const char *subject,
			    const char *base_used, const char *reason);

#endif /* PERFLAB_WATCH_REPLY_H */
