/* SPDX-License-Identifier: MIT */
/*
 * The exact form of GET /api/v1/experiments/{id}/perf-diff:
 * when the control and the compared variant(s) have runs with exact
 * profiles (exact_profiles), the endpoint answers with instructions per
 * IO per symbol ("kind": "instructions", see daemon/perfdiff_exact.h)
 * unless ?kind=samples asks for the sampled diff.
 */
#ifndef PERFLAB_API_PERFDIFF_EXACT_H
#define PERFLAB_API_PERFDIFF_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/http/http.h"
#include "daemon/analysis/perfdiff.h"
#include "daemon/analysis/perfdiff_exact.h"
#include "daemon/lab/exact_load.h"

json_t *perfdiff_exact_json(const struct pdx_result *r);

/*
 * Answer with the exact diff of @v[0] (the control) and @v[pick], or every
 * variant with exact profiles when @pick is 0. Returns 0 without replying
 * when there is nothing exact to diff and @required is false (the caller
 * serves the sampled diff), 1 when replied, -1 on a server error.
 */
int api_perfdiff_exact(struct http_req *req, struct http_resp *resp,
		       const struct pdx_variant *v, size_t nv, size_t pick,
		       const struct pd_opts *o, bool text, bool required);

#endif
