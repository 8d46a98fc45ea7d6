/* SPDX-License-Identifier: MIT */
/*
 * Profiles of an experiment over HTTP:
 *   GET /api/v1/experiments/{id}/perf-diff[?variant=NAME&kind=samples|
 *       instructions&compute=delta|delta-abs|ratio|wdiff:W1,W2&sort=COLUMN&
 *       order=N&limit=N&format=text]
 *   GET /api/v1/experiments/{id}/flamegraph.svg[?variant=NAME]
 * The control variant is the baseline; its runs' profiles are summed, as
 * are each other variant's (see daemon/perfdiff.h, daemon/flamegraph.h).
 * Runs with exact profiles get the exact diff instead unless kind=samples
 * (daemon/api_perfdiff_exact.h).
 */
#ifndef PERFLAB_API_PERFDIFF_H
#define PERFLAB_API_PERFDIFF_H

#include <jansson.h>

#include "daemon/http/http.h"
#include "daemon/analysis/perfdiff.h"

/* JSON form of a perf diff, as served by the perf-diff endpoint. */
json_t *perfdiff_json(const struct pd_result *r);

int api_perfdiff_get(struct http_req *req, struct http_resp *resp);
int api_flamegraph_get(struct http_req *req, struct http_resp *resp);

#endif
