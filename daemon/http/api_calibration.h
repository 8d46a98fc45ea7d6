/* SPDX-License-Identifier: MIT */
/*
 * Calibration experiments, documented in docs/api.md:
 *
 *   POST /api/v1/calibrations  {"label" | "host", "kind": "aa" | "ladder",
 *        "runs", "max_runs", "steps": [N...], "patch": TEXT | ID,
 *        "bench": {...}, "backend"}
 *     creates a kind 'calibration' experiment: A/A (two identical variants
 *     of the base kernel, same command line), or the dose-response ladder
 *     (one kernel with the perflab_canary patch, variants canary-N with
 *     perflab_canary=N on the command line, N = 0 first as the control).
 *     The bench defaults measure exact ns/IO (ios 100000, 2 s cap, 1 s
 *     warm-up, no profile). When it is done, analysis.c stores the host's
 *     noise (host_calibration) and, for a ladder, the fit (ladder_fits).
 *
 *   GET /api/v1/calibrations[?label=L&host=H&limit=N]
 *     newest first: each calibration's state, A/A noise and MDE, and for
 *     a ladder the fit (cost per canary unit, R^2, slope SE, MDE in % and
 *     in units) and every step's delta, 95 % CI and verdict against N = 0.
 */
#ifndef PERFLAB_API_CALIBRATION_H
#define PERFLAB_API_CALIBRATION_H

#include "daemon/http/http.h"

int api_calibrations_post(struct http_req *req, struct http_resp *resp);
int api_calibrations_list(struct http_req *req, struct http_resp *resp);

#endif
