/* SPDX-License-Identifier: MIT */
/*
 * Comparison of imported logs: POST /api/v1/compare, and the same as a
 * function for the CLI and tests.
 */
#ifndef PERFLAB_API_COMPARE_H
#define PERFLAB_API_COMPARE_H

#include <stddef.h>
#include <jansson.h>

#include "daemon/http/http.h"
#include "daemon/analysis/verdict.h"

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

/* POST /api/v1/compare: {"logs":[{"name","text"}...], "warmup"} or a raw
 * log body (blocks named by their label lines); ?warmup=N. */
int api_compare_post(struct http_req *req, struct http_resp *resp);

#endif
