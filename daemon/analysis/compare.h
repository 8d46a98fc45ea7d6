/* SPDX-License-Identifier: MIT */
/*
 * Comparison of imported logs (t/io_uring, fio, perflab-bench output;
 * logimport.h): what POST /api/v1/compare answers, and the same for the
 * CLI and tests. Pure: logs in, JSON out.
 */
#ifndef PERFLAB_ANALYSIS_COMPARE_H
#define PERFLAB_ANALYSIS_COMPARE_H

#include <stddef.h>
#include <jansson.h>

#include "daemon/analysis/verdict.h"

#define COMPARE_MAX_LOGS 64

struct compare_log {
	const char *name;	/* variant name; NULL: use the runs' labels */
	const char *text;
	size_t len;
};

/*
 * Group the runs of @logs by variant (same name = more runs of one
 * variant; the first variant is the control) and compare every other
 * variant with it. Returns
 *   {"control", "variants":[{name, runs, format}],
 *    "comparisons":[{variant, control, verdict..., rows, text}], "text"}
 * or NULL with a message for a 400 in @err.
 */
json_t *compare_logs(const struct compare_log *logs, size_t n, int warmup,
		     const struct verdict_opts *o, char *err, size_t errlen);

#endif
