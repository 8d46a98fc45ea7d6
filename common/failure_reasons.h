/* SPDX-License-Identifier: MIT */
/*
 * Why a job or a build task failed: one table for every place that names a
 * failure reason. The daemon checks a runner's POST /api/v1/jobs/{id}/fail
 * and /builds/{id}/fail against it, lab/jobs.c takes from it whether a job
 * is retried or its variant fails, lab/bisect_run.c whether a failed step
 * is skipped (like `git bisect skip`) or fails the bisection, and the
 * daemon serves it (GET /api/v1/failure-reasons) to the web UI and the
 * CLI. docs/api.md lists the rows (tests/api/failure-reasons.sh checks
 * that it matches). A new reason is one row here.
 */
#ifndef PERFLAB_FAILURE_REASONS_H
#define PERFLAB_FAILURE_REASONS_H

#include <stdbool.h>
#include <stddef.h>

/* Who may end a job or task with the reason (a bit set). */
enum failure_reporter {
	FAILURE_BY_RUNNER = 1,	/* POST /api/v1/jobs/{id}/fail */
	FAILURE_BY_BUILDER = 2,	/* POST /api/v1/builds/{id}/fail */
	FAILURE_BY_DAEMON = 4,	/* the daemon itself (a LAVA lab's outcome) */
};

/* What a bisection does with a step whose variant failed with it. */
enum failure_bisect {
	FAILURE_BISECT_FAIL = 0,  /* the bisection fails, naming the reason */
	FAILURE_BISECT_SKIP,	  /* the commit is skipped (git bisect skip) */
};

struct failure_reason {
	const char *name;	/* jobs/variants.failure_reason, the API's "reason" */
	const char *meaning;	/* one sentence for people */
	const char *advice;	/* what the submitter does about it */
	bool retryable;		/* the job is queued again, up to the attempt
				 * cap; else its variant fails at once */
	unsigned reporters;	/* enum failure_reporter bits */
	enum failure_bisect bisect;
};

extern const struct failure_reason failure_reasons[];
extern const size_t failure_reasons_count;

/* The row named @name, or NULL (NULL @name too). */
const struct failure_reason *failure_reason_find(const char *name);

/* The row named @name if @reporter may report it, else NULL. */
const struct failure_reason *failure_reason_for(const char *name,
						enum failure_reporter reporter);

/*
 * "a, b or c": the names @reporter may report, for error messages, into
 * @buf. Returns @buf.
 */
const char *failure_reason_names(enum failure_reporter reporter, char *buf,
				 size_t len);

/* "runner", "builder", "daemon". */
const char *failure_reporter_name(enum failure_reporter r);

#endif
