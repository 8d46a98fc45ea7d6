/* SPDX-License-Identifier: MIT */
/*
 * Tracked baselines and performance series.
 *
 *   POST /api/v1/baselines      {name, base, label, backend, bench, runs,
 *                                schedule_seconds}  (admin)
 *   GET  /api/v1/baselines
 *   GET  /api/v1/series         list; ?id=N or ?name=S[&metric=M]: points
 *                               and change points
 *   POST /api/v1/series/import  CSV "time,value[,label]" (?name=&metric=)
 *                               or JSON {name, metric, points: [{time,
 *                               value, label|commit}]}
 *
 * The series themselves live in the lab (daemon/lab/series.h).
 */
#ifndef PERFLAB_API_SERIES_H
#define PERFLAB_API_SERIES_H

#include "daemon/http/http.h"

int api_baselines_post(struct http_req *req, struct http_resp *resp);
int api_baselines_list(struct http_req *req, struct http_resp *resp);
int api_series_get(struct http_req *req, struct http_resp *resp);
int api_series_import(struct http_req *req, struct http_resp *resp);

#endif
