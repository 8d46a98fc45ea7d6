/* SPDX-License-Identifier: MIT */
/*
 * Profiles of an experiment over HTTP:
 *   GET /api/v1/experiments/{id}/perf-diff[?variant=NAME&kind=KIND&
 *       compute=delta|delta-abs|ratio|wdiff:W1,W2&sort=COLUMN&order=N&
 *       limit=N&format=text]
 *   GET /api/v1/experiments/{id}/flamegraph.svg[?variant=NAME]
 * The control variant is the baseline; each variant's runs are one side
 * (daemon/analysis/perfdiff.h, daemon/analysis/flamegraph.h). KIND is a
 * profile kind the lab stores (lab/profiles.h); without it, exact counts
 * when the runs have them, else the sampled profiles.
 */
#ifndef PERFLAB_API_PERFDIFF_H
#define PERFLAB_API_PERFDIFF_H

#include "daemon/http/http.h"

int api_perfdiff_get(struct http_req *req, struct http_resp *resp);
int api_flamegraph_get(struct http_req *req, struct http_resp *resp);

#endif
